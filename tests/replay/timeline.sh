# timeline.sh — the replay's timeline on peaks.rec (120 readings a second apart: I/O pressure 2%
# but for a burst highest at index 25 (60%), one highest at 72 (30%), a bump of 8% at 100; triggers
# fired before 25 and 90), as an ordinary user: the line under the header spans the recording,
# a block a cell in UTF-8, ASCII in the C locale, '!' where triggers fired, the reading shown in
# reverse video; } and { step to the peaks (the highest reading of each stretch at 10% or more:
# 25 and 72, not the bump), e and E to the trigger events, each saying when there is none; on
# 80x24 and 40x12 nothing passes the edge, and below 19 columns the line goes; NO_COLOR draws it
# without colour; T shows one resource's pressure (CPU alone: no peak; I/O alone: its peaks), in
# turn, back to the highest of all; the help lists the keys.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"
. "$top_srcdir/tests/replay/fixture.sh"

TL_LINE=3 # under the header's two lines
tl() { line "$TL_LINE"; }
width_of() { printf '%s' "$1" | LC_ALL=C.UTF-8 wc -m; }
# cursor: "COLUMN CELL" of the cell in reverse video on the timeline (0-based), from a capture
# with escapes; SCREEN is left holding a plain capture.
cursor() {
	local esc=$'\e' text before cell
	capture -e
	text=$(line "$TL_LINE" | sed -E "s/${esc}\\[([0-9;]*;)?7m/@/; s/${esc}\\[[0-9;]*m//g")
	capture
	case $text in *@*) ;; *) echo "none"; return ;; esac
	before=${text%%@*}
	cell=${text#*@}
	echo "$(width_of "$before") ${cell:0:1}"
}
# The bucket of second S of 0..119 on a line of W cells (timeline.c's bucket_of), plus the label.
col_of() { awk -v s="$1" -v w="$2" 'BEGIN { print 9 + int(s * 1e9 / (119e9 + 1) * w) }'; }
said() { wait_for_screen "$1" 3; }

