#!/bin/bash
# trigger_waiting.sh — a trigger's event names a task blocked since before its reading: the
# kernel counts a wait when it ends, so a task whose fsync outlasts a reading has no share in
# it while PSI counts its stall. tests/stackwait fsyncs a file again and again in a test cgroup
# whose writes the block layer holds to one a second (cgroup v1 blkio.throttle, or v2 io.max),
# so each fsync blocks in D for a second or more; an "io some 100ms 2s" trigger watches the
# cgroup's io.pressure. Every event names the loop, among the tasks that stalled or among those
# waiting now (the loop in D most of the run by /proc), and names no task outside the trigger's
# cgroup as waiting; the text event says "waiting now" where JSON does.
. "$top_srcdir/tests/lib.sh"

require_root
require_taskstats
require_cmd jq awk
[ -w /proc/pressure/io ] || skip_all "no writable /proc/pressure/io (PSI off, or too old for triggers)"

lock_global # an I/O load, and the sysctl
enable_delayacct
NAME=delaytop-trigwait.$$
slow_fsync "$NAME"
PID=$SLOW_PID T=$TMPDIR_TEST
export LC_ALL=C

# The loop's state as /proc gives it, every 0.1 s while delaytop runs.
(while :; do awk '{ sub(/^.*\) /, ""); print $1 }' "/proc/$PID/stat" 2>/dev/null; sleep 0.1; done) >"$T/states" &
track_pid $!
STATES=$!
# Each event: its time, whether it names the loop among the stalled (s), the waiting (w), and
# the waiting outside the trigger's cgroup.
event_lines() {
	jq -r --argjson p "$PID" --arg cg "/$NAME" 'select(.type == "event") | "\(.time) "
		+ (if any(.tasks[]; .pid == $p) then "s" elif any(.waiting[]; .pid == $p) then "w" else "-" end) + " "
		+ ([.waiting[] | select(.cgroup != $cg and (.cgroup | startswith($cg + "/") | not)) | .pid | tostring]
		| join(","))' "$1"
}
# Runs of 8 readings, up to three, until an event comes while no fsync of the loop ended in its
# reading (it is then named as waiting): events come at most once a window, and can fall in step
# with the fsyncs' ends.
: >"$T/events"
status=0
for run in 1 2 3; do
	"$DELAYTOP" -b --format json -d 1 -n 8 --trigger "io some 100ms 2s /$NAME" >"$T/live$run.json" 2>"$T/live.err" ||
		status=$?
	event_lines "$T/live$run.json" >>"$T/events"
	grep -q ' w' "$T/events" && break
done
tap_ok "$status" "delaytop -b --format json --trigger exits 0 ($run runs)" "$(head -3 "$T/live.err")"
kill "$STATES"
in_d=$(grep -c '^D$' "$T/states")
all=$(wc -l <"$T/states")
events=$(tr '\n' ' ' <"$T/events")
n=$(wc -l <"$T/events")
named=$(awk '$2 != "-"' "$T/events" | wc -l)
[ "$n" -gt 0 ] && [ "$named" = "$n" ]
tap_ok $? "every event names the fsync loop ($PID), stalled or waiting ($n events)" "events: $events"
[ "$in_d" -gt $((all / 2)) ] && grep -q ' w' "$T/events"
tap_ok $? "in D most of the run ($in_d of $all looks at /proc), an event names it as waiting, not among the stalled" \
	"events: $events"
awk 'NF > 2 { exit 1 }' "$T/events"
tap_ok $? "no task outside /$NAME is named as waiting by its trigger" "events: $events"

"$DELAYTOP" -b -d 1 -n 8 --trigger "io some 100ms 2s /$NAME" >"$T/live.txt" 2>"$T/live.err"
st=$?
# Each text event: "named" when it names the loop, stalled or as the one waiting; "other" when
# its waiting line names anything else.
awk -v p="$PID" '/^event / { if (ev) print st; ev = 1; st = "unnamed" }
	ev && /^  stalled on io / && index($0, "  " p " stackwait ") { st = "named" }
	ev && /^  waiting now in state D, not yet counted:/ { st = ($0 ~ (":  " p " stackwait$")) ? "named" : "other" }
	END { if (ev) print st }' "$T/live.txt" >"$T/text_events"
if [ "$st" = 0 ] && [ ! -s "$T/text_events" ]; then
	tap_skip "each text event names it the same way" "the trigger did not fire in the text run's 8 readings"
else
	[ "$st" = 0 ] && ! grep -vq '^named$' "$T/text_events"
	tap_ok $? "each text event names it the same way, its waiting line the loop alone" \
		"status $st: $(head -2 "$T/live.err")" "$(tr '\n' ' ' <"$T/text_events")" \
		"$(grep -A3 '^event' "$T/live.txt" | head -12)"
fi
done_testing
