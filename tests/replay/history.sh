# history.sh — the screen's history on fixture recordings, as an ordinary user: each PSI line's
# strip chart beside its bar (blocks in UTF-8, _.-=# under LANG=C), one character a reading; the
# TREND column (--columns) with a row's last sort values; the detail view of the selected row
# (Enter): its delays per kind as charts with the time axis labelled, the task followed when the
# table re-sorts (r), said to have ended when it is gone, Esc back to the table; i on a cgroup
# (Enter opens the cgroup there); nothing past the edge on 80x24 and on a narrow terminal.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"
. "$top_srcdir/tests/replay/fixture.sh"

# ---- the header's history and TREND, UTF-8, 100 columns ----
SCREEN_W=100 SCREEN_H=30
open_replay -- -r "$FIX/procs.rec" --columns=pid,total,trend,command
keys n n n
wait_for_screen '^RECORDING 2026-01-01 00:00:03\.0 ' 3
screen_has '^CPU    some \[===  *\] +▂▂▂  12\.5%  avg10' && screen_has '^I/O    some \[=+ *\] +▃▃▃  27\.8%'
screen_ok $? "PSI lines: a strip chart of the three readings with rates beside a shorter bar"
title_line | grep -q -E '▼TOTAL TREND +COMMAND$' && row_of 1301 | grep -q -E '^ +1301 +[0-9.]+\+? +▂?▄█▄ cc1$'
screen_ok $? "TREND: cc1's TOTAL over its readings as blocks, the newest right" "cc1: $(row_of 1301)"
row_of 1320 | grep -q -E '^ +1320 +[0-9.]* +▂? +ld'
screen_ok $? "TREND: a task born late has a shorter trend" "ld: $(row_of 1320)"

# ---- the detail view: open, charts, follow after a re-sort, Esc ----
keys Enter
wait_for_screen '^Process 1301 \(cc1\), followed as the table re-sorts; Esc returns' 3
screen_ok $? "Enter on cc1 opens its detail view in place of the table"
wait_for_screen '^ {11}00:00:00 00:00:05$' 3 && screen_has '^CPU +\| ▃█▃▃▁\| now  18\.3 peak 140\.0 max 1400\.0ms 00:00:01$' &&
	screen_has '^SWAP +\| ▁▁▁▁▁\| now   0\.0' && screen_has '^ {14}\^ shown$' && screen_has '^ {11}00:00:00 00:00:05$'
screen_ok $? "a chart a kind over the recording's readings around the one shown: CPU blank for the first (no rates), then 33, 140, 18, 19 and 0%; SWAP idle; the reading shown marked; the time axis from 00:00:00 to 00:00:05"
wait_for_screen '^  DISK RD +[0-9]' 3 && screen_has '^User: alice  State: R  Process: 1301  Cgroup: /user\.slice/user-1000\.slice/session-1\.scope$' &&
	screen_has '^Command: /usr/lib/gcc/x86_64-linux-gnu/13/cc1 -quiet' && screen_has '^  DISK RD +[0-9]'
screen_ok $? "its user, state, cgroup, command line and accounting fields"
# the picture of the detail view: SCREENSHOT=FILE keeps this screen
[ -z "${SCREENSHOT:-}" ] || printf '%s\n' "$SCREEN" | sed -e 's/ *$//' >"$SCREENSHOT"
keys r
wait_for_screen '^ +[0-9.]+ avg300 .*' 1 # the header stays
keys n
wait_for_screen '^ {15}\^ shown$' 3 && screen_has '^RECORDING 2026-01-01 00:00:04\.0 ' &&
	screen_has '^Process 1301 \(cc1\), followed' && screen_has '^CPU +\| ▃█▃▃▁\|'
screen_ok $? "reversed (cc1 no longer first) and a reading on: the view still shows cc1, the mark a reading on"
keys Escape
wait_for_screen '^ +PID +▲TOTAL TREND +COMMAND$' 3 && ! screen_has '^Process 1301'
screen_ok $? "Esc returns to the table (reversed)"

