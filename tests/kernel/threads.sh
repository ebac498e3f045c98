#!/bin/bash
# threads.sh — a process with 4 threads spinning on one CPU and a sleeping main thread. As a
# process row its CPU delay is the sum of its threads' (~300%), not the main thread's; with -H
# each spinning thread waits ~75%, thread rows carry their tid and the process id in pid, and the
# sleeping main thread waits ~0.
. "$top_srcdir/tests/lib.sh"

require_root
require_cpus 2
require_cmd jq flock
require_taskstats
lock_global
enable_delayacct


wait_cpu_quiet 1 # the expected numbers assume CPU 1 is otherwise idle

start_workload threads 4 1; P=$WORKLOAD_PID
for _ in $(seq 50); do # the 4 threads exist
	[ "$(ls "/proc/$P/task" 2>/dev/null | wc -l)" -ge 5 ] && break
	sleep 0.05
done
sleep 0.3
[ "$(ls "/proc/$P/task" | wc -l)" -eq 5 ] || skip_all "workload threads 4 1 did not start 4 threads"

# Process mode and thread mode over the same 2 s, in parallel, so the two views can be compared.
"$DELAYTOP" -b -n 2 -d 1 --format json -p "$P" >"$TMPDIR_TEST/proc.json" 2>"$TMPDIR_TEST/proc.err" &
dp=$!
"$DELAYTOP" -b -H -n 2 -d 1 --format json -p "$P" >"$TMPDIR_TEST/thr.json" 2>"$TMPDIR_TEST/thr.err"
rc_thr=$?
wait "$dp"
rc_proc=$?
tap_ok "$rc_proc" "delaytop -b (process mode) exits 0" "got $rc_proc: $(head -2 "$TMPDIR_TEST/proc.err" | tr "\n" " ")"
tap_ok "$rc_thr" "delaytop -b -H (thread mode) exits 0" "got $rc_thr: $(head -2 "$TMPDIR_TEST/thr.err" | tr "\n" " ")"

# ---- process mode: the last report ----
prow=$(jq -c 'select(.type == "task")' "$TMPDIR_TEST/proc.json" | tail -1)
pcpu=$(jq -r '.delay.cpu.pct' <<<"${prow:-null}")
prun=$(jq -r '.run_pct' <<<"${prow:-null}")
ptid=$(jq -r '.tid' <<<"${prow:-null}")
ppid=$(jq -r '.pid' <<<"${prow:-null}")
nproc_rows=$(jq -c 'select(.type == "task")' "$TMPDIR_TEST/proc.json" | wc -l)

[ "$nproc_rows" -eq 2 ] && [ "$ppid" = "$P" ] && [ "$ptid" = null ]
tap_ok $? "process mode: one row per report for the process, pid $P, tid null" \
	"expected 2 rows with pid $P and tid null, got $nproc_rows rows, last pid=$ppid tid=$ptid"
within "$pcpu" 260 340
tap_ok $? "process row sums its 4 waiting threads: CPU delay about 300% (±40)" "expected 260..340, got '$pcpu'"
within "$prun" 85 115
tap_ok $? "process row: CPU% about 100 (4 threads share one CPU)" "expected run_pct 85..115, got '$prun'"

# ---- thread mode: the last report ----
last_time=$(jq -r 'select(.type == "psi") | .time' "$TMPDIR_TEST/thr.json" | tail -1)
jq -c --arg t "$last_time" 'select(.type == "task" and .time == $t)' "$TMPDIR_TEST/thr.json" >"$TMPDIR_TEST/thr.last"
nthr=$(wc -l <"$TMPDIR_TEST/thr.last")
[ "$nthr" -eq 5 ]
tap_ok $? "thread mode: the last report has 5 thread rows (4 spinners + main)" "expected 5, got $nthr"

bad_pid=$(jq -r --argjson p "$P" 'select(.pid != $p) | .tid' "$TMPDIR_TEST/thr.last" | head -3 | tr '\n' ' ')
[ "$nthr" -gt 0 ] && [ -z "$bad_pid" ]
tap_ok $? "thread rows carry the process id ($P) in pid" "rows with another pid (their tids): ${bad_pid:-none}"

tids=$(jq -r '.tid' "$TMPDIR_TEST/thr.last" | sort -n | tr '\n' ' ')
want=$(ls "/proc/$P/task" | sort -n | tr '\n' ' ')
[ "$tids" = "$want" ]
tap_ok $? "thread rows carry each thread's own tid" "expected tids: $want" "got tids:      $tids"

main=$(jq -c --argjson p "$P" 'select(.tid == $p)' "$TMPDIR_TEST/thr.last")
mcpu=$(jq -r '.delay.cpu.pct' <<<"${main:-null}")
within "$mcpu" 0 2
tap_ok $? "the sleeping main thread (tid $P) shows about 0% CPU delay" "expected 0..2, got '$mcpu'"

n_ok=0 got=""
while read -r tid pct; do
	got="$got $tid:$pct"
	within "$pct" 63 87 && n_ok=$((n_ok + 1))
done < <(jq -r --argjson p "$P" 'select(.tid != $p) | "\(.tid) \(.delay.cpu.pct)"' "$TMPDIR_TEST/thr.last")
[ "$n_ok" -eq 4 ]
tap_ok $? "each of the 4 spinning threads waits about 75% (±12)" "expected 4 threads at 63..87, got:$got"

sum=$(jq -s 'map(.delay.cpu.pct // 0) | add' "$TMPDIR_TEST/thr.last")
diag "process row: cpu=$pcpu run=$prun; threads:$got; main=$mcpu; sum of threads=$sum"

# The process row is the whole process, not its main thread: it matches the sum of the thread
# rows of the same interval and is far from the main thread's ~0.
within "$(awk -v a="$pcpu" -v b="$sum" 'BEGIN { d = a - b; print (d < 0 ? -d : d) }')" 0 20
tap_ok $? "process row CPU delay equals the sum of its thread rows (±20), not the main thread's" \
	"process row $pcpu, sum of threads $sum, main thread $mcpu"
within "$(awk -v a="$pcpu" -v b="$mcpu" 'BEGIN { print a - b }')" 200 1000
tap_ok $? "process row is not the main thread's numbers (differs by 200+ points)" \
	"process row $pcpu, main thread $mcpu"

stop_pid "$P"
done_testing
