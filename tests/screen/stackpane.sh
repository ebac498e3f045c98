#!/bin/bash
# stackpane.sh — the detail view's stacks pane (w) on the real kernel, of tests/stackwait's pipe
# reader (a child writes the pipe every 10 ms; the reader blocks in read() from wait_on_pipe),
# run under a name of its own and chosen by no option: w on its row shows its top stack with the
# kernel's pipe read and the program's wait_on_pipe, and the kernel's filter map (why_select) holds
# its pid while the view is open and drops it when Esc leaves it; y off and on keeps the choice;
# Enter folds the stack to its one line and unfolds it again, - and + all of them; at 40x12 the
# pane is cut to the screen, nothing of the table or the charts left over. Without --why, as
# nobody, and in a replay of a recording without stacks: the one sentence.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats
require_cmd jq bpftool setpriv

SW=${top_builddir:-.}/tests/stackwait
[ -x "$SW" ] || skip_all "tests/stackwait was not built"
require_why # and the global lock: its --why programs run at every context switch

CFG=$TMPDIR_TEST/cfg # no settings file of the machine's
NAME=swpane$$
NAME=${NAME:0:15}
ln -s "$(abs "$SW")" "$TMPDIR_TEST/$NAME"
"$TMPDIR_TEST/$NAME" pipe >"$TMPDIR_TEST/pipe.pid" 2>"$TMPDIR_TEST/pipe.err" 9>&- &
track_pid $!
wait_until 5 test -s "$TMPDIR_TEST/pipe.pid"
PIPE=$(head -1 "$TMPDIR_TEST/pipe.pid")
[ -n "$PIPE" ] || skip_all "stackwait pipe did not start: $(head -1 "$TMPDIR_TEST/pipe.err")"

