#!/bin/bash
# why.sh — --why on the real kernel, each number held against another measure of the same waits
# over the same interval: two spinners sharing one CPU have a run-queue total that is their
# taskstats CPU delay within 20%, with p50 <= p90 <= p99 <= max and buckets that add up to the
# count; an O_DIRECT writer's I/O total, after --why saw its first wait, is its taskstats I/O delay
# within 25% and a wait (or its time off the CPU, where taskstats' clocks make the delay longer
# than that); a spinner's median bucket is the one libbpf-tools' runqlat -p finds over the same
# seconds, within one bucket.
# Without privileges and without BTF: one sentence, "why": null, exit 0, the rows as without
# --why.
. "$top_srcdir/tests/lib.sh"

require_root
require_cpus 2
require_cmd jq setpriv flock python3
require_taskstats

# Skips only where the eBPF side cannot run at all: a build without it, a kernel without BTF.
require_why --loose # and the lock: see require_why
[ "$WHY_STATE" = on ]
tap_ok $? "as root --why is on" "expected why.state on, got '$WHY_STATE'" "stderr: $(head -2 "$TMPDIR_TEST/probe.err" | tr '\n' ' ')"
kinds=$(jq -r 'select(.type == "psi") | .why.kinds | join(",")' "$TMPDIR_TEST/probe.json" 2>/dev/null | tail -1)
case ",$kinds," in *,cpu,*io,*blocked,*) true ;; *) false ;; esac
tap_ok $? "cpu, io and blocked are measured (got: $kinds)" "expected at least cpu, io and blocked"
diag "measured: $kinds; $(jq -r 'select(.type == "psi") | .why.reason // "all kinds attached"' "$TMPDIR_TEST/probe.json" | tail -1)"

enable_delayacct

# ---- two spinners sharing CPU 1 ----
wait_cpu_quiet 1
start_workload spin 1; A=$WORKLOAD_PID
start_workload spin 1; B=$WORKLOAD_PID
sleep 0.5

# runqlat -p A over the seconds of delaytop's first three reports (it starts about as delaytop's
# first reading is taken, and prints after 3 s)
RQ=$(command -v runqlat || echo /usr/sbin/runqlat)
if [ -x "$RQ" ]; then
	"$RQ" -p "$A" 3 1 >"$TMPDIR_TEST/runqlat.txt" 2>&1 9>&- &
	RQPID=$!
	track_pid "$RQPID"
	sleep 0.3 # its programs loaded
fi
"$DELAYTOP" -b --why --format json -n 4 -d 1 -p "$A,$B" >"$TMPDIR_TEST/spin.json" 2>"$TMPDIR_TEST/spin.err"
rc=$?
[ -x "$RQ" ] && wait "$RQPID"
tap_ok "$rc" "delaytop -b --why --format json exits 0" "got $rc" "stderr: $(head -3 "$TMPDIR_TEST/spin.err" | tr '\n' ' ')"

# For one pid over the reports: "<reports> <why cpu total ms> <taskstats cpu delay ms>
# <reports whose p50<=p90<=p99<=max> <reports whose buckets add up to the count> <median slot>".
# The totals leave the first report out: a wait under way when the programs were loaded has no
# start for them, while taskstats counts it whole when it ends, and on a busy CPU such a wait can
# be a good part of a second. Both count every later wait whole in the interval it ends in.
spin_summary() {
	jq -s -r --argjson p "$1" '
		[.[] | select(.type == "task" and .pid == $p)] as $r
		| ($r | map(.why.latency.cpu)) as $c
		| [($r | length),
		   ($c[1:] | map(.total_ms) | add),
		   ($r[1:] | map(.delay.cpu.pct * .interval_s * 10) | add),
		   ($c | map(select(.p50_ms <= .p90_ms and .p90_ms <= .p99_ms and .p99_ms <= .max_ms)) | length),
		   ($c | map(select(([.buckets[][1]] | add) == .count)) | length),
		   ([$c[].buckets[]] | group_by(.[0]) | map([.[0][0], (map(.[1]) | add)]) | sort_by(.[0]) as $b
		    | ($b | map(.[1]) | add) as $n
		    | reduce $b[] as $x ({c: 0, s: null};
			if .s == null and .c + $x[1] >= $n / 2 then {c: (.c + $x[1]), s: (if $x[0] == null then 24 else (($x[0] * 1000) | log2 | round) - 1 end)}
			else .c += $x[1] end) | .s)]
		| map(tostring) | join(" ")' "$TMPDIR_TEST/spin.json"
}

