#!/bin/bash
# switch_on.sh — a wait the kernel counts from a start it never took is not shown: with
# kernel.task_delayacct turned off, a task's block-I/O waits begin unseen, and when the switch
# goes on during one the kernel counts it from the start of the task's last wait before the
# switch went off. tests/stackwait fsyncs a file again and again in a cgroup whose writes the
# block layer holds to one a second (slow_fsync), so that it is in such a wait when the switch
# goes on after 2.5 s off. delaytop -b -d 0.3 follows it as a process and as a thread (-H) through
# the switch: after the switch went on, the loop's I/O delay in its reports adds up to no more
# than the time since (one thread cannot wait longer), while the kernel (/proc/PID/stat field
# 42) counted more than that.
. "$top_srcdir/tests/lib.sh"

require_root
require_taskstats
require_cmd jq awk
[ -e /proc/sys/kernel/task_delayacct ] || skip_all "this kernel has no kernel.task_delayacct"

lock_global # an I/O load, and the sysctl
enable_delayacct
slow_fsync "delaytop-switchon.$$"
PID=$SLOW_PID T=$TMPDIR_TEST
sleep 2 # waits whose starts the kernel takes

io_ms() { awk -v t="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); print $40 * 1000 / t }' "/proc/$PID/stat"; }

# One try: both delaytops through off and on again; ON_T (µs) when the switch went on, IO_ON and
# IO_END the loop's field 42 (ms) then and at the end.
try() {
	"$DELAYTOP" -b -n 24 -d 0.3 --format json -p "$PID" >"$T/process.json" 2>"$T/process.err" 9>&- &
	local p1=$!
	"$DELAYTOP" -b -n 24 -d 0.3 --format json -H -p "$PID" >"$T/thread.json" 2>"$T/thread.err" 9>&- &
	local p2=$!
	track_pid "$p1"
	track_pid "$p2"
	sleep 1.5
	set_sysctl kernel.task_delayacct 0
	sleep 2.5
	IO_ON=$(io_ms)
	set_sysctl kernel.task_delayacct 1
	ON_T=${EPOCHREALTIME/[.,]/}
	wait "$p1" "$p2"
	IO_END=$(io_ms)
	END_T=${EPOCHREALTIME/[.,]/}
}

# shown FILE: the ms of I/O delay delaytop shows for the loop in the reports of FILE made after
# the switch went on (a report's time is when its reading began), and how many were null
shown() {
	jq -r --argjson p "$PID" 'select(.type == "task" and .pid == $p) | "\(.time) \(.interval_s) \(.delay.io.pct)"' "$1" |
		while read -r t iv pct; do
			echo "$(date -d "$t" +%s%6N) $iv $pct"
		done | awk -v on="$ON_T" '$1 > on { if ($3 == "null") n++; else ms += $3 * $2 * 10 }
			END { printf "%.1f %d\n", ms, n }'
}

for run in 1 2 3; do
	try
	since=$(((END_T - ON_T) / 1000))
	counted=$(awk -v a="$IO_ON" -v b="$IO_END" 'BEGIN { print b - a }')
	# the kernel counted more than the time since the switch: a start it never took
	awk -v c="$counted" -v s="$since" 'BEGIN { exit !(c > s + 200) }' && break
	diag "run $run: the kernel counted ${counted} ms in the ${since} ms after the switch went on: no missed start; again"
done
awk -v c="$counted" -v s="$since" 'BEGIN { exit !(c > s + 200) }'
tap_ok $? "the kernel counted a wait from a start it never took (${counted} ms in the ${since} ms after the switch went on)" \
	"it never did in $run runs: the loop was not in a wait when the switch went on"
for mode in process thread; do
	read -r ms nulls < <(shown "$T/$mode.json")
	rows=$(jq -r --argjson p "$PID" 'select(.type == "task" and .pid == $p) | .time' "$T/$mode.json" | wc -l)
	awk -v m="$ms" -v s="$since" 'BEGIN { exit !(m <= s + 50) }' && [ "$nulls" -ge 1 ] && [ "$rows" -ge 20 ]
	tap_ok $? "$mode: after the switch went on delaytop shows ${ms} ms of the loop's I/O delay, no more than the ${since} ms since; $nulls report(s) without a number" \
		"$rows rows; $(head -2 "$T/$mode.err")"
done
done_testing
