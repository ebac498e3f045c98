#!/bin/bash
# capture.sh — --capture 2 with a PSI trigger on a test cgroup: readings are kept in memory and
# written only around the moments the trigger fires. delaytop runs 3 s with the cgroup idle,
# then two spinners pinned to CPU 1 in the cgroup stall for 4.5 s, or until the trigger has fired
# (at most 10 s; it fires about every 2 s, each firing just after the window of the one before
# ends), then stop, and delaytop runs on. The events are printed; the file holds the readings
# from about 2 s before the first firing to 2 s after the last and no others, every reading in between once; its first reading is a key
# reading that replays with its rates, as the live run printed it. A trigger that does not fire
# leaves a file without readings.
. "$top_srcdir/tests/lib.sh"

require_root
require_taskstats
require_cpus 2
require_cmd jq awk date
lock_global # the spinners load CPU 1
[ -w /proc/pressure/cpu ] || skip_all "no writable /proc/pressure/cpu (PSI off, or too old for triggers)"

require_v2
NAME=delaytop-capture.$$
CG=$V2/$NAME
mkdir "$CG" "$CG/idle" || skip_all "cannot create cgroups under $V2"
trap 'cleanup; rmdir "$CG/idle" "$CG" 2>/dev/null' EXIT

T=$TMPDIR_TEST
wait_cpu_quiet 1

# spinner: one busy loop on CPU 1, in the cgroup from its first instruction
spinner() {
	sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" spin 1' sh "$CG" "$WORKLOAD" >/dev/null 2>&1 9>&- &
	track_pid $!
	SPIN="$SPIN $!"
}

SPIN=""
# the cgroup's CPU "some" stall so far, in microseconds: the kernel's own count
stalled_us() { awk '$1 == "some" { sub("total=", "", $5); print $5 }' "$CG/cpu.pressure"; }

"$DELAYTOP" -w "$T/cap.rec" --capture 2 --trigger "cpu some 100ms 2s /$NAME" -d 0.5 -n 36 -b --format json \
	>"$T/live.json" 2>"$T/live.err" 9>&- &
DT=$!
track_pid "$DT"
sleep 3
s0=$(stalled_us)
spinner
spinner
sleep 4.5
# on a loaded machine the first firing may come late: the stall goes on until it has (up to 10 s
# in all; the run's 18 s leave 2 s and more after it)
wait_until 5 grep -q '"type":"event"' "$T/live.json"
diag "the spinners' cgroup: $(wc -l <"$CG/cgroup.procs") tasks, CPU some stall $((($(stalled_us) - s0) / 1000)) ms by the kernel's count"
for p in $SPIN; do stop_pid "$p"; done
wait "$DT"
rc=$?
tap_ok "$rc" "delaytop -w --capture 2 --trigger ... -b exits 0" "status $rc: $(head -3 "$T/live.err")"

secs() { date -d "$1" +%s.%N; }
events=$(jq -r 'select(.type == "event") | .time' "$T/live.json")
[ -n "$events" ] && jq -s -e --arg c "/$NAME" 'map(select(.type == "event")) | all(.cgroup == $c)' "$T/live.json" >/dev/null
tap_ok $? "the trigger on the stalled cgroup fired: events printed" "events: $(echo $events)"
first_ev=$(secs "$(head -1 <<<"$events")")
last_ev=$(secs "$(tail -1 <<<"$events")")
diag "events at: $(echo $events)"

"$DELAYTOP" -r "$T/cap.rec" -b --format json >"$T/rep.json" 2>"$T/rep.err"
rc=$?
mapfile -t rt < <(jq -r 'select(.type == "psi") | .time' "$T/rep.json")
[ "$rc" = 0 ] && [ ! -s "$T/rep.err" ] && [ "${#rt[@]}" -ge 4 ]
tap_ok $? "the capture replays: status 0, readings" "status $rc; ${#rt[@]} readings; $(head -2 "$T/rep.err")"
[ "${#rt[@]}" -gt 0 ] || rt=(none) # the points below then fail, rather than the script
diag "replayed: ${rt[0]:-none} .. ${rt[-1]:-none}"
dups=$(printf '%s\n' "${rt[@]}" | sort | uniq -d)
[ -z "$dups" ] && [ "$(printf '%s\n' "${rt[@]}" | sort -c 2>&1)" = "" ]
tap_ok $? "each reading is in the file once, in order (a firing soon after a window writes no reading twice)" \
	"twice: $(echo $dups)"
first=$(secs "${rt[0]}")
last=$(secs "${rt[-1]}")

