# exits.sh — nothing is lost to exits: a fork storm's delays add up in command mode, a buffer
# too small for a burst of exits says how many records it lost (command report and batch psi
# line), and a task that exits between two readings appears once, marked exited, with its delays.
. "$top_srcdir/tests/lib.sh"

require_taskstats
require_cpus 2
require_cmd jq
lock_global
enable_delayacct

T=$TMPDIR_TEST
export LC_ALL=C
STORM_N=2000
STORM_LIMIT=60 # seconds the storm may take: then it ends after the child that runs (a busy machine)

is() {
	[ "$2" = "$3" ]
	tap_ok $? "$1" "expected '$3', got '$2'"
}

jget() {
	jq -r "$2" "$1" 2>/dev/null
}

# close_to NAME GOT WANT REL ABS: |GOT - WANT| <= REL * WANT + ABS (seconds).
close_to() {
	local ok
	ok=$(awk -v g="$2" -v w="$3" -v r="$4" -v a="$5" \
		'BEGIN { d = g - w; if (d < 0) d = -d; print (g != "" && w != "" && d <= r * w + a) ? 0 : 1 }')
	tap_ok "$ok" "$1" "expected $3 s (+-$(awk -v r="$4" 'BEGIN { print r * 100 }')% +-$5 s), got $2 s"
}

# The child of PARENT with command name NAME, waiting up to 5 s for it to appear.
child_named() {
	local p
	for _ in $(seq 500); do
		p=$(pgrep -P "$1" -x "$2" | head -1)
		[ -n "$p" ] && { echo "$p"; return 0; }
		sleep 0.01
	done
	return 1
}

# Named links to the workload: a process's command name is the name it was run by, and its
# children inherit it, so their rows and report groups are told apart from any other process.
for name in dt-storm dt-burst dt-exitproc; do
	ln -s "$WORKLOAD" "$T/$name"
done

# ---- 1. a fork storm in command mode ----
# dt-storm (the workload's forks mode) forks 2000 children one after another, each busy 3 ms on
# CPU 1, where a spinner competes, and prints the sum of the children's own CPU delay: each
# child's run_delay (/proc/self/schedstat field 2) read just before it exits. delaytop's CPU
# total is the sum of the same kernel counter (taskstats cpu_delay_total is sched_info.run_delay)
# over every exited thread of the run, taken by the kernel in do_exit. So:
#  - the report's dt-storm group is the 2000 children plus the parent dt-storm process, which is
#    not in the workload's sum. The parent is not pinned and waits for CPUs too (seconds over the
#    storm), so its own run_delay is followed here from /proc/PID/schedstat until it ends (the
#    last read is within ~50 ms of its exit; a zombie keeps its final value) and subtracted;
#  - what remains can exceed the workload's sum only by waits between a child's reading and its
#    exit record: a preemption in that short window (the workload reads after sched_yield(), at
#    the start of a fresh turn on the CPU, to make it rare).
# Other processes are told apart by name, not by the whole run's total: dt-storm is a link to
# the workload, and children inherit the name. Other load only slows the storm: after
# STORM_LIMIT s it stops early (SIGUSR1), and the checks count the children it made.
start_workload spin 1; spin=$WORKLOAD_PID
storm_start=$(date +%s.%N)
"$DELAYTOP" --format json -o "$T/storm.json" -- "$T/dt-storm" forks "$STORM_N" 1 3 >"$T/storm.out" 2>"$T/storm.err" &
dt=$!
track_pid "$dt"
parent=$(child_named "$dt" dt-storm)
if [ -n "$parent" ]; then
	track_pid "$parent" # stopping the command ends delaytop's run (it does not stop on SIGTERM)
	parent_delay=0 asked=""
	while read -r _ w _ 2>/dev/null <"/proc/$parent/schedstat"; do
		parent_delay=$w
		if [ -z "$asked" ] && awk -v s="$storm_start" -v now="$(date +%s.%N)" -v l="$STORM_LIMIT" 'BEGIN { exit !(now - s > l) }'; then
			diag "the storm took more than $STORM_LIMIT s: ending it after the child that runs"
			kill -USR1 "$parent" 2>/dev/null
			asked=1
		fi
		sleep 0.05
	done
