#!/bin/bash
# carried.sh — a wait counts in the interval in which it ends, so one long runqueue wait (300 ms,
# from a real-time thread busy on the same CPU, and more when another task runs there too)
# ending in a 0.25 s interval shows as about 120%: what the kernel counted for the thread in it.
# delaytop keeps that measured value and marks it: the thread's CPU cell ends in '+' in text,
# "carried" lists "cpu" in JSON and the CSV column carried says cpu, exactly for the rows above
# 100% per thread; the text report explains the mark. The process row of the same two threads is
# marked only above 200%: above 100% (the long wait) it is not.
. "$top_srcdir/tests/lib.sh"

require_root
require_cpus 2
require_cmd jq taskset flock
require_taskstats
lock_global
start_workload bursts 1 300 300; P=$WORKLOAD_PID
sleep 0.5
kill -0 "$P" 2>/dev/null || skip_all "the workload could not run a SCHED_FIFO thread"
TIDS=$(ls "/proc/$P/task" | sort -n | tr '\n' ' ')

# pct_agree FILE ID-FIELD: "N BAD": how many task rows of FILE (followed) agree with what the
# kernel counted for their task (ID-FIELD tid, or pid for the process: all its threads), and the
# others.
pct_agree() {
	local n=0 bad="" k=0 line iv id pct
	while read -r line; do
		if [ "$line" = psi ]; then
			k=$((k + 1))
			continue
		fi
		read -r id iv pct <<<"$line"
		if [ "$2" = pid ]; then
			agrees_with_kernel "$pct" "$iv" wait "$k" $TIDS
		else
			agrees_with_kernel "$pct" "$iv" wait "$k" "$id"
		fi && n=$((n + 1)) || bad="$bad report $k, $id: $AGREED;"
	done < <(jq -r --arg f "$2" 'if .type == "psi" then "psi" elif .type == "task" then "\(.[$f]) \(.interval_s) \(.delay.cpu.pct)" else empty end' "$1")
	echo "$n $bad"
}

# 20 readings of 0.25 s: 8 bursts or so. A wait that ends after more than 2.2 intervals (the
# burst and a long turn of other tasks on a busy CPU) is shown as "-", so the more the better.
N=20
DT=(taskset -c 0 "$DELAYTOP" -b -d 0.25 -p "$P")
follow_delaytop "$TMPDIR_TEST/thr.json" "$TMPDIR_TEST/err" $TIDS -- "${DT[@]}" -H -n $N --format json
read -r thr_ok thr_bad <<<"$(pct_agree "$TMPDIR_TEST/thr.json" tid)"
"${DT[@]}" -H -n $N >"$TMPDIR_TEST/thr.txt" 2>>"$TMPDIR_TEST/err"
"${DT[@]}" -H -n $N --format csv >"$TMPDIR_TEST/thr.csv" 2>>"$TMPDIR_TEST/err"
follow_delaytop "$TMPDIR_TEST/proc.json" "$TMPDIR_TEST/err2" $TIDS -- "${DT[@]}" -n $N --format json
cat "$TMPDIR_TEST/err2" >>"$TMPDIR_TEST/err"
read -r proc_ok proc_bad <<<"$(pct_agree "$TMPDIR_TEST/proc.json" pid)"
stop_pid "$P"

# JSON, thread rows: [pct, carried] of every reading with a rate
jq -c 'select(.type == "task" and .delay.cpu.pct != null) | [.delay.cpu.pct, .carried]' \
	"$TMPDIR_TEST/thr.json" >"$TMPDIR_TEST/thr.rows"
over=$(jq -s 'map(select(.[0] > 100)) | length' "$TMPDIR_TEST/thr.rows")
[ "${over:-0}" -ge 2 ]
tap_ok $? "JSON: runqueue waits of 300 ms ending in 0.25 s intervals show above 100% (the measured value)" \
	"expected at least 2 thread rows above 100%, got ${over:-none}: $(tr '\n' ' ' <"$TMPDIR_TEST/thr.rows" | head -c 600)"
jq -e -s 'length > 0 and all(.[]; (.[0] > 100) == (.[1] == ["cpu"]))' "$TMPDIR_TEST/thr.rows" >/dev/null
tap_ok $? "JSON: \"carried\" is [\"cpu\"] exactly for the thread rows above 100%, [] otherwise" \
	"rows [pct, carried]: $(tr '\n' ' ' <"$TMPDIR_TEST/thr.rows" | head -c 600)"
[ "$thr_ok" -eq $((2 * N)) ] && [ -z "$thr_bad" ]
tap_ok $? "JSON: every thread row's value, the marked ones too, is the wait the kernel counted for it in its interval" \
	"expected $((2 * N)) rows ($N reports of 2 threads) to agree with the threads' schedstat, $thr_ok did;$thr_bad" \
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

# The process row sums two threads: 120% is 60% per thread, within the limit, not marked; only
# above 200% (the long wait and more, as when another task shares the CPU) is it marked.
jq -c 'select(.type == "task") | [.delay.cpu.pct, .carried]' "$TMPDIR_TEST/proc.json" >"$TMPDIR_TEST/proc.rows"
unmarked=$(jq -s 'map(select(.[0] > 100 and .[1] == [])) | length' "$TMPDIR_TEST/proc.rows")
[ "$proc_ok" -eq "$N" ] && [ -z "$proc_bad" ] && [ "$unmarked" -ge 1 ] &&
	jq -e -s 'all(.[]; ((.[0] // 0) > 200) == (.[1] == ["cpu"]))' "$TMPDIR_TEST/proc.rows" >/dev/null
tap_ok $? "the two-thread process row above 100% is within 100% per thread: no mark (only above 200%)" \
	"rows above 100% without a mark: $unmarked (1 or more expected); rows agreeing with the threads' schedstat: $proc_ok of $N;$proc_bad" \
	"rows [pct, carried]: $(tr '\n' ' ' <"$TMPDIR_TEST/proc.rows" | head -c 600)"
[ ! -s "$TMPDIR_TEST/err" ] || diag "stderr: $(head -2 "$TMPDIR_TEST/err" | tr '\n' ' ')"
done_testing