# the first kept reading is the first at or after 2 s before the first firing (readings come
# every 0.5 s, and at each firing)
within "$(awk -v a="$first" -v e="$first_ev" 'BEGIN { print a - (e - 2) }')" -0.01 0.6
tap_ok $? "the file starts about 2 s before the first firing" "first reading ${rt[0]}, first event $(head -1 <<<"$events")"
within "$(awk -v a="$last" -v e="$last_ev" 'BEGIN { print (e + 2) - a }')" -0.01 0.6
tap_ok $? "the file ends about 2 s after the last firing" "last reading ${rt[-1]}, last event $(tail -1 <<<"$events")"

# the live run went on after the window: those readings were not written
mapfile -t lt < <(jq -r 'select(.type == "psi") | .time' "$T/live.json")
after=0
for t in "${lt[@]}"; do
	awk -v t="$(secs "$t")" -v l="$last" 'BEGIN { exit !(t > l + 0.01) }' && after=$((after + 1))
done
[ "$after" -ge 2 ] && [ "$(printf '%s\n' "${rt[@]}" | grep -c -F -x -f <(printf '%s\n' "${lt[@]}"))" -lt "${#lt[@]}" ]
tap_ok $? "readings made outside the window are not in the file ($after after it)" \
	"live readings: ${#lt[@]}, after the last kept one: $after"

# every live reading within the window is in the file, as it was printed, the first (a key
# reading made of the kept ones) with its rates
missing="" differ=""
for t in "${lt[@]}"; do
	s=$(secs "$t")
	awk -v s="$s" -v a="$first" -v b="$last" 'BEGIN { exit !(s >= a - 0.001 && s <= b + 0.001) }' || continue
	if ! printf '%s\n' "${rt[@]}" | grep -q -F -x "$t"; then
		missing="$missing $t"
	elif ! cmp -s <(jq -c --arg t "$t" 'select(.time == $t and .type != "event")' "$T/live.json") \
		<(jq -c --arg t "$t" 'select(.time == $t)' "$T/rep.json"); then
		differ="$differ $t"
	fi
done
[ -z "$missing" ]
tap_ok $? "every reading the live run printed within the window is in the file" "missing:$missing"
[ -z "$differ" ]
tap_ok $? "and replays as the live run printed it" "differ:$differ"
# the readings made at the firings replay as the live run printed them: as events
cmp -s <(jq -c 'select(.type == "event")' "$T/live.json") <(jq -c 'select(.type == "event")' "$T/rep.json")
tap_ok $? "the firings replay as the live run's events, who stalled included" \
	"live $(jq -c 'select(.type == "event") | .time' "$T/live.json" | tr '\n' ' '); replayed $(jq -c 'select(.type == "event") | .time' "$T/rep.json" | tr '\n' ' ')"
# readings made at a firing are kept too: the replay's other readings are the events'
others=$(printf '%s\n' "${rt[@]}" | grep -v -F -x -f <(printf '%s\n' "${lt[@]}") | grep -v -F -x -f <(echo "$events"))
[ -z "$others" ]
tap_ok $? "the file's other readings are those made at the firings" "others: $(echo $others)"
i0=$(jq -r 'select(.type == "psi") | .interval_s' "$T/rep.json" | head -1)
n0=$(jq -r --arg t "${rt[0]}" 'select(.type == "task" and .time == $t and (.delay.cpu.pct | type) == "number")' \
	"$T/rep.json" | grep -c '"type"')
within "$i0" 0.01 1 && [ "$n0" -ge 1 ]
tap_ok $? "the first reading of the file replays with its interval and its tasks' rates (a key reading)" \
	"interval_s $i0; $n0 task rows with a CPU delay share"

# a trigger that cannot fire: nothing is written
"$DELAYTOP" -w "$T/none.rec" --capture 2 --trigger "cpu some 1s 2s /$NAME/idle" -d 0.5 -n 4 \
	</dev/null >"$T/none.out" 2>"$T/none.err"
rc=$?
"$DELAYTOP" -r "$T/none.rec" -b --format json >"$T/none.json" 2>"$T/none.rerr"
rc2=$?
[ "$rc" = 0 ] && [ "$rc2" = 0 ] && [ -e "$T/none.rec" ] && [ ! -s "$T/none.json" ]
tap_ok $? "a trigger on an idle cgroup never fires: the file has no readings" \
	"status $rc/$rc2; $(grep -c '"type":"psi"' "$T/none.json") readings; $(head -2 "$T/none.err" "$T/none.rerr")"
done_testing
