#!/bin/bash
# stacks.sh — --why's off-CPU stacks on the real kernel, of programs built here with frame
# pointers (tests/stackwait.c, a PIE binary, and its shared library): a reader of a pipe written
# every 10 ms has as its top stack the kernel's pipe read under wait_on_pipe, in S, and the
# stacks through the pipe read hold most of its time off the CPU (its interval less its CPU time
# from /proc/PID/schedstat); an fsync loop shows do_fsync under wait_on_fsync, in D, in a report
# holding the end of a wait of it that began after it was chosen (by its /proc/PID/stat field 42;
# the run lasts until one came, 30 s at most, as on a slow disk an fsync outlasts reports); a sleeper
# shows the nanosleep path under wait_in_nanosleep; a function of the shared library is named; 8
# processes of the binary (names shared through the build id cache) are each named right; a
# deleted binary's frames are its module and offset, not names read from whatever is at its
# old path now; 16,384 stacks of one task are each taken, none lost; a task that exits mid-interval
# leaves the run whole; a process not chosen has "stacks": null. Without privileges: one
# sentence, "why": null.
. "$top_srcdir/tests/lib.sh"

require_root
require_cmd jq setpriv
require_taskstats

SW=${top_builddir:-.}/tests/stackwait
[ -x "$SW" ] || skip_all "tests/stackwait was not built"

# --why's programs run at every context switch of the machine: beside an exit storm or a timing
# test they slow what that test measures; require_why takes the global lock
require_why --loose
enable_delayacct # the loop's field 42 below counts only with it on

# start NAME ARGS...: runs stackwait ARGS in the background; its pid (the one it prints) in NAME
start() {
	local name=$1 pid i
	shift
	"$SW" "$@" >"$TMPDIR_TEST/$name.pid" 2>"$TMPDIR_TEST/$name.err" 9>&- &
	track_pid $!
	for i in $(seq 50); do
		pid=$(head -1 "$TMPDIR_TEST/$name.pid" 2>/dev/null)
		[ -n "$pid" ] && break
		sleep 0.05
	done
	printf -v "$name" '%s' "$pid"
}

