#!/bin/bash
# departed.sh — totals since the start keep at most 10,000 exited tasks one by one: after 10,300
# processes end, --accumulate shows at most 10,000 of them as rows and one "(other exited)" row
# that sums the rest, so that no exited task's waits are lost from the totals.
. "$top_srcdir/tests/lib.sh"

require_root
require_cmd jq
require_taskstats
require_cmd pgrep
lock_global # 10,300 exits at once would overflow the exit buffers of other tests' delaytops

N=10300
[ "$(cat /proc/sys/kernel/pid_max)" -gt $((N + 5000)) ] || skip_all "kernel.pid_max is too small for $N processes"
ln -s "$WORKLOAD" "$TMPDIR_TEST/dt-idle"
# dt-idle (the workload's idle mode) holds N sleeping processes; they die with it (SIGKILL).
"$TMPDIR_TEST/dt-idle" idle "$N" 1 >/dev/null 2>&1 9>&- &
parent=$!
track_pid "$parent"
for _ in $(seq 200); do
	[ "$(pgrep -c -P "$parent")" -ge "$N" ] && break
	sleep 0.1
done
[ "$(pgrep -c -P "$parent")" -eq "$N" ] || skip_all "the workload did not start $N processes"

# Reports every 2 s: the processes are killed once the first report is out, their exit records
# come in a later interval, and in the last report they are departed rows. Under load a reading of
# 10,300 processes can take long, so the kill waits for the first report rather than a clock.
"$DELAYTOP" -b --accumulate --format json -d 2 -n 4 --exit-buffer 64M \
	>"$TMPDIR_TEST/acc.json" 2>"$TMPDIR_TEST/acc.err" &
dt=$!
track_pid "$dt"
for _ in $(seq 300); do
	grep -q '"type":"psi"' "$TMPDIR_TEST/acc.json" 2>/dev/null && break
	sleep 0.1
done
stop_pid "$parent"
wait "$dt"
tap_ok $? "delaytop -b --accumulate exits 0" "$(head -2 "$TMPDIR_TEST/acc.err")"

last=$(jq -r 'select(.type == "psi") | .time' "$TMPDIR_TEST/acc.json" | tail -1)
jq -c --arg t "$last" 'select(.type == "task" and .time == $t)' "$TMPDIR_TEST/acc.json" >"$TMPDIR_TEST/last"
lost=$(jq -r 'select(.type == "psi") | .exits_lost' "$TMPDIR_TEST/acc.json" | tail -1)
diag "exit records lost: $lost"

kept=$(jq -c 'select(.command == "dt-idle" and .exited)' "$TMPDIR_TEST/last" | wc -l)
[ "$kept" -ge 9000 ] && [ "$kept" -le 10000 ]
tap_ok $? "at most 10,000 of the $N exited processes are rows of their own" "expected 9000..10000, got $kept"
departed=$(jq -c 'select(.exited and .command != "(other exited)")' "$TMPDIR_TEST/last" | wc -l)
diag "exited rows in the last report, all commands: $departed"
others=$(jq -c 'select(.command == "(other exited)")' "$TMPDIR_TEST/last" | wc -l)
[ "$others" -eq 1 ]
tap_ok $? "the others are summed in one \"(other exited)\" row" "expected 1, got $others"

# Nothing is lost: the counts of CPU waits since the start of the dt-idle rows, at their most in
# an earlier report (where they exited), are all in the last, in the kept rows or the summed one
# (which may also hold other exits on the machine, so it may be more).
waits2=$(jq -s '[group_by(.time)[] | [.[] | select(.type == "task" and .command == "dt-idle") | .delay.cpu.count // 0] | add // 0] | .[:-1] | max // 0' "$TMPDIR_TEST/acc.json")
kept3=$(jq -s '[.[] | select(.command == "dt-idle") | .delay.cpu.count // 0] | add // 0' "$TMPDIR_TEST/last")
other3=$(jq -s '[.[] | select(.command == "(other exited)") | .delay.cpu.count // 0] | add // 0' "$TMPDIR_TEST/last")
diag "CPU waits: dt-idle rows at exit $waits2; later kept rows $kept3 + (other exited) $other3"
[ "$waits2" -gt "$kept3" ]
tap_ok $? "the rows that are not kept had waits of their own (the check below can fail)" \
	"at exit $waits2, kept $kept3"
[ $((kept3 + other3)) -ge "$waits2" ]
tap_ok $? "no waits lost: kept rows + \"(other exited)\" ($kept3 + $other3) >= the rows at exit ($waits2)"

done_testing
