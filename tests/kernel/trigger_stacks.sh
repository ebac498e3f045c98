#!/bin/bash
# trigger_stacks.sh — a PSI trigger's stalled tasks' off-CPU stacks, recorded with its event and
# replayed: tests/stackwait fsyncs a file on a disk again and again inside a test cgroup, whose
# io.pressure an "io some 100ms 2s" trigger watches; delaytop -b --why --trigger -w records. The
# tasks that stalled most (or wait in D) are chosen for stacks from the reading after they were
# named, and --why takes a stack of a wait that began while its task was chosen, when it ends:
# an event whose interval held such an end of the loop's (by the kernel's count, its
# /proc/PID/stat field 42) names it with its stacks, and the run goes on until one came (60 s at
# most: on a slow disk an fsync outlasts several intervals), its top stack in D through do_fsync
# under wait_on_fsync (or main). The replay's event carries the same stacks, frame for frame, as
# the live run printed; its task records carry none ("stacks": null: the recording keeps the
# stacks of the tasks events name, at those readings); the file says format 1.4.
. "$top_srcdir/tests/lib.sh"

require_root
require_taskstats
require_cmd jq awk
SW=${top_builddir:-.}/tests/stackwait
[ -x "$SW" ] || skip_all "tests/stackwait was not built"
[ -w /proc/pressure/io ] || skip_all "no writable /proc/pressure/io (PSI off, or too old for triggers)"
DIR=$(disk_dir)
[ -n "$DIR" ] || skip_all "no writable directory on a disk (fsync on tmpfs never waits)"

require_why # and the global lock: an I/O load, and the sysctl

require_v2
enable_delayacct
NAME=delaytop-trigstacks.$$
CG=$V2/$NAME
mkdir "$CG" || skip_all "cannot create a cgroup under $V2"
trap 'cleanup; rmdir "$CG" 2>/dev/null' EXIT
T=$TMPDIR_TEST

FS=$(mktemp "$DIR/delaytop-trigstacks.XXXXXX")
EXTRA_DIRS="$EXTRA_DIRS $FS"
"$SW" fsync "$FS" >"$T/sw.pid" 2>"$T/sw.err" 9>&- &
track_pid $!
for _ in $(seq 50); do
	PID=$(head -1 "$T/sw.pid" 2>/dev/null)
	[ -n "$PID" ] && break
	sleep 0.05
done
[ -n "$PID" ] && echo "$PID" >"$CG/cgroup.procs" || skip_all "cannot start the fsync loop in $CG: $(cat "$T/sw.err")"
sleep 0.5

