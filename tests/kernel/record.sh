#!/bin/bash
# record.sh — -w records every reading and -r replays it as the live run printed it: two spinners
# sharing CPU 1 in a test cgroup (and an O_DIRECT writer where a disk allows) are recorded with -w
# in JSON, CSV, text, thread mode (-H) and the cgroup view, each run printing its reports too, and
# each replay is byte for byte the live output; the spinners wait for their CPU in the replay
# (and the writer for I/O); --begin and --end select the readings between them, -n limits;
# -w with neither -b nor a terminal records alone; a second run appends to the file and the
# replay shows both runs; --rotate SECS --keep N renames the file after each period, keeps N and
# each renamed file replays its period's readings.
. "$top_srcdir/tests/lib.sh"

require_root
require_cpus 2
require_cmd jq awk date
require_taskstats
lock_global # the spinners load CPU 1
enable_delayacct

require_v2
NAME=delaytop-record.$$
CG=$V2/$NAME
mkdir "$CG" || skip_all "cannot create a cgroup under $V2"

# O_DIRECT on tmpfs fails or never waits for a device: a disk-backed directory for the writer.
WDIR=""
d=$(disk_dir)
[ -z "$d" ] || WDIR=$(mktemp -d "$d/delaytop-record.XXXXXX")
trap 'cleanup; rmdir "$CG" 2>/dev/null; [ -n "$WDIR" ] && rm -rf "$WDIR"' EXIT

T=$TMPDIR_TEST
wait_cpu_quiet 1
start_workload spin 1; A=$WORKLOAD_PID
start_workload spin 1; B=$WORKLOAD_PID
echo "$A" >"$CG/cgroup.procs" && echo "$B" >"$CG/cgroup.procs" || skip_all "cannot move the spinners into $CG"
W=""
if [ -n "$WDIR" ]; then
	start_workload odirect "$WDIR/data"
	W=$WORKLOAD_PID
	sleep 0.3
	kill -0 "$W" 2>/dev/null || W=""
fi
sleep 0.3

# The five runs at once (each 6 readings of 0.5 s after the first), and the rotating one beside
# them: live output on stdout, the recording in a file.
RUNS=""
run_bg() { # NAME ARGS...: delaytop ARGS > T/NAME.live 2> T/NAME.err, status in T/NAME.rc
	local n=$1
	shift
	("$DELAYTOP" "$@" >"$T/$n.live" 2>"$T/$n.err"; echo $? >"$T/$n.rc") 9>&- &
	track_pid $!
	RUNS="$RUNS $!"
}
mkdir "$T/rot"
run_bg csv -w "$T/csv.rec" -b --format csv -d 0.5 -n 6
run_bg text -w "$T/text.rec" -b -d 0.5 -n 6
run_bg threads -w "$T/threads.rec" -b -H --format json -d 0.5 -n 6
run_bg cgroup -w "$T/cgroup.rec" -b --group=cgroup --format json -d 0.5 -n 6
run_bg rot -w "$T/rot/rec" --rotate 2 --keep 2 -d 0.5 -n 14
run_bg only -w "$T/only.rec" -c "/$NAME" -b --format json -d 0.5 -n 6
# The JSON run followed: the writer's I/O delay as the kernel counted it over each report.
follow_start "$T/json.live" "$T/json.err" $W -- "$DELAYTOP" -w "$T/json.rec" -b --format json -d 0.5 -n 6
follow_reports
echo "$DT_STATUS" >"$T/json.rc"
for p in $RUNS; do wait "$p"; done # not the workloads

for n in json csv text threads cgroup; do
	case $n in
	csv) fmt=(--format csv) ;;
	text) fmt=() ;;
	cgroup) fmt=(--group=cgroup --format json) ;;
	*) fmt=(--format json) ;;
	esac
	[ "$(cat "$T/$n.rc")" = 0 ] && [ -s "$T/$n.live" ] && [ -s "$T/$n.rec" ]
	tap_ok $? "$n: the live run exits 0, prints its reports and records" \
		"status $(cat "$T/$n.rc"); stderr: $(head -3 "$T/$n.err")" "live: $(wc -c <"$T/$n.live") bytes"
	"$DELAYTOP" -r "$T/$n.rec" -b "${fmt[@]}" >"$T/$n.replay" 2>"$T/$n.rerr"
	rc=$?
	[ "$rc" = 0 ] && [ ! -s "$T/$n.rerr" ]
	tap_ok $? "$n: the replay exits 0, silent on stderr" "status $rc; stderr: $(head -3 "$T/$n.rerr")"
	cmp -s "$T/$n.live" "$T/$n.replay"
	tap_ok $? "$n: the replay is byte for byte what the live run printed" \
		"$(diff "$T/$n.live" "$T/$n.replay" | head -6 | cut -c1-200)"
