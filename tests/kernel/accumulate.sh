# accumulate.sh — totals since the start (--accumulate): processes that exit stay in every later
# report, marked exited, with totals that never go down; counts are whole numbers; a live task's
# CPU delay total grows at the rate it waits.
. "$top_srcdir/tests/lib.sh"

require_taskstats
require_cpus 2
require_cmd jq
lock_global
enable_delayacct

T=$TMPDIR_TEST
export LC_ALL=C

# Short-lived processes with names of their own (a process is named after the link it was run
# by, and its children inherit the name): dt-acc-a ends in the first interval, dt-acc-b in the
# second. Each forks one child that is busy 50 ms on CPU 1, where the spinners make it wait.
# dt-acc-c (sleep(1) by another name) is alive in the first report that has it and ends right
# after it (a busy machine can delay anything timed by the clock).
ln -s "$WORKLOAD" "$T/dt-acc-a"
ln -s "$WORKLOAD" "$T/dt-acc-b"
ln -s "$(command -v sleep)" "$T/dt-acc-c"

# Two spinners on CPU 1: each one's CPU delay total grows by what it waits (about 0.5 s per
# second on a quiet machine), which the kernel counts too (/proc/PID/schedstat).
start_workload spin 1; spin1=$WORKLOAD_PID
start_workload spin 1; spin2=$WORKLOAD_PID
sleep 0.3

follow_start "$T/acc.json" "$T/acc.err" "$spin1" "$spin2" -- "$DELAYTOP" -b --accumulate -n 3 -d 0.5 --format json
{
	# in the first interval: not before delaytop listens for exits, nor during its first reading
	wait_first_reading "$DT_PID"
	"$T/dt-acc-c" 60 &
	c=$!
	"$T/dt-acc-a" forks 1 1 50 >/dev/null 2>&1
	for _ in $(seq 1000); do
		grep -q '"command":"dt-acc-c"' "$T/acc.json" && break
		sleep 0.01
	done
	kill "$c"
	"$T/dt-acc-b" forks 1 1 50 >/dev/null 2>&1
	wait
} 9>&- &
track_pid $!
follow_reports
status=$DT_STATUS
diag "reports came ${REPORT_LAG[*]} ms after their readings began"
stop_pid "$spin1"
stop_pid "$spin2"

tap_ok "$status" "delaytop -b --accumulate -n 3 -d 0.5 --format json exits with status 0" \
	"status $status; stderr: $(head -3 "$T/acc.err")"
jq -s -e 'length > 0' "$T/acc.json" >/dev/null 2>&1
tap_ok $? "the output is JSON lines" "first line: $(head -c 300 "$T/acc.json")"

# Every line with the number of the report it belongs to (each report starts with its psi line).
jq -s -c '[foreach .[] as $l (0; if $l.type == "psi" then . + 1 else . end; $l + {report: .})]' \
	"$T/acc.json" >"$T/lines.json" 2>/dev/null
reports=$(jq '[.[] | select(.type == "psi")] | length' "$T/lines.json")
[ "$reports" = 3 ]
tap_ok $? "three reports" "expected 3 psi lines, got '$reports'"

# Counts are whole numbers, in the raw text (a JSON parser would not tell 3 from 3.0).
bad=$(grep -o '"count":[^,}]*' "$T/acc.json" | grep -v -E '^"count":(null|[0-9]+)$' | sort -u | head -5)
[ -z "$bad" ]
tap_ok $? "every count is a whole number (or null)" "got: $bad"
grep -q '"per_s"' "$T/acc.json"
tap_ok $((!$?)) "totals since the start print count, not per_s" "a line: $(grep -m1 per_s "$T/acc.json" | head -c 300)"

