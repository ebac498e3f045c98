#!/bin/bash
# marks.sh — the screen draws the same mark as batch text: a thread whose 300 ms runqueue wait
# ends in a 0.2 s interval shows its CPU cell (and TOTAL) as about 150 (more when another task
# shares the CPU: the value itself is checked against the kernel in tests/kernel/carried.sh)
# followed by '+', in a column as wide as the others; the help explains the '+' and the
# <partial> marks.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats
require_cpus 2
require_cmd taskset
lock_global

bg_start P taskset -c 1 "$WORKLOAD" bursts 1 300 300
sleep 0.5
kill -0 "$P" 2>/dev/null || skip_all "the workload could not run a SCHED_FIFO thread"

start_screen -- -H -d 0.2 -p "$P"
# a thread row: TID USER S CPU% CPU ... with the CPU cell ending in '+', 130 or more: the wait is
# at least the 300 ms the real-time thread is busy
CELL='(1[3-9][0-9]|[2-9][0-9][0-9]|[0-9]{4,})\.[0-9]\+'
marked() { printf '%s\n' "$SCREEN" | grep -E -q "^ +[0-9]+ +[^ ]+ +[A-Z] +[0-9.]+ +$CELL "; }
wait_for_screen_fn marked 6
screen_ok $? "a 300 ms wait ending in a 0.2 s interval: the thread's CPU cell shows about 150 (130 or more) with '+'"
row=$(printf '%s\n' "$SCREEN" | grep -E "^ +[0-9]+ .* $CELL " | head -1)
title=$(printf '%s\n' "$SCREEN" | grep -E '^ +TID ' | head -1)
cpu_end_row=$(awk '{ print index($0, "+ ") }' <<<"$row")
cpu_end_title=$(awk '{ i = index($0, " CPU "); print i + 3 }' <<<"$title")
total_marked=$(awk '{ print ($(NF - 1) ~ /\+$/) }' <<<"$row")
[ "$cpu_end_row" = "$cpu_end_title" ] && [ "$total_marked" = 1 ]
screen_ok $? "the mark keeps the column: it ends where the CPU title ends, and TOTAL is marked too" \
	"row: '$row'" "mark at $cpu_end_row, CPU title ends at $cpu_end_title, TOTAL marked: $total_marked"

keys '?' # the notes follow the keys, pages below the first on a screen of 40 lines
found=1
for _ in 1 2 3 4; do
	keys NPage
	wait_for_screen "^'\+' after a share: above 100% per thread" 1 && screen_has '^<partial> \(without privileges\)' &&
		{ found=0; break; }
done
[ "$found" -eq 0 ]
screen_ok $? "the help explains '+' and <partial>"
keys q
stop_pid "$P"
done_testing
