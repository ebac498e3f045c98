#!/bin/bash
# steady.sh — thread mode asks taskstats about a process's threads only when the process's own
# answer moved since the last reading (the threads of a still process keep their readings):
# nothing is missed. A process of 300 sleeping threads whose one other thread waits for the CPU
# about 58 ms every 1.3 s, so that most intervals find it still: every report lists all of its
# threads, the waits reported for that thread add up to its own schedstat over the run, and only
# the intervals with a wait show one. A thread that spins on a CPU, never switching, shows its
# CPU time in every report: what the kernel counted for it (schedstat field 1). A second such
# process, with one more thread that wakes every 50 ms, moves at every refresh and is split
# instead (its hot threads asked, the others carried only when its own answer proves they did
# not move): its waiter's waits add up too. (Threads that end between readings: exits.sh.)
. "$top_srcdir/tests/lib.sh"

require_root
require_cpus 2
require_cmd jq
require_taskstats
lock_global
enable_delayacct

wait_cpu_quiet 1
"$WORKLOAD" rare 300 1 60 1300 >"$TMPDIR_TEST/rare.out" 2>&1 9>&- &
R=$!
# in phase with the first (started right after it), on the other CPU, and ticking
"$WORKLOAD" rare 300 0 60 1300 1 >"$TMPDIR_TEST/rare2.out" 2>&1 9>&- &
R2=$!
track_pid "$R"
track_pid "$R2"
start_workload threads 1 0
S=$WORKLOAD_PID
for _ in $(seq 200); do
	[ -s "$TMPDIR_TEST/rare.out" ] && [ "$(ls "/proc/$R/task" 2>/dev/null | wc -l)" -ge 303 ] &&
		[ -s "$TMPDIR_TEST/rare2.out" ] && [ "$(ls "/proc/$R2/task" 2>/dev/null | wc -l)" -ge 304 ] &&
		[ "$(ls "/proc/$S/task" 2>/dev/null | wc -l)" -ge 2 ] && break
	sleep 0.05
done
W=$(head -1 "$TMPDIR_TEST/rare.out")
W2=$(head -1 "$TMPDIR_TEST/rare2.out")
nr=$(ls "/proc/$R/task" 2>/dev/null | wc -l)
nr2=$(ls "/proc/$R2/task" 2>/dev/null | wc -l)
[ -n "$W" ] && [ "$nr" -eq 303 ] || skip_all "workload rare did not start its 303 threads (got $nr, tid '$W')"
[ -n "$W2" ] && [ "$nr2" -eq 304 ] || skip_all "workload rare with a ticker did not start its 304 threads (got $nr2, tid '$W2')"
SPIN=$(ls "/proc/$S/task" | grep -v -x "$S" | head -1)

# Starts just after a wait ended (the waiter's schedstat moves when it gets the CPU back), so
# that the run (12 intervals of 0.5 s) begins and ends between waits: its first and last readings
# and the two schedstat readings around it see the same waits.
w0=$(schedstat_wait "$W")
for _ in $(seq 300); do
	[ "$(schedstat_wait "$W")" != "$w0" ] && break
	sleep 0.01
done
sleep 0.1
# the waiters' counters just before delaytop starts and as its last report comes, not after it
# has exited (a slow exit, as a sanitizer build's, could reach into the next wait)
follow_delaytop "$TMPDIR_TEST/out.json" "$TMPDIR_TEST/err" "$W" "$W2" "$SPIN" -- \
	"$DELAYTOP" -b -H --format json -d 0.5 -n 12 -p "$R,$R2,$S"
rc=$DT_STATUS
before=${MARK_WAIT[F0:$W]} before2=${MARK_WAIT[F0:$W2]}
after=${MARK_WAIT[${REPORT_HI[12]:-F0}:$W]} after2=${MARK_WAIT[${REPORT_HI[12]:-F0}:$W2]}
tap_ok "$rc" "delaytop -b -H exits 0" "got $rc: $(head -2 "$TMPDIR_TEST/err")"
diag "reports came ${REPORT_LAG[*]} ms after their readings began"

reports=$(jq -r 'select(.type == "psi") | .time' "$TMPDIR_TEST/out.json" | wc -l)
[ "$reports" -eq 12 ]
tap_ok $? "12 reports" "got $reports"

# check_process PID THREADS WAITER BEFORE AFTER WHAT: every report lists the THREADS threads of
# PID, and the CPU waits reported for its WAITER (percent of each interval) add up to the growth
# of its schedstat from BEFORE to AFTER (ns).
check_process() {
	local counts got_ms want_ms
	counts=$(jq -r --argjson p "$1" 'select(.type == "task" and .pid == $p) | .time' "$TMPDIR_TEST/out.json" |
		uniq -c | awk '{ print $1 }' | sort -u | tr '\n' ' ')
	[ "$counts" = "$2 " ]
	tap_ok $? "every report lists all $2 threads of the $6 process" "rows per report: $counts"
	got_ms=$(jq -r --argjson w "$3" 'select(.type == "task" and .tid == $w) | "\(.delay.cpu.pct) \(.interval_s)"' \
		"$TMPDIR_TEST/out.json" | awk '{ s += $1 / 100 * $2 } END { printf "%.1f", s * 1000 }')
	want_ms=$(awk -v a="$4" -v b="$5" 'BEGIN { printf "%.1f", (b - a) / 1e6 }')
	awk -v g="$got_ms" -v w="$want_ms" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(w >= 150 && d <= w * 0.1 + 5) }'
	tap_ok $? "in the $6 process, the waits reported for the rare waiter add up to its schedstat over the run (±10%)" \
		"reports: $got_ms ms, schedstat: $want_ms ms (at least 150 expected)"
}
check_process "$R" 303 "$W" "$before" "$after" "mostly still"
check_process "$R2" 304 "$W2" "$before2" "$after2" "ticking (split at every refresh)"

waited=$(jq -r --argjson w "$W" 'select(.type == "task" and .tid == $w) | .delay.cpu.pct' "$TMPDIR_TEST/out.json" |
	awk '$1 > 1 { n++ } END { print n + 0 }')
[ "$waited" -ge 3 ] && [ "$waited" -le 6 ]
tap_ok $? "only the intervals with a wait show one (4 or 5 waits in 6 s, each in one or two intervals)" \
	"intervals with CPU delay above 1%: $waited of 12"

spin=$(jq -r --argjson t "$SPIN" 'select(.type == "task" and .tid == $t) | "\(.interval_s) \(.run_pct)"' \
	"$TMPDIR_TEST/out.json")
n_spin=0 bad=""
while read -r iv run; do
	n_spin=$((n_spin + 1))
	agrees_with_kernel "$run" "$iv" run "$n_spin" "$SPIN" && within "$run" 1 200 || bad="$bad report $n_spin: $AGREED;"
done <<<"$spin"
[ "$n_spin" -eq 12 ] && [ -z "$bad" ]
tap_ok $? "a thread that spins without switching shows its CPU time in every report (the kernel's, schedstat field 1)" \
	"$n_spin reports;$bad"

done_testing