# running PID: whether PID is there and not a zombie
running() {
	local line st=Z
	{ read -r line <"/proc/$1/stat" && st=${line##*) } && st=${st%% *}; } 2>/dev/null
	[ "$st" != Z ]
}

# the pipe's writer is the reader's child: stopped with it (it exits on EPIPE)
start PIPE pipe
start SLEEP sleep
start LIB lib
DIR=$(disk_dir)
if [ -n "$DIR" ]; then
	FS=$(mktemp "$DIR/delaytop-stacks.XXXXXX")
	EXTRA_DIRS="$EXTRA_DIRS $FS"
	start FSYNC fsync "$FS"
fi
sleep 0.3

# The run: until it has printed 3 reports and, with the fsync loop, a report holding the end of a
# wait of the loop that began after delaytop chose it (30 s at most). The kernel counts a wait,
# and --why takes its stack, when it ends, and --why's stack of a wait only when the task was
# chosen at its start: on a slow disk an fsync outlasts several 1 s intervals. The loop's
# block-I/O delay (/proc/PID/stat field 42) is marked every 50 ms from delaytop's first reading
# (P0: the chosen tasks are set) on; a step of it is the end of a wait, and the wait ending at
# the first step may have begun before P0, those ending at later steps began after it.
run0=$(awk '{ print $1 }' "/proc/$PIPE/schedstat")
"$DELAYTOP" -b --why --format json -n 40 -d 1 -p "$PIPE,$SLEEP,$LIB${FSYNC:+,$FSYNC},1" >"$TMPDIR_TEST/out.json" \
	2>"$TMPDIR_TEST/out.err" 9>&- &
DTP=$!
track_pid "$DTP"
wait_first_reading "$DTP"
mark P0 ${FSYNC:-}
i=0 STEPS=() SEEN=() last_t=0
while running "$DTP"; do
	sleep 0.05
	i=$((i + 1))
	n=$(reports_in "$TMPDIR_TEST/out.json")
	mark "P$i" ${FSYNC:-} # after the count: the reports counted were printed before this mark
	while [ "${#SEEN[@]}" -lt "$n" ]; do SEEN+=("${MARK_T[P$i]}"); done
	if [ -n "${FSYNC:-}" ] && [ "${MARK_IO[P$i:$FSYNC]:-}" != "${MARK_IO[P$((i - 1)):$FSYNC]:-}" ]; then
		STEPS+=("$i")
	fi
	if [ "$n" -ge 3 ]; then
		[ -z "${FSYNC:-}" ] && break
		if [ "${#STEPS[@]}" -ge 2 ]; then # a report from the second step's mark on has come
			last_t=$(grep '^{"type":"psi"' "$TMPDIR_TEST/out.json" | tail -1 | jq -r .time | date -f - +%s%6N)
			[ "$last_t" -ge "${MARK_T[P${STEPS[1]}]}" ] && break
		fi
	fi
	[ $((MARK_T[P$i] - MARK_T[P0])) -lt 30000000 ] || break
done
kill -TERM "$DTP" 2>/dev/null
wait "$DTP"
rc=$?
run1=$(awk '{ print $1 }' "/proc/$PIPE/schedstat")
diag "$(reports_in "$TMPDIR_TEST/out.json") reports in $(((MARK_T[P$i] - MARK_T[P0]) / 1000)) ms; the fsync loop's field 42 stepped ${#STEPS[@]} times"
tap_ok "$rc" "delaytop -b --why --format json -p ... exits 0 (stopped by SIGTERM)" "got $rc" "stderr: $(head -3 "$TMPDIR_TEST/out.err" | tr '\n' ' ')"
h=$(jq -r 'select(.type == "psi") | .why.stacks_not_fitted_total' "$TMPDIR_TEST/out.json" | tail -1)
[ "$h" = 0 ]
tap_ok $? "the header counts the stacks that did not fit (none here)" "got '$h'"

# top PID: the task record's top stack of the last report as "MS STATE frame|frame|..."
top() {
	jq -r --argjson p "$1" 'select(.type == "task" and .pid == $p) | .why.stacks[0] // empty
		| "\(.ms) \(.state) \(.frames | join("|"))"' "$TMPDIR_TEST/out.json" | tail -1
}
# frames_of PID: every frame of its stacks in the last report, one a line
frames_of() {
	jq -r --argjson p "$1" 'select(.type == "task" and .pid == $p) | .why.stacks // [] | map(.frames[]) | .[]' \
		"$TMPDIR_TEST/out.json" | tail -n +1
}

# ---- the pipe's reader ----
read -r ms st frames <<<"$(top "$PIPE")"
echo "$frames" | grep -Eq '(^|\|)(anon_)?pipe_read\+0x[0-9a-f]+\|' && echo "$frames" | grep -Eq '\|(wait_on_pipe|main)\+0x'
tap_ok $? "the pipe reader's top stack is the kernel's pipe read called from wait_on_pipe or main" \
	"got: $st $frames"
[ "$st" = S ]
tap_ok $? "in interruptible sleep (S)" "got '$st'"
# its stacks through the pipe read against its time off the CPU in the last interval: the
# interval less its CPU time (all of the run's, an upper bound of one interval's)
read -r pipe_ms interval_s <<<"$(jq -r --argjson p "$PIPE" 'select(.type == "task" and .pid == $p)
	| "\([.why.stacks[] | select(.frames | map(test("pipe_read")) | any) | .ms] | add) \(.interval_s)"' \
	"$TMPDIR_TEST/out.json" | tail -1)"
off_ms=$(awk -v i="$interval_s" -v a="$run0" -v b="$run1" 'BEGIN { printf "%.1f", i * 1000 - (b - a) / 1e6 }')
lo=$(awk -v o="$off_ms" 'BEGIN { print o * 0.7 }'); hi=$(awk -v i="$interval_s" 'BEGIN { print i * 1000 * 1.1 }')
within "$pipe_ms" "$lo" "$hi"
tap_ok $? "its pipe-read stacks hold most of its time off the CPU ($pipe_ms ms of $off_ms ms)" "expected $lo..$hi"

# The reports that may hold the end of a wait that began after delaytop chose the loop: those
# of its steps of field 42 after the first (from mark P(s-1) to P(s)) that a report printed
# later than P(s) covers. Report k holds the waits that ended after the reading before it (when
# its report was printed, at the latest: SEEN) and by its own reading (its time, at the
# earliest), so that such a step's end is in a report k printed after P(s-1) whose reading
# before it began before P(s).
held_reports() {
	local k s t iv prev times=() ivs=() a b
	while read -r t iv; do
		times+=("$(date -d "$t" +%s%6N)")
		ivs+=("$iv")
	done < <(jq -r 'select(.type == "psi") | "\(.time) \(.interval_s)"' "$TMPDIR_TEST/out.json")
	[ "${#times[@]}" -gt 0 ] || return 0
	# the first reading, which printed nothing: the first report's time less its interval
	prev=$(awk -v t="${times[0]}" -v iv="${ivs[0]}" 'BEGIN { printf "%d", t - iv * 1e6 }')
	times=("$prev" "${times[@]}")
	for s in "${STEPS[@]:1}"; do
		a=${MARK_T[P$((s - 1))]} b=${MARK_T[P$s]}
		[ "${times[-1]}" -ge "$b" ] || continue
		for ((k = 1; k < ${#times[@]}; k++)); do
			[ "${SEEN[k - 1]:-0}" -gt "$a" ] && [ "${times[k - 1]}" -lt "$b" ] && echo "$k"
		done
	done | sort -un | tr '\n' ' '
}

# ---- fsync, nanosleep, a shared library ----
if [ -n "${FSYNC:-}" ] && [ "${#STEPS[@]}" -ge 2 ]; then
	frames_of "$FSYNC" | grep -q '^do_fsync+0x' && frames_of "$FSYNC" | grep -q '^wait_on_fsync+0x'
	tap_ok $? "the fsync loop's stacks go through do_fsync, under wait_on_fsync" "got: $(top "$FSYNC")"
	held=$(held_reports)
	# per report (1, 2, ...): the states of its stacks through do_fsync
	mapfile -t S < <(jq -r --argjson p "$FSYNC" 'select(.type == "task" and .pid == $p)
		| [.why.stacks // [] | .[] | select(.frames | map(test("^do_fsync\\+")) | any) | .state] | unique | join(",")' \
		"$TMPDIR_TEST/out.json")
	got="" d=""
	for k in $held; do
		got="$got report $k: '${S[k - 1]:-}';"
		case ",${S[k - 1]:-}," in *,D,*) d=$k ;; esac
	done
	[ -n "$d" ]
	tap_ok $? "waiting in D: a report holding the end of an fsync begun after the loop was chosen has a D stack through do_fsync" \
		"reports holding such an end (field 42 stepped at marks ${STEPS[*]:1:6}...): ${held:-none}; their states:$got"
elif [ -n "${FSYNC:-}" ]; then
	why="in $(((MARK_T[P$i] - MARK_T[P0]) / 1000000)) s the fsync loop's block-I/O delay (/proc/PID/stat field 42) stepped ${#STEPS[@]} times: no wait begun after the loop was chosen ended (a slow disk)"
	[ "${#STEPS[@]}" = 0 ] && why="in $(((MARK_T[P$i] - MARK_T[P0]) / 1000000)) s the disk completed no wait of the fsync loop (/proc/PID/stat field 42 never grew)"
	tap_skip "the fsync loop's stacks go through do_fsync" "$why"
	tap_skip "waiting in D" "$why"
else
	tap_skip "the fsync loop's stacks go through do_fsync" "no directory on a disk"
	tap_skip "waiting in D" "no directory on a disk"
fi
read -r ms st frames <<<"$(top "$SLEEP")"
echo "$frames" | grep -Eq '(^|\|)[a-z_]*nanosleep[a-z_]*\+0x' && echo "$frames" | grep -q '|wait_in_nanosleep+0x'
tap_ok $? "the sleeper's top stack is the nanosleep path under wait_in_nanosleep" "got: $st $frames"
read -r ms st frames <<<"$(top "$LIB")"
echo "$frames" | grep -q '|stackwait_lib_wait+0x' && echo "$frames" | grep -q '|main+0x'
tap_ok $? "a function of a shared library (stackwait_lib_wait) and main of a PIE binary are named" "got: $frames"
n=$(jq -r 'select(.type == "task" and .pid == 1) | .why.stacks | length' "$TMPDIR_TEST/out.json" | tail -1)
[ -n "$n" ]
tap_ok $? "a chosen process that barely ran still has a list (init: $n stacks)" "got none"

# ---- several processes of one binary (their frames' names shared through the build id cache) ----
MANY=""
for i in $(seq 8); do
	start M pipe
	MANY="$MANY${MANY:+,}$M"
done
sleep 0.3
"$DELAYTOP" -b --why --format json -n 2 -d 0.5 -p "$MANY,$LIB" >"$TMPDIR_TEST/many.json" 2>/dev/null
bad=""
for p in ${MANY//,/ }; do
	f=$(jq -r --argjson p "$p" 'select(.type == "task" and .pid == $p) | .why.stacks[0].frames // [] | join("|")' \
		"$TMPDIR_TEST/many.json" | tail -1)
	echo "$f" | grep -Eq '(^|\|)(anon_)?pipe_read\+0x' && echo "$f" | grep -q '|wait_on_pipe+0x' &&
		echo "$f" | grep -q '|main+0x' || bad="$bad $p: $f;"
done
f=$(jq -r --argjson p "$LIB" 'select(.type == "task" and .pid == $p) | .why.stacks[0].frames // [] | join("|")' \
	"$TMPDIR_TEST/many.json" | tail -1)
echo "$f" | grep -q '|stackwait_lib_wait+0x' && echo "$f" | grep -q '|main+0x' || bad="$bad lib $LIB: $f;"
[ -z "$bad" ]
tap_ok $? "8 readers of one binary and the library's caller: each names wait_on_pipe, main, stackwait_lib_wait" \
	"wrong:$bad"

# ---- 16,384 stacks of one task, twice what the kernel keeps: none lost ----
# (the kernel's stack-trace map drops a stack whose bucket another holds, and a map that is never
# emptied drops every new stack once full: delaytop keeps the 8,192 stacks used last, each by its
# frames, so none may go)
start PATHS paths 14 100
vcs() { awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$PATHS/status"; }
"$DELAYTOP" -b --why --format json -d 1 -p "$PATHS" >"$TMPDIR_TEST/paths.json" 2>"$TMPDIR_TEST/paths.err" 9>&- &
DTP=$!
track_pid "$DTP"
wait_first_reading "$DTP"
v0=$(vcs)
# every path twice after the first reading, and a report after that
wait_until 30 eval '[ $(($(vcs) - v0)) -ge 32768 ]'
v1=$(vcs) n1=$(reports_in "$TMPDIR_TEST/paths.json")
wait_until 5 eval '[ "$(reports_in "$TMPDIR_TEST/paths.json")" -gt "$n1" ]'
kill -TERM "$DTP" "$PATHS" 2>/dev/null
wait "$DTP"
h=$(jq -r 'select(.type == "psi") | .why.stacks_not_fitted_total' "$TMPDIR_TEST/paths.json" | tail -1)
s=$(jq -r --argjson p "$PATHS" 'select(.type == "task" and .pid == $p) | [.why.stacks[]
	| select(.frames | map(test("^path_[ab]\\+")) | length >= 14)] | length' "$TMPDIR_TEST/paths.json" | tail -1)
[ $((v1 - v0)) -ge 32768 ] && [ "$h" = 0 ] && [ "$s" -gt 0 ]
tap_ok $? "16,384 user stacks of one task, each path seen twice: none lost, the last report's stacks named" \
	"$((v1 - v0)) sleeps, stacks_not_fitted_total '$h', $s stacks through 14 path_a/path_b frames in the last report"

# ---- the rows -u chooses (from the second report on); none without a choice ----
setup_nobody
"${NOBODY[@]}" "$SW" sleep >"$TMPDIR_TEST/nb.pid" 2>/dev/null 9>&- &
NB=$!
track_pid "$NB"
sleep 0.2
"$DELAYTOP" -b --why --format json -n 2 -d 0.5 -u nobody >"$TMPDIR_TEST/u.json" 2>/dev/null
u=$(jq -r --argjson p "$NB" 'select(.type == "task" and .pid == $p) | .why.stacks[0].frames // [] | join("|")' 	"$TMPDIR_TEST/u.json" | tail -1)
echo "$u" | grep -q '|wait_in_nanosleep+0x'
tap_ok $? "-u nobody: the stacks of nobody's process are taken" "got: '$u'"
"$DELAYTOP" -b --why --format json -n 1 -d 0.3 >"$TMPDIR_TEST/all.json" 2>/dev/null
k=$(jq -r 'select(.type == "task") | .why | has("stacks")' "$TMPDIR_TEST/all.json" | sort -u | tr '\n' ' ')
[ "$k" = "false " ]
tap_ok $? "without -p, -u, -c or --unit no stacks are taken" "has stacks: '$k'"

# ---- a deleted binary, another file at its old path ----
DEL=$(mktemp -d /tmp/delaytop-stacks-del.XXXXXX)
EXTRA_DIRS="$EXTRA_DIRS $DEL"
cp "$SW" "$DEL/sw" && cp "${top_builddir:-.}/tests/libstackwaitlib.so" "$DEL/"
"$DEL/sw" sleep >"$TMPDIR_TEST/del.pid" 2>/dev/null 9>&- &
DELPID=$!
track_pid "$DELPID"
sleep 0.3
rm -f "$DEL/sw" && cp "${top_builddir:-.}/tests/libstackwaitlib.so" "$DEL/sw"
"$DELAYTOP" -b --why --format json -n 2 -d 0.5 -p "$DELPID" >"$TMPDIR_TEST/del.json" 2>/dev/null
del=$(jq -r --argjson p "$DELPID" 'select(.type == "task" and .pid == $p) | .why.stacks[0].frames // [] | join("|")' \
	"$TMPDIR_TEST/del.json" | tail -1)
echo "$del" | grep -Eq '\|sw \(deleted\)\+0x[0-9a-f]+\|' && ! echo "$del" | grep -Eq 'stackwait_lib|lib_sleep|wait_in_nanosleep'
tap_ok $? "a deleted binary's frames are its module and offset, not names from the file now at its path" "got: $del"

# ---- a task that exits mid-interval ----
start GONE exit 1
"$DELAYTOP" -b --why --format json -n 3 -d 0.7 -p "$GONE,$SLEEP" >"$TMPDIR_TEST/gone.json" 2>"$TMPDIR_TEST/gone.err"
rc=$?
n=$(jq -r --argjson p "$SLEEP" 'select(.type == "task" and .pid == $p) | .why.stacks | length' "$TMPDIR_TEST/gone.json" | wc -l)
[ "$rc" = 0 ] && [ "$n" = 3 ] && ! kill -0 "$GONE" 2>/dev/null
tap_ok $? "a chosen task that exits mid-run: delaytop goes on, the other's stacks in each report" \
	"rc $rc, reports with the sleeper: $n, stderr: $(head -2 "$TMPDIR_TEST/gone.err" | tr '\n' ' ')"

# ---- command mode: the command's top stacks per state, its children followed from birth ----
# (a grandchild that sleeps 1 s from its birth, before any scan could see it, then one that reads
# a pipe for 2 s)
"$DELAYTOP" --why --format json -o "$TMPDIR_TEST/cmd.json" -- \
	sh -c "\"\$0\" exit 1 >/dev/null; exec timeout -s TERM 2 \"\$0\" pipe" "$SW" >/dev/null 2>"$TMPDIR_TEST/cmd.err"
rc=$?
c=$(jq -r '.why.stacks[] | select(.frames | map(test("^(anon_)?pipe_read\\+")) | any)
	| select(.frames | map(test("^wait_on_pipe\\+")) | any) | "\(.state) \(.ms)"' "$TMPDIR_TEST/cmd.json" 2>/dev/null | head -1)
read -r st ms <<<"$c"
[ "$rc" = 124 ] && [ "$st" = S ] && within "$ms" 1000 2500
tap_ok $? "delaytop --why -- COMMAND: a grandchild's pipe read under wait_on_pipe, in S, most of its 2 s" \
	"rc $rc (expected the command's 124), got '$c'" "stderr: $(head -2 "$TMPDIR_TEST/cmd.err" | tr '\n' ' ')"
b=$(jq -r '.why.stacks[] | select(.count == 1 and (.frames | map(test("^wait_in_nanosleep\\+")) | any)) | .ms' "$TMPDIR_TEST/cmd.json" | head -1)
within "$b" 900 1200
tap_ok $? "a process the command forks is followed from its birth (its first 1 s sleep: $b ms)" "got '$b'"
w=$("$DELAYTOP" --format json -- true 2>&1 >/dev/null | jq -r '.why')
[ "$w" = null ]
tap_ok $? "command mode without --why: \"why\": null" "got '$w'"

# ---- without privileges ----
"${NOBODY[@]}" "$DT" -b --why --format json -n 2 -d 0.3 -p "$PIPE" >"$TMPDIR_TEST/nobody.json" 2>"$TMPDIR_TEST/nobody.err"
rc=$?
n=$(grep -c -- "--why" "$TMPDIR_TEST/nobody.err")
w=$(jq -r 'select(.type == "task") | .why' "$TMPDIR_TEST/nobody.json" | sort -u | tr '\n' ' ')
r=$(jq -r 'select(.type == "task") | .pid' "$TMPDIR_TEST/nobody.json" | sort -u | tr '\n' ' ')
[ "$rc" = 0 ] && [ "$n" = 1 ] && [ "$w" = "null " ] && [ "$r" = "$PIPE " ]
tap_ok $? "without privileges: exit 0, one sentence, \"why\": null, the rows as asked" \
	"rc $rc, $n sentences, why '$w', pids '$r'"

done_testing
