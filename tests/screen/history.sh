#!/bin/bash
# history.sh — the screen's history on a live run: each PSI line grows a strip chart beside its
# bar, one character a reading; Enter opens the detail view of the selected process (its charts
# a character a reading), it follows a process that the table re-sorts away from the top (r), and
# Esc returns to the table, and so does H (rows of threads); on 80x24 nothing goes past the edge.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats

bg_start SPIN "$WORKLOAD" spin 0
SCREEN_W=80 SCREEN_H=24
start_screen -- -d 0.3 -p "$SPIN"
wait_for_screen "^ +$SPIN " 5
screen_ok $? "the screen comes up with the spinning workload"
# the CPU line's chart: one character a reading, so four or more after a few readings
wait_for_screen '^CPU    some \[[-=# ]*\] +[▁▂▃▄▅▆▇█]{4,} +[0-9.]+%' 5
screen_ok $? "the CPU some line grows a strip chart of its readings beside the bar"
keys Enter
wait_for_screen "^Process $SPIN \\(workload\\), followed as the table re-sorts; Esc returns\$" 3 &&
	wait_for_screen '^CPU +\| *[▁▂▃▄▅▆▇█]{2,}\| now ' 3
screen_ok $? "Enter opens the detail view of the process, its CPU chart growing a reading at a time"
keys r
wait_for_screen 'sort total reversed' 3 && wait_for_screen '^Accounting ' 3 &&
	screen_has "^Process $SPIN \\(workload\\), followed"
screen_ok $? "reversed sort: the view stays on the process"
# a line too long for the pane would wrap onto the next one, which then starts with its rest
[ "$(printf '%s\n' "$SCREEN" | grep -A1 '^Command: ' | sed -n 2p | cut -c1-6)" = "User: " ] &&
	[ "$(printf '%s\n' "$SCREEN" | grep -A1 '^Delays: ' | sed -n 2p | cut -c1-4)" = "CPU " ]
screen_ok $? "80 columns: each line of the view cut at the edge, none wrapped onto the next"
keys Escape
wait_for_screen "^ +PID .*TOTAL" 3 && ! screen_has '^Process '
screen_ok $? "Esc returns to the table"
keys Enter
wait_for_screen "^Process $SPIN " 3 && keys H && wait_for_screen "^ +TID .*TOTAL" 3 && ! screen_has '^Process '
screen_ok $? "H under the detail view: thread rows, which the process is not among; the table again"
quit_ok "q quits with status 0"

done_testing
