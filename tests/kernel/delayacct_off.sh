#!/bin/bash
# delayacct_off.sh — with kernel.task_delayacct=0 delaytop warns on stderr (naming the sysctl and
# that only tasks started after switching it on get the other delays), says so in the text header,
# shows every non-CPU kind as null (unavailable, not 0) in JSON while CPU delay stays a number,
# and never changes the sysctl itself. The exporter (--listen) warns once too.
. "$top_srcdir/tests/lib.sh"

require_root
require_cpus 2
require_cmd jq flock
require_taskstats
[ -e /proc/sys/kernel/task_delayacct ] || skip_all "this kernel has no kernel.task_delayacct"
lock_global
set_sysctl kernel.task_delayacct 0 || skip_all "cannot set kernel.task_delayacct"

start_workload spin 1; A=$WORKLOAD_PID
start_workload spin 1; B=$WORKLOAD_PID
sleep 0.3

before=$(sysctl -n kernel.task_delayacct)
"$DELAYTOP" -b -n 2 -d 0.5 -p "$A,$B" >"$TMPDIR_TEST/out.txt" 2>"$TMPDIR_TEST/err.txt"
rc_t=$?
mid=$(sysctl -n kernel.task_delayacct)
follow_delaytop "$TMPDIR_TEST/out.json" "$TMPDIR_TEST/err.json" "$A" "$B" -- \
	"$DELAYTOP" -b -n 2 -d 0.5 --format json -p "$A,$B"
rc_j=$DT_STATUS
after=$(sysctl -n kernel.task_delayacct)

[ "$rc_t" -eq 0 ] && [ "$rc_j" -eq 0 ]
tap_ok $? "delaytop exits 0 with delay accounting off" "text exit $rc_t, json exit $rc_j"

[ "$before" = 0 ] && [ "$mid" = 0 ] && [ "$after" = 0 ]
tap_ok $? "delaytop never changes kernel.task_delayacct (0 before and after both runs)" \
	"before=$before after text run=$mid after json run=$after"

err=$(tr '\n' '|' <"$TMPDIR_TEST/err.txt")
n=$(grep -c 'kernel\.task_delayacct' "$TMPDIR_TEST/err.txt")
[ "$n" -eq 1 ]
tap_ok $? "stderr warns once, naming kernel.task_delayacct" "expected 1 line naming it, got $n: $err"
grep -q -i -E 'only tasks (started|created|forked) after' "$TMPDIR_TEST/err.txt"
tap_ok $? "the warning says only tasks started after switching it on get the other delays" "got: $err"

hdr=$(grep -i 'delay accounting' "$TMPDIR_TEST/out.txt" | head -1)
n_hdr=$(grep -c -i 'delay accounting off' "$TMPDIR_TEST/out.txt")
[ "$n_hdr" -eq 2 ]
tap_ok $? "the text header of each report says delay accounting is off" \
	"expected 2 headers with 'delay accounting off', got $n_hdr; first: '$hdr'"

da=$(jq -r 'select(.type == "psi") | .delayacct' "$TMPDIR_TEST/out.json" | sort -u | tr '\n' ' ')
[ "$da" = "off " ]
tap_ok $? "JSON psi lines say delayacct off" "expected off, got: $da"

for who in A B; do
	pid=${!who}
	row=$(jq -c --argjson p "$pid" 'select(.type == "task" and .pid == $p)' "$TMPDIR_TEST/out.json" | tail -1)
	cpu=$(jq -r '.delay.cpu.pct' <<<"${row:-null}")
	agrees_with_kernel "$cpu" "$(jq -r '.interval_s' <<<"${row:-null}")" wait 2 "$pid"
	tap_ok $? "spinner $who: CPU delay is still a number, the run-queue wait the kernel counted (schedstat)" "$AGREED"
	not_null=$(jq -r '.delay | to_entries[] | select(.key != "cpu") | .key as $k | .value | to_entries[]
		| select(.value != null) | "\($k).\(.key)=\(.value)"' <<<"${row:-null}" 2>/dev/null | tr '\n' ' ')
	kinds=$(jq -r '.delay | keys[]' <<<"${row:-null}" 2>/dev/null | sort | tr '\n' ' ')
	[ "$kinds" = "compact cpu io irq reclaim swapin thrashing wpcopy " ] && [ -z "$not_null" ]
	tap_ok $? "spinner $who: io/swapin/reclaim/thrashing/compact/wpcopy/irq are null (unavailable, not 0)" \
		"kinds: $kinds" "not null: ${not_null:-none}"
done

stop_pid "$A"
stop_pid "$B"

# The exporter warns once too, over several readings.
if command -v curl >/dev/null; then
	start_exporter --readings 3 -d 0.3
	up=$?
	stop_pid "$EXPORTER_PID"
	n=$(grep -c 'kernel\.task_delayacct' "$TMPDIR_TEST/exporter.err")
	[ "$up" = 0 ] && [ "$n" -eq 1 ]
	tap_ok $? "--listen: stderr warns once, naming kernel.task_delayacct, over 3 readings" \
		"exporter up: $up; lines naming it: $n: $(tr '\n' '|' <"$TMPDIR_TEST/exporter.err")"
else
	tap_skip "--listen: stderr warns once" "needs curl"
fi
done_testing
