# columns.sh — --columns on the screen: the table shows the columns given, in the order given,
# the command last; < and > move the sort through those columns only, from a sort column that
# is not shown too; the cgroup view shows those of them it has, its cgroup column last.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats

# titles: the words of the table's title line (the line that has IO and ends in COMMAND or
# CGROUP), without the sort marker.
titles() {
	printf '%s\n' "$SCREEN" | grep -m1 -E '^ *[▼▲]?IO[▼▲]? .*(COMMAND|CGROUP)[▼▲]? *$' | sed 's/[▼▲]//g' | xargs
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

keys q
wait_until 5 test -s "$SCREEN_STATUS_FILE"
[ "$(cat "$SCREEN_STATUS_FILE" 2>/dev/null)" = 0 ]
tap_ok $? "q ends the screen with status 0" "status: $(cat "$SCREEN_STATUS_FILE" 2>/dev/null)"

done_testing
