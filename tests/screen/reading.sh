#!/bin/bash
# reading.sh — readings run on a thread of their own, so the screen answers keys while one is
# under way: with the reading thread stopped (ptrace stops one thread, not its process), keys
# still sort and open the help at once, no reading arrives meanwhile, and readings go on once
# the thread runs again. The screen copies its rows' totals since the start only while it shows
# them: A asks for a reading, and the totals show when it is done.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats

start_screen -- -d 0.5
wait_for_screen '^ +PID .*TOTAL' 5
screen_ok $? "the screen comes up"

reader_tid() {
	local f
	for f in /proc/"$SCREEN_PID"/task/*/comm; do
		[ "$(cat "$f" 2>/dev/null)" = delaytop-read ] && { f=${f%/comm}; echo "${f##*/}"; return 0; }
	done
	return 1
}
TID=$(reader_tid)
[ -n "$TID" ] && [ "$TID" != "$SCREEN_PID" ]
screen_ok $? "the screen has a reading thread of its own (delaytop-read)" "threads: $(cat /proc/"$SCREEN_PID"/task/*/comm | tr '\n' ' ')"

clock() { capture; line 1 | awk '{ print $1 }'; }
sort_of() { capture; header | sed -n 's/.*sort \([^ ]*\).*/\1/p'; }

# ---- the reading thread stopped for 4 s ----
"$WORKLOAD" freeze "$TID" 4000 >"$TMPDIR_TEST/freeze.out" 2>&1 &
FREEZER=$!
track_pid "$FREEZER"
wait_until 3 grep -q frozen "$TMPDIR_TEST/freeze.out"
tap_ok $? "the reading thread $TID is stopped" "$(cat "$TMPDIR_TEST/freeze.out")"
sleep 0.6 # a reading that was ready is taken by now
before=$(clock)
sort_before=$(sort_of)
t0=$(date +%s%N)
keys '>'
wait_until 1 eval '[ "$(sort_of)" != "$sort_before" ]'
screen_ok $? "while no reading can finish, > moves the sort at once ($sort_before -> $(sort_of))"
keys h
wait_for_screen '^delaytop help' 1
screen_ok $? "... and h opens the help"
t1=$(date +%s%N)
diag "two keys answered in $(((t1 - t0) / 1000000)) ms, through tmux"
keys q
wait_for_screen '^ +PID ' 1
screen_ok $? "... and a key closes it"
sleep 1.2 # two deadlines
after=$(clock)
[ -n "$before" ] && [ "$before" = "$after" ]
screen_ok $? "no reading arrives while the thread is stopped (clock $before, then $after)"

# ---- the thread runs again ----
wait "$FREEZER"
wait_until 3 eval '[ "$(clock)" != "$after" ]'
screen_ok $? "readings go on once the thread runs again (clock $after, then $(clock))"
# ---- A while the thread is stopped: no totals yet, then totals with the reading ----
"$WORKLOAD" freeze "$TID" 3000 >"$TMPDIR_TEST/freeze2.out" 2>&1 &
FREEZER=$!
track_pid "$FREEZER"
wait_until 3 grep -q frozen "$TMPDIR_TEST/freeze2.out"
sleep 0.6
numbers() { capture; table_rows | grep -cE ' [0-9]+\.[0-9]+ '; }
keys A
wait_for_screen 'totals since the start from the next reading' 1
screen_ok $? "A says that the totals come with the next reading"
[ "$(numbers)" = 0 ] && header | grep -q 'since start'
screen_ok $? "until then the header says 'since start' and no row shows a number"
wait "$FREEZER"
wait_until 3 eval '[ "$(numbers)" -gt 0 ]'
screen_ok $? "with the reading, the rows show their totals since the start"

keys q
wait_until 10 pid_gone "$SCREEN_PID"
tap_ok $? "q ends the screen and its reading thread"
wait_status # written by the pane's shell after delaytop is gone
[ "$(screen_status)" = 0 ]
tap_ok $? "the screen exits 0" "status: $(screen_status)"

done_testing
