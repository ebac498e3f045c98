# columns.sh — the accounting columns on the live screen: listed with --columns, a process row
# reads them from /proc (its MAXRSS from /proc/PID/status). What --columns, < and >, the cgroup
# view's columns, the column setup (F2) and W do is pure screen behaviour, checked without root on
# a fixture recording by tests/replay/views.sh.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats

# titles: the words of the table's title line (the line of titles that ends in COMMAND or
# CGROUP), without the sort marker.
titles() {
	printf '%s\n' "$SCREEN" | grep -m1 -E '^ *[▼▲]?[A-Z]+[▼▲]? .*(COMMAND|CGROUP)[▼▲]? *$' | sed 's/[▼▲]//g' | xargs
}
titles_are() { [ "$(titles)" = "$want_titles" ]; }

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
