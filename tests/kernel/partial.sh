#!/bin/bash
# partial.sh — without CAP_NET_ADMIN delaytop sums a process's threads from /proc, and a thread
# that ends between two readings takes its delays along. A process row whose threads came or
# went during the interval is marked partial in every format ("partial": true in JSON, 1 in the
# CSV column, " <partial>" after the command in text, with a line explaining it), a process whose
# threads stay is not, and the limited header says that exited tasks are not seen. With the
# capability, exit records fill the gap: no row is partial.
. "$top_srcdir/tests/lib.sh"

require_root
require_cmd jq setpriv flock
require_taskstats

setup_nobody

start_workload churn 4 300; CH=$WORKLOAD_PID # four threads at a time, each gone after 0.3 s
start_workload sleep 60; ST=$WORKLOAD_PID     # one thread, for good
sleep 0.3
T=$TMPDIR_TEST

"${NOBODY[@]}" "$DT" -b -n 5 -d 0.5 --format json -p "$CH,$ST" >"$T/out.json" 2>/dev/null
"${NOBODY[@]}" "$DT" -b -n 3 -d 0.5 -p "$CH,$ST" >"$T/out.txt" 2>/dev/null
"${NOBODY[@]}" "$DT" -b -n 3 -d 0.5 --format csv -p "$CH,$ST" >"$T/out.csv" 2>/dev/null
"$DELAYTOP" -b -n 3 -d 0.5 --format json -p "$CH,$ST" >"$T/priv.json" 2>/dev/null

jq -e -s 'map(select(.type == "psi") | .limited) | length == 5 and all' "$T/out.json" >/dev/null ||
	skip_all "the run as nobody was not limited: $(head -c 300 "$T/out.json")"

rows() { jq -c -s --argjson p "$2" 'map(select(.type == "task" and .pid == $p) | .partial)' "$1"; }
got=$(rows "$T/out.json" "$CH")
[ "$got" = "[true,true,true,true,true]" ]
tap_ok $? "JSON: the process whose threads come and go is partial in every report" \
	"expected [true,true,true,true,true], got $got"
got=$(rows "$T/out.json" "$ST")
[ "$got" = "[false,false,false,false,false]" ]
tap_ok $? "JSON: the process whose thread stays is never partial" "got $got"

ch=$(awk -v p="$CH" '$1 == p' "$T/out.txt" | tail -1)
st=$(awk -v p="$ST" '$1 == p' "$T/out.txt" | tail -1)
[[ $ch == *" <partial>" ]] && [[ $st != *"<partial>"* ]]
tap_ok $? "text: ' <partial>' follows the command of the churning process only" "rows: '$ch' / '$st'"
n=$(grep -c '^<partial>: ' "$T/out.txt")
[ "$n" -eq 3 ]
tap_ok $? "text: each report with a partial row explains the mark in one line" "expected 3, got $n"
grep -q 'privileges limited (.*tasks that exit between readings are not seen)' "$T/out.txt"
tap_ok $? "text: the limited header says that tasks that exit between readings are not seen" \
	"header: $(grep -m1 privileges "$T/out.txt")"

got=$(awk -F, -v ch="$CH" -v st="$ST" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ printf "%s:%s ", ($c["pid"] == ch ? "ch" : "st"), $c["partial"] }' "$T/out.csv")
[ "$(tr ' ' '\n' <<<"$got" | grep . | sort | uniq -c | tr -s ' \n' ' ')" = " 3 ch:1 3 st:0 " ]
tap_ok $? "CSV: the partial column is 1 for the churning process in each report, 0 for the other" "got $got"

got=$(jq -c -s 'map(select(.type == "task") | .partial) | unique' "$T/priv.json")
[ "$got" = "[false]" ]
tap_ok $? "with CAP_NET_ADMIN (exit records) no row is partial" "got $got"

stop_pid "$CH"
stop_pid "$ST"
done_testing
