#!/bin/bash
# pid_reuse.sh — a pid that is reused while delaytop watches it gives no bogus rate. Spinner A
# (which has built up a large CPU delay) is killed and spinner B is started with A's pid; a naive
# implementation diffs B's small counters against A's large ones and prints a huge number (the
# unsigned difference), 0 (a clamped difference), or folds A's exit record into B's row (A's
# lifetime delay as B's interval). B's rows must show B's own delay (what the kernel counted for
# B, about 50% when the machine is quiet) and B's command name.
. "$top_srcdir/tests/lib.sh"

require_root
require_cpus 2
require_cmd jq flock
require_taskstats
[ -w /proc/sys/kernel/ns_last_pid ] || skip_all "needs a writable kernel.ns_last_pid to reuse a pid"
lock_global
enable_delayacct

# A and B run the same program under different names (the comm comes from the name exec'd).
ln -s "$WORKLOAD" "$TMPDIR_TEST/spin_a"
ln -s "$WORKLOAD" "$TMPDIR_TEST/spin_b"

start_workload spin 1; C=$WORKLOAD_PID # the competitor: A and B wait while it runs
WORKLOAD=$TMPDIR_TEST/spin_a start_workload spin 1; A=$WORKLOAD_PID
sleep 1.5 # A builds up a CPU delay (about 0.75 s): diffing against it must show

now_s() { date +%s.%N; }
t_start=$(now_s)
# pid A is marked all along: A's counters first, then B's
follow_start "$TMPDIR_TEST/out.json" "$TMPDIR_TEST/err" "$A" -- "$DELAYTOP" -b -d 1 -n 4 --format json -p "$A"
{
	wait_first_reading "$DT_PID" # then halfway between its first two reports
	sleep 1.5
	schedstat_wait "$A" >"$TMPDIR_TEST/a_wait"
	kill -TERM "$A"
	while [ -e "/proc/$A" ]; do # until this test's shell has reaped it
		sleep 0.01
	done
	echo "${EPOCHREALTIME/[.,]/}" >"$TMPDIR_TEST/t_free"
	"$TMPDIR_TEST/spin_b" at-pid "$A" spin 1 >"$TMPDIR_TEST/b.pid" 2>"$TMPDIR_TEST/b.err"
	now_s >"$TMPDIR_TEST/t_swap"
} 9>&- &
swapper=$!
track_pid "$swapper"
follow_reports
rc=$DT_STATUS
wait "$swapper"
read -r a_wait <"$TMPDIR_TEST/a_wait"
read -r t_free <"$TMPDIR_TEST/t_free"
read -r t_swap <"$TMPDIR_TEST/t_swap"
read -r B <"$TMPDIR_TEST/b.pid"
[ "${B:-}" = "$A" ] || skip_all "could not start B with pid $A: $(head -1 "$TMPDIR_TEST/b.err" | tr "\n" " ")"
track_pid "$B" # B is not our child: the at-pid parent has exited
b_comm=$(cat "/proc/$B/comm")
diag "A=$A (comm spin_a, CPU delay $((a_wait / 1000000)) ms at its death) replaced by B (comm $b_comm)" \
	"$(awk -v a="$t_start" -v b="$t_swap" 'BEGIN { printf "%.2f s after delaytop started", b - a }')"
# B's counters as the marks of pid $A saw them: 0 before B was born (A's are not B's)
for ((i = 0; i <= FOLLOW_MARKS; i++)); do
	if [ "${MARK_T[F$i]}" -lt "$t_free" ] || [ -z "${MARK_WAIT[F$i:$A]:-}" ]; then
		MARK_WAIT[F$i:$A]=0
	fi
done

tap_ok "$rc" "delaytop exits 0 across the pid reuse" "got $rc: $(head -3 "$TMPDIR_TEST/err" | tr "\n" " ")"

jq -c --argjson p "$A" 'select(.type == "task" and .pid == $p)
	| {time, interval_s, command, state, exited, pct: .delay.cpu.pct}' "$TMPDIR_TEST/out.json" >"$TMPDIR_TEST/rows"
