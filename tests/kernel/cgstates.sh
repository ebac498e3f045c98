#!/bin/bash
# cgstates.sh — the cgroup view's counts of tasks by state stay right while only the threads that
# moved are read (src/sample/threadnotes.h), live and in a process-mode recording. A process of
# 300 threads whose main thread wakes every 50 ms (so that it moves at every reading and is
# split) sits in a v2 test cgroup; delaytop records it (-b -w in process mode) and shows it in the
# cgroup view at once, while the process is stopped (SIGSTOP: every thread T), continued (every
# thread S or R again), and one of its threads is held by ptrace (t, which no count has). Every
# reading well inside a phase counts what the phase makes, in the live view and in the
# recording's replay alike; a thread that changed state and was not read again would show as
# the phase before.
. "$top_srcdir/tests/lib.sh"

require_root
require_cmd jq awk
require_taskstats
lock_global # it switches kernel.task_delayacct on and back: never beside a test that switches it off
enable_delayacct

require_v2
NAME=delaytop-test.$$
CG=$V2/$NAME
mkdir "$CG" || skip_all "cannot create a cgroup under $V2"
trap 'cleanup; rmdir "$CG" 2>/dev/null' EXIT
T=$TMPDIR_TEST

"$WORKLOAD" idle 1 300 1 >"$T/idle.out" 2>&1 9>&- &
L=$!
track_pid "$L"
for _ in $(seq 200); do
	P=$(tr -d " " <"/proc/$L/task/$L/children" 2>/dev/null)
	[ -n "$P" ] && [ "$(ls "/proc/$P/task" 2>/dev/null | wc -l)" -eq 300 ] && break
	sleep 0.05
done
[ -n "$P" ] && [ "$(ls "/proc/$P/task" | wc -l)" -eq 300 ] || skip_all "the workload did not start its 300 threads"
echo "$P" >"$CG/cgroup.procs" || skip_all "cannot move the workload into $CG"
TID=$(ls "/proc/$P/task" | sort -n | sed -n 150p)

now() { date +%s.%N; }
"$DELAYTOP" -b -w "$T/rec" -d 0.25 -n 36 -c "/$NAME" >/dev/null 2>"$T/rec.err" &
R=$!
TZ=UTC "$DELAYTOP" -b --group=cgroup --format json -d 0.25 -n 36 -c "/$NAME" >"$T/live.json" 2>"$T/live.err" &
V=$!
wait_first_reading "$R" && wait_first_reading "$V" # a slow build takes a while to its first
sleep 1.5
t_stop=$(now)
kill -STOP "$P"
sleep 1.5
t_cont=$(now)
kill -CONT "$P"
sleep 1.5
t_frz=$(now)
"$WORKLOAD" freeze "$TID" 2000 >"$T/freeze.out" 2>&1 9>&-
t_thaw=$(now)
grep -q frozen "$T/freeze.out"
tap_ok $? "thread $TID was held by ptrace" "$(cat "$T/freeze.out")"
wait "$R"
tap_ok $? "delaytop -b -w (process mode) exits 0" "$(head -2 "$T/rec.err")"
wait "$V"
tap_ok $? "delaytop -b --group=cgroup exits 0" "$(head -2 "$T/live.err")"
TZ=UTC "$DELAYTOP" -r "$T/rec" -b --group=cgroup --format json >"$T/replay.json" 2>"$T/replay.err"
tap_ok $? "the recording replays in the cgroup view" "$(head -2 "$T/replay.err")"

# phases FILE: each reading of the cgroup as "PHASE R S D T", PHASE by when it started: stop,
# cont, frozen, after, before, or edge (too near a change to tell).
phases() {
	jq -r --arg p "/$NAME" 'select(.type == "cgroup" and .cgroup == $p) |
		[((.time[0:19] + "Z" | fromdateiso8601) + (.time[20:23] | tonumber) / 1000),
		 .states.running, .states.sleeping, .states.uninterruptible, .states.stopped] | @tsv' "$1" |
		awk -v s="$t_stop" -v c="$t_cont" -v f="$t_frz" -v t="$t_thaw" '
		function phase(x) {
			if (x < s - 0.3) return "before"
			if (x > s + 0.5 && x < c - 0.3) return "stop"
			if (x > c + 0.5 && x < f - 0.3) return "cont"
			if (x > f + 0.5 && x < t - 0.3) return "frozen"
			if (x > t + 0.5) return "after"
			return "edge"
		}
		{ print phase($1), $2, $3, $4, $5 }'
}

for f in live replay; do
	phases "$T/$f.json" >"$T/$f.phases"
	for ph in before stop cont frozen after; do
		case $ph in
		stop) want="0 300" ;;   # R+S+D, T
		frozen) want="299 0" ;; # the held thread is t
		*) want="300 0" ;;
		esac
		got=$(awk -v p="$ph" '$1 == p { printf "%s %s,", $2 + $3 + $4, $5 }' "$T/$f.phases")
		n=$(awk -v p="$ph" '$1 == p' "$T/$f.phases" | wc -l)
		bad=$(awk -v p="$ph" -v w="$want" '$1 == p && ($2 + $3 + $4) " " $5 != w' "$T/$f.phases" | wc -l)
		[ "$n" -ge 2 ] && [ "$bad" -eq 0 ]
		tap_ok $? "$f, $ph: every reading counts $want (running, sleeping and D; stopped)" \
			"$n readings, $bad wrong: $got"
	done
done

done_testing
