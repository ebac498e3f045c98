# stackpane.sh — a trigger's stacks in a replay's detail view, as an ordinary user: stacks.rec's
# reading at 00:00:03 was made when a trigger fired, and w on postgres (480, named by the event)
# shows the stacks the recording holds for it, by time (its R stack through spin and main, then
# its D stack through wait_on_fsync, folded), with the count of what did not fit; the next
# reading, which no event made, says the recording holds no stacks for it.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"
. "$top_srcdir/tests/replay/fixture.sh"

require_cmd jq

# what the batch replay says postgres's stacks are at that reading: its top stack's frames
want_top=$(dt -r "$FIX/stacks.rec" --format json 2>/dev/null | jq -r '
	select(.type == "event" and .time == "2026-01-01T00:00:03.005+00:00") | .tasks[]
	| select(.pid == 480) | .stacks[0] | "\(.state) \(.frames[0]) \(.frames[-1])"' | head -1)

shown() { line 1 | sed -n 's/^RECORDING \([0-9-]* [0-9:.]*\)  .*/\1/p'; }
want=""
time_ok() { [ "$(shown)" = "$want" ]; }

open_replay -- -r "$FIX/stacks.rec"
keys J C-u
type_text "2026-01-01 00:00:03"
keys Enter
want="2026-01-01 00:00:03.0"
wait_for_screen_fn time_ok 3
screen_ok $? "J goes to the reading the trigger made (00:00:03)" "shown: $(shown)"

# the row of 480 chosen (Down until it is), then w
for _ in 1 2 3 4 5 6 7 8 9 10 11 12; do
	[ "$(selected_id)" = 480 ] && break
	keys Down
done
keys w
wait_for_screen '^Off-CPU stacks the recording holds for this reading' 3 &&
	screen_has '^Process 480 \(postgres\)'
screen_ok $? "w on postgres at that reading opens the pane of the recorded stacks"

# the top stack unfolded: its state on its first line, its innermost and outermost frames (the
# program's main) among the frames listed under it; the second stack folded, through wait_on_fsync
read -r st inner outer <<<"$want_top"
[ -n "$want_top" ] &&
	screen_has "^-  +[0-9.]+ ms +[0-9]+x $st " &&
	screen_has "^ +${inner//+/\\+}\$" &&
	screen_has "^ +${outer//+/\\+}\$" &&
	screen_has '^\+  +[0-9.]+ ms +[0-9]+x D .* in wait_on_fsync\+0x5e$'
screen_ok $? "its top stack is the one the batch replay gives ($want_top), unfolded; the fsync stack folded"
screen_has '^\([0-9]+ off-CPU times or stacks found the kernel.s maps full since the start\)'
screen_ok $? "the pane says what did not fit"

keys n
want="2026-01-01 00:00:04.0"
wait_for_screen_fn time_ok 3 &&
	wait_for_screen '^This recording holds no stacks for this reading\.' 3
screen_ok $? "n: the next reading, made by no trigger, holds no stacks, and the pane says so" \
	"shown: $(shown)"
quit_ok "the replay ends with status 0"

done_testing
