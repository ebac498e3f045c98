#!/bin/bash
# trigger_stacks.sh — a PSI trigger's stalled tasks' off-CPU stacks, recorded with its event and
# replayed: tests/stackwait fsyncs a file on a disk again and again inside a test cgroup, whose
# io.pressure an "io some 100ms 2s" trigger watches; delaytop -b --why --trigger -w records. The
# tasks that stalled most (or wait in D) are chosen for stacks from the reading after they were
# named (--why takes stacks only of chosen tasks, and a stack when its wait ends), so an event
# after the first names the fsync loop, stalled or waiting, with its stacks (12 readings: on a
# slow disk an fsync can outlast an event's interval, and that event has no stack of it):
# its top stack in D through do_fsync under wait_on_fsync (or main). The replay's event carries
# the same stacks, frame for frame, as the live run printed; its task records carry none
# ("stacks": null: the recording keeps the stacks of the tasks events name, at those readings);
# the file says format 1.4.
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

mount_of() {
	awk -v t="$1" '{ for (i = 7; $i != "-"; i++); if ($(i + 1) == t) { print $5; exit } }' /proc/self/mountinfo
}
V2=$(mount_of cgroup2)
[ -n "$V2" ] || skip_all "no cgroup v2 hierarchy is mounted"
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

"$DELAYTOP" -b --why --format json -d 1 -n 12 --trigger "io some 100ms 2s /$NAME" -w "$T/rec" \
	>"$T/live.json" 2>"$T/live.err"
tap_ok $? "delaytop -b --why --trigger -w exits 0" "$(head -3 "$T/live.err")"
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
events=$(jq -c --argjson p "$PID" 'select(.type == "event") | [.time, [.tasks[] | [.pid, .command, .pct, (.stacks | length)]],
	[.waiting[] | [.pid, .command, (.stacks | length)]]]' \
	"$T/live.json" | tr '\n' ' ')
jq -e --argjson p "$PID" 'select(.type == "event") | any((.tasks + .waiting)[]; .pid == $p)' \
	"$T/live.json" | grep -q true
tap_ok $? "an event names the fsync loop ($PID), stalled or waiting" "events: $events"
# A stack is taken when a wait ends: an event whose interval held no end of the loop's waits (it
# names the loop as waiting, not stalled) has none. On a disk whose every fsync outlasted the
# events' intervals, the stacks are not there to check.
ended=$(jq -r --argjson p "$PID" 'select(.type == "event") | select(any(.tasks[]; .pid == $p)) | .time' \
	"$T/live.json" | sed 1d)
if [ -z "$live" ] && [ -z "$ended" ]; then
	why="no event after the first saw one of the loop's fsyncs end (a slow disk): events: $events"
	tap_skip "the event names the fsync loop with its stacks of the window" "$why"
	tap_skip "in the replay, its top stack at that event is D through do_fsync" "$why"
	tap_skip "the replay's events carry the stacks the live run printed" "$why"
else
	[ -n "$live" ]
	tap_ok $? "an event after the first that saw its fsyncs end names the fsync loop with its stacks of the window" \
		"events: $events"
	top=$(head -1 <<<"$replay" | awk '{ $1 = ""; sub(/^ /, ""); print }' | sed 's/ ;; .*//')
	grep -Eq '^D .*(^|\|)do_fsync\+0x[0-9a-f]+\|.*\|(wait_on_fsync|main)\+0x' <<<"$top"
	tap_ok $? "in the replay, its top stack at that event is D through the kernel's do_fsync, under wait_on_fsync or main" \
		"top: $top"
	[ -n "$live" ] && [ "$live" = "$replay" ]
	tap_ok $? "the replay's events carry the stacks the live run printed, frame for frame" \
		"live: $(head -c 600 <<<"$live")" "replay: $(head -c 600 <<<"$replay")"
fi
n=$(jq -s '[.[] | select(.type == "task") | .why.stacks | select(. != null)] | length' "$T/replay.json")
k=$(jq -s '[.[] | select(.type == "task" and .why.stacks == null and (.why | has("stacks")))] | length' "$T/replay.json")
[ "$n" = 0 ] && [ "$k" -gt 0 ]
tap_ok $? "the replay's task records keep no stacks: \"stacks\": null (the events' tasks only are kept)" \
	"records with stacks: $n; with null: $k"
grep -a -q '^format 1\.4$' "$T/rec"
tap_ok $? "the file says format 1.4"
done_testing
