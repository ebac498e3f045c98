# trigger.sh — --trigger on the screen: with two spinners sharing CPU 1, a "cpu some 200ms 2s"
# trigger fires; the header marks it (which trigger, how often, when) and the screen reads at
# once, so the spinners' CPU delay shows long before the 10 s interval ends.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats
require_cpus 2
lock_global
enable_delayacct
[ -w /proc/pressure/cpu ] || skip_all "no writable /proc/pressure/cpu (PSI off, or too old for triggers)"

wait_cpu_quiet 1
start_workload spin 1; A=$WORKLOAD_PID
start_workload spin 1; B=$WORKLOAD_PID
start_screen -- -d 10 -p "$A,$B" --trigger 'cpu some 200ms 2s'
marked() { header | grep -q -E "TRIGGER cpu some 200ms 2s fired [0-9]+x, last [0-9]{2}:[0-9]{2}:[0-9]{2}"; }
wait_for_screen_fn marked 8
screen_ok $? "the header marks the trigger that fired: its spec, how often, when" "header: $(header)"
read_now() { v=$(cell "$A" CPU) && awk -v v="$v" 'BEGIN { exit !(v + 0 > 20) }'; }
wait_for_screen_fn read_now 3
screen_ok $? "the firing took a reading: a spinner's CPU delay shows before the 10 s interval ends" \
	"row: $(row_of "$A"); after ${SECONDS} s"
keys q
wait_until 5 test -s "$SCREEN_STATUS_FILE"
[ "$(cat "$SCREEN_STATUS_FILE" 2>/dev/null)" = 0 ]
tap_ok $? "q ends the screen with status 0" "status: $(cat "$SCREEN_STATUS_FILE" 2>/dev/null)"
stop_pid "$A"
stop_pid "$B"
done_testing
