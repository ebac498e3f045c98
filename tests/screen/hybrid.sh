#!/bin/bash
# hybrid.sh — what a host with cgroup v1 controllers and a v2 hierarchy side by side is told: only
# the v2 hierarchy is followed, and where it is (the header in the cgroup view, and the screen's
# also in the task view where every task shown is in the v2 root, on a hybrid host); a CGROUP column that
# would say "/" on every row is left out unless --columns asks for it, and comes back as soon as
# a task shown is in a cgroup of its own. Every cgroup is made and removed here.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_cmd awk

require_v2
V1=$(mount_of cgroup)
CG=$V2/delaytop-hybrid.$$
trap 'screen_cleanup; cleanup; rmdir "$CG" 2>/dev/null' EXIT
mkdir "$CG" || skip_all "cannot create a cgroup under $V2"

start_workload sleep 60; ROOTED=$WORKLOAD_PID
start_workload sleep 60; MOVED=$WORKLOAD_PID
echo "$MOVED" >"$CG/cgroup.procs" || skip_all "cannot move a task into $CG"
grep -qx '0::/' "/proc/$ROOTED/cgroup" || skip_all "this shell's children are not in the v2 root: $(cat "/proc/$ROOTED/cgroup")"

if [ -n "$V1" ]; then
	note="cgroup v2 at $V2 (v1 controllers not followed)"
else
	note="cgroup v2 at $V2"
fi
T=$TMPDIR_TEST

# ---- every task shown in the root: no CGROUP column ----
"$DELAYTOP" -b -n 1 -p "$ROOTED" >"$T/root.txt" 2>/dev/null
title=$(grep -E '^ +PID ' "$T/root.txt")
[ -n "$title" ] && ! printf '%s\n' "$title" | grep -q CGROUP
tap_ok $? "a task in the v2 root alone: the CGROUP column is left out" "titles: $title"
! grep -q -F 'cgroup v2 at' "$T/root.txt"
tap_ok $? "the text report's task view names no hierarchy (its replay, which cannot know, prints the same)" \
	"$(sed -n 2p "$T/root.txt")"

# ---- --columns asks for it: shown ----
"$DELAYTOP" -b -n 1 -p "$ROOTED" --columns pid,cgroup,command >"$T/asked.txt" 2>/dev/null
row=$(awk -v p="$ROOTED" '$1 == p' "$T/asked.txt")
grep -q -E '^ +PID +CGROUP +COMMAND' "$T/asked.txt" && printf '%s\n' "$row" | grep -q -E "^ +$ROOTED +/ +workload"
tap_ok $? "--columns pid,cgroup,command: CGROUP shown, / for the task" "row: $row"

# ---- a task in a cgroup of its own: shown ----
"$DELAYTOP" -b -n 1 -p "$ROOTED,$MOVED" >"$T/both.txt" 2>/dev/null
row=$(awk -v p="$MOVED" '$1 == p' "$T/both.txt")
grep -q -E '^ +PID .* CGROUP +COMMAND' "$T/both.txt" && printf '%s\n' "$row" | grep -q -F "/delaytop-hybrid.$$"
tap_ok $? "with a task in /delaytop-hybrid.$$: the CGROUP column is back" "row: $row"
! grep -q -F 'cgroup v2 at' "$T/both.txt"
tap_ok $? "and the task view's header names no hierarchy then" "$(sed -n 2p "$T/both.txt")"

# ---- the cgroup view always says it ----
"$DELAYTOP" -b -n 1 --group cgroup -c "/delaytop-hybrid.$$" >"$T/cg.txt" 2>/dev/null
sed -n 2p "$T/cg.txt" | grep -q -F "  $note"
tap_ok $? "the cgroup view's header says which hierarchy it shows, and where" "line 2: $(sed -n 2p "$T/cg.txt")"

# ---- the screen ----
if [ -n "$V1" ]; then
	note_re=$(printf '%s' "$note" | sed 's/[().]/\\&/g')
	SCREEN_W=200 SCREEN_H=30
	start_screen -- -d 0.5 -p "$ROOTED"
	wait_for_screen "^ +$ROOTED " 10 && wait_for_screen "$note_re" 3 && ! screen_has '^ +PID .*CGROUP'
	screen_ok $? "the screen on a hybrid host: no CGROUP column, the header says what is followed"
	start_screen -- -d 0.5 --group cgroup -c "/delaytop-hybrid.$$"
	wait_for_screen '^TASKS ' 5 && wait_for_screen "$note_re" 3
	screen_ok $? "the cgroup view says it too"
	quit_ok "q quits with status 0"
else
	tap_skip "the screen on a hybrid host" "needs a hybrid host (v1 controllers beside v2)"
fi

done_testing
