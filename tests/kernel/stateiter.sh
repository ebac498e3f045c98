#!/bin/bash
# stateiter.sh — the first reading of many threads takes their states from the eBPF task iterator
# (src/kernel/stateiter.h) instead of opening /proc/PID/task/TID/stat per thread, and each
# thread's state is the letter /proc shows. Ten processes of 300 sleeping threads (S), one of
# them stopped (T), one thread of another stopped by ptrace (t): delaytop's first report, run
# under strace, opens no thread's stat file and makes an iterator; with DELAYTOP_STATES=proc it
# opens one per thread. Each thread whose /proc state is the same before and after the run has
# that state in the report.
. "$top_srcdir/tests/lib.sh"

require_root
require_cmd jq strace
require_taskstats
lock_global
enable_delayacct

# Skips only where the iterator cannot run at all: a build without eBPF, a kernel without BTF.
"$DELAYTOP" -b --why --format json -n 1 -d 0.2 -p 1 >/dev/null 2>"$TMPDIR_TEST/probe.err"
grep -q "built without eBPF" "$TMPDIR_TEST/probe.err" && skip_all "$(head -1 "$TMPDIR_TEST/probe.err")"
[ -r /sys/kernel/btf/vmlinux ] || skip_all "the kernel has no BTF"

idle_threads 10 300
P1=$(awk '{ print $1 }' <<<"$kids")
P2=$(awk '{ print $2 }' <<<"$kids")
T=$(ls "/proc/$P2/task" | sort -n | sed -n 100p)

kill -STOP "$P1"
track_pid "$P1" # cleanup continues it
freeze_thread "$T" 120000
tap_ok $? "thread $T is traced and stopped, process $P1 stopped" "$(cat "$TMPDIR_TEST/freeze.out")"

# proc_states FILE: every thread of the workload's processes and its state letter, one a line
# (one cat a process: a sed a thread took 20 s for the four calls).
proc_states() {
	for p in $kids; do
		cat /proc/"$p"/task/*/stat 2>/dev/null
	done | sed -n 's/^\([0-9]*\) (.*) \(.\) .*/\1 \2/p' | sort -n >"$1"
}

# run NAME [ENV...]: delaytop's first report under strace, with its /proc states before and after.
run() {
	local name=$1
	shift
	proc_states "$TMPDIR_TEST/$name.before"
	# detect_leaks=0: in a sanitizer build, LeakSanitizer cannot stop the threads of a traced
	# process, and ends it with an error
	env "$@" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -qq -e trace=openat,bpf -o "$TMPDIR_TEST/$name.strace" \
		"$DELAYTOP" -b -H -n 1 -d 0.2 --format json -p "$pids" >"$TMPDIR_TEST/$name.json" 2>"$TMPDIR_TEST/$name.err"
	tap_ok $? "$name: delaytop -b -H -n 1 exits 0" "$(head -2 "$TMPDIR_TEST/$name.err")"
	proc_states "$TMPDIR_TEST/$name.after"
	jq -r 'select(.type == "task") | "\(.tid) \(.state)"' "$TMPDIR_TEST/$name.json" | sort -n >"$TMPDIR_TEST/$name.rows"
	# the threads whose state held over the run, and how many of them the report disagrees with
	join "$TMPDIR_TEST/$name.before" "$TMPDIR_TEST/$name.after" | awk '$2 == $3 { print $1, $2 }' \
		>"$TMPDIR_TEST/$name.steady"
	steady=$(wc -l <"$TMPDIR_TEST/$name.steady")
	wrong=$(join -a 1 "$TMPDIR_TEST/$name.steady" "$TMPDIR_TEST/$name.rows" | awk '$2 != $3' | head -5)
	opens=$(grep -cE 'openat\([0-9]+, "[0-9]+/stat"' "$TMPDIR_TEST/$name.strace")
	iters=$(grep -c BPF_ITER_CREATE "$TMPDIR_TEST/$name.strace")
	[ "$steady" -ge 2900 ] && [ -z "$wrong" ]
	tap_ok $? "$name: each of the $steady steady threads has its /proc state" "tid /proc report: $wrong"
	kinds=$(awk '{ print $2 }' "$TMPDIR_TEST/$name.rows" | sort | uniq -c | awk '{ printf "%s:%s ", $2, $1 }')
	grep -q "^$T t$" "$TMPDIR_TEST/$name.rows" && [ "$(grep -c " T$" "$TMPDIR_TEST/$name.rows")" -eq 300 ]
	tap_ok $? "$name: the traced thread is t, the stopped process's 300 threads T" "got $kinds"
}

run iter
[ "$opens" -eq 0 ] && [ "$iters" -ge 1 ]
tap_ok $? "the states came from the task iterator" "$opens stat files opened, $iters iterators made"

run proc DELAYTOP_STATES=proc
[ "$opens" -ge 2900 ] && [ "$iters" -eq 0 ]
tap_ok $? "DELAYTOP_STATES=proc: read from /proc" "$opens stat files opened, $iters iterators made"

stop_pid "$F"
kill -CONT "$P1"
done_testing
