#!/bin/bash
# trigger.sh — --trigger against real PSI triggers: two spinners share CPU 1 inside a test cgroup;
# a system-wide "cpu some 200ms 2s" trigger and one on the cgroup's cpu.pressure both fire, and
# each event (JSON) names the file, the kinds and a spinner among the tasks that stalled most and
# the cgroup among the cgroups (on a busy machine, unless five others stalled more than the
# kernel says the spinners did); the text event says the same; a window the kernel refuses is a
# clear error (status 1), a spec delaytop refuses a usage error (status 2).
. "$top_srcdir/tests/lib.sh"

require_root
require_taskstats
require_cpus 2
require_cmd jq awk
lock_global # the spinners load CPU 1
enable_delayacct
[ -w /proc/pressure/cpu ] || skip_all "no writable /proc/pressure/cpu (PSI off, or too old for triggers)"

require_v2
NAME=delaytop-trigger.$$
CG=$V2/$NAME
mkdir "$CG" || skip_all "cannot create a cgroup under $V2"
trap 'cleanup; rmdir "$CG/gone" "$CG" 2>/dev/null' EXIT

T=$TMPDIR_TEST
start_workload spin 1; A=$WORKLOAD_PID
start_workload spin 1; B=$WORKLOAD_PID
echo "$A" >"$CG/cgroup.procs" && echo "$B" >"$CG/cgroup.procs" || skip_all "cannot move tasks into $CG"

follow_delaytop "$T/ev.json" "$T/ev.err" "$A" "$B" -- \
	"$DELAYTOP" -b --format=json -d 6 -n 1 --trigger 'cpu some 200ms 2s' --trigger "cpu some 200ms 2s /$NAME"
tap_ok "$DT_STATUS" "delaytop with two triggers exits 0" "$(head -3 "$T/ev.err")"

# spinner_least EVENT TID...: the least share (%) of the event's window that the kernel can have
# counted the TIDs waiting, between them: the window is the interval_s before the event's time
# (2% and 2 points less: delaytop divides by its own clock for the tasks).
spinner_least() {
	local t iv range
	t=$(date -d "$(jq -r .time <<<"$1")" +%s%6N)
	iv=$(jq -r .interval_s <<<"$1")
	range=$(counted_between wait "$(awk -v t="$t" -v iv="$iv" 'BEGIN { printf "%d", t - iv * 1e6 }')" "$t" "${@:2}") || return 1
	awk -v r="$range" -v iv="$iv" 'BEGIN { split(r, b, " "); printf "%.1f", b[1] / (iv * 1000) * 100 * 0.98 - 2 }'
}
sys=$(jq -c 'select(.type == "event" and .cgroup == null)' "$T/ev.json" | head -1)
cg=$(jq -c "select(.type == \"event\" and .cgroup == \"/$NAME\")" "$T/ev.json" | head -1)
[ "$(jq -r '[.trigger, .file, (.kinds | join(","))] | join("|")' <<<"$sys")" = "cpu some 200ms 2s|/proc/pressure/cpu|cpu" ]
tap_ok $? "the system-wide trigger fired: its event names the trigger, /proc/pressure/cpu and the kind cpu" \
	"event: $sys" "all: $(grep -c event "$T/ev.json") events"
least=$(spinner_least "$sys" "$A")
least_b=$(spinner_least "$sys" "$B")
least=$(awk -v a="${least:-}" -v b="${least_b:-}" 'BEGIN { if (a != "" && b != "") print (a > b ? a : b) }')
jq -e --argjson a "$A" --argjson b "$B" --argjson least "${least:-1e9}" \
	'([.tasks[].pid] | index($a) != null or index($b) != null) or
	 ((.tasks | length) == 5 and all(.tasks[]; .pct >= $least))' <<<"$sys" >/dev/null
tap_ok $? "a spinner is among the tasks that stalled most (or five tasks stalled more than it)" \
	"tasks: $(jq -c .tasks <<<"$sys"); spinners $A $B, one of them waiting ${least:-?}% or more of the window"
least=$(spinner_least "$cg" "$A" "$B")
[ "$(jq -r '.file' <<<"$cg")" = "/$NAME/cpu.pressure" ] &&
	jq -e --arg c "/$NAME" --argjson least "${least:-1e9}" \
		'any(.cgroups[]; .cgroup == $c and .pct > 30) or ((.cgroups | length) == 5 and all(.cgroups[]; .pct >= $least))' \
		<<<"$cg" >/dev/null
tap_ok $? "the cgroup's trigger fired too, on its cpu.pressure, and its cgroup is among those that stalled most" \
	"event: $cg" "the spinners waited ${least:-?}% or more of the window between them"

