#!/bin/bash
# states.sh — a first reading of many threads reads their states on two threads while it asks
# taskstats about them (src/sample/prestate.h): every thread's state is its own. Three processes
# of 1,000 sleeping threads each, one thread of which is stopped by ptrace: the first report
# lists the 3,000 threads, the stopped one as t and the others as S.
. "$top_srcdir/tests/lib.sh"

require_root
require_cpus 2
require_cmd jq
require_taskstats
lock_global
enable_delayacct

"$WORKLOAD" idle 3 1000 0 >"$TMPDIR_TEST/idle.out" 2>&1 9>&- &
L=$!
track_pid "$L"
kids=
for _ in $(seq 300); do
	kids=$(cat "/proc/$L/task/$L/children" 2>/dev/null)
	n=0
	for c in $kids; do n=$((n + $(ls "/proc/$c/task" 2>/dev/null | wc -l))); done
	[ "$n" -ge 3000 ] && break
	sleep 0.05
done
[ "$n" -eq 3000 ] || skip_all "workload idle 3 1000 did not start its 3,000 threads (got $n)"
pids=$(tr ' ' ',' <<<"$kids" | sed 's/,$//')
P2=$(awk '{ print $2 }' <<<"$kids")
T=$(ls "/proc/$P2/task" | sort -n | sed -n 500p)

"$WORKLOAD" freeze "$T" 5000 >"$TMPDIR_TEST/freeze.out" 2>&1 9>&- &
track_pid $!
for _ in $(seq 60); do
	grep -q frozen "$TMPDIR_TEST/freeze.out" && break
	sleep 0.05
done
grep -q frozen "$TMPDIR_TEST/freeze.out"
tap_ok $? "thread $T is stopped" "$(cat "$TMPDIR_TEST/freeze.out")"

"$DELAYTOP" -b -H -n 1 -d 0.2 --format json -p "$pids" >"$TMPDIR_TEST/out.json" 2>"$TMPDIR_TEST/err"
rc=$?
tap_ok "$rc" "delaytop -b -H -n 1 exits 0" "got $rc: $(head -2 "$TMPDIR_TEST/err")"

rows=$(jq -r 'select(.type == "task") | .tid' "$TMPDIR_TEST/out.json" | sort -u | wc -l)
[ "$rows" -eq 3000 ]
tap_ok $? "the first report lists the 3,000 threads" "got $rows"

st=$(jq -r --argjson t "$T" 'select(.type == "task" and .tid == $t) | .state' "$TMPDIR_TEST/out.json")
[ "$st" = t ]
tap_ok $? "the stopped thread is t" "got '$st'"

others=$(jq -r --argjson t "$T" 'select(.type == "task" and .tid != $t) | .state' "$TMPDIR_TEST/out.json" |
	sort | uniq -c | awk '{ printf "%s:%s ", $2, $1 }')
[ "$others" = "S:2999 " ]
tap_ok $? "the 2,999 others are S" "got $others"

done_testing
