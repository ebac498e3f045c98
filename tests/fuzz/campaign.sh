#!/bin/sh
# campaign.sh SRCDIR SECONDS OPTIONS NAME... — make fuzz: each harness tests/fuzz/fuzz_NAME for
# SECONDS on a corpus of its own under tests/fuzz/run/NAME/ (the seeds copied there at the start,
# what libFuzzer adds kept for the next campaign), the inputs that fail in tests/fuzz/run/crashes/,
# and a line of figures per harness. Fails when any harness found something.
srcdir=$1 seconds=$2 options=$3
shift 3
[ $# -gt 0 ] || { echo "fuzz: no harnesses were built"; exit 1; }
run=tests/fuzz/run
mkdir -p "$run/crashes"
failed=""
printf '%-12s %10s %8s %8s %8s %8s  %s\n' harness runs exec/s cov ft corpus found
for name in "$@"; do
	mkdir -p "$run/$name"
	cp "$srcdir/tests/fuzz/corpus/$name"/* "$run/$name/" 2>/dev/null
	before=$(ls "$run/crashes" | wc -l)
	# shellcheck disable=SC2086 # OPTIONS is words for libFuzzer
	tests/fuzz/fuzz_"$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$run/crashes/$name-" $options "$run/$name" >"$run/$name.log" 2>&1
	status=$?
	after=$(ls "$run/crashes" | wc -l)
	# The last status line: "#N DONE cov: C ft: F corp: K/SIZE exec/s: E ..." (or the last one before a crash).
	last=$(grep -E '^#[0-9]+' "$run/$name.log" | tail -1)
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$run/$name.log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$run/$name.log")
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\/[0-9a-zA-Z]*\).*/\1/p')
	found=$((after - before))
	[ "$status" -eq 0 ] && [ "$found" -eq 0 ] || failed="$failed $name"
	printf '%-12s %10s %8s %8s %8s %8s  %s\n' "$name" "${runs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" \
		"$([ "$found" -eq 0 ] && [ "$status" -eq 0 ] && echo none || echo "status $status, $found new in $run/crashes (log $run/$name.log)")"
done
if [ -n "$failed" ]; then
	echo "fuzz: found something in:$failed"
	exit 1
fi