fi
wait "$dt"
status=$?
storm_s=$(awk -v s="$storm_start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
stop_pid "$spin"
read -r _ made <"$T/storm.out"
[ -n "$asked" ] && [ -n "${made:-}" ] && STORM_N=$made
diag "storm: $STORM_N children in $storm_s s"
is "the storm run exits with the workload's status 0" "$status" 0
jq -e 'type == "object"' "$T/storm.json" >/dev/null 2>&1
tap_ok $? "the storm report is one JSON object" "file: $(head -c 300 "$T/storm.json")" "stderr: $(head -3 "$T/storm.err")"
kids_sum=$(awk 'NR == 1 { printf "%.6f", $1 / 1e9 }' "$T/storm.out")
group_cpu=$(jget "$T/storm.json" '[.by_command[] | select(.command == "dt-storm") | .delay.cpu.total_s] | add')
all_cpu=$(jget "$T/storm.json" .delay.cpu.total_s)
parent_s=$(awk -v p="${parent_delay:-0}" 'BEGIN { printf "%.6f", p / 1e9 }')
kids_dt=$(awk -v g="$group_cpu" -v p="$parent_s" 'BEGIN { printf "%.6f", g - p }')
diag "storm CPU delay: children's own sum $kids_sum s; delaytop: dt-storm group $group_cpu s" \
	"(whole run $all_cpu s) - parent $parent_s s = $kids_dt s"
[ -n "$kids_sum" ] && [ "$group_cpu" != "null" ] && [ -n "$group_cpu" ]
tap_ok $? "the workload printed its children's sum and the report has a dt-storm group" \
	"workload printed '$(head -1 "$T/storm.out")', group cpu '$group_cpu'"
close_to "the children's CPU delay in the report agrees with their own accounting within 5%" \
	"$kids_dt" "$kids_sum" 0.05 0
lost=$(jget "$T/storm.json" .exits_lost)
[ "$lost" = 0 ]
tap_ok $? "no exit record lost with the default buffer" "expected 0, got '$lost'" \
	"(the kernel sends every exit on the machine to the listener: a burst elsewhere counts too)"
is "the dt-storm group has the parent and its $STORM_N children" \
	"$(jget "$T/storm.json" '[.by_command[] | select(.command == "dt-storm") | .processes] | add')" $((STORM_N + 1))
procs=$(jget "$T/storm.json" .processes)
within "${procs:-0}" $((STORM_N + 1)) $((STORM_N + 1))
tap_ok $? "processes is $((STORM_N + 1)): the command and its children, nothing else" \
	"expected $((STORM_N + 1)), got '$procs'; by_command: $(jget "$T/storm.json" '[.by_command[] | "\(.command):\(.processes)"] | join(" ")')"
is "no process still running after the storm" "$(jget "$T/storm.json" .running)" 0
# every record's descent is decided: each one's parent is a member, or its record comes later
# and decides, or it is alive and its ancestry answers
is "no exit record left undecided" "$(jget "$T/storm.json" .undecided)" 0

diag "at ${SECONDS} s"
# ---- 2. a burst that overflows a tiny buffer, in command mode ----
# A smaller storm, and in parallel a burst: dt-burst (the workload's idle mode) holds 2
# processes of 200 threads, killed at once, so that 400 exit records come within microseconds.
# A 4K buffer holds a handful: the report must say how many records it lost, and every task of
# the run must be either in the report or among the lost (lost ones may also be other
# processes' records: the kernel sends every exit to the listener). On a busy machine the
# threads end one by one as they get a CPU, and the listener could keep up: delaytop is held
# still (SIGSTOP) from just before the kill until the burst has ended, so that the records pile
# up in its buffer as they would in microseconds.
# ENDED: a shell function that waits (5 s at most) until process $1 has ended, every thread of
# it: gone, or a zombie left alone (delaytop, held still, is the subreaper of its command's
# orphans).
ENDED='ended() {
		i=0
		while [ -e /proc/$1 ] && [ $i -lt 250 ]; do
			[ "$(ls /proc/$1/task 2>/dev/null | wc -l)" -le 1 ] && grep -q "^State:.*Z" /proc/$1/status 2>/dev/null && break
			sleep 0.02
			i=$((i + 1))
		done
	}'
# BURST: the command's script: the burst ended while its parent, delaytop, is held still.
BURST=$ENDED'
	"$1/dt-burst" idle 2 200 >/dev/null &
	b=$!
	sleep 1
	kids=$(pgrep -P $b)
	kill -STOP $PPID
	kill $b
	wait $b
	for k in $kids; do ended $k; done
	kill -CONT $PPID'