# The short-lived processes: each pid's rows, in report order.
for name in dt-acc-a dt-acc-b; do
	jq -c --arg n "$name" '[.[] | select(.type == "task" and .command == $n)] | group_by(.pid)' \
		"$T/lines.json" >"$T/$name.rows"
	npids=$(jq length "$T/$name.rows")
	[ "$npids" = 2 ]
	tap_ok $? "$name: its process and its child are both in the reports" \
		"expected 2 pids named $name, got '$npids': $(head -c 800 "$T/$name.rows")"
	# from the report where a pid first shows as exited, it is in every later report, exited
	jq -e 'all(.[]; (map(select(.exited)) | .[0].report) as $first
		| $first != null and ([.[] | select(.report >= $first) | .report] == [range($first; 4)])
		and all(.[] | select(.report >= $first); .exited))' "$T/$name.rows" >/dev/null
	tap_ok $? "$name: every exited process stays in each later report, marked exited" \
		"rows (pid, report, exited): $(jq -c '[.[][] | [.pid, .report, .exited]]' "$T/$name.rows")"
	# totals per kind never go down from one report to the next
	jq -e 'all(.[]; [.[] | [.delay[] | .total_s // 0]] as $t
		| [range(1; $t | length) as $i | range(0; $t[$i] | length) as $k | $t[$i][$k] >= $t[$i - 1][$k]] | all)' \
		"$T/$name.rows" >/dev/null
	tap_ok $? "$name: each kind's total_s never decreases from report to report" \
		"totals by report: $(jq -c '[.[][] | [.pid, .report, [.delay[] | .total_s]]]' "$T/$name.rows")"
	jq -e 'all(.[]; [.[] | .total_s] as $t | [range(1; $t | length) as $i | $t[$i] >= $t[$i - 1]] | all)' \
		"$T/$name.rows" >/dev/null
	tap_ok $? "$name: the row's total_s never decreases" \
		"total_s by report: $(jq -c '[.[][] | [.pid, .report, .total_s]]' "$T/$name.rows")"
	# the busy child waited behind the spinners: its CPU delay is in its totals
	cpu=$(jq -r '[.[] | .[-1].delay.cpu.total_s] | max' "$T/$name.rows")
	within "$cpu" 0.01 10
	tap_ok $? "$name: the busy child's CPU delay is kept in its totals (> 10 ms)" "got cpu total_s '$cpu'"
done

# dt-acc-c: read alive in the first report that has it (the first or the second), then exited in
# every later one.
jq -c '[.[] | select(.type == "task" and .command == "dt-acc-c") | [.report, .exited]]' "$T/lines.json" >"$T/c.rows"
is_c=$(cat "$T/c.rows")
jq -e 'length >= 2 and .[0][0] <= 2 and .[0][1] == false and ([.[] | .[0]] == [range(.[0][0]; 4)])
	and (.[1:] | all(.[1]))' "$T/c.rows" >/dev/null
tap_ok $? "dt-acc-c: alive in the first report that has it, then exited and kept in each later one" \
	"expected [[K,false],[K+1,true],...,[3,true]] as [report, exited] (K 1 or 2), got $is_c"

# The spinners: their CPU delay total grows by what the kernel counted between the readings.
for pid in "$spin1" "$spin2"; do
	jq -c --argjson p "$pid" '[.[] | select(.type == "task" and .pid == $p)]' "$T/lines.json" >"$T/spin.rows"
	n=$(jq length "$T/spin.rows")
	[ "$n" = 3 ]
	tap_ok $? "spinner $pid is in all 3 reports" "got $n rows"
	jq -e 'all(.[]; .exited == false)' "$T/spin.rows" >/dev/null
	tap_ok $? "spinner $pid is not marked exited"
	for i in 1 2; do
		read -r grew iv < <(jq -r --argjson i "$i" \
			'"\(.[$i].delay.cpu.total_s - .[$i - 1].delay.cpu.total_s) \(.[$i].interval_s)"' "$T/spin.rows")
		agrees_with_kernel --total "$grew" "$iv" wait $((i + 1)) "$pid"
		tap_ok $? "spinner $pid: CPU delay total grows by the run-queue wait the kernel counted from report $i to $((i + 1))" \
			"$AGREED" "rows: $(jq -c '[.[] | [.interval_s, .delay.cpu.total_s]]' "$T/spin.rows")"
		diag "spinner $pid, report $i to $((i + 1)): $AGREED"
	done
done

done_testing
