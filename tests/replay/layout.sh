# layout.sh — the screen's layout and marks on fixture recordings, as an ordinary user: a wide
# terminal shows the CGROUP column and the header on fewer lines; a narrow one drops delay
# columns but keeps TOTAL and COMMAND, and the PSI lines lose their bars; a tiny one (20x5) still
# draws, and grows back when the terminal does; without UTF-8 (LANG=C) the sort marker is 'v';
# names in UTF-8 show as they are (with --columns=pid,user,state,cpu,total, which leaves room for the command lines), control characters as '?' with no effect on the terminal
# (NO_COLOR: no escape but delaytop's own); a wait carried from an earlier interval is marked
# '+'; a task that exits shows Z then, with A, X and <exited>; the reading made when triggers fired
# says so; the header says when delay accounting was off.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"
. "$top_srcdir/tests/replay/fixture.sh"


# ---- wide ----
SCREEN_W=200 SCREEN_H=30
open_replay -- -r "$FIX/procs.rec"
keys n
wait_for_screen '^RECORDING 2026-01-01 00:00:01\.0 .* privileges full  exits lost 0$' 3
screen_ok $? "200 columns: the system's facts fit on the header's first line"
title_line | grep -q -E ' IRQ +▼TOTAL CGROUP +COMMAND$' && row_of 480 | grep -q -F '…lice/postgresql.service postgres'
screen_ok $? "200 columns: the CGROUP column, its paths cut from the left with …" "title: $(title_line)"

# ---- narrow ----
SCREEN_W=60 SCREEN_H=14
open_replay -- -r "$FIX/procs.rec"
keys n
at_time 00:00:01 && screen_has '^ +PID USER +S +CPU% +CPU +IO +▼TOTAL COMMAND$'
screen_ok $? "60 columns: CPU and IO stay with TOTAL and COMMAND, the other kinds go"
screen_has '^CPU    some   12\.5%  avg10' && ! printf '%s\n' "$SCREEN" | sed -n 3,8p | grep -q '\['
screen_ok $? "60 columns: the PSI lines lose their bars"
[ "$(row_ids | tr '\n' ' ')" = "480 1301 1310 " ] && line 14 | grep -q '^h help  q quit'
screen_ok $? "14 lines: three rows fit under the timeline, the footer last" "rows: $(row_ids | tr '\n' ' ')"

# ---- tiny, then grown; LANG=C ----
SCREEN_W=20 SCREEN_H=5
open_replay -u LANG LANG=C -- -r "$FIX/procs.rec"
wait_for_screen '^ +PID +vTOTAL COMM' 3 && line 1 | grep -q '^RECORDING 2026-01-01$'
screen_ok $? "20x5: the header cut to the width, the title with the ASCII marker (LANG=C)"
tm resize-window -t dt -x 100 -y 20
keys n
at_time 00:00:01 && screen_has '^ +PID USER .* vTOTAL COMMAND$' && screen_has '^ +480 postgres D '
screen_ok $? "grown to 100x20: the whole table is back"
table_rows | grep -q -E ' cc1$' && table_rows | grep -q -F ' x?[31mred?'
screen_ok $? "LANG=C: ASCII names as they are, control characters as '?'"
quit_ok "q quits from a grown tiny screen with status 0"

# ---- names, with and without escapes ----
SCREEN_W=120 SCREEN_H=30
open_replay NO_COLOR=1 -- -r "$FIX/procs.rec" --columns=pid,user,state,cpu,total
keys n c
wait_for_screen '^ +1601 .* printf \?\]0;title\? del\? c1\? rlo\? tab\?here' 3
screen_ok $? "a command line's ESC, BEL, DEL, C1 control (U+009B), format control (U+202E) and tab show as '?'"
row_of 1600 | grep -q -F './naïve-ü✓ --étape=二 «données»'
screen_ok $? "a UTF-8 command line shows as it is, wide characters too"
keys c
wait_for_screen '^ +1601 mallory +S .* x\?\[31mred\?$' 3
screen_ok $? "the name x<ESC>[31mred<TAB> shows as x?[31mred?"
capture -e
esc=$(printf '%s\n' "$SCREEN" | grep -c $'\e\\]\\|\e\\[31m\\|\a')
[ "$esc" -eq 0 ]
screen_ok $? "with NO_COLOR, the pane holds no ESC ] title, red or bell from the names" "lines with one: $esc"

# ---- marks: carried, exited, departed, events, delay accounting off ----
keys n
wait_for_screen '^ +1301 alice +R +140\.0\+ +164\.6\+ cc1$' 3 && screen_has '^ +1310 alice +Z .* as <exited>$'
screen_ok $? "third reading: cc1's 1.4 s CPU wait in 1 s is marked 140.0+, and so its TOTAL; as (1310) exited: Z, <exited>"
keys n
wait_for_screen 'this reading was made when a trigger fired: memory some 150ms 1s \(and others\)' 3
screen_ok $? "fourth reading: made when triggers fired, it says so"
keys A n
wait_for_screen '^ +1310 alice +X .* as <exited>$' 3
screen_ok $? "fifth reading, A: the departed as keeps its totals, state X, <exited>"
keys n
wait_for_screen '^RECORDING 2026-01-01 00:00:05\.0 .* delayacct OFF$' 3
screen_ok $? "sixth reading: the header says delay accounting was off"
quit_ok "q quits with status 0"
done_testing
