# peaks.sh — the longest single wait of a process row is its threads' longest (taskstats keeps it
# per thread, and the kernel's per-process answer has none): a process whose busy thread waits
# 150 ms for a real-time sibling at each burst shows that wait in process mode as in thread mode;
# the time of the wait is a time where the kernel gives one (struct version 17) and null before.
. "$top_srcdir/tests/lib.sh"

require_root
require_taskstats
require_cpus 2
require_cmd jq
lock_global
enable_delayacct

T=$TMPDIR_TEST
wait_cpu_quiet 1
start_workload bursts 1 150 350
pid=$WORKLOAD_PID
sleep 1.2 # two bursts: the spinner waited 150 ms twice

"$DELAYTOP" -b -p "$pid" -d 0.5 -n 3 --format=json >"$T/procs.json" 2>"$T/procs.err" &
dt1=$!
"$DELAYTOP" -b -H -p "$pid" -d 0.5 -n 3 --format=json >"$T/threads.json" 2>"$T/threads.err" &
dt2=$!
track_pid "$dt1"
track_pid "$dt2"
wait "$dt1"; s1=$?
wait "$dt2"; s2=$?
"$DELAYTOP" -b -p "$pid" -d 0.3 -n 2 --columns=pid,max_at,command >"$T/text" 2>&1
stop_pid "$pid"
[ "$s1$s2" = 00 ]
tap_ok $? "process and thread runs exit 0" "$s1 $s2: $(head -2 "$T/procs.err" "$T/threads.err")"

pmax=$(jq -s -r '[.[] | select(.type == "task")] | last | .delay.cpu.max_ms' "$T/procs.json")
tmax=$(jq -s -r '[.[] | select(.type == "task")] | group_by(.tid) | map(last | .delay.cpu.max_ms) | max' "$T/threads.json")
within "$pmax" 135 1000
tap_ok $? "the process row's longest CPU wait is the spinner's 150 ms (not the last thread's, not null)" \
	"process max_ms '$pmax', threads' longest '$tmax'"
awk -v p="$pmax" -v t="$tmax" 'BEGIN { exit !(p != "" && t != "" && p - t < t * 0.05 && t - p < t * 0.05) }'
tap_ok $? "and equals the longest of its thread rows' (thread mode)" "process '$pmax', threads '$tmax'"
at=$(jq -s -r '[.[] | select(.type == "task")] | last | .delay.cpu.max_at | type' "$T/procs.json")
[ "$at" = null ] || [ "$at" = string ]
tap_ok $? "its max_at is a time (struct version 17) or null (earlier): never a number of another meaning" "type '$at'"
grep -q -E '^ +PID +MAX AT COMMAND' "$T/text" &&
	grep -E "^ *$pid " "$T/text" | tail -1 | grep -q -E "^ *$pid +(-|[0-9][0-9]:[0-9][0-9]:[0-9][0-9]) "
tap_ok $? "text: --columns=pid,max_at,command shows MAX AT, a time of day or -" "$(tail -2 "$T/text")"

done_testing