# select_map: the id of the filter map (why_select) the screen's delaytop holds; fails when none
select_map() {
	local fd id
	for fd in /proc/"$SCREEN_PID"/fdinfo/*; do
		id=$(awk '$1 == "map_id:" { print $2 }' "$fd" 2>/dev/null)
		[ -n "$id" ] || continue
		[ "$(bpftool -j map show id "$id" 2>/dev/null | jq -r .name)" = why_select ] || continue
		echo "$id"
		return 0
	done
	return 1
}
# chosen: the ids in that map, one a line (the key as BTF formats it: the map has BTF; the later
# points that find the reader there show this reads it)
chosen() {
	local id
	id=$(select_map) || return 1
	bpftool -j map dump id "$id" 2>/dev/null | jq -r '.[] | .formatted.key // empty'
}
is_chosen() { chosen | grep -qx "$PIPE"; }
# not_chosen: the map is there, without the reader
not_chosen() { select_map >/dev/null && ! is_chosen; }
# pane_of_pipe: the detail view is the reader's and shows its pane
pane_of_pipe() { screen_has "^Process $PIPE \\($NAME\\)" && screen_has '^(Off-CPU stacks|Taking stacks|No stacks)'; }
# open_pane: the table filtered to NAME, then w on the reader's row (the rows of the reader and
# its writer: Down until the view is the reader's)
open_pane() {
	local i
	keys /
	type_text "$NAME"
	keys Enter
	wait_for_screen " $NAME\$" 5 || return 1
	for i in 1 2 3; do
		keys w
		wait_for_screen_fn pane_of_pipe 2 && return 0
		keys Escape Down
	done
	return 1
}
# summary: the pane's first stack's line ("-" unfolded or "+" folded, ms, count, state, frames)
summary() { printf '%s\n' "$SCREEN" | grep -m1 -E '^[-+] +[0-9.]+ ms +[0-9]+x [RDS] '; }
pipe_stack() {
	summary | grep -qE '^- .* S (anon_)?pipe_read in wait_on_pipe\+0x' &&
		screen_has '^  kernel +__schedule\+0x' && screen_has '^ +(anon_)?pipe_read\+0x' &&
		screen_has '^  user +read\+0x' && screen_has '^ +wait_on_pipe\+0x' && screen_has '^ +main\+0x'
}
folded() { summary | grep -qE '^\+ .* S (anon_)?pipe_read in wait_on_pipe\+0x' && ! screen_has '^ +vfs_read\+0x'; }
message() { printf '%s\n' "$SCREEN" | tail -1; }

start_screen XDG_CONFIG_HOME="$CFG" -- --why -d 1
wait_for_screen 'why on' 8
screen_ok $? "the screen comes up with --why on"
not_chosen
tap_ok $? "no option chose the reader: it is not in the kernel's filter" "chosen: $(chosen | tr '\n' ' ')"

# ---- w: the pane, the task chosen ----
# paused (z): no reading comes, so a choice seen in the filter was made as the view opened
keys z
open_pane
screen_ok $? "w on the reader's row opens its detail view with the stacks pane"
wait_until 1 is_chosen
tap_ok $? "its pid is in the kernel's filter at once, no reading taken meanwhile (paused)" "chosen: $(chosen | tr '\n' ' ')"
keys z
wait_for_screen_fn pipe_stack 6
screen_ok $? "its top stack: the pipe read, in S, in wait_on_pipe, unfolded to kernel then user frames"

# ---- fold and unfold ----
keys Enter
wait_for_screen_fn folded 2
screen_ok $? "Enter folds it to its one line" "summary: $(summary)"
keys Enter
wait_for_screen_fn pipe_stack 2
screen_ok $? "Enter again unfolds it"
keys -- -
wait_for_screen_fn folded 2
screen_ok $? "- folds every stack"
keys +
wait_for_screen_fn pipe_stack 2
screen_ok $? "+ unfolds every stack"

# ---- y off and on keeps the choice ----
keys y
wait_for_screen '^No stacks: --why is off' 4
screen_ok $? "y: --why off, the pane says so in one sentence"
keys y
wait_for_screen_fn pipe_stack 8
screen_ok $? "y again: the stacks come back"
wait_until 3 is_chosen
tap_ok $? "the reader is in the new filter map" "chosen: $(chosen | tr '\n' ' ')"

# ---- Esc: not chosen any more ----
keys Escape
wait_until 4 not_chosen
tap_ok $? "Esc leaves the view: the reader is dropped from the filter" "chosen: $(chosen | tr '\n' ' ')"

# ---- 40x12 ----
# the pane opened at 120x40 (the filter's COMMAND column is gone at 40), then the window shrunk
open_pane
screen_ok $? "w opens the pane again"
SCREEN_W=40 SCREEN_H=12
tm resize-window -t dt -x 40 -y 12
small_pane() {
	local lines widest
	capture -J
	lines=$(printf '%s\n' "$SCREEN" | wc -l)
	widest=$(printf '%s\n' "$SCREEN" | LC_ALL=C.UTF-8 wc -L)
	[ "$lines" -eq 12 ] && [ "$widest" -le 40 ] && screen_has "^Process $PIPE \\($NAME" &&
		screen_has '^[-+] +[0-9.]+ ms +[0-9]+x S (anon_)?pipe_rea' &&
		! screen_has 'PID|TOTAL|Delays:|Command:' && line 12 | grep -q '^h help'
}
wait_for_screen_fn small_pane 6
screen_ok $? "at 40x12: the title, the stack's line, the footer, no line wider than 40, nothing of the table or charts"
keys Escape
small_table() { capture -J; screen_has "^ +PID" && ! screen_has 'Off-CPU|pipe_read|Process |kernel '; }
wait_for_screen_fn small_table 3
screen_ok $? "Esc at 40x12: the table again, nothing of the pane left"
quit_ok "the screen ends with status 0"
SCREEN_W=120 SCREEN_H=40

# ---- without --why, as nobody, in a replay: one sentence ----
start_screen XDG_CONFIG_HOME="$CFG" -- -d 1
wait_for_screen '^ +PID' 8
open_pane
wait_for_screen '^No stacks: --why is off; y switches it on' 3
screen_ok $? "without --why the pane says so in one sentence"
quit_ok "the screen without --why ends with status 0"

setup_nobody
cat >"$TMPDIR_TEST/nobody.sh" <<EOF
#!/bin/sh
exec ${NOBODY[*]} "$DT" "\$@"
EOF
chmod 0755 "$TMPDIR_TEST/nobody.sh"
REAL=$DELAYTOP
DELAYTOP=$TMPDIR_TEST/nobody.sh
start_screen XDG_CONFIG_HOME="$CFG" -- --why -d 1
wait_for_screen '^ +PID' 8
open_pane
wait_for_screen '^No stacks: .*CAP_BPF and CAP_PERFMON' 3
screen_ok $? "as nobody the pane gives the sampler's one sentence"
quit_ok "the screen as nobody ends with status 0"
DELAYTOP=$REAL

REC=$TMPDIR_TEST/r.rec
"$DELAYTOP" -w "$REC" -b --why -d 0.5 -n 2 -p "$PIPE" >/dev/null 2>"$TMPDIR_TEST/rec.err" 9>&-
start_screen XDG_CONFIG_HOME="$CFG" -- -r "$REC"
wait_for_screen '^ +PID' 5
keys w
wait_for_screen '^This recording holds no stacks for this reading\.' 3
screen_ok $? "a replay of a recording without stacks says so in one sentence"
quit_ok "the replay ends with status 0"

done_testing