# ---- 80x24, UTF-8 ----
SCREEN_W=80 SCREEN_H=24
open_replay -- -r "$FIX/peaks.rec"
at_time 00:00:00
cells=$(tl)
cells=${cells#Timeline }
[[ $(tl) == "Timeline "* ]] && [ "$(width_of "$(tl)")" -eq 80 ] && [ "$(width_of "$cells")" -eq 71 ]
screen_ok $? "80 columns: the timeline is line 3, its label and 71 cells to the edge" "line: $(tl)"
printf '%s' "$cells" | LC_ALL=C.UTF-8 grep -q -x -E '[▁▂▃▄▅▆▇█!]+'
screen_ok $? "UTF-8: every cell a block or a '!' (no gap: each reading's interval fills its cells)"
[ "$(printf '%s' "$cells" | tr -cd '!' | wc -c)" -eq 2 ]
screen_ok $? "two '!': the two readings made when triggers fired" "cells: $cells"
[ "${cells:$(($(col_of 72 71) - 9)):1}" = "▃" ] && [ "${cells:$(($(col_of 100 71) - 9)):1}" = "▁" ] &&
	[ "${cells:$(($(col_of 50 71) - 9)):1}" = "▁" ]
screen_ok $? "the 30% peak a third high (▃), the 8% bump and the quiet 2% the lowest block (▁)" "cells: $cells"
got=$(cursor)
[ "$got" = "9 ▁" ]
screen_ok $? "the cursor (reverse video) on the first cell at the first reading" "cursor: $got"

keys '}'
at_time 00:00:25 && said 'this reading was made when a trigger fired: io some 150ms 1s'
screen_ok $? "}: the first peak (index 25, 60%), which is also an event and says so"
got=$(cursor)
[ "$got" = "$(col_of 25 71) !" ]
screen_ok $? "the cursor moves to its cell, a '!'" "cursor: $got, want: $(col_of 25 71) !"
keys '}'
at_time 00:01:12 && said '^a peak of pressure: 30\.0% of the interval stalled'
screen_ok $? "}: the second peak (index 72, 30%), saying its pressure"
got=$(cursor)
[ "$got" = "$(col_of 72 71) ▃" ]
screen_ok $? "the cursor on its cell (▃)" "cursor: $got, want: $(col_of 72 71) ▃"
keys '}'
said '^no peak of pressure after this reading' && at_time 00:01:12
screen_ok $? "}: no peak after it (the 8% bump is none); the reading stays"
keys '{'
at_time 00:00:25
screen_ok $? "{: back to the peak before"
keys '{'
said '^no peak of pressure before this reading' && at_time 00:00:25
screen_ok $? "{: none before the first"

keys e
at_time 00:01:30 && said 'this reading was made when a trigger fired'
screen_ok $? "e: the next trigger event after 25 s, at 90 s"
got=$(cursor)
[ "$got" = "$(col_of 90 71) !" ]
screen_ok $? "the cursor on the event's '!'" "cursor: $got"
keys e
said '^no trigger fired after this reading' && at_time 00:01:30
screen_ok $? "e: none after the last"
keys E
at_time 00:00:25
screen_ok $? "E: the event before"
keys E
said '^no trigger fired before this reading'
screen_ok $? "E: none before the first"
keys n
at_time 00:00:26
got=$(cursor)
[ "$got" = "$(col_of 26 71) ▂" ]
screen_ok $? "n after a jump steps on from it, and the cursor follows (15%: ▂)" "cursor: $got"

# ---- T: one resource's pressure (every line stalls 1%: CPU alone has no peak) ----
keys T
wait_for_screen '^Timeline CPU ' 3
screen_ok $? "T: the timeline shows CPU alone, and says so" "line: $(tl)"
cells=$(tl)
cells=${cells#Timeline CPU }
printf '%s' "$cells" | LC_ALL=C.UTF-8 grep -q -x -E '[▁!]+'
screen_ok $? "CPU alone: every cell the quietest block (its 1%), but the events" "cells: $cells"
keys '{'
said '^no peak of pressure before this reading'
screen_ok $? "CPU alone: { finds no peak (I/O's are not CPU's)"
keys T T
wait_for_screen '^Timeline I/O ' 3
screen_ok $? "T T: I/O alone" "line: $(tl)"
keys '{'
at_time 00:00:25
screen_ok $? "I/O alone: { goes to its peak at 25 s"
keys T T
wait_for_screen '^Timeline [▁▂▃▄▅▆▇█!]' 3
screen_ok $? "T past IRQ: the highest of all again" "line: $(tl)"
keys n
at_time 00:00:26

keys h
wait_for_screen '^delaytop help' 3
for i in $(seq 28); do keys Down; done # the keys of a recording, at the table's end
for k in 'e +replay \(-r\): go to the next reading made when a trigger fired' 'E +replay' '\} +replay \(-r\): go to the next peak of pressure' '\{ +replay' 'T +replay \(-r\): the timeline shows'; do
	wait_for_screen "^  $k" 3
	screen_ok $? "the help lists ${k%% *}"
done
keys x

# ---- the C locale: ASCII ----
open_replay LANG=C -- -r "$FIX/peaks.rec"
at_time 00:00:00
cells=$(tl)
cells=${cells#Timeline }
printf '%s' "$cells" | LC_ALL=C grep -q -x -E '[_.:=+*#!-]{71}'
screen_ok $? "C locale: 71 ASCII cells ('_' quiet, '.' and ':' higher, '!' events)" "cells: $cells"
[ "${cells:$(($(col_of 72 71) - 9)):1}" = ":" ] && [ "${cells:$(($(col_of 50 71) - 9)):1}" = "_" ]
screen_ok $? "C locale: the 30% peak ':', the quiet '_'" "cells: $cells"
keys '}' '}'
at_time 00:01:12
got=$(cursor)
[ "$got" = "$(col_of 72 71) :" ]
screen_ok $? "C locale: } } reaches the second peak, the cursor on its ':'" "cursor: $got"

# ---- NO_COLOR ----
open_replay NO_COLOR=1 -- -r "$FIX/peaks.rec"
capture -e
esc=$'\e'
! line "$TL_LINE" | grep -q -E "${esc}\\[([0-9;]*;)?3[0-7]m"
screen_ok $? "NO_COLOR: the timeline has no colour" "line: $(line "$TL_LINE" | cat -v)"
got=$(cursor)
[ "$got" = "9 ▁" ]
screen_ok $? "NO_COLOR: the cursor is still in reverse video" "cursor: $got"
open_replay -- -r "$FIX/peaks.rec"
capture -e
line "$TL_LINE" | grep -q -E "${esc}\\[([0-9;]*;)?3[0-7]m"
screen_ok $? "with colour: the cells are coloured (so the check above can fail)" "line: $(line "$TL_LINE" | cat -v)"

# ---- narrow ----
SCREEN_W=40 SCREEN_H=12
open_replay -- -r "$FIX/peaks.rec"
at_time 00:00:00
[[ $(tl) == "Timeline "* ]] && [ "$(width_of "$(tl)")" -eq 40 ] && ! printf '%s\n' "$SCREEN" | sed -n 4p | grep -q '^[▁▂▃▄▅▆▇█!]'
screen_ok $? "40x12: the timeline ends at the edge (31 cells), nothing wraps to the next line" "line: $(tl)"
keys '}' '}'
at_time 00:01:12
got=$(cursor)
[ "$got" = "$(col_of 72 31) ▃" ]
screen_ok $? "40x12: } } on the narrow line, the cursor in its bucket" "cursor: $got, want: $(col_of 72 31) ▃"
SCREEN_W=18
open_replay -- -r "$FIX/peaks.rec"
! screen_has 'Timeline'
screen_ok $? "18 columns: no room for 10 cells, no timeline"
quit_ok "q quits with status 0"

done_testing
