# views.sh — the screen's views on fixture recordings, as an ordinary user: a recording made with
# threads shows TID rows with the threads' names, and t there says the tree is of processes; t
# shows the process tree (children under their parent, indented with "`- "), S sums subtrees,
# t again gives the list back; the cgroup view (g) shows the cgroup tree with its task states and
# pressure, - folds a subtree ([+]) and + unfolds it, and Enter on a cgroup leaves the screen
# working; --columns sets the titles and < and > move among them, the cgroup view keeps those
# it has, F2 lists, moves, hides and shows columns, and W writes them to a settings file under
# $XDG_CONFIG_HOME, which the next start reads (what tests/screen/columns.sh checked live, but
# for the accounting columns); a click on a title sorts by
# it and a second reverses, a click on a row selects it, the wheel moves the selection, and M
# stops the mouse reports and starts them again (what tests/screen/mouse.sh checked live).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"
. "$top_srcdir/tests/replay/fixture.sh"

# titles: the words of the table's title line (the line that ends in COMMAND or CGROUP), without
# the sort marker; marked: the title that carries it
title_words() { printf '%s\n' "$SCREEN" | grep -m1 -E '^ *[▼▲]?[A-Z]+[▼▲]? .*(COMMAND|CGROUP)[▼▲]? *$'; }
titles() { title_words | sed 's/[▼▲]//g' | xargs; }
marked() { title_words | tr ' ' '\n' | grep -E '▼|▲' | sed 's/[▼▲]//'; }

# ---- threads ----
open_replay -- -r "$FIX/threads.rec"
keys n
at_time 00:00:01 && screen_has '^ +TID USER ' && [ "$(row_of 1501 | awk '{ print $NF }')" = "Thread#0" ] &&
	row_of 1502 | grep -q 'C2 CompilerThre$' && row_of 1500 | grep -q ' java$'
screen_ok $? "threads.rec: TID rows, java's threads under their own names" "rows: $(ids)"
keys t
wait_for_screen 'the tree' 3 && title_line | grep -q -E '^ +TID '
screen_ok $? "t in the thread view says the tree is of processes, and the rows stay threads" "footer: $(line "$SCREEN_H")"

# ---- the process tree ----
open_replay -- -r "$FIX/procs.rec"
keys n n t
rows_are "1 480 1500 1700 210 1200 1600 1300 1301 1310 1320 1601 "
screen_ok $? "t: each process under its parent, siblings by TOTAL" "rows: $(ids)"
row_of 1301 | grep -q -E ' {10}`- cc1$' && row_of 1200 | grep -q -E ' {4}`- bash$' && header | grep -q 'processes as a tree'
screen_ok $? "t: the commands indented by depth with \`- and the header says so"
keys S
wait_for_screen 'processes as a tree, subtrees summed' 3 && [ "$(row_of 1300 | awk '{ print $(NF - 2) }')" = 181.6 ]
screen_ok $? "S sums subtrees: make's TOTAL is its own and its children's (181.6)" "row: $(row_of 1300)"
keys t
rows_are "1301 480 1310 1500 1600 1700 1300 1601 210 1 1200 1320 "
screen_ok $? "t again: the list, by TOTAL" "rows: $(ids)"

# ---- the cgroup view ----
open_replay -- -r "$FIX/cgroups.rec"
keys n n g
wait_for_screen '^TASKS +R +D .* CGROUP$' 3 && header | grep -q '  cgroups  '
screen_ok $? "g: the cgroup view, with tasks by state and pressure" "title: $(title_line)"
cgline() { printf '%s\n' "$SCREEN" | grep -E " $1( \\[\\+\\])?\$" | head -1; }
[ "$(cgline / | awk '{ print $1, $2, $3 }')" = "14 1 2" ] && [ "$(cgline '  session-1.scope' | awk '{ print $1, $2, $3 }')" = "4 1 1" ] &&
	cgline '    idle.service' | grep -q -E '^ +0 +0 +0 '
screen_ok $? "the tree: 14 live tasks at the root (1 running, 2 in D), 4 in session-1.scope, none in idle.service"
keys Down
keys -- -
wait_for_screen ' user\.slice \[\+\]$' 3 && ! screen_has 'session-1\.scope$'
screen_ok $? "- on user.slice folds it: [+], and its cgroups go"
keys +
wait_for_screen 'session-1\.scope$' 3 && ! screen_has '\[\+\]'
screen_ok $? "+ unfolds it again"
# Enter on a cgroup of a recording: the header then had more parts than viewdraw.c had room for,
# and the screen hung in draw_header, deaf to signals.
keys Down Down Enter
sleep 0.3
keys n
wait_for_screen '^RECORDING 2026-01-01 00:00:03\.0 ' 0
screen_ok $? "after Enter on a cgroup (a header of 13 parts), n still steps to the next reading"
as_user kill -KILL "$SCREEN_PID" 2>/dev/null

# ---- --columns, the setup, W (what tests/screen/columns.sh checked live) ----
want_titles=""
titles_ok() { [ "$(titles)" = "$want_titles" ]; }
open_replay -- -r "$FIX/procs.rec" --columns io,command,pid
keys n
want_titles="IO PID COMMAND"
wait_for_screen_fn titles_ok 3 && header | grep -q 'sort total' && [ -z "$(marked)" ]
screen_ok $? "--columns io,command,pid: the titles IO PID COMMAND, the command last; the sort stays on TOTAL, unmarked" \
	"titles: $(titles)"
want=""
marker_on() { [ "$(marked)" = "$want" ]; }
for step in "> COMMAND moves_it_to" "< PID moves_it_to" "< IO moves_it_to" "< IO leaves_it_on" "> PID moves_it_to"; do
	set -- $step
	want=$2
	keys "$1"
	wait_for_screen_fn marker_on 3
	screen_ok $? "$1 ${3//_/ } $2 (among the columns shown)" "marked: '$(marked)'; titles: '$(titles)'"
