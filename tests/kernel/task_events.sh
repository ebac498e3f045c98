#!/bin/bash
# task_events.sh — delaytop knows the tasks from the kernel's process events, not a walk of /proc
# at each reading: the JSON says which ("events", or "walk" with DELAYTOP_TASK_WALK); either way
# a process and its threads started between two readings are listed exactly as /proc lists them,
# and are gone after they end; after a storm of forks overran the events' buffer, delaytop walks
# again (task_walks grows) and still sees a process started in the middle of the storm.
. "$top_srcdir/tests/lib.sh"

require_root
require_cmd jq timeout
require_taskstats
lock_global
enable_delayacct

T=$TMPDIR_TEST

# ---- which way ----
"$DELAYTOP" -b -n 1 -d 0.2 --format json >"$T/ev.json" 2>"$T/err"
DELAYTOP_TASK_WALK=1 "$DELAYTOP" -b -n 1 -d 0.2 --format json >"$T/walk.json" 2>>"$T/err"
ev=$(jq -r 'select(.type == "psi") | "\(.tasks_from) \(.task_walks)"' "$T/ev.json" | tail -1)
wk=$(jq -r 'select(.type == "psi") | "\(.tasks_from) \(.task_walks)"' "$T/walk.json" | tail -1)
[ "$ev" = "events 1" ] && [ "$wk" = "walk null" ]
tap_ok $? "the tasks are followed through process events (one walk, at the start); DELAYTOP_TASK_WALK walks" \
	"got '$ev' and '$wk': $(head -2 "$T/err" | tr '\n' ' ')"

# ---- a process and its threads started between readings, then stopped ----
# follows MODE: runs delaytop -H for 12 readings 0.4 s apart, starts a process of 6 threads after
# the third and stops it after the eighth; prints "listed|proc|after" for its pid: the thread ids
# the readings showed it alive with, those /proc listed, and the live rows left in the last reading.
follows() {
	local env=$1 out=$T/$2.json pid child listed proc after
	env $env "$DELAYTOP" -b -H -n 12 -d 0.4 --format json >"$out" 2>>"$T/err" &
	pid=$!
	track_pid "$pid"
	sleep 1.3
	start_workload idle 1 6
	for _ in $(seq 50); do
		child=$(cat "/proc/$WORKLOAD_PID/task/$WORKLOAD_PID/children" 2>/dev/null | tr -d ' ')
		[ -n "$child" ] && [ "$(ls "/proc/$child/task" 2>/dev/null | wc -l)" -eq 6 ] && break
		sleep 0.05
	done
	proc=$(ls "/proc/$child/task" 2>/dev/null | sort -n | tr '\n' ' ')
	sleep 2
	kill -KILL "$child" 2>/dev/null
	stop_pid "$WORKLOAD_PID"
	wait "$pid"
	listed=$(jq -r --argjson p "${child:-0}" 'select(.type == "task" and .pid == $p and (.exited | not)) | .tid' "$out" |
		sort -nu | tr '\n' ' ')
	last=$(jq -r 'select(.type == "psi") | .time' "$out" | tail -1)
	after=$(jq -r --argjson p "${child:-0}" --arg t "$last" \
		'select(.type == "task" and .pid == $p and .time == $t and (.exited | not)) | .tid' "$out" | wc -l)
	echo "$listed|$proc|$after"
}
for mode in events walk; do
	if [ $mode = events ]; then r=$(follows "X=1" fol-ev); else r=$(follows "DELAYTOP_TASK_WALK=1" fol-walk); fi
	IFS='|' read -r listed proc after <<<"$r"
	[ -n "$proc" ] && [ "$listed" = "$proc" ] && [ "$after" = 0 ]
	tap_ok $? "$mode: a process of 6 threads started between readings is listed with the threads /proc lists, and gone after it ends" \
		"listed '$listed', /proc '$proc', live rows in the last reading: $after"
done

# ---- a storm of forks overruns the events: delaytop walks again ----
"$DELAYTOP" -b -n 2 -d 7 --format json >"$T/storm.json" 2>>"$T/err" &
dpid=$!
track_pid "$dpid"
sleep 1
"$WORKLOAD" storm 5 >"$T/forks1" 2>&1 &
storm1=$!
track_pid "$storm1"
"$WORKLOAD" storm 5 >"$T/forks2" 2>&1 &
storm2=$!
track_pid "$storm2"
sleep 2.5
sleep 30 &
sleeper=$!
track_pid "$sleeper"
wait "$storm1" "$storm2"
wait "$dpid"
walks=$(jq -r 'select(.type == "psi") | .task_walks' "$T/storm.json" | tail -1)
seen=$(jq -r --argjson p "${sleeper:-0}" 'select(.type == "task" and .pid == $p) | .command' "$T/storm.json" | tail -1)
[ "${walks:-0}" -ge 2 ] && [ "$seen" = sleep ]
tap_ok $? "after a storm of $(($(cat "$T/forks1") + $(cat "$T/forks2"))) forks the events were lost and delaytop walked again ($walks walks); a sleeper started in the storm is listed" \
	"task_walks '$walks', sleeper $sleeper listed as '$seen'"
stop_pid "$sleeper"
done_testing
