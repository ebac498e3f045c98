#!/bin/bash
# threads.sh — a process with 4 threads spinning on one CPU and a sleeping main thread. As a
# process row its CPU delay and CPU% are the sums of its threads' (about 300% and 100% on a quiet
# machine), not the main thread's; with -H each thread has a row with its tid and the process id
# in pid, the spinning threads with their own waits (about 75% each when quiet) and the sleeping
# main thread with about none. Each number is checked against what the kernel counted for the
# threads over the report's interval (/proc/TID/schedstat), so the test holds on a busy machine.
. "$top_srcdir/tests/lib.sh"

require_root
require_cpus 2
require_cmd jq flock
require_taskstats
lock_global
enable_delayacct

start_workload threads 4 1; P=$WORKLOAD_PID
for _ in $(seq 50); do # the 4 threads exist
	[ "$(ls "/proc/$P/task" 2>/dev/null | wc -l)" -ge 5 ] && break
	sleep 0.05
done
sleep 0.3
[ "$(ls "/proc/$P/task" | wc -l)" -eq 5 ] || skip_all "workload threads 4 1 did not start 4 threads"
TIDS=$(ls "/proc/$P/task" | sort -n | tr '\n' ' ')

# ---- process mode ----
follow_delaytop "$TMPDIR_TEST/proc.json" "$TMPDIR_TEST/proc.err" $TIDS -- \
	"$DELAYTOP" -b -n 3 -d 1 --format json -p "$P"
tap_ok "$DT_STATUS" "delaytop -b (process mode) exits 0" "got $DT_STATUS: $(head -2 "$TMPDIR_TEST/proc.err" | tr "\n" " ")"
jq -c 'select(.type == "task")' "$TMPDIR_TEST/proc.json" >"$TMPDIR_TEST/proc.rows"
nproc_rows=$(wc -l <"$TMPDIR_TEST/proc.rows")
bad=$(jq -r --argjson p "$P" 'select(.pid != $p or .tid != null) | "pid \(.pid) tid \(.tid)"' "$TMPDIR_TEST/proc.rows" | tr '\n' ' ')
[ "$nproc_rows" -eq 3 ] && [ "$REPORTS" -eq 3 ] && [ -z "$bad" ]
tap_ok $? "process mode: one row per report for the process, pid $P, tid null" \
	"expected 3 rows in 3 reports with pid $P and tid null, got $nproc_rows rows in $REPORTS reports; others: $bad"
k=0
while read -r iv cpu run; do
	k=$((k + 1))
	agrees_with_kernel "$cpu" "$iv" wait "$k" $TIDS
	tap_ok $? "process row, report $k: its CPU delay is the sum of its threads' run-queue waits (schedstat)" "$AGREED"
	diag "process row, report $k, CPU delay: $AGREED"
	agrees_with_kernel "$run" "$iv" run "$k" $TIDS
	tap_ok $? "process row, report $k: its CPU% is the sum of its threads' time on a CPU (schedstat)" "$AGREED"
	pcpu=$cpu # the last report's, for the check at the end
done < <(jq -r '"\(.interval_s) \(.delay.cpu.pct) \(.run_pct)"' "$TMPDIR_TEST/proc.rows")

# ---- thread mode ----
follow_delaytop "$TMPDIR_TEST/thr.json" "$TMPDIR_TEST/thr.err" $TIDS -- \
	"$DELAYTOP" -b -H -n 3 -d 1 --format json -p "$P"
tap_ok "$DT_STATUS" "delaytop -b -H (thread mode) exits 0" "got $DT_STATUS: $(head -2 "$TMPDIR_TEST/thr.err" | tr "\n" " ")"
last_time=$(jq -r 'select(.type == "psi") | .time' "$TMPDIR_TEST/thr.json" | tail -1)
jq -c --arg t "$last_time" 'select(.type == "task" and .time == $t)' "$TMPDIR_TEST/thr.json" >"$TMPDIR_TEST/thr.last"
nthr=$(wc -l <"$TMPDIR_TEST/thr.last")
[ "$nthr" -eq 5 ]
tap_ok $? "thread mode: the last report has 5 thread rows (4 spinners + main)" "expected 5, got $nthr"

bad_pid=$(jq -r --argjson p "$P" 'select(.pid != $p) | .tid' "$TMPDIR_TEST/thr.last" | head -3 | tr '\n' ' ')
[ "$nthr" -gt 0 ] && [ -z "$bad_pid" ]
tap_ok $? "thread rows carry the process id ($P) in pid" "rows with another pid (their tids): ${bad_pid:-none}"

tids=$(jq -r '.tid' "$TMPDIR_TEST/thr.last" | sort -n | tr '\n' ' ')
[ "$tids" = "$TIDS" ]
tap_ok $? "thread rows carry each thread's own tid" "expected tids: $TIDS" "got tids:      $tids"

main=$(jq -c --argjson p "$P" 'select(.tid == $p)' "$TMPDIR_TEST/thr.last")
mcpu=$(jq -r '.delay.cpu.pct' <<<"${main:-null}")
within "$mcpu" 0 2
tap_ok $? "the sleeping main thread (tid $P) shows about 0% CPU delay" "expected 0..2, got '$mcpu'"

# each thread in each report, against its own schedstat
bad="" n_ok=0
for tid in $TIDS; do
	k=0
	while read -r iv cpu; do
		k=$((k + 1))
		if agrees_with_kernel "$cpu" "$iv" wait "$k" "$tid"; then
			n_ok=$((n_ok + 1))
		else
			bad="$bad; thread $tid, report $k: $AGREED"
		fi
	done < <(jq -r --argjson t "$tid" 'select(.type == "task" and .tid == $t) | "\(.interval_s) \(.delay.cpu.pct)"' \
		"$TMPDIR_TEST/thr.json")
done
[ "$n_ok" -eq 15 ] && [ -z "$bad" ]
tap_ok $? "each thread's CPU delay in each of the 3 reports is the run-queue wait the kernel counted for it" \
	"expected 15 agreeing rows, got $n_ok${bad}"
diag "thread mode, last report: $(jq -r '"\(.tid):\(.delay.cpu.pct)"' "$TMPDIR_TEST/thr.last" | tr '\n' ' ')"

# The process row is the whole process, not its main thread: 4 threads sharing a CPU wait 300%
# or more between them, however busy the machine, while the main thread sleeps.
within "$(awk -v a="$pcpu" -v b="$mcpu" 'BEGIN { print a - b }')" 200 1000
tap_ok $? "process row is not the main thread's numbers (differs by 200+ points)" \
	"process row $pcpu, main thread $mcpu"

stop_pid "$P"
done_testing