start_workload spin 1; spin=$WORKLOAD_PID
"$DELAYTOP" --exit-buffer 4K --format json -o "$T/tiny.json" -- sh -c '
	"$1/dt-storm" forks 300 1 3 >/dev/null &
	'"$BURST"'
	wait' sh "$T" 2>"$T/tiny.err"
status=$?
stop_pid "$spin"
is "the tiny-buffer run exits with status 0" "$status" 0
lost=$(jget "$T/tiny.json" .exits_lost)
threads=$(jget "$T/tiny.json" .threads)
undecided=$(jget "$T/tiny.json" .undecided)
diag "tiny buffer: threads in the report $threads, exits_lost $lost, undecided $undecided," \
	"by_command $(jget "$T/tiny.json" '[.by_command[] | "\(.command):\(.processes)/\(.threads)"] | join(" ")')"
[ "${lost:-0}" -gt 0 ] 2>/dev/null
tap_ok $? "a 4K exit buffer overflowed by a burst reports exits_lost > 0" "got exits_lost '$lost'"
# sh, sleep, dt-storm + 300 children, dt-burst + 2 processes x 200 threads. A record whose
# parent's record was among the lost cannot be traced: the report counts it as undecided.
want=$((1 + 1 + 301 + 1 + 400))
[ $((${threads:-0} + ${lost:-0} + ${undecided:-0})) -ge "$want" ]
tap_ok $? "every task of the run is in the report, counted as lost, or counted as undecided" \
	"expected threads + exits_lost + undecided >= $want, got $threads + $lost + $undecided"

"$DELAYTOP" --exit-buffer 4K -- sh -c "$BURST" sh "$T" >"$T/tinytext.out" 2>"$T/tinytext.err"
grep -qE "exit records lost [1-9]" "$T/tinytext.err" && grep -q "dropped exit records" "$T/tinytext.err"
tap_ok $? "the text report says records were lost, with a warning" "stderr: $(head -4 "$T/tinytext.err")"

diag "at ${SECONDS} s"
# ---- 3. the same in batch mode: the psi line's exits_lost ----
"$DELAYTOP" -b --exit-buffer 4K --format json -n 2 -d 1 >"$T/batch.json" 2>"$T/batch.err" &
dt=$!
track_pid "$dt"
wait_listening "$dt"
start_workload idle 2 200; burst=$WORKLOAD_PID
burst_up() { child_threads "$burst" && [ "$CHILD_THREADS" -ge 400 ]; } # 2 processes of 200
wait_until 10 burst_up
kill -STOP "$dt" # held still while the burst ends, as above
stop_pid "$burst"
eval "$ENDED"
for k in $kids; do ended "$k"; done
kill -CONT "$dt"
wait "$dt"
status=$?
is "batch run with a 4K buffer exits with status 0" "$status" 0
lost=$(jq -s -r '[.[] | select(.type == "psi") | .exits_lost] | max' "$T/batch.json" 2>/dev/null)
[ "${lost:-0}" != null ] && [ "${lost:-0}" -gt 0 ] 2>/dev/null
tap_ok $? "batch JSON: the psi line reports exits_lost > 0 after a burst" \
	"psi lines: $(grep '"type":"psi"' "$T/batch.json" | grep -o '"exits[^,}]*' | tr '\n' ' ')"

diag "at ${SECONDS} s"
# ---- 4. a process that exits between two readings (process rows) ----
# dt-exitproc forks 3 children one after another, each busy 150 ms on CPU 1 next to a spinner,
# started after the first report: each child is born and ends between readings.
start_workload spin 1; spin=$WORKLOAD_PID
"$DELAYTOP" -b --format json -n 4 -d 1 >"$T/proc.json" 2>"$T/proc.err" &
dt=$!
track_pid "$dt"
# after the first report itself, not after a time a busy machine can spend on the first reading
for _ in $(seq 1000); do
	grep -q '"type":"psi"' "$T/proc.json" 2>/dev/null && break
	sleep 0.02
done
"$T/dt-exitproc" forks 3 1 150 >"$T/exitproc.out" 2>/dev/null &
ep=$!
track_pid "$ep"
wait "$ep"
wait "$dt"
stop_pid "$spin"
jq -s -c --argjson p "$ep" '[.[] | select(.type == "task" and .command == "dt-exitproc" and .pid != $p)]' \
	"$T/proc.json" >"$T/proc.rows" 2>/dev/null
