#!/bin/bash
# task_events.sh — delaytop knows the tasks from the kernel's process events, not a walk of /proc
# at each reading: the JSON says which ("events", or "walk" with DELAYTOP_TASK_WALK); either way
# a process and its threads started between two readings are listed exactly as /proc lists them,
# and are gone after they end; after a storm of forks overran the events' buffer, delaytop walks
# again (task_walks grows) and still sees a process started in the middle of the storm. A forged
# exit that a process sends to delaytop's connector socket is not believed.
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

# ---- forged events are not believed ----
# A process with CAP_NET_ADMIN can send datagrams to delaytop's connector socket: here the exit
# of a live sleeper, as the kernel would tell it, from a netlink socket of its own. delaytop takes
# events only from the kernel (port 0), so the sleeper stays listed in every reading; believing
# the forgery would drop it from the task set until the next walk, minutes later.
sleep 30 &
victim=$!
track_pid "$victim"
"$DELAYTOP" -b -n 6 -d 0.5 --format json >"$T/forged.json" 2>>"$T/err" &
dpid=$!
track_pid "$dpid"
port=""
for _ in $(seq 40); do # its connector socket (NETLINK_CONNECTOR, 11): the port in /proc/net/netlink
	inodes=" $(ls -l "/proc/$dpid/fd" 2>/dev/null | sed -n 's/.*socket:\[\([0-9]*\)\]$/\1/p' | tr '\n' ' ') "
	port=$(awk -v inodes="$inodes" '$2 == 11 && index(inodes, " " $10 " ") { print $3 }' /proc/net/netlink)
	[ -n "$port" ] && break
	sleep 0.05
done
wait_first_reading "$dpid"
sent=$(python3 - "${port:-0}" "$victim" 2>&1 <<'EOF'
import socket, struct, sys
port, pid = int(sys.argv[1]), int(sys.argv[2])
s = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, 11)  # NETLINK_CONNECTOR
s.bind((0, 0))  # a port of its own, as any process gets
# struct proc_event: PROC_EVENT_EXIT, cpu, timestamp; pid, tgid, code, signal, parent pid, tgid
ev = struct.pack("=IIQ6I", 0x80000000, 0, 0, pid, pid, 0, 17, 1, 1)
cn = struct.pack("=4IHH", 1, 1, 0, 0, len(ev), 0) + ev  # CN_IDX_PROC, CN_VAL_PROC
msg = struct.pack("=IHHII", 16 + len(cn), 3, 0, 0, 0) + cn  # NLMSG_DONE
print(s.sendto(msg, (port, 0)) == len(msg))
EOF
)
wait "$dpid"
n=$(jq -s 'map(select(.type == "psi")) | length' "$T/forged.json")
listed=$(jq -s --argjson p "$victim" 'map(select(.type == "task" and .pid == $p and (.exited | not))) | length' "$T/forged.json")
[ "$sent" = True ] && [ "$n" = 6 ] && [ "$listed" = 6 ]
tap_ok $? "a forged exit of a live sleeper sent to delaytop's connector port ($port) is ignored: listed in every reading" \
	"sent: '$sent'; readings $n, the sleeper listed in $listed (expected 6 and 6)"
stop_pid "$victim"

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
