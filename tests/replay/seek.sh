# seek.sh — seeking in a long fixture recording (long.rec: 600 readings a second apart, three
# segments), as an ordinary user: J goes to a time typed as @SECONDS, in another segment, and as
# YYYY-MM-DD HH:MM:SS, and as a time of day typed over the offered time (the day shown); a time before the start says where it starts; N steps back across a segment's start;
# stepping past the end says so.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"
. "$top_srcdir/tests/replay/fixture.sh"

T0=1767225600
shown() { line 1 | sed -n 's/^RECORDING \([0-9-]* [0-9:.]*\)  .*/\1/p'; }
want=""
time_ok() { [ "$(shown)" = "$want" ]; }
at() { want=$1; wait_for_screen_fn time_ok 3; }

open_replay -- -r "$FIX/long.rec"
at "2026-01-01 00:00:00.0"
screen_ok $? "long.rec opens on its first reading"
keys J C-u
type_text "@$((T0 + 300))"
keys Enter
at "2026-01-01 00:05:00.0"
screen_ok $? "J @$((T0 + 300)): the reading at 00:05:00, in the second segment" "shown: $(shown)"
keys J C-u
type_text "2026-01-01 00:09:59"
keys Enter
at "2026-01-01 00:09:59.0"
screen_ok $? "J 2026-01-01 00:09:59: the last reading" "shown: $(shown)"
keys n
wait_for_screen 'end of the recording|last reading' 3 && [ "$(shown)" = "2026-01-01 00:09:59.0" ]
screen_ok $? "n at the last reading says it is the end and stays" "footer: $(line "$SCREEN_H")"
keys J C-u
type_text "@$((T0 + 256))"
keys Enter N
at "2026-01-01 00:04:15.0"
screen_ok $? "J to 00:04:16 (a segment's first reading), N: the reading before, from the segment before" "shown: $(shown)"
keys J
type_text "00:07:30"
keys Enter
at "2026-01-01 00:07:30.0"
screen_ok $? "J, typing 00:07:30 over the offered time: that time on the day shown (2026-01-01), not today" \
	"shown: $(shown)" "footer: $(line "$SCREEN_H")"
keys J C-u
type_text "@$((T0 - 60))"
keys Enter
wait_for_screen 'the recording starts at 2026-01-01 00:00:00: its first reading' 3 && [ "$(shown)" = "2026-01-01 00:00:00.0" ]
screen_ok $? "J to a minute before the start says where the recording starts and shows its first reading" "footer: $(line "$SCREEN_H")"
quit_ok "q quits with status 0"
done_testing
