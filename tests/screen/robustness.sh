# robustness.sh — the screen survives what terminals and tasks do to it: a window shrunk to 20x5
# and grown back, a burst of resizes, a UTF-8 command name, a burst of Esc, a selected task that
# exits, no terminal or an unknown terminal type; and a short screen opens at the top of the sort.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats
require_cpus 2
lock_global
diag "got the global lock after ${SECONDS} s"
LOCKED_AT=$SECONDS

ESC=$'\e'

alive() {
	kill -0 "$SCREEN_PID" 2>/dev/null && ! pid_gone "$SCREEN_PID" && [ -z "$(screen_status)" ]
}

several_rows() { [ "$(row_ids | grep -c .)" -gt 1 ]; }

# widest: the widest line of the last capture, in columns.
widest() {
	printf '%s\n' "$SCREEN" | LC_ALL=C.UTF-8 wc -L
}

resize() {
	tm resize-window -t dt -x "$1" -y "$2"
}

start_screen -- -d 0.5
wait_for_screen '^ +PID .*TOTAL' 5
screen_ok $? "the screen comes up at 120x40"

# ---- Esc pressed 20 times does not make delaytop spin ----
# (first, so that the baseline is measured before any Esc)
t0=$(proc_cpu_ticks "$SCREEN_PID")
sleep 2
t1=$(proc_cpu_ticks "$SCREEN_PID")
base=$((t1 - t0))
keys Escape Escape Escape Escape Escape Escape Escape Escape Escape Escape \
	Escape Escape Escape Escape Escape Escape Escape Escape Escape Escape
sleep 0.3
t0=$(proc_cpu_ticks "$SCREEN_PID")
sleep 2
t1=$(proc_cpu_ticks "$SCREEN_PID")
used=$((t1 - t0))
capture
alive && [ "$used" -le $((2 * base + 30)) ] && [ "$used" -le 60 ]
screen_ok $? "after 20 Esc delaytop uses $used clock ticks in 2 s (before any Esc: $base; at most 60), no busy loop"
keys m
wait_for_screen '  ms/wait  ' 3
screen_ok $? "after the Esc burst keys still work (m shows ms/wait)"
keys m m m
wait_for_screen '  % time  ' 3

# ---- a UTF-8 command name keeps the columns aligned ----
UNAME="züge日本語" # 14 bytes: comm keeps all of it; 10 columns wide
ln -s "$WORKLOAD" "$TMPDIR_TEST/$UNAME"
bg_start UPID "$TMPDIR_TEST/$UNAME" sleep 60
keys /
type_text "日本"
keys Enter
one_utf8_row() { [ "$(row_ids)" = "$UPID" ] && line "$SCREEN_H" | grep -q '^h help'; }
wait_for_screen_fn one_utf8_row 5
screen_ok $? "typing the UTF-8 filter 日本 leaves the one process named $UNAME" "rows: $(row_ids | tr '\n' ' ')"
row=$(row_of "$UPID")
cc=$(command_column)
rc=$(printf '%s\n' "$row" | awk -v n="züge" '{ i = index($0, n); if (i) print i - 1 }')
[ -n "$cc" ] && [ "$cc" = "$rc" ]
screen_ok $? "the row's command starts in the title's COMMAND column ($cc; the row's at ${rc:-none})" "row: $row"
printf ' %s$\n' "$UNAME" >"$TMPDIR_TEST/uname"
printf '%s\n' "$row" | grep -q -E -f "$TMPDIR_TEST/uname"
screen_ok $? "the row shows the whole name $UNAME"
# A window where the name's 語 (2 columns) would straddle the edge: it goes, nothing else.
SCREEN_W=$((cc + 9))
resize "$SCREEN_W" 40
cut_name() { [ "$(row_of "$UPID" | sed 's/ *$//' | awk '{ print $NF }')" = "züge日本" ]; }
wait_for_screen_fn cut_name 3
cut=$?
shown=$(row_of "$UPID" | sed 's/ *$//' | awk '{ print $NF }')
capture -J
[ "$cut" -eq 0 ] && [ "$(widest)" -le "$SCREEN_W" ] && [ "$(command_column)" = "$cc" ]
screen_ok $? "at $SCREEN_W columns the name is cut to züge日本 before the wide 語, no line is wider than the window" \
	"name shown: $shown" "widest line: $(widest)"
SCREEN_W=120
resize 120 40
keys Escape
wait_for_screen_fn several_rows 3
screen_ok $? "Esc clears the filter"

# ---- a selected task that exits ----
XNAME=dtx$$
ln -s "$WORKLOAD" "$TMPDIR_TEST/$XNAME"
bg_start XPID "$TMPDIR_TEST/$XNAME" sleep 3
keys /
type_text "$XNAME"
keys Enter
# Patterns through a file: a grep whose command line held the name would match the filter itself.
printf '%s\n' "^$ESC\\[[0-9;]*7m.* $XPID .*$XNAME" >"$TMPDIR_TEST/selected"
x_selected() {
	[ "$(row_ids)" = "$XPID" ] || return 1
	capture -e
	printf '%s\n' "$SCREEN" | grep -E -f "$TMPDIR_TEST/selected" >/dev/null
	local st=$?
	capture
	return $st
}
wait_for_screen_fn x_selected 3
screen_ok $? "filtered to $XNAME, its row (pid $XPID) is the selected one (reverse video)"
wait "$XPID" 2>/dev/null
no_rows() { [ -z "$(row_ids)" ]; }
wait_for_screen_fn no_rows 4
screen_ok $? "after $XPID exits its row goes and the table is empty"
keys j k End Home NPage PPage Down Up
keys m
wait_for_screen '  ms/wait  ' 3 && alive
screen_ok $? "with the selected task gone delaytop runs on and answers keys (moves, then m)"
keys m m m Escape
wait_for_screen_fn several_rows 3 && alive
screen_ok $? "Esc brings the other rows back and delaytop still runs"

