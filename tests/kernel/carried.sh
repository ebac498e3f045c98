#!/bin/bash
# carried.sh — a wait counts in the interval in which it ends, so one long runqueue wait (300 ms,
# from a real-time thread busy on the same CPU) ending in a 0.2 s interval shows as about 150%.
# delaytop keeps that measured value and marks it: the thread's CPU cell ends in '+' in text,
# "carried" lists "cpu" in JSON and the CSV column carried says cpu, exactly for the rows above
# 100% per thread; the text report explains the mark. The process row of the same two threads
# (at most 75% per thread) has no mark.
. "$top_srcdir/tests/lib.sh"

require_root
require_cpus 2
require_cmd jq taskset flock
require_taskstats
lock_global

wait_cpu_quiet 1 # the waits are made on CPU 1; delaytop runs on CPU 0

start_workload bursts 1 300 300; P=$WORKLOAD_PID
sleep 0.5
kill -0 "$P" 2>/dev/null || skip_all "the workload could not run a SCHED_FIFO thread"

DT=(taskset -c 0 "$DELAYTOP" -b -d 0.2 -p "$P")
"${DT[@]}" -H -n 12 --format json >"$TMPDIR_TEST/thr.json" 2>"$TMPDIR_TEST/err"
"${DT[@]}" -H -n 12 >"$TMPDIR_TEST/thr.txt" 2>>"$TMPDIR_TEST/err"
"${DT[@]}" -H -n 12 --format csv >"$TMPDIR_TEST/thr.csv" 2>>"$TMPDIR_TEST/err"
"${DT[@]}" -n 12 --format json >"$TMPDIR_TEST/proc.json" 2>>"$TMPDIR_TEST/err"
stop_pid "$P"

# JSON, thread rows: [pct, carried] of every reading with a rate
jq -c 'select(.type == "task" and .delay.cpu.pct != null) | [.delay.cpu.pct, .carried]' \
	"$TMPDIR_TEST/thr.json" >"$TMPDIR_TEST/thr.rows"
over=$(jq -s 'map(select(.[0] > 100)) | length' "$TMPDIR_TEST/thr.rows")
[ "${over:-0}" -ge 2 ]
tap_ok $? "JSON: runqueue waits of 300 ms ending in 0.2 s intervals show above 100% (the measured value)" \
	"expected at least 2 thread rows above 100%, got ${over:-none}: $(tr '\n' ' ' <"$TMPDIR_TEST/thr.rows" | head -c 600)"
jq -e -s 'length > 0 and all(.[]; (.[0] > 100) == (.[1] == ["cpu"]))' "$TMPDIR_TEST/thr.rows" >/dev/null
tap_ok $? "JSON: \"carried\" is [\"cpu\"] exactly for the thread rows above 100%, [] otherwise" \
	"rows [pct, carried]: $(tr '\n' ' ' <"$TMPDIR_TEST/thr.rows" | head -c 600)"
within "$(jq -s 'map(select(.[0] > 100) | .[0]) | max' "$TMPDIR_TEST/thr.rows")" 130 170
tap_ok $? "JSON: the marked value is the 300 ms wait over the 0.2 s interval (about 150%)" \
	"rows: $(tr '\n' ' ' <"$TMPDIR_TEST/thr.rows" | head -c 600)"

# Text: CPU cells above 100 end in '+', the others do not; the report with a mark explains it.
cells=$(awk '/^ *TID +USER/ { for (i = 1; i <= NF; i++) col[$i] = i; hdr = 1; next }
	hdr && $1 ~ /^[0-9]+$/ && $col["CPU"] != "" { print $col["CPU"], $col["TOTAL"] }' "$TMPDIR_TEST/thr.txt")
bad=$(awk '{ v = $1; m = sub(/\+$/, "", v); if ((v + 0 > 100) != m) print }' <<<"$cells" | tr '\n' '|')
marked=$(grep -c '+ ' <<<"$cells")
[ "$marked" -ge 2 ] && [ -z "$bad" ]
tap_ok $? "text: a CPU cell ends in '+' exactly when it is above 100% (and TOTAL with it)" \
	"expected >= 2 marked cells and none wrong; marked $marked, wrong: ${bad:-none}" "cells: $(tr '\n' '|' <<<"$cells" | head -c 400)"
awk '{ v = $1; m = sub(/\+$/, "", v); if (m && $2 !~ /\+$/) exit 1 }' <<<"$cells"
tap_ok $? "text: the TOTAL of a marked row is marked too" "cells: $(tr '\n' '|' <<<"$cells" | head -c 400)"
n_expl=$(grep -c '^+: above 100% per thread' "$TMPDIR_TEST/thr.txt")
[ "$n_expl" -eq "$marked" ]
tap_ok $? "text: each report with a mark explains '+' in one line under its table" \
	"expected $marked explanations, got $n_expl"
w=$(awk '/^ *TID +USER/ { h = $0; next } h && $1 ~ /^[0-9]+$/ && /\+ / { print length($0) - length(h) - (length($NF) - 7); exit }' \
	"$TMPDIR_TEST/thr.txt")
[ "${w:-x}" = 0 ]
tap_ok $? "text: the mark keeps the column widths (a marked row lines up with the titles)" "width difference: ${w:-no marked row}"

# CSV: the carried column.
got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["cpu_pct"] != "" { print ($c["cpu_pct"] + 0 > 100) ":" $c["carried"] }' "$TMPDIR_TEST/thr.csv" | sort | uniq -c | tr -s ' \n' ' ')
head -1 "$TMPDIR_TEST/thr.csv" | grep -q ',carried,' && ! grep -q -E ' 1: | 0:cpu' <<<"$got" && grep -q ' 1:cpu' <<<"$got"
tap_ok $? "CSV: the carried column says cpu exactly for the rows above 100%" "count above-100:carried: $got"

# The process row sums two threads: 150% is 75% per thread, within the limit, not marked.
pmax=$(jq -s 'map(select(.type == "task") | .delay.cpu.pct // 0) | max' "$TMPDIR_TEST/proc.json")
pcar=$(jq -s -c 'map(select(.type == "task") | .carried) | add' "$TMPDIR_TEST/proc.json")
within "$pmax" 130 170 && [ "$pcar" = "[]" ]
tap_ok $? "the two-thread process row at about 150% is within 100% per thread: no mark" \
	"max pct $pmax (expected 130..170), carried: $pcar"
[ ! -s "$TMPDIR_TEST/err" ] || diag "stderr: $(head -2 "$TMPDIR_TEST/err" | tr '\n' ' ')"
done_testing
