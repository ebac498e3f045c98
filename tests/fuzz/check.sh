#!/bin/bash
# check.sh — each fuzz harness (tests/fuzz/fuzz_NAME) runs over its seeds, each seed once, then
# for a second of mutations on a copy of them (3 s for the harnesses that decode a whole
# recording each run, a hundred times slower than the others); any crash, leak, undefined
# behaviour or timeout fails its test. Built without libFuzzer (no clang: FUZZ_MODE=replay), a
# harness runs over its seeds only, and the fuzzing is skipped with the reason.
. "$top_srcdir/tests/lib.sh"

[ -n "${FUZZ_HARNESSES:-}" ] || skip_all "no fuzz harnesses named (FUZZ_HARNESSES)"
# A budget of 1 s (libFuzzer stops in the second second: it counts whole seconds) is 26,000 to
# 450,000 runs of each harness (8,000 and more beside two CPU hogs) but the two that decode a
# recording, a few hundred runs a second: they keep 3 s, 1,900 to 3,500 runs (600 to 1,400
# beside the hogs). FUZZ_CHECK_SECONDS sets them all.
SLOW_HARNESSES="recording recrecord"

for name in $FUZZ_HARNESSES; do
	case " $SLOW_HARNESSES " in
	*" $name "*) seconds=${FUZZ_CHECK_SECONDS:-3} ;;
	*) seconds=${FUZZ_CHECK_SECONDS:-1} ;;
	esac
	bin=$top_builddir/tests/fuzz/fuzz_$name
	seeds=$top_srcdir/tests/fuzz/corpus/$name
	work=$TMPDIR_TEST/$name
	mkdir -p "$work/corpus" "$work/crashes"
	if [ ! -x "$bin" ]; then
		tap_ok 1 "$name: the harness is built" "no $bin"
		continue
	fi
	if [ ! -d "$seeds" ] || [ -z "$(ls -A "$seeds")" ]; then
		tap_ok 1 "$name: it has seeds" "no files in $seeds"
		continue
	fi
	# Each seed once: a regression run of every input kept in the tree.
	"$bin" -timeout=10 -rss_limit_mb=1024 "$seeds"/* >"$work/seeds.log" 2>&1
	tap_ok $? "$name: every seed runs clean ($(ls "$seeds" | wc -l) files)" "$(grep -m3 -E 'ERROR|SUMMARY|runtime error' "$work/seeds.log" | tr '\n' ' ')"
	if [ "${FUZZ_MODE:-}" != libfuzzer ]; then
		tap_skip "$name: $seconds s of fuzzing" "no libFuzzer: ${FUZZ_SUMMARY:-}"
		continue
	fi
	# Mutations for a few seconds; what they add goes to the copy, not to the seeds.
	cp "$seeds"/* "$work/corpus/"
	"$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 -print_final_stats=1 \
		-artifact_prefix="$work/crashes/" "$work/corpus" >"$work/fuzz.log" 2>&1
	status=$?
	found=$(ls "$work/crashes")
	[ "$status" -eq 0 ] && [ -z "$found" ]
	tap_ok $? "$name: $seconds s of fuzzing find nothing ($(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log") runs)" \
		"status $status, found: $found" "$(grep -m3 -E 'ERROR|SUMMARY|runtime error' "$work/fuzz.log" | tr '\n' ' ')" \
		"$(for f in $found; do printf 'input %s: %s\n' "$f" "$(od -An -c "$work/crashes/$f" | head -3 | tr -s ' ')"; done)"
done

done_testing