# ---- 20x5 and back ----
resize 20 5
small_ok() {
	capture -J
	[ "$(printf '%s\n' "$SCREEN" | wc -l)" -eq 5 ] &&
		line 1 | grep -q -E '^[0-9]{2}:[0-9]{2}:[0-9]{2} up' &&
		line 2 | grep -q -E '^ +PID +▼TOTAL' &&
		line 3 | grep -q -E '^ +[0-9]+ +[0-9.-]* +[^ ]' &&
		line 4 | grep -q -E '^ +[0-9]+ +[0-9.-]* +[^ ]' &&
		line 5 | grep -q -E '^h help +q quit'
}
SCREEN_W=20 SCREEN_H=5
wait_for_screen_fn small_ok 3
screen_ok $? "at 20x5: header, title (PID, TOTAL), two rows and the footer, each cut to the width"
[ "$(widest)" -le 20 ]
screen_ok $? "at 20x5 no line (wrapped lines joined) is wider than 20 columns" "widest: $(widest)"
alive
screen_ok $? "delaytop runs on at 20x5"
SCREEN_W=120 SCREEN_H=40
resize 120 40
full_ok() {
	line 1 | grep -q -E 'privileges full  exits lost [0-9]+$' && line 2 | grep -q -E '^processes  every ' &&
		line 3 | grep -q -E '^CPU +some \[' && title_line | grep -q 'COMMAND' &&
		line 40 | grep -q -E "^h help +q quit +s sort"
}
wait_for_screen_fn full_ok 3
screen_ok $? "back at 120x40 the header has its two whole lines again, the bars, the whole title and footer"
alive
screen_ok $? "delaytop runs on after 20x5 and back"

# ---- a burst of resizes ----
for size in 1x1 200x60 2x2 20x5 80x24 5x2 120x40 10x3 300x100 40x10; do
	resize "${size%x*}" "${size#*x}"
	sleep 0.05
done
resize 120 40
wait_for_screen_fn full_ok 3 && alive
screen_ok $? "after ten quick resizes (down to 1x1, up to 300x100) delaytop runs and redraws at 120x40"

# ---- a short screen opens at the top of the sort ----
# Five processes watched on a screen with room for four rows under the header and the bars:
# four spinners and pid 1. The spinners wait far more than pid 1, so the four rows must be
# theirs; the view must not scroll down to a task nobody selected.
bg_start SA "$WORKLOAD" spin 0
bg_start SB "$WORKLOAD" spin 0
bg_start SC "$WORKLOAD" spin 1
bg_start SD "$WORKLOAD" spin 1
SPINNERS=$(printf '%s\n' "$SA" "$SB" "$SC" "$SD" | sort -n)
nbars=0
for f in cpu:1 memory:2 io:2 irq:1; do
	[ -r "/proc/pressure/${f%:*}" ] && nbars=$((nbars + ${f#*:}))
done
SCREEN_H=$((HEADER_LINES + nbars + 1 + 4 + 1)) # the title, four rows, the footer
start_screen -- -d 0.5 -p "1,$SA,$SB,$SC,$SD"
rated() { [[ "$(cell "$(row_ids | head -1)" TOTAL)" =~ ^[0-9] ]]; } # the first reading shows -
wait_for_screen_fn rated 5
sleep 1.2 # a couple more readings
capture
[ "$(row_ids | sort -n)" = "$SPINNERS" ]
screen_ok $? "a $SCREEN_H-line screen shows the top of the sort: the four spinners ($(echo $SPINNERS)), not pid 1" \
	"rows: $(row_ids | tr '\n' ' ')"
stop_pid "$SA"
stop_pid "$SB"
stop_pid "$SC"
stop_pid "$SD"
SCREEN_H=40

# ---- no terminal, or an unknown one ----
timeout 10 "$DELAYTOP" </dev/null >/dev/null 2>"$TMPDIR_TEST/noterm.err"
st=$?
[ "$st" -eq 1 ] && grep -q -e '-b' "$TMPDIR_TEST/noterm.err"
tap_ok $? "without a terminal delaytop exits 1 and suggests -b" "status $st" "stderr: $(cat "$TMPDIR_TEST/noterm.err")"

start_screen TERM=nosuchterm -- -d 0.5
wait_until 5 test -s "$SCREEN_STATUS_FILE"
wait_for_screen 'nosuchterm' 2 -S -
[ "$(screen_status)" = 1 ] && screen_has "'nosuchterm'.*-b|-b.*'nosuchterm'"
screen_ok $? "with TERM=nosuchterm delaytop exits 1 ($(screen_status)) naming the terminal type and suggesting -b"

# dumb is a known type that cannot move the cursor: a screen of blanks would be no better
start_screen TERM=dumb -- -d 0.5
wait_until 5 test -s "$SCREEN_STATUS_FILE"
wait_for_screen "'dumb'" 2 -S -
[ "$(screen_status)" = 1 ] && screen_has "'dumb'.*-b|-b.*'dumb'"
screen_ok $? "with TERM=dumb delaytop exits 1 ($(screen_status)) naming the terminal type and suggesting -b"

start_screen -u TERM -- -d 0.5 2>/dev/null
wait_until 5 test -s "$SCREEN_STATUS_FILE"
wait_for_screen '-b' 2 -S -
[ "$(screen_status)" = 1 ] && screen_has '-b'
screen_ok $? "with TERM unset delaytop exits 1 ($(screen_status)) and suggests -b"

diag "ran for $((SECONDS - LOCKED_AT)) s under the lock"
done_testing
