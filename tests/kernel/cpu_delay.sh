#!/bin/bash
# cpu_delay.sh — two spinners sharing one CPU wait for it: delaytop's CSV shows, for each, the CPU
# delay and the CPU% that the kernel itself counted for the task over each report's interval
# (/proc/PID/schedstat fields 2 and 1, read just before and just after delaytop's readings), on a
# quiet machine (about 50% each) as on a busy one (whatever another job on CPU 1 leaves them).
. "$top_srcdir/tests/lib.sh"

require_root
require_cpus 2
require_cmd python3 flock
require_taskstats
lock_global
enable_delayacct

start_workload spin 1; A=$WORKLOAD_PID
start_workload spin 1; B=$WORKLOAD_PID
sleep 0.5 # let the pair settle into sharing CPU 1

follow_delaytop "$TMPDIR_TEST/out.csv" "$TMPDIR_TEST/err" "$A" "$B" -- \
	"$DELAYTOP" -b -n 3 -d 1 --format csv -p "$A,$B"
tap_ok "$DT_STATUS" "delaytop -b -n 3 --format csv exits 0" "got exit status $DT_STATUS" \
	"stderr: $(head -3 "$TMPDIR_TEST/err" | tr "\n" " ")"
diag "reports came ${REPORT_LAG[*]} ms after their readings began"

# rows PID: "interval_s cpu_pct run_pct", one line per report, columns found by their header names.
rows() {
	python3 - "$TMPDIR_TEST/out.csv" "$1" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1], newline='')):
    if r['pid'] == sys.argv[2]:
        print(r['interval_s'] or '-', r['cpu_pct'] or '-', r['run_pct'] or '-')
PY
}

for who in A B; do
	pid=${!who}
	mapfile -t mine < <(rows "$pid")
	[ "${#mine[@]}" = 3 ] && [ "$REPORTS" = 3 ]
	tap_ok $? "spinner $who (pid $pid) has one row in each of the 3 reports" \
		"expected 3 rows in 3 reports, got ${#mine[@]} rows in $REPORTS reports"
	for k in 1 2 3; do
		read -r iv cpu run <<<"${mine[k - 1]:-}"
		agrees_with_kernel "${cpu:-}" "${iv:-}" wait "$k" "$pid"
		tap_ok $? "spinner $who, report $k: its CPU delay is the run-queue wait the kernel counted (schedstat field 2)" \
			"$AGREED"
		diag "spinner $who, report $k, CPU delay: $AGREED"
		agrees_with_kernel "${run:-}" "${iv:-}" run "$k" "$pid"
		tap_ok $? "spinner $who, report $k: its CPU% (run_pct) is the time on a CPU the kernel counted (schedstat field 1)" \
			"$AGREED"
	done
done

stop_pid "$A"
stop_pid "$B"
done_testing
