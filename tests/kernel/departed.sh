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

# Reports every second until the test stops delaytop: the processes are killed once the first
# report is out; under load they take seconds to die, so delaytop is stopped only two reports
# after the last of them is gone, when every one is a departed row.
"$DELAYTOP" -b --accumulate --format json -d 1 --exit-buffer 64M \
	>"$TMPDIR_TEST/acc.json" 2>"$TMPDIR_TEST/acc.err" &
dt=$!
track_pid "$dt"
reports() {
	local n
	n=$(grep -c '"type":"psi"' "$TMPDIR_TEST/acc.json" 2>/dev/null)
	echo "${n:-0}"
}
for _ in $(seq 300); do
	[ "$(reports)" -ge 1 ] && break
	sleep 0.1
done
stop_pid "$parent"
for _ in $(seq 600); do
	pgrep -x dt-idle >/dev/null || break
	sleep 0.1
done
pgrep -x dt-idle >/dev/null && skip_all "the workload's processes did not end within a minute"
gone_at=$(reports)
for _ in $(seq 300); do
	[ "$(reports)" -ge $((gone_at + 2)) ] && break
	sleep 0.1
done
kill -TERM "$dt"
wait "$dt"
tap_ok $? "delaytop -b --accumulate exits 0 when stopped" "$(head -2 "$TMPDIR_TEST/acc.err")"

# the last report's time and exits lost, and its task lines: grep picks the lines jq reads (jq
# takes seconds on the whole file)
IFS=$'\t' read -r last lost < <(grep '"type":"psi"' "$TMPDIR_TEST/acc.json" |
	jq -r '"\(.time)\t\(.exits_lost)"' | tail -1)
grep -F "\"time\":\"$last\"" "$TMPDIR_TEST/acc.json" |
	jq -c --arg t "$last" 'select(.type == "task" and .time == $t)' >"$TMPDIR_TEST/last"
diag "exit records lost: $lost"

kept=$(jq -c 'select(.command == "dt-idle" and .exited)' "$TMPDIR_TEST/last" | wc -l)
[ "$kept" -ge 9000 ] && [ "$kept" -le 10000 ]
tap_ok $? "at most 10,000 of the $N exited processes are rows of their own" "expected 9000..10000, got $kept"
departed=$(jq -c 'select(.exited and .command != "(other exited)")' "$TMPDIR_TEST/last" | wc -l)
diag "exited rows in the last report, all commands: $departed"
others=$(jq -c 'select(.command == "(other exited)")' "$TMPDIR_TEST/last" | wc -l)
[ "$others" -eq 1 ]
tap_ok $? "the others are summed in one \"(other exited)\" row" "expected 1, got $others"

# Nothing is lost: each process's count of CPU waits since the start, at its largest in any
# report (its row at exit, or a kept row), is in the last report: the processes kept one by one in
# their rows, the others in the summed row (which may also hold other exits on the machine, so it
# may be more).
kept3=$(jq -s '[.[] | select(.command == "dt-idle") | .delay.cpu.count // 0] | add // 0' "$TMPDIR_TEST/last")
other3=$(jq -s '[.[] | select(.command == "(other exited)") | .delay.cpu.count // 0] | add // 0' "$TMPDIR_TEST/last")
jq -r 'select(.command == "dt-idle") | .pid' "$TMPDIR_TEST/last" | sort -n >"$TMPDIR_TEST/kept.pids"
# One pass over the big file: each dt-idle process's largest count in any report; all: their sum
# over every process, n and waits: the number and the sum of those not kept one by one.
sums=$(jq -s --slurpfile keep <(jq -s . "$TMPDIR_TEST/kept.pids" 2>/dev/null || echo '[[]]') '
	($keep[0] | map({(tostring): true}) | add // {}) as $k
	| [.[] | select(.type == "task" and .command == "dt-idle")] | group_by(.pid)
	| map({kept: ($k[.[0].pid | tostring] // false), w: (map(.delay.cpu.count // 0) | max)})
	| {all: (map(.w) | add // 0), n: (map(select(.kept | not)) | length),
	   waits: (map(select(.kept | not) | .w) | add // 0)}' "$TMPDIR_TEST/acc.json")
waits2=$(jq -r .all <<<"$sums")
n_nonkept=$(jq -r .n <<<"$sums")
w_nonkept=$(jq -r .waits <<<"$sums")
diag "CPU waits: of every dt-idle process $waits2; in the last report kept rows $kept3 + (other exited) $other3"
[ "$n_nonkept" -ge $((N - 10000)) ] && [ "$other3" -ge "$w_nonkept" ]
tap_ok $? "the $n_nonkept processes not kept one by one are in \"(other exited)\": its waits ($other3) hold theirs ($w_nonkept)"
[ $((kept3 + other3)) -ge "$waits2" ]
tap_ok $? "no waits lost: kept rows + \"(other exited)\" ($kept3 + $other3) >= every process's own ($waits2)"

done_testing
