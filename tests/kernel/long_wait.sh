#!/bin/bash
# long_wait.sh — a wait much longer than delaytop's interval is shown as the kernel counted it,
# not as unavailable: tests/stackwait fsyncs a file again and again in a cgroup whose writes the
# block layer holds to one a second (slow_fsync), so that each fsync blocks for about a second;
# delaytop -b -d 0.3 follows it, as a process and as a thread (-H). In each report its I/O delay
# is a number and agrees with what the kernel counted for it over the interval (/proc/PID/stat
# field 42), and in some report a wait ended that the kernel counted as more than twice the
# interval and a tenth (more than delaytop allowed a thread in an interval before it bounded a
# wait by the task's age).
. "$top_srcdir/tests/lib.sh"

require_root
require_taskstats
require_cmd jq awk

lock_global # an I/O load, and the sysctl
enable_delayacct
slow_fsync "delaytop-longwait.$$"
PID=$SLOW_PID T=$TMPDIR_TEST
sleep 1 # its first writes, which the throttle's budget lets through at once

IV=0.3
# check_mode NAME ARGS...: up to three runs of 10 reports of delaytop ARGS until one holds a long
# wait's end; each report held to the kernel's count.
check_mode() {
	local name=$1 run k io long=0 agreed=0 reports=0 bad="" range lo
	shift
	for run in 1 2 3; do
		follow_delaytop "$T/$name$run.json" "$T/$name.err" "$PID" -- \
			"$DELAYTOP" -b -n 10 -d "$IV" --format json -p "$PID" "$@"
		[ "$DT_STATUS" = 0 ] || { bad="$bad run $run: exit $DT_STATUS $(head -2 "$T/$name.err")"; continue; }
		k=0
		while read -r io; do
			k=$((k + 1))
			reports=$((reports + 1))
			range=$(counted io "$k" "$PID")
			lo=${range%% *}
			if agrees_with_kernel "$io" "$IV" io "$k" "$PID"; then # a number, and the kernel's
				agreed=$((agreed + 1))
			else
				bad="$bad run $run report $k: $AGREED;"
			fi
			awk -v lo="${lo:-0}" -v iv="$IV" 'BEGIN { exit !(lo > iv * 1000 * 2 * 1.1 + 5) }' &&
				long=$((long + 1)) && diag "$name, run $run, report $k: a wait ended after ${lo%.*} ms or more: '$io'%"
		done < <(jq -r --argjson p "$PID" 'select(.type == "task" and .pid == $p) | .delay.io.pct' "$T/$name$run.json")
		[ "$k" = "$REPORTS" ] || bad="$bad run $run: $k rows in $REPORTS reports;"
		[ "$long" -gt 0 ] && break
	done
	[ "$reports" -gt 0 ] && [ "$agreed" = "$reports" ] && [ -z "$bad" ]
	tap_ok $? "$name: in each of $reports reports of ${IV} s the loop's I/O delay is a number the kernel agrees with" "$bad"
	[ "$long" -gt 0 ]
	tap_ok $? "$name: $long of them held the end of a wait longer than twice the interval ($run runs)" \
		"no report did: an fsync of the throttled loop took less than $(awk -v iv="$IV" 'BEGIN { print iv * 2.2 }') s"
}
check_mode process
check_mode thread -H
done_testing
