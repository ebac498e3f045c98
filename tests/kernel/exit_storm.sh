#!/bin/bash
# exit_storm.sh — 10,000 task exits a second for 10 s: delaytop listens with one socket per CPU,
# each registered for its own CPU (the kernel's advice for machines with many CPUs), and together
# they account for every exit, as many as /proc/stat counts task creations over the same time:
# each one received or, when the kernel dropped it, counted as lost. (Whether none is lost at the
# default buffer depends on the CPU delaytop gets while the storm runs: bench/exits.sh measures
# it on a machine otherwise idle.)
. "$top_srcdir/tests/lib.sh"

require_root
require_cpus 2
require_cmd jq
require_taskstats
lock_global # the storm would overflow the exit buffers of other tests' delaytops
enable_delayacct

# The possible CPUs (what the listeners register for), at most 16 sockets.
ncpu=$(tr ',' '\n' </sys/devices/system/cpu/possible |
	awk -F- '{ n += NF == 2 ? $2 - $1 + 1 : 1 } END { print (n > 16 ? 16 : n) }')
# forks: the "processes" line of /proc/stat, every task created since boot (threads too).
forks() { awk '$1 == "processes" { print $2 }' /proc/stat; }

"$DELAYTOP" -b -H --format json -d 1 -n 12 >"$TMPDIR_TEST/out.json" 2>"$TMPDIR_TEST/err" &
dt=$!
track_pid "$dt"
for _ in $(seq 100); do # the first report is out: the listeners are registered
	grep -q '"type":"psi"' "$TMPDIR_TEST/out.json" 2>/dev/null && break
	sleep 0.1
done

# Its sockets of the generic netlink family (protocol 16): one for the queries, one per CPU.
inodes=$(ls -l "/proc/$dt/fd" 2>/dev/null | sed -n 's/.*socket:\[\([0-9]*\)\]$/\1/p' | sort -u)
nl=$(awk -v list=" $(echo $inodes) " 'NR > 1 && $2 == 16 && index(list, " " $10 " ") { n++ } END { print n + 0 }' \
	/proc/net/netlink)
[ "$nl" -eq $((ncpu + 1)) ]
tap_ok $? "delaytop holds one taskstats socket for queries and one exit listener per CPU ($ncpu listeners)" \
	"generic netlink sockets: $nl"

f0=$(forks)
start_workload churn 100 8
c1=$WORKLOAD_PID
start_workload churn 100 8
c2=$WORKLOAD_PID
sleep 10
stop_pid "$c1"
stop_pid "$c2"
f1=$(forks)
wait "$dt"
rc=$?
tap_ok "$rc" "delaytop exits 0" "got $rc: $(head -2 "$TMPDIR_TEST/err")"

made=$((f1 - f0))
jq -r 'select(.type == "psi") | "\(.exits) \(.exits_lost)"' "$TMPDIR_TEST/out.json" >"$TMPDIR_TEST/exits"
lost=$(awk '{ l = $2 } END { print l }' "$TMPDIR_TEST/exits")
got=$(awk 'NR == 1 { a = $1 } { b = $1 } END { print b - a }' "$TMPDIR_TEST/exits")
if [ "$made" -lt 100000 ]; then
	why="the workload created only $made tasks in 10 s, not 10,000 a second"
	tap_skip "the listeners account for every task created" "$why"
	tap_skip "the records lost are counted in every report" "$why"
	done_testing
fi
diag "tasks created: $made, records received: $got, lost: $lost"
within "$((got + lost))" $((made * 97 / 100)) $((made * 103 / 100 + 200))
tap_ok $? "the listeners account for every task created: received + lost within 3% of $made" \
	"records between the first and the last report: $got, lost: $lost"
bad=$(awk 'NR > 1 && ($1 < e || $2 < l) { n++ } { e = $1; l = $2 } END { print n + 0 }' "$TMPDIR_TEST/exits")
[ "$(wc -l <"$TMPDIR_TEST/exits")" -eq 12 ] && [ "$bad" -eq 0 ] && [ -n "$lost" ] && [ "$lost" != null ]
tap_ok $? "every report counts the records received and lost, never fewer than the one before" \
	"reports: $(wc -l <"$TMPDIR_TEST/exits"), decreasing: $bad, lost: '$lost'"

done_testing