done

psi_times() { jq -r 'select(.type == "psi") | .time' "$1"; }
[ "$(psi_times "$T/json.replay" | wc -l)" = 6 ]
tap_ok $? "the replay has the 6 readings of -n 6 (the first, without rates, is not printed)" \
	"got $(psi_times "$T/json.replay" | wc -l)"

# The spinners wait for CPU 1 about half the time each; the replay says so.
for p in "$A" "$B"; do
	cpu=$(jq -r --argjson p "$p" 'select(.type == "task" and .pid == $p) | .delay.cpu.pct' "$T/json.replay" | tail -1)
	within "$cpu" 20 100
	tap_ok $? "the replay: spinner $p waits for its CPU (cpu pct 20..100)" "got '$cpu'"
done
# The writer's I/O delay in each replayed report is what the kernel counted for it over that
# report's interval (stat field 42): a wait counts in the interval in which it ends, so on a slow
# disk a report may show 0 and the next one far above 100%, never nothing (a wait is bounded by
# the writer's age). Over the whole run the reports add up to what the kernel counted from the
# first reading to the last, each report's number within the share of its interval its lag can
# make; and the writer waits 1% of the time and more.
if [ -n "$W" ]; then
	k=0 rows=0 bad="" sum="0 0" # ms: delaytop's sum, its slack
	while read -r iv io; do
		if [ "$iv" = psi ]; then
			k=$((k + 1))
			continue
		fi
		rows=$((rows + 1))
		agrees_with_kernel "$io" "$iv" io "$k" "$W" || bad="$bad report $k: $AGREED;"
		diag "report $k, the writer's I/O delay: $AGREED"
		sum=$(awk -v s="$sum" -v iv="$iv" -v p="$io" -v lag="$(report_lag "$k" "$iv")" 'BEGIN {
			split(s, a, " "); g = p * iv * 10; a[1] += g; a[2] += g * lag / (iv * 1000) + 2
			printf "%.3f %.3f\n", a[1], a[2] }')
	done < <(jq -r --argjson p "$W" 'if .type == "psi" then "psi" elif .type == "task" and .pid == $p
		then "\(.interval_s) \(.delay.io.pct)" else empty end' "$T/json.replay")
	[ "$k" = "$REPORTS" ] && [ "$rows" = "$REPORTS" ] && [ -z "$bad" ]
	tap_ok $? "the replay: the O_DIRECT writer $W's I/O delay in each report is what the kernel counted for it" \
		"$rows rows in $k reports ($REPORTS followed):$bad"
	# from just after the first reading (0 without a mark there) to just before the last, and
	# from before delaytop started to just after the last; a tick more at each end
	lo=0
	[ -n "${REPORT_HI[0]:-}" ] && lo=$(marked io "${REPORT_HI[0]}" "${REPORT_LO[REPORTS]}" "$W")
	hi=$(marked io F0 "${REPORT_HI[REPORTS]}" "$W")
	wall=$(marked wall "${REPORT_HI[0]:-F0}" "${REPORT_LO[REPORTS]}")
	read -r ok why < <(awk -v s="$sum" -v lo="$lo" -v hi="$hi" -v wall="$wall" -v t="$(getconf CLK_TCK)" 'BEGIN {
		split(s, a, " "); lo -= 1000 / t; hi += 1000 / t
		ok = a[1] + a[2] >= lo && a[1] - a[2] <= hi
		printf "%d %.1f ms (slack %.1f), the kernel %.1f..%.1f ms\n", ok, a[1], a[2], lo + 1000 / t, hi - 1000 / t }')
	diag "the writer's I/O delay over the run: $why"
	[ "$ok" = 1 ]
	tap_ok $? "the replay: the writer's I/O delay over all the reports adds up to what the kernel counted over the run" "$why"
	awk -v s="$sum" -v w="$wall" 'BEGIN { split(s, a, " "); exit !(w > 0 && a[1] > w * 0.01) }'
	tap_ok $? "the replay: the O_DIRECT writer waits for I/O, 1% of the run and more" "$sum ms (delaytop's, its slack) of $wall ms"
else
	tap_skip "the replay: the O_DIRECT writer waits for I/O as the kernel counted" "no disk-backed directory takes O_DIRECT writes here"
	tap_skip "the replay: the writer's I/O delay adds up over the run" "no disk-backed directory takes O_DIRECT writes here"
	tap_skip "the replay: the O_DIRECT writer waits for I/O" "no disk-backed directory takes O_DIRECT writes here"
fi
cpu=$(jq -r --argjson p "$A" 'select(.type == "task" and .pid == $p and .tid == $p) | .delay.cpu.pct' \
	"$T/threads.replay" | tail -1)
within "$cpu" 20 100
tap_ok $? "-H: the replay has the spinner's thread row ($A), waiting for its CPU" "got '$cpu'"
cg=$(jq -r --arg c "/$NAME" 'select(.type == "cgroup" and .cgroup == $c) | .delay.cpu.pct' "$T/cgroup.replay" | tail -1)
within "$cg" 50 200
tap_ok $? "--group=cgroup: the replay's row of /$NAME sums the two spinners' CPU delay (above 50%)" "got '$cg'"

# -c: only the cgroup's tasks are recorded (the replay has no other row, even without -c), and
# the replay with -c is what the live run printed.
"$DELAYTOP" -r "$T/only.rec" --format json >"$T/only.all" 2>"$T/only.err"
"$DELAYTOP" -r "$T/only.rec" -c "/$NAME" --format json >"$T/only.replay" 2>>"$T/only.err"
others=$(jq -r --arg c "/$NAME" 'select(.type == "task") | select(.cgroup != $c) | .pid' "$T/only.all" | sort -u | wc -l)
mine=$(jq -r 'select(.type == "task") | .pid' "$T/only.all" | sort -u | tr '\n' ' ')
[ "$(cat "$T/only.rc")" = 0 ] && [ "$others" = 0 ] && [[ " $mine " == *" $A "* ]] && [[ " $mine " == *" $B "* ]] &&
	cmp -s "$T/only.live" "$T/only.replay"
tap_ok $? "-w -c CGROUP records only that cgroup's tasks (both spinners, nothing else), replayed as printed" \
	"status $(cat "$T/only.rc"); rows of other cgroups: $others; pids: $mine; $(head -2 "$T/only.err")"

# --begin and --end: the JSON's times as seconds since the epoch, and the midpoints between them.
mapfile -t times < <(psi_times "$T/json.live")
secs=()
for t in "${times[@]}"; do secs+=("$(date -d "$t" +%s.%N)"); done
mid() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (a + b) / 2 }'; }
if [ "${#secs[@]}" = 6 ]; then
	b=$(mid "${secs[1]}" "${secs[2]}") e=$(mid "${secs[3]}" "${secs[4]}")
	"$DELAYTOP" -r "$T/json.rec" -b --format json --begin "@$b" --end "@$e" >"$T/range" 2>"$T/range.err"
	rc=$?
	[ "$rc" = 0 ] && [ "$(psi_times "$T/range" | tr '\n' ' ')" = "${times[2]} ${times[3]} " ]
	tap_ok $? "--begin and --end between readings: the 3rd and 4th readings only" \
		"status $rc; expected ${times[2]} ${times[3]}; got $(psi_times "$T/range" | tr '\n' ' ') $(head -2 "$T/range.err")"
	grep -F -x -f <(grep -F "\"time\":\"${times[2]}\"" "$T/json.live") "$T/range" >/dev/null &&
		[ "$(grep -c "" "$T/range")" = "$(grep -c -e "\"time\":\"${times[2]}\"" -e "\"time\":\"${times[3]}\"" "$T/json.live")" ]
	tap_ok $? "--begin in the middle of a recording: the readings are those of the live run, rates included" \
		"$(diff <(grep -e "\"time\":\"${times[2]}\"" -e "\"time\":\"${times[3]}\"" "$T/json.live") "$T/range" | head -4 | cut -c1-200)"
	"$DELAYTOP" -r "$T/json.rec" -b --format json --begin "@$b" -n 1 >"$T/range" 2>/dev/null
	[ "$(psi_times "$T/range" | tr '\n' ' ')" = "${times[2]} " ]
	tap_ok $? "--begin with -n 1: the one reading after --begin" "got $(psi_times "$T/range" | tr '\n' ' ')"
	"$DELAYTOP" -r "$T/json.rec" -b --format json --begin "10 minutes ago" --end now >"$T/range" 2>/dev/null
	[ "$(psi_times "$T/range" | wc -l)" = 6 ]
	tap_ok $? "--begin '10 minutes ago' --end now: all 6 readings" "got $(psi_times "$T/range" | wc -l)"
	"$DELAYTOP" -r "$T/json.rec" -b --format json --begin "@$(awk -v a="${secs[5]}" 'BEGIN { printf "%.3f", a + 5 }')" \
		>"$T/range" 2>"$T/range.err"
	rc=$?
	[ "$rc" = 1 ] && [ ! -s "$T/range" ] && grep -q "ends before --begin" "$T/range.err"
	tap_ok $? "--begin after the last reading: status 1 and a message saying the recording ends before" \
		"status $rc; $(head -2 "$T/range.err")"