"$DELAYTOP" -b -d 6 -n 1 --trigger 'cpu some 200ms 2s' >"$T/ev.txt" 2>&1
grep -q "^event .*trigger 'cpu some 200ms 2s' on /proc/pressure/cpu fired" "$T/ev.txt" &&
	grep -A1 '^event ' "$T/ev.txt" | grep -q -E "stalled on cpu \(% of the last [0-9.]+ s\): .* ($A|$B) workload "
tap_ok $? "text: the event line and who stalled on cpu" "$(grep -A2 '^event ' "$T/ev.txt" | head -3)"

# A cgroup removed under its trigger: poll then says POLLERR for good; delaytop stops watching
# it, says so once, and goes on (no storm of events, no busy loop).
mkdir "$CG/gone" || skip_all "cannot create $CG/gone"
"$DELAYTOP" -b --format=json -d 1 -n 30 --trigger "cpu some 200ms 2s /$NAME/gone" >"$T/gone.json" 2>"$T/gone.err" &
dt=$!
track_pid "$dt"
# under the trigger: once it is registered (its file open) and watched (after the first reading),
# not after a second that a busy machine can spend starting delaytop
for _ in $(seq 1000); do
	ls -l "/proc/$dt/fd" 2>/dev/null | grep -q "/$NAME/gone/cpu.pressure" && break
	sleep 0.02
done
wait_first_reading "$dt"
rmdir "$CG/gone"
# The kernel lets the trigger go when it releases the cgroup, which on a busy machine can be
# seconds after the rmdir: until delaytop says so (15 s at most), then two more readings, to see
# that it goes on, quietly; then it is stopped (SIGTERM ends a batch run with status 0).
t0=$SECONDS
for _ in $(seq 750); do
	grep -q "ended: its cgroup is gone" "$T/gone.err" && break
	sleep 0.02
done
said=$((SECONDS - t0))
psi() { grep -c '"type":"psi"' "$T/gone.json"; }
n0=$(psi)
for _ in $(seq 500); do
	[ "$(psi)" -ge $((n0 + 2)) ] && break
	sleep 0.02
done
kill -TERM "$dt"
wait "$dt"
st=$?
[ "$st" = 0 ] && [ "$(grep -c "ended: its cgroup is gone" "$T/gone.err")" = 1 ] &&
	[ "$(grep -c '"type":"event"' "$T/gone.json")" = 0 ] && [ "$(psi)" -ge $((n0 + 2)) ]
tap_ok $? "a trigger whose cgroup is removed: said once, no events, the reports go on, status 0" \
	"status $st; stderr: $(head -3 "$T/gone.err"); events: $(grep -c '"type":"event"' "$T/gone.json"); reports $n0 when said, then $(psi)"
diag "the trigger's end was said about $said s after the rmdir"
stop_pid "$A"
stop_pid "$B"

# CAP_SYS_RESOURCE (bit 24) lets the kernel take any window; without it only multiples of 2 s.
if (( (0x$(awk '/^CapEff/ { print $2 }' /proc/self/status) >> 24) & 1 )); then
	tap_skip "a 1 s window without CAP_SYS_RESOURCE: status 1 and a message saying why" "this run has CAP_SYS_RESOURCE: the kernel takes a 1 s window"
else
	"$DELAYTOP" -b -n 1 --trigger 'cpu some 100ms 1s' >/dev/null 2>"$T/err"
	[ $? = 1 ] && grep -q "CAP_SYS_RESOURCE" "$T/err" && grep -q "cpu some 100ms 1s" "$T/err"
	tap_ok $? "a 1 s window without CAP_SYS_RESOURCE: status 1 and a message saying why" "$(cat "$T/err")"
fi
"$DELAYTOP" -b -n 1 --trigger 'cpu some 3s 2s' >/dev/null 2>"$T/err"
[ $? = 2 ] && grep -q "invalid trigger 'cpu some 3s 2s': the stall is longer than the window" "$T/err"
tap_ok $? "a stall longer than the window: status 2, the spec named" "$(cat "$T/err")"
"$DELAYTOP" -b -n 1 --format=csv --trigger 'cpu some 200ms 2s' >/dev/null 2>"$T/err"
[ $? = 2 ] && grep -q -- "--trigger" "$T/err"
tap_ok $? "--trigger with CSV: status 2 (events are text or JSON)" "$(cat "$T/err")"
"$DELAYTOP" -b -n 1 --trigger "cpu some 200ms 2s /$NAME-missing" >/dev/null 2>"$T/err"
[ $? = 1 ] && grep -q "$NAME-missing" "$T/err"
tap_ok $? "a trigger on a cgroup that does not exist: status 1, the cgroup named" "$(cat "$T/err")"
done_testing
