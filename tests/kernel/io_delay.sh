#!/bin/bash
# io_delay.sh — a task doing synchronous O_DIRECT writes to a disk-backed file spends most of its
# time waiting for block I/O: delaytop's JSON shows io pct above 30%, and a CPU delay that agrees
# with the task's own /proc/PID/schedstat.
. "$top_srcdir/tests/lib.sh"

require_root
require_cmd jq flock
require_taskstats

# O_DIRECT writes need a disk-backed directory
DIR=$(disk_dir)
[ -n "$DIR" ] || skip_all "no disk-backed writable directory (only tmpfs among /var/tmp, builddir, /tmp)"
WDIR=$(mktemp -d "$DIR/delaytop-io.XXXXXX") || skip_all "cannot create a directory in $DIR"
trap 'cleanup; rm -rf "$WDIR"' EXIT

lock_global
enable_delayacct


start_workload odirect "$WDIR/data"; W=$WORKLOAD_PID
sleep 0.3
kill -0 "$W" 2>/dev/null || skip_all "O_DIRECT writes fail on $DIR ($(stat -f -c %T "$DIR"))"
diag "writer pid $W on $DIR ($(stat -f -c %T "$DIR"))"

# An independent measure of the same CPU delay: the writer's run-queue wait (schedstat field 2)
# over the second report's interval (from when the first report is out to the end), as a share
# of wall time. The whole run would not do: the writer waits more while delaytop starts.
"$DELAYTOP" -b -n 2 -d 1 --format json -p "$W" >"$TMPDIR_TEST/out.json" 2>"$TMPDIR_TEST/err" &
DT=$!
track_pid "$DT"
for _ in $(seq 500); do
	grep -q '"type":"psi"' "$TMPDIR_TEST/out.json" 2>/dev/null && break
	sleep 0.01
done
wait0=$(schedstat_wait "$W"); t0=$(date +%s%N)
wait "$DT"
rc=$?
wait1=$(schedstat_wait "$W"); t1=$(date +%s%N)
sched_pct=$(awk -v a="$wait0" -v b="$wait1" -v t0="$t0" -v t1="$t1" 'BEGIN { printf "%.3f", 100 * (b - a) / (t1 - t0) }')
tap_ok "$rc" "delaytop -b -n 2 --format json exits 0" "got exit status $rc" "stderr: $(head -3 "$TMPDIR_TEST/err" | tr "\n" " ")"

last=$(jq -c --argjson p "$W" 'select(.type == "task" and .pid == $p)' "$TMPDIR_TEST/out.json" | tail -1)
io=$(jq -r '.delay.io.pct' <<<"${last:-null}" 2>/dev/null)
cpu=$(jq -r '.delay.cpu.pct' <<<"${last:-null}" 2>/dev/null)
per_s=$(jq -r '.delay.io.per_s' <<<"${last:-null}" 2>/dev/null)

[ -n "$last" ]
tap_ok $? "the writer (pid $W) has a task row" "no task line with pid $W in: $(head -c 300 "$TMPDIR_TEST/out.json" | tr "\n" " ")"
within "$io" 30.001 110
tap_ok $? "the O_DIRECT writer waits for block I/O: io pct above 30%" "expected delay.io.pct > 30, got '$io'"
within "$per_s" 1 1e9
tap_ok $? "the writer's I/O waits are counted: io per_s above 0" "expected delay.io.per_s >= 1, got '$per_s'"
# Each of the ~10^4 wake-ups per second waits a little for a CPU, much more on a busy machine, so
# the CPU delay is checked against schedstat rather than against a fixed bound.
lo=$(awk -v s="$sched_pct" 'BEGIN { printf "%.3f", s * 0.5 - 2 }')
hi=$(awk -v s="$sched_pct" 'BEGIN { printf "%.3f", s * 1.5 + 2 }')
[[ $cpu =~ ^[0-9.]+$ ]] && within "$cpu" "$lo" "$hi"
tap_ok $? "the writer's CPU delay agrees with /proc/PID/schedstat (${sched_pct}% over the run)" "expected delay.cpu.pct in [$lo, $hi], got '$cpu'"
diag "io=$io% ($per_s/s) cpu=$cpu% schedstat=$sched_pct%"

stop_pid "$W"
done_testing