else
	tap_ok 1 "--begin and --end: the live run has 6 readings" "got ${#secs[@]}"
fi
"$DELAYTOP" -r "$T/json.rec" -b --format json -n 2 >"$T/two" 2>/dev/null
[ "$(psi_times "$T/two" | tr '\n' ' ')" = "${times[0]} ${times[1]} " ] &&
	cmp -s "$T/two" <(grep -e "\"time\":\"${times[0]}\"" -e "\"time\":\"${times[1]}\"" "$T/json.live")
tap_ok $? "-n 2: the first two readings, as the live run printed them" "got $(psi_times "$T/two" | tr '\n' ' ')"

# -w with neither -b nor a terminal: it records, and prints nothing.
"$DELAYTOP" -w "$T/alone.rec" -d 0.3 -n 3 </dev/null >"$T/alone.out" 2>"$T/alone.err"
rc=$?
"$DELAYTOP" -r "$T/alone.rec" -b --format json >"$T/alone.json" 2>/dev/null
[ "$rc" = 0 ] && [ ! -s "$T/alone.out" ] && [ "$(psi_times "$T/alone.json" | wc -l)" = 3 ]
tap_ok $? "-w without -b and without a terminal: status 0, nothing on stdout, 3 readings recorded" \
	"status $rc; stdout $(wc -c <"$T/alone.out") bytes; $(psi_times "$T/alone.json" | wc -l) readings; $(head -2 "$T/alone.err")"
