#!/bin/bash
# why.sh — --why on the screen: two spinners sharing one CPU show their run-queue p50 and p99
# (CPU p50, CPU p99) as numbers, p50 <= p99, and "-" (never 0) for the kinds they did not wait
# on; the detail view (i) draws the run-queue histogram, whose bars' counts add up to the waits
# its summary line gives, and says "unavailable" for each kind the kernel does not let --why
# measure; without UTF-8 the bars are '#'.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats
require_cpus 2
require_cmd jq
SCREEN_H=70 # the detail view's histograms come below its charts

require_why # and the global lock, which the spinners below want too
unmeasured=$(jq -r 'select(.type == "psi") | .why.unavailable // [] | join(" ")' "$TMPDIR_TEST/probe.json" | tail -1)

enable_delayacct
wait_cpu_quiet 1
start_workload spin 1; A=$WORKLOAD_PID
start_workload spin 1; B=$WORKLOAD_PID
sleep 0.3

# ---- the columns ----
start_screen -- --why -d 1 -p "$A,$B" -s cpu_p99 --columns pid,cpu,cpu_p50,cpu_p99,io_p99,blocked_p99,command
# a spinner's row: PID CPU p50 p99 IO-p99 BLK-p99 COMMAND
spin_row_ok() {
	local r
	r=$(row_of "$1") && [ -n "$r" ] || return 1
	awk '{ exit !($3 ~ /^[0-9.]+$/ && $4 ~ /^[0-9.]+$/ && $3 + 0 <= $4 + 0 && $4 > 0 && $5 == "-" && $6 == "-") }' <<<"$r"
}
both_rows_ok() { spin_row_ok "$A" && spin_row_ok "$B"; }
wait_for_screen_fn both_rows_ok 8
screen_ok $? "the spinners' rows: CPU p50 <= CPU p99, numbers above 0; IO p99 and BLK p99 '-', not 0" \
	"row A: '$(row_of "$A")'" "row B: '$(row_of "$B")'"
printf '%s\n' "$SCREEN" | grep -q -E '^ +PID +CPU +CPU p50 ?▼CPU p99 +IO p99 +BLK p99 COMMAND'
screen_ok $? "the titles CPU p50, CPU p99 (the sort column, marked), IO p99, BLK p99"
first=$(row_ids | head -1); other=$([ "$first" = "$A" ] && echo "$B" || echo "$A")
p_first=$(row_of "$first" | awk '{ print $4 }'); p_other=$(row_of "$other" | awk '{ print $4 }')
awk -v a="$p_first" -v b="$p_other" 'BEGIN { exit !(a + 0 >= b + 0) }'
screen_ok $? "sorted by cpu_p99: the higher p99 first ($p_first >= $p_other)"

# ---- the detail view: the histogram ----
# summary: the CPU line's count; sum: its bars' counts, the lines that follow it up to the next kind
hist_sums() {
	printf '%s\n' "$SCREEN" | awk '
		/^CPU +waits [0-9]+ / { n = $3; inside = 1; next }
		inside && /^ +[0-9.]+(us|ms|s)-[0-9.a-z]+ +\|.*\| [0-9]+$/ { sum += $NF; bars++; next }
		inside { inside = 0 }
		END { printf "%s %d %d\n", n, sum, bars }'
}
hist_ok() {
	read -r n sum bars <<<"$(hist_sums)"
	[ -n "$n" ] && [ "$n" -gt 0 ] && [ "$sum" = "$n" ] && [ "$bars" -ge 1 ]
}
keys i
wait_for_screen_fn hist_ok 6
st=$?
read -r n sum bars <<<"$(hist_sums)"
screen_ok $st "the detail view's CPU histogram: $bars bars whose counts add up to its $n waits (got $sum)"
screen_has '^Wait latency in the interval \(--why\)'
screen_ok $? "under its heading"
missing=""
for k in $unmeasured; do
	title=$(case $k in swapin) echo SWAP ;; thrashing) echo THRASH ;; blocked) echo Blocked ;; *) echo "${k^^}" ;; esac)
	screen_has "^$title +unavailable$" || missing="$missing $k"
done
[ -z "$missing" ]
screen_ok $? "each kind not measured here says unavailable (${unmeasured:-none}), never a histogram of 0" \
	"missing:$missing"
printf '%s\n' "$SCREEN" | grep -E '^ +[0-9.]+(us|ms|s)-' | grep -q '█'
screen_ok $? "in UTF-8 the bars are blocks"
keys Escape

# ---- ASCII ----
start_screen LANG=C -- --why -d 1 -p "$A"
row_present() { [ -n "$(row_of "$A")" ]; }
wait_for_screen_fn row_present 6
keys i
wait_for_screen_fn hist_ok 6
screen_ok $? "without UTF-8 too, the bars add up"
bars_ascii() { printf '%s\n' "$SCREEN" | grep -E '^ +[0-9.]+(us|ms|s)-' | grep -q '|#' && ! printf '%s\n' "$SCREEN" | grep -q '█'; }
bars_ascii
screen_ok $? "and are drawn with '#', no Unicode block"
stop_screen
stop_pid "$A"
stop_pid "$B"
done_testing