for who in A B; do
	pid=${!who}
	read -r n why ts ordered summed median <<<"$(spin_summary "$pid")"
	[ "$n" = 4 ]
	tap_ok $? "spinner $who (pid $pid) has a task record in each of the 4 reports" "got ${n:-none}"
	lo=$(awk -v t="$ts" 'BEGIN { print t * 0.8 }'); hi=$(awk -v t="$ts" 'BEGIN { print t * 1.2 }')
	within "$why" "$lo" "$hi"
	tap_ok $? "spinner $who: --why's run-queue total is its taskstats CPU delay within 20% ($(printf '%.0f ms vs %.0f ms' "$why" "$ts"))" \
		"expected $lo..$hi, got '$why'"
	[ "$ordered" = 4 ]
	tap_ok $? "spinner $who: p50 <= p90 <= p99 <= max in every report" "in $ordered of 4"
	[ "$summed" = 4 ]
	tap_ok $? "spinner $who: the buckets add up to the count in every report" "in $summed of 4"
	eval "MEDIAN_$who=\$median"
	within "$why" 1 1e12
	tap_ok $? "spinner $who waited (a total above 0)" "got '$why'"
done

# runqlat's median bucket: its lines "LOW -> HIGH : COUNT", LOW 0 for slot 0, else 2^slot
if [ -x "$RQ" ] && grep -q -- '->' "$TMPDIR_TEST/runqlat.txt"; then
	rq_median=$(awk '/->/ { low = $1; n = $5 + 0; s = low == 0 ? 0 : int(log(low) / log(2) + 0.5);
			slot[NR] = s; cnt[NR] = n; total += n; last = NR }
		END { for (i = 1; i <= last; i++) if (i in cnt) { c += cnt[i]; if (c >= total / 2) { print slot[i]; exit } } }' \
		"$TMPDIR_TEST/runqlat.txt")
	d=$(( ${MEDIAN_A:-99} - ${rq_median:-0} ))
	[ "${d#-}" -le 1 ]
	tap_ok $? "spinner A's median bucket (slot ${MEDIAN_A:-?}) is runqlat -p's (slot ${rq_median:-?}) within one" \
		"runqlat: $(grep -- '->' "$TMPDIR_TEST/runqlat.txt" | awk '$5 > 0' | tr -s ' ' | tr '\n' ';')"
else
	tap_skip "spinner A's median bucket is runqlat -p's within one" \
		"runqlat did not run: $(head -2 "$TMPDIR_TEST/runqlat.txt" 2>/dev/null | tr '\n' ' ')"
fi
stop_pid "$A"
stop_pid "$B"

# ---- an O_DIRECT writer ----
DIR=$(disk_dir)
if [ -z "$DIR" ] || ! WDIR=$(mktemp -d "$DIR/delaytop-why.XXXXXX"); then
	tap_skip "an O_DIRECT writer's I/O total is its I/O delay within 25%" "no disk-backed writable directory"
