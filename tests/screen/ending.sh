#!/bin/bash
# ending.sh — however the screen ends, the terminal is left as it was: Ctrl-\ (SIGQUIT) and a
# crash signal leave the alternate screen with the cursor shown and end with the signal's own
# status, also a fault on the reading thread; -n N quits after N refreshes, as top does.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats

ended() {
	[ -n "$(screen_status)" ]
}

# shown_cursor: whether delaytop's output since pipe_output made the cursor visible (DECTCEM
# set). tmux's own view of a dead pane's cursor is not delaytop's doing, so the bytes are read.
shown_cursor() {
	grep -q $'\e\\[?25h' "$TMPDIR_TEST/out.raw" 2>/dev/null
}

# pipe_output: from now on a copy of everything delaytop writes goes to out.raw. The screen hides
# the cursor before this starts and never shows it again while it runs.
pipe_output() {
	rm -f "$TMPDIR_TEST/out.raw"
	tm pipe-pane -t dt -o "cat >>'$TMPDIR_TEST/out.raw'"
}

pane() {
	tm display-message -p -t dt "$1"
}

# check_restored SIGNAL-NAME STATUS: the pane after delaytop ended by a signal.
check_restored() {
	wait_until 5 ended
	capture
	screen_ok $? "$1: delaytop ends" "status '$(screen_status)'"
	[ "$(screen_status)" = "$2" ]
	screen_ok $? "$1: the exit status is the signal's ($2)" "got '$(screen_status)'"
	[ "$(pane '#{alternate_on}')" = 0 ]
	screen_ok $? "$1: the terminal left the alternate screen" "alternate_on=$(pane '#{alternate_on}')"
	wait_until 2 shown_cursor
	screen_ok $? "$1: the cursor is made visible again" \
		"output after the start: $(od -c "$TMPDIR_TEST/out.raw" 2>/dev/null | tail -5 | tr '\n' ' ')"
}

start_screen -- -d 0.5
wait_for_screen '^ +PID .*TOTAL' 5
screen_ok $? "the screen comes up"
pipe_output
[ "$(pane '#{alternate_on}')" = 1 ] && [ "$(pane '#{cursor_flag}')" = 0 ]
screen_ok $? "the screen runs in the alternate screen with the cursor hidden (so the checks below can fail)" \
	"alternate_on=$(pane '#{alternate_on}') cursor_flag=$(pane '#{cursor_flag}')"
# Ctrl-\ sends SIGQUIT to the terminal's foreground process group, which here holds the test's
# wrapper shell too: send the same signal to delaytop alone, so the wrapper can record its status.
kill -QUIT "$SCREEN_PID"
check_restored "Ctrl-\\ (SIGQUIT)" $((128 + 3))

start_screen -- -d 0.5
wait_for_screen '^ +PID .*TOTAL' 5
pipe_output
kill -SEGV "$SCREEN_PID"
check_restored "SIGSEGV" $((128 + 11))

# A fault on the reading thread, where nearly all parsing runs (tests/faultread.so makes one at
# its next read once the arm file exists): the same handler puts the terminal back.
FAULTREAD=$(cd "${top_builddir:-.}" && pwd)/tests/faultread.so
if [ -f "$FAULTREAD" ]; then
	rm -f "$TMPDIR_TEST/arm"
	# (an ASan build wants its runtime first in the list of libraries)
	start_screen LD_PRELOAD="$FAULTREAD" FAULT_ARM="$TMPDIR_TEST/arm" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" -- -d 0.5
	wait_for_screen '^ +PID .*TOTAL' 5
	pipe_output
	: >"$TMPDIR_TEST/arm"
	check_restored "a SIGSEGV on the reading thread" $((128 + 11))
else
	for what in "ends" "the exit status is the signal's" "the terminal left the alternate screen" \
		"the cursor is made visible again"; do
		tap_skip "a SIGSEGV on the reading thread: $what" "tests/faultread.so is not built (make check builds it)"
	done
fi

# ---- -n: quits after N refreshes ----
start_screen -- -d 0.5 -n 3
t0=$SECONDS
wait_until 6 ended
took=$((SECONDS - t0))
capture
[ "$(screen_status)" = 0 ]
screen_ok $? "-n 3 -d 0.5: the screen quits by itself with status 0 (after about ${took} s)" \
	"status '$(screen_status)'"
[ "$(pane '#{alternate_on}')" = 0 ]
screen_ok $? "-n: the terminal left the alternate screen" "alternate_on=$(pane '#{alternate_on}')"

done_testing
