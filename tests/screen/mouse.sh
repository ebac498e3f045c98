# mouse.sh — the mouse on the screen: delaytop asks the terminal for mouse reports; a press on a
# column's title sorts by it and a second one reverses the order, a press on a row selects it, the
# wheel moves the selection, and M tells the terminal to stop reporting (tmux's pane flags show
# it) and to start again. The presses are the terminal's own reports (X10 encoding), typed into
# the pane.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats

# report CODE X Y: the terminal's report of a mouse event CODE at column X, line Y (from 0);
# press X Y: a press of the first button and its release, as a terminal reports a click;
# wheel_down X Y: the wheel turned towards the user.
report() { tm send-keys -t dt -l "$(printf '\033[M%b%b%b' "\\x$(printf %x $((32 + $1)))" "\\x$(printf %x $((33 + $2)))" "\\x$(printf %x $((33 + $3)))")"; }
press() {
	report 0 "$1" "$2"
	report 3 "$1" "$2"
}
wheel_down() { report 65 "$1" "$2"; }

# title_y: the line of the table's titles (from 0); col_x TITLE: the column where TITLE starts.
title_y() { printf '%s\n' "$SCREEN" | grep -n -m1 -E '^ *[▼▲]?PID[▼▲]? ' | cut -d: -f1 | awk '{ print $1 - 1 }'; }
col_x() { ascii_title | awk -v t="$1" '{ i = index($0, " " t " "); print i ? i : -1 }'; }

start_screen -- -d 0.5
wait_for_screen '^ +PID .*TOTAL' 10
screen_ok $? "the screen comes up"
Y=$(title_y)
X=$(col_x IO)
[ -n "$Y" ] && [ "$X" -gt 0 ]
screen_ok $? "the IO title is on the screen" "title line $Y, IO at $X"
tm display-message -p -t dt '#{mouse_standard_flag}#{mouse_button_flag}#{mouse_any_flag}' | grep -q 1
tap_ok $? "the screen asked the terminal for mouse reports" \
	"tmux: $(tm display-message -p -t dt '#{mouse_standard_flag} #{mouse_button_flag} #{mouse_any_flag}')"

press "$X" "$Y"
io_marked() { [ "$(marked_title)" = IO ]; }
wait_for_screen_fn io_marked 3
screen_ok $? "a press on the IO title sorts by IO" "marked: $(marked_title)"
header | grep -q 'sort io'
screen_ok $? "the header says sort io" "header: $(header)"
press "$X" "$Y"
reversed() { title_line | grep -q '▲IO'; }
wait_for_screen_fn reversed 3
screen_ok $? "a second press on IO reverses the order (the marker turns)" "title: $(title_line)"

# the rows stand still from here (z pauses the readings; sorting still works)
keys z
wait_for_screen 'paused' 3
capture
# the third row of the table
third=$(table_rows | sed -n 3p | awk '{ print $1 }')
press 3 $((Y + 3))
third_selected() { [ "$(selected_id)" = "$third" ]; }
wait_for_screen_fn third_selected 3
screen_ok $? "a press on the third row ($third) selects it" "selected: $(selected_id)"
sixth=$(table_rows | sed -n 6p | awk '{ print $1 }')
wheel_down 3 $((Y + 3))
sixth_selected() { [ "$(selected_id)" = "$sixth" ]; }
wait_for_screen_fn sixth_selected 3
screen_ok $? "the wheel moves the selection three rows down ($sixth)" "selected: $(selected_id)"

# pane_mouse: whether the program in the pane asked the terminal (tmux) for mouse reports
pane_mouse() { tm display-message -p -t dt '#{mouse_standard_flag}#{mouse_button_flag}#{mouse_any_flag}' | grep -q 1; }
keys M
wait_for_screen 'mouse off' 3
screen_ok $? "M turns the mouse off and says so"
mouse_off() { ! pane_mouse; }
wait_until 3 mouse_off
tap_ok $? "and tells the terminal to stop reporting the mouse" \
	"tmux: $(tm display-message -p -t dt '#{mouse_standard_flag} #{mouse_button_flag} #{mouse_any_flag}')"
keys M
wait_for_screen 'mouse on' 3
wait_until 3 pane_mouse
tap_ok $? "M again asks for the reports again" \
	"tmux: $(tm display-message -p -t dt '#{mouse_standard_flag} #{mouse_button_flag} #{mouse_any_flag}')"
X=$(col_x PID)
press "$X" "$Y"
pid_marked() { [ "$(marked_title)" = PID ]; }
wait_for_screen_fn pid_marked 3
screen_ok $? "and a press on PID sorts by PID" "marked: $(marked_title)"

quit_ok "q ends the screen with status 0"

done_testing