# follow_live: follows the run until an event is proven to owe the loop a stack (below), or, for
# want of one, an event names it with stacks and 12 s have passed, or 60 s have; marks the loop's
# counters every 20 ms (P0, P1, ...). Sets, for each reading line printed (psi or event, in
# order; the first reading prints none), LTIME (its time, µs), LPOLL (the poll that saw it first:
# it was printed, so its stacks were taken, before mark P(LPOLL)) and LSTK (an event: 1 when it
# names the loop with stacks, 0 when without, or not at all where fewer than five tasks of the
# machine stalled, x when five others did); STEPS (the marks at which the loop's field 42 had
# grown: a wait of it ended since the mark before); SEL (the poll that saw the second reading
# line: delaytop chose the loop for stacks by then, at the first reading, where it is in D, or
# at the next, where a wait of it ended or it is in D); PROVEN (the events that must carry its
# stacks).
follow_live() {
	local lfd sfd line carry="" i=0 j k s g="" end new
	mkfifo "$T/nap" && exec {sfd}<>"$T/nap" {lfd}<"$T/live.json"
	LTIME=() LPOLL=() LSTK=() STEPS=() SEL="" PROVEN=""
	mark P0 "$PID"
	end=$((MARK_T[P0] + 60000000))
	while :; do
		read -r -t 0.02 -u "$sfd"
		i=$((i + 1))
		new=""
		while IFS= read -r -u "$lfd" line || { carry=$carry$line; false; }; do
			line=$carry$line carry=""
			[[ $line =~ ^\{\"type\":\"(psi|event)\",\"time\":\"([^\"]+)\" ]] || continue
			LTIME+=("$(date -d "${BASH_REMATCH[2]}" +%s%6N)")
			LPOLL+=("$i")
			if [ "${BASH_REMATCH[1]}" = event ]; then
				LSTK+=("$(jq -r --argjson p "$PID" '[(.tasks + .waiting)[] | select(.pid == $p)] as $l
					| if any($l[]; (.stacks | length) > 0) then 1 elif ($l | length) > 0 or (.tasks | length) < 5 then 0
					else "x" end' <<<"$line")")
				new="$new $((${#LTIME[@]} - 1))"
			else
				LSTK+=(-)
			fi
		done
		mark "P$i" "$PID" # after the lines: they were printed before it
		[ -z "$SEL" ] && [ "${#LTIME[@]}" -ge 2 ] && SEL=$i
		if [ "${MARK_IO[P$i:$PID]:-}" != "${MARK_IO[P$((i - 1)):$PID]:-}" ]; then
			STEPS+=("$i")
			[ -z "$g" ] && [ -n "$SEL" ] && [ $((i - 1)) -ge "$SEL" ] && g=$i
		fi
		# G (g), the first step from SEL's mark on: the wait ending there may have begun before
		# the loop was chosen; one ending at a later step s (from mark s-1 to mark s) began after
		# G's ended. Event k holds that end (its stack, and a share of the loop's delay that
		# names it among the five tasks that stalled most) when its reading began after mark s
		# (its time) and the reading before it was printed before mark s-1 (a reading reads the
		# tasks' delays, then takes the stacks, then prints). Those steps came before event k was
		# printed: each event is looked at as it comes.
		for k in $new; do
			[ "$k" -ge 1 ] && [ -n "$g" ] && [ "${LSTK[k]}" != x ] || continue
			for ((j = ${#STEPS[@]} - 1; j >= 0; j--)); do
				s=${STEPS[j]}
				[ "$s" -gt "$g" ] && [ $((s - 1)) -gt "${LPOLL[k - 1]}" ] || break
				if [ "${MARK_T[P$s]}" -le "${LTIME[k]}" ]; then
					PROVEN="$PROVEN $k"
					break
				fi
			done
		done
		[ -n "$PROVEN" ] && break
		[[ " ${LSTK[*]} " == *" 1 "* ]] && [ "${MARK_T[P$i]}" -ge $((MARK_T[P0] + 12000000)) ] && break
		[ "${MARK_T[P$i]}" -lt "$end" ] || break
		line=Z
		{ read -r line <"/proc/$DT/stat" && line=${line##*) }; } 2>/dev/null
		[ "${line:0:1}" != Z ] || break
	done
	exec {lfd}<&- {sfd}>&-
	FOLLOWED_S=$(((MARK_T[P$i] - MARK_T[P0]) / 1000000))
}

# Readings every 3 s: a trigger that fires during a reading is read right after it, and that
# event's interval is about the reading's length (a few hundred ms under --why on a busy
# machine), too short to hold a wait's end that the marks can place; 3 s, not a multiple of the
# trigger's 2 s window, lets most events fire between readings.
: >"$T/live.json"
"$DELAYTOP" -b --why --format json -d 3 --trigger "io some 100ms 2s /$NAME" -w "$T/rec" \
	>"$T/live.json" 2>"$T/live.err" 9>&- &
DT=$!
track_pid "$DT"
follow_live
kill -TERM "$DT" 2>/dev/null
wait "$DT"
tap_ok $? "delaytop -b --why --trigger -w exits 0 when stopped" "$(head -3 "$T/live.err")"
"$DELAYTOP" -r "$T/rec" -b --format json >"$T/replay.json" 2>"$T/replay.err"
tap_ok $? "its recording replays without damage" "$(head -3 "$T/replay.err")"

# stacks_of FILE: the fsync loop's stacks in each event of FILE that names it with stacks, one
# event a line: "TIME STATE frame|frame|... ;; STATE frame|..."
stacks_of() {
	jq -r --argjson p "$PID" 'select(.type == "event") | .time as $t | (.tasks + .waiting)[] | select(.pid == $p and (.stacks | length) > 0)
		| "\($t) " + ([.stacks[] | "\(.state) \(.frames | join("|"))"] | join(" ;; "))' "$1"
}
live=$(stacks_of "$T/live.json")
replay=$(stacks_of "$T/replay.json")
events=$(jq -c --argjson p "$PID" 'select(.type == "event") | [.time, .interval_s, [.tasks[] | [.pid, .command, .pct, (.stacks | length)]],
	[.waiting[] | [.pid, .command, (.stacks | length)]]]' \
	"$T/live.json" | tr '\n' ' ')
diag "followed $FOLLOWED_S s: ${#LTIME[@]} reading lines, the loop's field 42 grew at ${#STEPS[@]} of its marks; events that must carry its stacks (reading lines from 0):${PROVEN:- none}"
jq -e --argjson p "$PID" 'select(.type == "event") | any((.tasks + .waiting)[]; .pid == $p)' \
	"$T/live.json" | grep -q true
tap_ok $? "an event names the fsync loop ($PID), stalled or waiting" "events: $events"
# A stack is taken when a wait ends, of a wait that began while the loop was chosen: an event
# whose interval held no such end has none (on a slow disk an fsync outlasts several intervals).
# Those that held one by the kernel's count (PROVEN) must have them; without any, an event with
# them is checked, and without that either, there is nothing to check.
if [ -n "$PROVEN" ] || [ -n "$live" ]; then
	bad=""
	for k in $PROVEN; do [ "${LSTK[k]}" = 1 ] || bad="$bad $k"; done
	[ -n "$live" ] && [ -z "$bad" ]
	tap_ok $? "an event names the fsync loop with its stacks of the window, each whose interval held the end of an fsync begun after the loop was chosen (field 42)" \
		"such events without its stacks (reading lines from 0):${bad:- none}" "events: $events"
	top=$(head -1 <<<"$replay" | awk '{ $1 = ""; sub(/^ /, ""); print }' | sed 's/ ;; .*//')
	grep -Eq '^D .*(^|\|)do_fsync\+0x[0-9a-f]+\|.*\|(wait_on_fsync|main)\+0x' <<<"$top"
	tap_ok $? "in the replay, its top stack at that event is D through the kernel's do_fsync, under wait_on_fsync or main" \
		"top: $top"
	[ -n "$live" ] && [ "$live" = "$replay" ]
	tap_ok $? "the replay's events carry the stacks the live run printed, frame for frame" \
		"live: $(head -c 600 <<<"$live")" "replay: $(head -c 600 <<<"$replay")"
else
	why="in $FOLLOWED_S s the loop's block-I/O delay (/proc/PID/stat field 42) grew at ${#STEPS[@]} marks, none an end of a wait begun after the loop was chosen inside an event's interval (a slow disk): events: $events"
	[ "${#STEPS[@]}" = 0 ] && why="in $FOLLOWED_S s the disk completed no wait of the loop (/proc/PID/stat field 42 never grew): events: $events"
	tap_skip "the event names the fsync loop with its stacks of the window" "$why"
	tap_skip "in the replay, its top stack at that event is D through do_fsync" "$why"
	tap_skip "the replay's events carry the stacks the live run printed" "$why"
fi
n=$(jq -s '[.[] | select(.type == "task") | .why.stacks | select(. != null)] | length' "$T/replay.json")
k=$(jq -s '[.[] | select(.type == "task" and .why.stacks == null and (.why | has("stacks")))] | length' "$T/replay.json")
[ "$n" = 0 ] && [ "$k" -gt 0 ]
tap_ok $? "the replay's task records keep no stacks: \"stacks\": null (the events' tasks only are kept)" \
	"records with stacks: $n; with null: $k"
grep -a -q '^format 1\.4$' "$T/rec"
tap_ok $? "the file says format 1.4"
done_testing