done
header | grep -q 'sort pid'
screen_ok $? "the header says the sort is pid" "header: $(header)"
open_replay -- -r "$FIX/cgroups.rec" --columns io,command,pid
keys n g
want_titles="IO CGROUP"
wait_for_screen_fn titles_ok 3
screen_ok $? "the cgroup view shows IO, the one listed it has, then CGROUP" "titles: $(titles)"

CFG=$TMPDIR_TEST/cfg
open_replay XDG_CONFIG_HOME="$CFG" -- -r "$FIX/procs.rec" --columns io,pid,cpu,command
keys n
want_titles="IO PID CPU COMMAND"
wait_for_screen_fn titles_ok 3
keys F2
wait_for_screen '^Columns: ' 3
printf '%s\n' "$SCREEN" | grep -A3 '^Columns: ' | tail -3 | tr -s ' ' | sed 's/^ //' >"$TMPDIR_TEST/setup"
[ "$(cat "$TMPDIR_TEST/setup")" = "[x] IO io waiting for synchronous block I/O
[x] PID pid
[x] CPU cpu waiting for a CPU while runnable" ] && screen_has '^ +\[=\] COMMAND +command' && screen_has '^ +\[ \] USER +user'
screen_ok $? "F2 lists the shown columns in order (a kind's with what it waits for), COMMAND fixed ([=]), then the hidden ones" \
	"$(cat "$TMPDIR_TEST/setup")"
keys ']' Down s Space Enter
want_titles="PID IO COMMAND"
wait_for_screen_fn titles_ok 3 && header | grep -q 'sort cpu'
screen_ok $? "] moves IO after PID, s sorts by CPU (which may stay hidden), Space hides it" "titles: $(titles); header: $(header)"
keys F2 Down Down Down Space Escape
want_titles="PID IO USER COMMAND"
wait_for_screen_fn titles_ok 3
screen_ok $? "Space on a hidden column (USER) shows it, before the command" "titles: $(titles)"
keys W
wait_for_screen 'settings written to' 3
grep -qx 'columns=pid,io,user,command' "$CFG/delaytop/delaytoprc" && grep -qx 'sort=cpu' "$CFG/delaytop/delaytoprc"
tap_ok $? "W makes \$XDG_CONFIG_HOME/delaytop/delaytoprc with columns=pid,io,user,command and sort=cpu" \
	"$(cat "$CFG/delaytop/delaytoprc" 2>&1)"
open_replay XDG_CONFIG_HOME="$CFG" -- -r "$FIX/procs.rec"
keys n
wait_for_screen_fn titles_ok 3 && header | grep -q 'sort cpu'
screen_ok $? "the next start reads them back" "titles: $(titles)"
chmod 0500 "$CFG/delaytop"
keys W
wait_for_screen 'cannot write' 3
screen_ok $? "where the file cannot be written, W says why and the screen goes on" "footer: $(line "$SCREEN_H")"
chmod 0700 "$CFG/delaytop"

# ---- the mouse (the terminal's own reports, X10 encoding, typed into the pane) ----
report() { tm send-keys -t dt -l "$(printf '\033[M%b%b%b' "\\x$(printf %x $((32 + $1)))" "\\x$(printf %x $((33 + $2)))" "\\x$(printf %x $((33 + $3)))")"; }
press() { report 0 "$1" "$2"; report 3 "$1" "$2"; }
wheel_down() { report 65 "$1" "$2"; }
flags() { tm display-message -p -t dt '#{mouse_standard_flag}#{mouse_button_flag}#{mouse_any_flag}'; }
pane_mouse() { flags | grep -q 1; }
open_replay -- -r "$FIX/procs.rec"
keys n
wait_for_screen '^ +PID ' 3
pane_mouse
tap_ok $? "the screen asks the terminal for mouse reports" "tmux: $(flags)"
Y=$(($(printf '%s\n' "$SCREEN" | grep -n -m1 -E '^ +PID ' | cut -d: -f1) - 1))
col_x() { ascii_title | awk -v t="$1" '{ i = index($0, " " t " "); print i ? i : -1 }'; }
X=$(col_x IO)
press "$X" "$Y"
wait_for_screen '^ +PID .* ▼IO ' 3 && header | grep -q 'sort io'
screen_ok $? "a click on the IO title sorts by IO, and the header says so"
press "$X" "$Y"
wait_for_screen '^ +PID .* ▲IO ' 3
screen_ok $? "a second click reverses the order"
want_sel=$(row_ids | sed -n 3p)
sel_ok() { [ "$(selected_id)" = "$want_sel" ]; }
press 3 $((Y + 3))
wait_for_screen_fn sel_ok 3
screen_ok $? "a click on the third row selects it ($want_sel)" "selected: $(selected_id)"
want_sel=$(row_ids | sed -n 6p)
wheel_down 3 $((Y + 3))
wait_for_screen_fn sel_ok 3
screen_ok $? "the wheel moves the selection three rows down ($want_sel)" "selected: $(selected_id)"
keys M
wait_for_screen 'mouse off' 3 && wait_until 3 eval '! pane_mouse'
screen_ok $? "M turns the mouse off, says so, and the terminal stops reporting" "tmux: $(flags)"
keys M
wait_for_screen 'mouse on' 3 && wait_until 3 pane_mouse
screen_ok $? "M again asks for the reports again" "tmux: $(flags)"
X=$(col_x PID)
press "$X" "$Y"
wait_for_screen '^ +▼PID ' 3
screen_ok $? "and a click on PID sorts by PID" "title: $(title_line)"
quit_ok "q quits with status 0"
done_testing
