#!/bin/bash
# io_delay.sh — a task doing synchronous O_DIRECT writes to a disk-backed file spends much of its
# time waiting for block I/O: delaytop's JSON shows, in each report, the I/O delay the kernel
# counted for it (/proc/PID/stat field 42) and the CPU delay (/proc/PID/schedstat field 2) over
# the same interval, and a number of waits per second.
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

follow_delaytop "$TMPDIR_TEST/out.json" "$TMPDIR_TEST/err" "$W" -- "$DELAYTOP" -b -n 2 -d 1 --format json -p "$W"
rc=$DT_STATUS
tap_ok "$rc" "delaytop -b -n 2 --format json exits 0" "got exit status $rc" "stderr: $(head -3 "$TMPDIR_TEST/err" | tr "\n" " ")"

jq -c --argjson p "$W" 'select(.type == "task" and .pid == $p)' "$TMPDIR_TEST/out.json" >"$TMPDIR_TEST/rows"
[ "$(wc -l <"$TMPDIR_TEST/rows")" -eq 2 ] && [ "$REPORTS" -eq 2 ]
tap_ok $? "the writer (pid $W) has a task row in each report" "$(wc -l <"$TMPDIR_TEST/rows") rows in $REPORTS reports: $(head -c 300 "$TMPDIR_TEST/out.json" | tr "\n" " ")"
k=0
while read -r iv io cpu per_s; do
	k=$((k + 1))
	range=$(counted io "$k" "$W")
	agrees_with_kernel "$io" "$iv" io "$k" "$W" && awk -v r="$range" -v iv="$iv" 'BEGIN { split(r, b, " "); exit !(b[2] > iv * 1000 * 0.05) }'
	tap_ok $? "report $k: the O_DIRECT writer's I/O delay is what the kernel counted for it (stat field 42), 5% of the time or more" \
		"$AGREED"
	diag "report $k, I/O delay: $AGREED"
	within "$per_s" 1 1e9
	tap_ok $? "report $k: the writer's I/O waits are counted: io per_s above 0" "expected delay.io.per_s >= 1, got '$per_s'"
	# each of its thousands of wake-ups a second waits a little for a CPU, more on a busy machine
	agrees_with_kernel "$cpu" "$iv" wait "$k" "$W"
	tap_ok $? "report $k: the writer's CPU delay is what the kernel counted for it (schedstat field 2)" "$AGREED"
	diag "report $k, CPU delay: $AGREED"
done < <(jq -r '"\(.interval_s) \(.delay.io.pct) \(.delay.cpu.pct) \(.delay.io.per_s)"' "$TMPDIR_TEST/rows")

stop_pid "$W"
done_testing