n_kids=$(jq '[.[].pid] | unique | length' "$T/proc.rows")
is "the 3 short children appear in the reports" "$n_kids" 3
jq -e 'group_by(.pid) | all(map(select(.exited)) | length == 1)' "$T/proc.rows" >/dev/null
tap_ok $? "each child appears exactly once with \"exited\": true" "rows: $(head -c 1500 "$T/proc.rows")"
jq -e 'group_by(.pid) | all(.[-1].exited and ([.[] | select(.exited)] | length == 1))' "$T/proc.rows" >/dev/null
tap_ok $? "no child appears after its exited row" "rows: $(head -c 1500 "$T/proc.rows")"
got=$(jq -r '[.[] | .delay.cpu.pct * .interval_s / 100] | add' "$T/proc.rows")
want=$(awk '{ printf "%.6f", $1 / 1e9 }' "$T/exitproc.out")
close_to "the exited children's CPU delay is in their rows (sum of pct x interval vs their own sum)" \
	"$got" "$want" 0.15 0.005
n=$(jq -s --argjson p "$ep" '[.[] | select(.type == "task" and .pid == $p and .exited)] | length' "$T/proc.json")
is "the parent that exited too appears once with \"exited\": true" "$n" 1

diag "at ${SECONDS} s"
# ---- 5. threads that exit between two readings (-H) ----
# The workload's thread-exits mode: after 1.3 s, 4 threads at once, each busy 100 ms on CPU 1 next
# to a spinner, then they end while the process lives on; each prints its tid and its own CPU
# delay read just before it ends.
start_workload spin 1; spin=$WORKLOAD_PID
if "$WORKLOAD" 2>&1 | grep -q thread-exits; then
	"$WORKLOAD" thread-exits 4 1 100 1300 >"$T/te.out" 2>/dev/null &
elif command -v python3 >/dev/null 2>&1; then
	diag "the workload has no thread-exits mode: python3 stands in"
	python3 -c '
import os, sys, threading, time
def work():
    os.sched_setaffinity(0, {1})
    end = time.monotonic() + 0.1
    while time.monotonic() < end:
        pass
    with open("/proc/thread-self/schedstat") as f:
        wait = f.read().split()[1]
    print(threading.get_native_id(), wait, flush=True)
time.sleep(1.3)
ts = [threading.Thread(target=work) for _ in range(4)]
[t.start() for t in ts]
[t.join() for t in ts]
print("done", flush=True)
time.sleep(30)
' >"$T/te.out" 2>/dev/null &
else
	echo "ok $((TAP_N + 1)) # SKIP no thread-exits workload and no python3" && TAP_N=$((TAP_N + 1))
	stop_pid "$spin"
	done_testing
fi
te=$!
track_pid "$te"
"$DELAYTOP" -b -H --format json -n 3 -d 1 -p "$te" >"$T/thr.json" 2>"$T/thr.err"
stop_pid "$te"
stop_pid "$spin"
grep -q "done" "$T/te.out" && [ "$(grep -c -v "done" "$T/te.out")" -eq 4 ]
tap_ok $? "the 4 short threads ran and ended" "expected 4 'TID DELAY' lines and 'done', got: $(cat "$T/te.out")"
while read -r tid wait_ns; do
	[ "$tid" = "done" ] && continue
	jq -s -c --argjson t "$tid" '[.[] | select(.type == "task" and .tid == $t)]' "$T/thr.json" >"$T/thr.rows"
	is "thread $tid appears in exactly one row" "$(jq length "$T/thr.rows")" 1
	is "thread $tid's row says \"exited\": true" "$(jq -r '.[0].exited' "$T/thr.rows")" true
	is "thread $tid's row belongs to its process" "$(jq -r '.[0].pid' "$T/thr.rows")" "$te"
	got=$(jq -r '.[0] | .delay.cpu.pct * .interval_s / 100' "$T/thr.rows")
	want=$(awk -v w="$wait_ns" 'BEGIN { printf "%.6f", w / 1e9 }')
	close_to "thread $tid's CPU delay is in its row (pct x interval vs its own schedstat)" "$got" "$want" 0.15 0.003
done <"$T/te.out"
diag "done in ${SECONDS} s"

done_testing
