#!/bin/bash
# prompts.sh — answers to the prompts: a pid list longer than the prompt holds is refused, not
# cut in the middle of a pid (which would select another process); an error about one answer
# goes away when the next answer is accepted; a thread id selects its process, and says so.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats
lock_global # its workload's threads spin on CPU 1

start_screen -- -d 0.5
wait_for_screen '^ +PID .*TOTAL' 5
screen_ok $? "the screen comes up"
sleep 1

# ---- a pid list of 259 bytes: 127 times "1," and then 23456 ----
# Cut at 255 bytes it would end in ",2" and select init and kthreadd.
long=$(printf '1,%.0s' $(seq 127))23456
keys p C-u
type_text "$long"
keys Enter
wait_for_screen 'input longer than 255 bytes: not applied' 3
screen_ok $? "Enter on a pid list longer than the prompt holds says it is not applied"
sleep 1.2 # two readings
capture
n=$(row_ids | grep -c .)
[ "$n" -gt 2 ]
screen_ok $? "the selection did not change: more than pids 1 and 2 are shown" "rows: $n"
header | grep -q 'filter none'
screen_ok $? "the header shows no filter" "header: $(header)"

# ---- a thread id selects its process once, and the message line says so ----
bg_start THR "$WORKLOAD" threads 2 1
wait_until 5 eval '[ "$(ls /proc/$THR/task 2>/dev/null | wc -l)" -ge 3 ]'
T=$(ls "/proc/$THR/task" | sort -n | grep -vx "$THR" | head -1)
keys p C-u
type_text "$THR,$T"
keys Enter
wait_for_screen "$T is a thread of process $THR: showing the process" 3
screen_ok $? "p $THR,$T (a thread of $THR) says that it shows the thread's process"
sleep 1.2 # two readings
capture
rows=$(table_rows | grep -v 'is a thread of' | awk '{ print $1 }' | tr '\n' ' ') # not the message line
[ "$rows" = "$THR " ]
screen_ok $? "p $THR,$T: one row, the process $THR" "rows: $rows"
keys p C-u Enter

# ---- an error, then an accepted answer: the error goes ----
keys d C-u
type_text "abc"
keys Enter
wait_for_screen "invalid delay 'abc'" 3
screen_ok $? "a bad delay says so"
keys d C-u
type_text "0.7"
keys Enter
wait_for_screen 'every 0\.7s' 2
screen_ok $? "a good delay is taken"
! screen_has "invalid delay"
screen_ok $? "the error about the bad delay is gone once a good one is accepted"

done_testing
