# columns.sh — --columns on the screen: the table shows the columns given, in the order given,
# the command last; < and > move the sort through those columns only, from a sort column that
# is not shown too; the cgroup view shows those of them it has, its cgroup column last. The
# column setup (F2) lists them, moves, hides, shows and sorts, and W keeps what it made.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats

# titles: the words of the table's title line (the line of titles that ends in COMMAND or
# CGROUP), without the sort marker.
titles() {
	printf '%s\n' "$SCREEN" | grep -m1 -E '^ *[▼▲]?[A-Z]+[▼▲]? .*(COMMAND|CGROUP)[▼▲]? *$' | sed 's/[▼▲]//g' | xargs
}
# marked: the title that carries the sort marker.
marked() {
	printf '%s\n' "$SCREEN" | grep -m1 -E '^ *[▼▲]?IO[▼▲]? ' | tr ' ' '\n' | grep -E '▼|▲' | sed 's/[▼▲]//'
}

start_screen -- -d 0.5 --columns io,command,pid
want_titles="IO PID COMMAND"
titles_are() { [ "$(titles)" = "$want_titles" ]; }
wait_for_screen_fn titles_are 10
screen_ok $? "--columns io,command,pid: the table's titles are IO PID COMMAND, the command last" \
	"titles: '$(titles)'"
header | grep -q 'sort total'
screen_ok $? "the sort stays on TOTAL, which is not shown" "header: $(header)"
marked | grep -q .
screen_ok $((!$?)) "no title carries the sort marker" "marked: $(marked)"

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

# processes -> threads -> cgroups
keys g g
want_titles="IO CGROUP"
wait_for_screen_fn titles_are 10
screen_ok $? "the cgroup view shows IO, the one listed it has, then CGROUP" "titles: '$(titles)'"

# ---- the column setup (F2) ----
CFG=$TMPDIR_TEST/cfg
start_screen XDG_CONFIG_HOME="$CFG" -- -d 0.5 --columns io,pid,cpu,command
want_titles="IO PID CPU COMMAND"
wait_for_screen_fn titles_are 10
keys F2
wait_for_screen '^Columns: ' 5
screen_ok $? "F2 opens the column setup"
printf '%s\n' "$SCREEN" | grep -A3 '^Columns: ' | tail -3 | tr -s ' ' | sed 's/^ //' >"$TMPDIR_TEST/setup"
[ "$(cat "$TMPDIR_TEST/setup")" = "[x] IO io waiting for synchronous block I/O
[x] PID pid
[x] CPU cpu waiting for a CPU while runnable" ] && screen_has '^ +\[=\] COMMAND +command' && screen_has '^ +\[ \] USER +user'
screen_ok $? "it lists the shown columns in order (a kind's with what it waits for), COMMAND fixed ([=]), then the hidden ones" \
	"$(cat "$TMPDIR_TEST/setup")"
# ] moves IO after PID; Down goes to CPU, s sorts by it, Space hides it; Enter closes
keys ']' Down s Space Enter
want_titles="PID IO COMMAND"
wait_for_screen_fn titles_are 5
screen_ok $? "] moved IO after PID, Space hid CPU: the titles are PID IO COMMAND" "titles: '$(titles)'"
header | grep -q 'sort cpu'
screen_ok $? "s in the setup sorted by CPU, which may stay hidden" "header: $(header)"
# Down three times from PID: IO, COMMAND, then USER, the first hidden; Space shows it
keys F2 Down Down Down Space Escape
want_titles="PID IO USER COMMAND"
wait_for_screen_fn titles_are 5
screen_ok $? "Space on a hidden column (USER) shows it, before the command" "titles: '$(titles)'"
keys W
wait_for_screen "settings written to" 5
grep -qx 'columns=pid,io,user,command' "$CFG/delaytop/delaytoprc" && grep -qx 'sort=cpu' "$CFG/delaytop/delaytoprc"
tap_ok $? "W keeps the columns the setup made (columns=pid,io,user,command) and the sort" "$(cat "$CFG/delaytop/delaytoprc" 2>&1)"

quit_ok "q ends the screen with status 0"

# ---- accounting columns: shown when listed, process rows read from /proc ----
start_screen -- -d 0.5 -p $$ --columns pid,read,wchar,maxrss,command
want_titles="PID DISK RD WCHAR MAXRSS COMMAND"
wait_for_screen_fn titles_are 10
screen_ok $? "--columns pid,read,wchar,maxrss,command: the titles are PID DISK RD WCHAR MAXRSS COMMAND" \
	"titles: '$(titles)'"
rss_shown() { v=$(cell $$ MAXRSS) && [ -n "$v" ] && [ "$v" != - ]; }
wait_for_screen_fn rss_shown 5
screen_ok $? "the test shell's process row has a MAXRSS (from /proc/PID/status), not -" "row: $(row_of $$)"
stop_screen

done_testing