else
	EXTRA_DIRS="$EXTRA_DIRS $WDIR"
	start_workload odirect "$WDIR/data"; W=$WORKLOAD_PID
	sleep 0.3
	if ! kill -0 "$W" 2>/dev/null; then
		tap_skip "an O_DIRECT writer's I/O total is its I/O delay within 25%" "O_DIRECT writes fail on $DIR"
	else
		# The reports compared are those after the first in which --why saw one of the writer's
		# waits: a write under way when the programs were loaded has no start for them, while
		# taskstats counts it whole when it ends, and on a slow disk (an fsync of over a second was
		# seen in CI) that can be after the first report. The writer is one thread, so that write
		# ended before any wait --why saw began. Readings go on, 20 at most, until those reports
		# are 3 or more and hold 10 waits or more (on a slow disk a handful of waits would make the
		# comparison one of luck).
		# off: the time the writer was neither on a CPU nor runnable (100% less run_pct and CPU
		# delay), which the waits that ended cannot exceed by more than the part before the first
		# report compared of the one under way at its start. Taskstats reads the clock of the CPU
		# the writer slept on at the start and the waker's at the end; where those disagree its
		# I/O delay can pass even that (3398 ms in 3 s was seen), so the reference is the smaller
		# of the two. long: the longest wait --why saw from the report of its first on, the most
		# that one wait can move: the one carried into the first report compared, and one that
		# ends between the readings of taskstats and of --why at either end, which each count in
		# a different report (at the start taskstats has it, at the end --why: the two cannot add
		# up). Not taskstats' longest: in one run it gave a writer a few seconds old one of
		# 70773208 ms, about the uptime (a wait without a start).
		io_summary() {
			jq -s -r --argjson p "$W" '
			[.[] | select(.type == "task" and .pid == $p)] as $r
			| ([range(0; $r | length) | select(($r[.].why.latency.io.count // 0) > 0)] | first // ($r | length)) as $f
			| $r[$f + 1:] as $c
			| [($r | length), $f + 2, ($c | length),
			   ($c | map(.why.latency.io.total_ms // 0) | add // 0),
			   ($c | map((.delay.io.pct // 0) * .interval_s * 10) | add // 0),
			   ($c | map((100 - .run_pct - .delay.cpu.pct) * .interval_s * 10) | add // 0),
			   ($c | map(.why.latency.io.count // 0) | add // 0),
			   ($r[$f:] | map(.why.latency.io.max_ms // 0) | max // 0)]
			| map(tostring) | join(" ")' "$TMPDIR_TEST/io.json" 2>/dev/null
		}
		"$DELAYTOP" -b --why --format json -n 20 -d 1 -p "$W" >"$TMPDIR_TEST/io.json" 2>"$TMPDIR_TEST/io.err" 9>&- &
		D=$!
		track_pid "$D"
		while kill -0 "$D" 2>/dev/null; do
			sleep 0.2
			read -r n first m why ts off count long <<<"$(io_summary)"
			[ "${m:-0}" -ge 3 ] && [ "${count:-0}" -ge 10 ] && kill -TERM "$D" && break
		done
		wait "$D"
		rc=$?
		read -r n first m why ts off count long <<<"$(io_summary)"
		[ "${m:-0}" -gt 0 ] && span="reports $first to $n" || span="none of $n reports after one with a wait --why saw"
		diag "the writer: $span, $count waits, the longest $long ms"
		ref=$(awk -v t="$ts" -v o="$off" -v l="$long" 'BEGIN { print (t < o + l ? t : o + l) }')
		lo=$(awk -v r="$ref" -v l="$long" 'BEGIN { print r * 0.75 - l }'); hi=$(awk -v r="$ref" -v l="$long" 'BEGIN { print r * 1.25 + l }')
		awk -v t="$ts" -v o="$off" -v l="$long" 'BEGIN { exit !(t > (o + l) * 1.05) }' &&
			diag "taskstats' I/O delay ($ts ms) is more than the writer's time off the CPU ($off ms) and its longest wait ($long ms): its clocks disagree; the reference is the time off the CPU"
		[ "$rc" = 0 ] && [ "${m:-0}" -ge 3 ] && [ "${count:-0}" -ge 10 ]
		tap_ok $? "delaytop --why exits 0 and its reports after the first with a wait of the writer's hold 10 waits or more" \
			"exit status $rc; $span: $count waits" "stderr: $(head -2 "$TMPDIR_TEST/io.err" | tr '\n' ' ')"
		within "$ts" 1 1e12 && within "$why" "$lo" "$hi" && within "$why" 0 "$(awk -v o="$off" -v l="$long" 'BEGIN { print o * 1.05 + l }')"
		tap_ok $? "the O_DIRECT writer's --why I/O total is its I/O delay within 25% and its longest wait ($(printf '%.0f ms vs taskstats %.0f ms, off the CPU %.0f ms' "$why" "$ts" "$off"), $count waits, the longest $long ms)" \
			"expected $lo..$hi (and at most the time off the CPU and a wait) over $span, got '$why'"
		stop_pid "$W"
	fi
fi

# ---- without privileges, without BTF ----
# keys: the keys of every task record, sorted and unique; the count of task records
shape() {
	jq -s -r '[.[] | select(.type == "task")] | [length, (map(keys) | add | unique | join(","))] | map(tostring) | join(" ")' "$1"
}
nulls() {
	jq -s -r '[.[] | select(.type == "task" and .why != null)] | length' "$1"
}
# run NAME [ENV=VALUE] [PREFIX...]: delaytop -b --why as the prefix runs it, and without --why
refusal() {
	local name=$1 why_sentence=$2 with without; shift 2
	"$@" -b --why --format json -n 2 -d 0.3 -p 1 >"$TMPDIR_TEST/$name.json" 2>"$TMPDIR_TEST/$name.err"
	rc=$?
	"$@" -b --format json -n 2 -d 0.3 -p 1 >"$TMPDIR_TEST/$name-plain.json" 2>"$TMPDIR_TEST/$name-plain.err"
	tap_ok "$rc" "$name: delaytop --why exits 0" "got $rc" "stderr: $(tr '\n' '|' <"$TMPDIR_TEST/$name.err")"
	n=$(grep -c -- "--why" "$TMPDIR_TEST/$name.err")
	[ "$n" = 1 ] && grep -q -- "$why_sentence" "$TMPDIR_TEST/$name.err"
	tap_ok $? "$name: one sentence says why ($why_sentence)" "got $n lines: $(tr '\n' '|' <"$TMPDIR_TEST/$name.err")"
	h=$(jq -r 'select(.type == "psi") | "\(.why.state) \(.why.reason != null)"' "$TMPDIR_TEST/$name.json" | sort -u | tr '\n' ' ')
	[ "$h" = "unavailable true " ]
	tap_ok $? "$name: the header says unavailable, with the reason" "got '$h'"
	[ "$(nulls "$TMPDIR_TEST/$name.json")" = 0 ]
	tap_ok $? "$name: every task record has \"why\": null" "$(nulls "$TMPDIR_TEST/$name.json") records with a why"
	with=$(shape "$TMPDIR_TEST/$name.json"); without=$(shape "$TMPDIR_TEST/$name-plain.json")
	[ "$with" = "$without" ] && [ "${with%% *}" -ge 2 ]
	tap_ok $? "$name: the rows and their fields are as without --why" "with: ${with:0:200}" "without: ${without:0:200}"
}

setup_nobody
refusal unprivileged "CAP_BPF and CAP_PERFMON" "${NOBODY[@]}" "$DT"
refusal no-btf "BTF, and /nonexistent/vmlinux" env DELAYTOP_BTF=/nonexistent/vmlinux "$DELAYTOP"

# ---- a secure run: the capabilities the README's setcap line gives, DELAYTOP_BTF ignored ----
raised=$TMPDIR_TEST/raised-delaytop
chmod 755 "$TMPDIR_TEST"
cp "$DELAYTOP" "$raised" && chmod 755 "$raised"
if ! command -v setcap >/dev/null || ! setcap cap_net_admin,cap_bpf,cap_perfmon+ep "$raised" 2>/dev/null ||
	! getcap "$raised" | grep -q cap_bpf; then
	tap_skip "a setcap'd copy run by nobody measures, and ignores DELAYTOP_BTF" "setcap does not stick on $TMPDIR_TEST"
else
	setpriv --reuid=65534 --regid=65534 --clear-groups env DELAYTOP_BTF=/nonexistent/vmlinux \
		"$raised" -b --why --format json -n 1 -d 0.3 -p 1 >"$TMPDIR_TEST/raised.json" 2>"$TMPDIR_TEST/raised.err"
	h=$(jq -r 'select(.type == "psi") | .why.state' "$TMPDIR_TEST/raised.json" | tail -1)
	[ "$h" = on ] && ! grep -q BTF "$TMPDIR_TEST/raised.err"
	tap_ok $? "a copy with cap_net_admin,cap_bpf,cap_perfmon run by nobody measures, and ignores DELAYTOP_BTF" \
		"why.state '$h'" "stderr: $(tr '\n' '|' <"$TMPDIR_TEST/raised.err")"
fi

done_testing
