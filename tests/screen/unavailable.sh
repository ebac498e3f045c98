#!/bin/bash
# unavailable.sh — the detail view says a kind is unavailable, never draws it as a line at zero:
# a spinner forked while kernel.task_delayacct was 0 (and seen so by delaytop) keeps its non-CPU
# kinds unavailable after the switch goes on ('-' in the table); its detail view charts its CPU
# delay and writes "unavailable" across the IO, SWAP, ... charts, with '-' for now and peak.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats
[ -e /proc/sys/kernel/task_delayacct ] || skip_all "this kernel has no kernel.task_delayacct"

lock_global # its spinner loads CPU 1, and it flips the switch
set_sysctl kernel.task_delayacct 0 || skip_all "cannot set kernel.task_delayacct"
start_workload spin 1
SPIN=$WORKLOAD_PID

SCREEN_W=120 SCREEN_H=40
start_screen -- -d 0.5 -p "$SPIN"
wait_for_screen "^ +$SPIN " 10
screen_ok $? "the screen shows the spinner, forked while the switch was off"
sleep 1 # a reading or two with the switch off
sysctl -q -w kernel.task_delayacct=1
wait_for_screen 'delayacct on' 5
sleep 1.2 # readings with rates, the switch on
row_of "$SPIN" | grep -q -E "^ +$SPIN +root +R +[0-9.]+ +[0-9.]+ +- +- +- +- +- +- +- +[0-9.]+ "
screen_ok $? "its row: a CPU delay, '-' for the other kinds" "row: $(row_of "$SPIN")"

keys Enter
wait_for_screen "^Process $SPIN \\(workload\\), followed" 5
screen_ok $? "Enter opens its detail view"
wait_for_screen '^IO +\| +unavailable +\| now +- peak +- ' 3 &&
	screen_has '^SWAP +\| +unavailable +\| now +- peak +- ' && screen_has '^RECLAIM +\| +unavailable +\|'
screen_ok $? "IO, SWAP and RECLAIM say unavailable across their charts, '-' for now and peak"
! screen_has '^IO +\|[▁_ ]+\|'
screen_ok $? "IO is not drawn as a line at zero"
screen_has '^CPU +\|[▁▂▃▄▅▆▇█ ]*[▁▂▃▄▅▆▇█][▁▂▃▄▅▆▇█ ]*\| now +[0-9.]+ '
screen_ok $? "CPU, measured, is drawn as a chart with its latest share"

quit_ok "q quits with status 0"
done_testing