# ---- a task that ends: as (1310) exits in the third reading and is gone after ----
open_replay -- -r "$FIX/procs.rec"
keys n p
type_text 1310
keys Enter
wait_for_screen '^ +1310 ' 3
keys Enter
wait_for_screen '^Process 1310 \(as\), followed' 3
screen_ok $? "Enter on as (1310) opens its view"
keys n
wait_for_screen '^It ended during the last interval\.$' 3
screen_ok $? "its exit in the third reading is said"
keys n
wait_for_screen '^Process 1310 \(as\) ended: its last minutes as kept; Esc returns$' 3 && screen_has '^IO +\|' &&
	screen_has '^IRQ +\|'
screen_ok $? "gone from the next reading: the view says it ended and keeps its charts"
keys Escape
wait_for_screen_not '^Process 1310' 3
screen_ok $? "Esc returns from an ended task's view"

# ---- the cgroup view: Enter still opens the cgroup, i opens its details ----
open_replay -- -r "$FIX/cgroups.rec"
keys n n g
wait_for_screen '^TASKS +R +D .* CGROUP$' 3
keys i
# the last lines drawn first, so that the capture is of the whole view
wait_for_screen '^ +480 +[0-9.]+%  postgres$' 3 && screen_has '^Cgroup /; Esc returns$' && screen_has '^Pressure:  CPU some' &&
	screen_has '^Busiest tasks \(TOTAL' && screen_has '^CPU    some \|[ ▁▂▃]{6}\| now  12\.5 peak' &&
	screen_has '^Tasks: 14  running 1 ' &&
	[ "$(printf '%s\n' "$SCREEN" | grep -A2 '^Busiest tasks' | tail -2 | awk '{ print $1 }' | tr '\n' ' ')" = "1301 480 " ]
screen_ok $? "i in the cgroup view: the cgroup's pressure with a chart a line, its tasks by state, its busiest tasks"
keys Escape
wait_for_screen '^TASKS .* CGROUP$' 3
screen_ok $? "Esc returns to the cgroup tree"

# ---- 80x24, LANG=C: ASCII charts, nothing past the edge ----
SCREEN_W=80 SCREEN_H=24
open_replay -u LANG LANG=C -- -r "$FIX/procs.rec"
keys n n n Enter
wait_for_screen '^CPU +\| \.#\.\._\| now' 3 && screen_has '^Process 1301 \(cc1\), followed' &&
	screen_has '^CPU    some \[[-=]* *\] +\.\.\.  12\.5%  avg10'
screen_ok $? "LANG=C: the charts in _.-=#"
[ "$(printf '%s\n' "$SCREEN" | awk 'length($0) > 80' | wc -l)" -eq 0 ] &&
	screen_has '^Command: /usr/lib/gcc/x86_64-linux-gnu/13/cc1 -quiet -I include -I src/base -I s$' &&
	screen_has '^User: alice  State: R  Process: 1301  Cgroup: /user\.slice/user-1000\.slice/sessio$'
screen_ok $? "80x24: the command line is cut at the edge, not wrapped onto the next line"

open_replay -u LANG LANG=C -- -r "$FIX/procs.rec" --columns=pid,total,trend,command
keys n n n
at_time 00:00:03 && screen_has '^ +PID +vTOTAL TREND +COMMAND$' && row_of 1301 | grep -q -E '^ +1301 +[0-9.]+\+? +\.?-#- cc1$'
screen_ok $? "LANG=C: TREND in _.-=#" "cc1: $(row_of 1301)"

# ---- narrow: 40x24 ----
SCREEN_W=40 SCREEN_H=24
open_replay -- -r "$FIX/procs.rec"
keys n n n Enter
wait_for_screen '^CPU +\| ▃█▃▃▁\| now  18\.3 peak 140\.0$' 3 && screen_has '^Process 1301 \(cc1\), followed as the tabl$' &&
	! screen_has '▂▂▂  12\.5%'
screen_ok $? "40 columns: the detail view cut at the edge, no PSI bar or chart"
# a line too long for the pane would wrap onto the next one, which then starts with its rest
[ "$(printf '%s\n' "$SCREEN" | grep -A1 '^Process 1301 ' | sed -n 2p | cut -c1-9)" = "Command: " ] &&
	[ "$(printf '%s\n' "$SCREEN" | grep -A1 '^Command: ' | sed -n 2p | cut -c1-6)" = "User: " ]
screen_ok $? "40 columns: the long lines cut at the edge, none wrapped onto the next"
quit_ok "q quits from the detail view with status 0"

done_testing
