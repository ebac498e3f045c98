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
quit_ok "q ends the screen with status 0"
stop_pid "$A"
stop_pid "$B"

# A trigger whose cgroup is removed: the header says it ended, and the screen goes on.
V2=$(mount_of cgroup2)
CG=$V2/delaytop-screen-trigger.$$
if [ -n "$V2" ] && mkdir "$CG"; then
	trap 'screen_cleanup; cleanup; rmdir "$CG" 2>/dev/null' EXIT
	start_screen -- -d 0.5 --trigger "cpu some 200ms 2s /${CG#"$V2"/}"
	wait_for_screen '^ +PID ' 10
	rmdir "$CG"
	wait_for_screen 'TRIGGER cpu some 200ms 2s ended: its cgroup is gone' 5
	screen_ok $? "a trigger whose cgroup is removed: the header says it ended" "header: $(header)"
	quit_ok "and the screen still ends with status 0"
else
	tap_skip "a trigger whose cgroup is removed: the header says it ended" "no cgroup v2 hierarchy to make a cgroup in"
	tap_skip "and the screen still ends with status 0" "no cgroup v2 hierarchy to make a cgroup in"
fi
done_testing