mapfile -t first < <(psi_times "$T/alone.json")

# A second run appends: the replay shows both runs, the second after the first.
"$DELAYTOP" -w "$T/alone.rec" -d 0.3 -n 2 </dev/null >/dev/null 2>"$T/again.err"
rc=$?
"$DELAYTOP" -r "$T/alone.rec" -b --format json >"$T/both.json" 2>"$T/both.err"
rc2=$?
mapfile -t both < <(psi_times "$T/both.json")
[ "$rc" = 0 ] && [ "$rc2" = 0 ] && [ "${#both[@]}" = 5 ] && [ "${both[*]:0:3}" = "${first[*]}" ] &&
	[ "$(printf '%s\n' "${both[@]}" | sort -c && echo sorted)" = sorted ]
tap_ok $? "a second run appends: the replay has the first run's 3 readings, then the second's 2, in order" \
	"status $rc/$rc2; readings: ${both[*]}; $(head -2 "$T/again.err" "$T/both.err")"
[ "$(jq -r 'select(.type == "psi") | .interval_s' "$T/both.json" | awk '$1 <= 0' | wc -l)" = 0 ]
tap_ok $? "every replayed reading of both runs has an interval (the second run's first, without one, is not printed)" \
	"$(jq -r 'select(.type == "psi") | .interval_s' "$T/both.json" | tr '\n' ' ')"

# --rotate 2 --keep 2: renamed after each 2-second period, 2 of them kept, each replayable, each
# holding readings of its own period only.
[ "$(cat "$T/rot.rc")" = 0 ] && [ ! -s "$T/rot.live" ]
tap_ok $? "--rotate 2 --keep 2 -n 14 (recording alone): status 0, nothing on stdout" \
	"status $(cat "$T/rot.rc"); $(head -2 "$T/rot.err")"
mapfile -t rotated < <(cd "$T/rot" && ls | grep -E '^rec\.[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9]{6}$')
others=$(cd "$T/rot" && ls | grep -v -x -e rec $(printf -- '-e %s ' "${rotated[@]}"))
[ "${#rotated[@]}" = 2 ] && [ -z "$others" ] && [ -s "$T/rot/rec" ]
tap_ok $? "two files named rec.YYYY-MM-DD-HHMMSS are kept beside rec, nothing else" "files: $(ls "$T/rot" | tr '\n' ' ')"
bad=""
for f in "${rotated[@]}" rec; do
	"$DELAYTOP" -r "$T/rot/$f" -b --format json >"$T/rot.json" 2>"$T/rot.rerr" || bad="$bad $f(status)"
	[ "$(psi_times "$T/rot.json" | wc -l)" -ge 1 ] || bad="$bad $f(no readings)"
	[ "$f" = rec ] && continue
	# the name is the period's first second: every reading is in [name, name + 2 s)
	stamp=${f#rec.}
	start=$(date -d "${stamp:0:10} ${stamp:11:2}:${stamp:13:2}:${stamp:15:2}" +%s)
	[ $((start % 2)) = 0 ] || bad="$bad $f(odd start)"
	while read -r t; do
		s=$(date -d "$t" +%s.%N)
		awk -v s="$s" -v a="$start" 'BEGIN { exit !(s >= a && s < a + 2) }' || bad="$bad $f($t)"
	done < <(psi_times "$T/rot.json")
done
[ -z "$bad" ]
tap_ok $? "each renamed file replays, and holds readings of the period it is named after" "bad:$bad"

stop_pid "$A"
stop_pid "$B"
[ -n "$W" ] && stop_pid "$W"
done_testing