sed 's/^/# row: /' "$TMPDIR_TEST/rows"
n=$(jq -r .time "$TMPDIR_TEST/rows" | sort -u | wc -l)
[ "$n" -eq 4 ]
tap_ok $? "pid $A has rows in each of the 4 reports" "expected 4 report times, got $n"

bad=$(jq -r 'select((.pct | type) != "number" or .pct < 0 or .pct > 110) | "\(.time): \(.pct)"' "$TMPDIR_TEST/rows" | tr "\n" " ")
[ "$n" -gt 0 ] && [ -z "$bad" ]
tap_ok $? "every CPU delay reported for pid $A is a number within [0, 110]" "out of range or missing: $bad"

# The report right after the swap (the first whose time is after t_swap) covers A's end and B's
# start: A's last row, marked exited, and B's first, what B waited since its birth: ~50% of the
# part of the interval it lived. Diffing B against A's ~$((a_wait / 1000000)) ms would show ~100%
# or more, or 0 after clamping.
iso_to_s() { date -d "$1" +%s.%N; }
swap_ts="" next_ts=""
for ts in $(jq -r .time "$TMPDIR_TEST/rows" | sort -u); do
	s_=$(iso_to_s "$ts")
	awk -v t="$s_" -v s="$t_swap" 'BEGIN { exit !(t > s) }' || continue
	if [ -z "$swap_ts" ]; then
		swap_ts=$ts
	elif [ -z "$next_ts" ]; then
		next_ts=$ts
	fi
done
row_of() { # TIME COMMAND
	jq -c --arg t "$1" --arg c "$2" 'select(.time == $t and .command == $c)' "$TMPDIR_TEST/rows" | head -1
}
a_row=$(row_of "$swap_ts" spin_a)
swap_row=$(row_of "$swap_ts" "$b_comm")
next_row=$(row_of "$next_ts" "$b_comm")

[ -n "$a_row" ] && [ "$(jq -r '.exited' <<<"$a_row")" = true ]
tap_ok $? "the interval of the swap shows A's last part, marked exited: nothing lost" "row: ${a_row:-none}"

# report_of TIME: the number of the report of that time.
report_of() {
	jq -r 'select(.type == "psi") | .time' "$TMPDIR_TEST/out.json" | awk -v t="$1" '$0 == t { print NR; exit }'
}
spct=$(jq -r '.pct' <<<"${swap_row:-null}")
sint=$(jq -r '.interval_s' <<<"${swap_row:-null}")
k=$(report_of "$swap_ts")
[ -n "$swap_row" ] && [ -n "$k" ] && agrees_with_kernel "$spct" "$sint" wait "$k" "$A"
tap_ok $? "the interval of the swap shows B's own delay since its birth (what the kernel counted for B), not A's counters" \
	"$AGREED" "row: ${swap_row:-none}"

npct=$(jq -r '.pct' <<<"${next_row:-null}")
k=$(report_of "$next_ts")
[ -n "$next_row" ] && [ -n "$k" ] && agrees_with_kernel "$npct" "$(jq -r '.interval_s' <<<"$next_row")" wait "$k" "$A" &&
	within "$npct" 1 110
tap_ok $? "B's first full interval shows its real CPU delay, what the kernel counted (not 0, not huge)" \
	"$AGREED" "row: ${next_row:-none}"

after=$(jq -c --arg t "$swap_ts" 'select(.time >= $t and .command != "spin_a")' "$TMPDIR_TEST/rows")
cmds=$(jq -r '.command' <<<"${after:-null}" | sort -u | tr '\n' ' ')
[ -n "$after" ] && [ "$cmds" = "$b_comm " ]
tap_ok $? "rows after the swap other than A's last carry B's command name ($b_comm)" "expected only '$b_comm', got: $cmds"

ex=$(jq -r 'select(.exited != false or .state == "X") | .time' <<<"${after:-null}" | tr '\n' ' ')
[ -n "$after" ] && [ -z "$ex" ]
tap_ok $? "B's rows are never marked exited (B is alive under that pid)" "exited rows at: $ex"

stop_pid "$B"
stop_pid "$C"
done_testing
