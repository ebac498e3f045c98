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

idle_threads 3 1000
P2=$(awk '{ print $2 }' <<<"$kids")
T=$(ls "/proc/$P2/task" | sort -n | sed -n 500p)

freeze_thread "$T" 5000
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
