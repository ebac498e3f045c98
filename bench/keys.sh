#!/usr/bin/env bash
# bench/keys.sh — how long the screen takes to answer a key while it reads PROCS x THREADS idle
# threads in thread mode: delaytop -H runs in a tmux pane of its own tmux server; KEYS times, at a
# random moment of the refresh interval, the sort key moves one column (">" then "<"), and the
# time until the pane shows the new sort column is measured. The same is measured first for a
# shell loop that prints each key it reads: the floor of this way of measuring (tmux's clients
# and polling), printed beside delaytop's figures. With strace installed, the time delaytop itself
# takes is measured too: from its read of the key to its first write to the terminal, on its main
# thread. Each binary given is measured in turn on the same threads, with the time from its start
# to its first screen.
#
#   bench/keys.sh [DELAYTOP...]  (default: src/delaytop; WORKLOAD=build/tests/workload with a
#                                build directory)
#
# Environment: PROCS (100), THREADS (1000), KEYS (40), DELAY (1 s). Needs root and tmux; sets
# kernel.task_delayacct (and kernel.pid_max when too small) for the run and puts them back.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=("$root/src/delaytop")
workload=${WORKLOAD:-$root/tests/workload}
PROCS=${PROCS:-100}
THREADS=${THREADS:-1000}
KEYS=${KEYS:-40}
DELAY=${DELAY:-1}

die() { echo "keys.sh: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "run as root (taskstats needs CAP_NET_ADMIN)"
command -v tmux >/dev/null || die "needs tmux"
for i in "${!bins[@]}"; do
	case ${bins[$i]} in /*) ;; *) bins[$i]=$PWD/${bins[$i]} ;; esac
	[ -x "${bins[$i]}" ] || die "no delaytop binary at ${bins[$i]}"
done
[ -x "$workload" ] || die "no $workload: run 'make tests/workload' first (or set WORKLOAD)"

sock=delaytop-keys-$$
tmp=$(mktemp -d)
tm() { env -u TMUX tmux -L "$sock" -f /dev/null "$@"; }
. "$here/lock.sh"
bench_lock
old_da=$(cat /proc/sys/kernel/task_delayacct)
old_pm=$(cat /proc/sys/kernel/pid_max)
wl=
cleanup() {
	tm kill-server >/dev/null 2>&1 || true
	rm -rf "$tmp"
	[ -z "$wl" ] || { kill "$wl" 2>/dev/null || true; wait "$wl" 2>/dev/null || true; }
	echo "$old_da" >/proc/sys/kernel/task_delayacct
	echo "$old_pm" >/proc/sys/kernel/pid_max
}
trap cleanup EXIT
echo 1 >/proc/sys/kernel/task_delayacct
need=$((PROCS * THREADS * 2 + 10000))
[ "$old_pm" -ge "$need" ] || echo "$need" >/proc/sys/kernel/pid_max

"$workload" idle "$PROCS" "$THREADS" >/dev/null 2>&1 &
wl=$!
want=$((PROCS * THREADS))
for ((i = 0; i < 600 + want / 200; i++)); do
	n=$(awk '{ split($4, a, "/"); print a[2] }' /proc/loadavg)
	[ "$n" -gt "$want" ] && break
	sleep 0.1
done
sleep 1

header() { tm capture-pane -t "$1" -p | grep -m1 'sort'; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# measure WINDOW SPREAD: KEYS key presses into the tmux window, each SPREAD seconds at most after
# the last; prints the milliseconds each took to show.
measure() {
	local key='>' before t0
	for ((k = 0; k < KEYS; k++)); do
		sleep "$(awk -v s="$RANDOM" -v d="$2" 'BEGIN { printf "%.3f", 0.3 + s / 32767 * d }')"
		before=$(header "$1")
		t0=$(now_ms)
		tm send-keys -t "$1" "$key"
		while [ "$(header "$1")" = "$before" ]; do
			[ $(($(now_ms) - t0)) -lt 5000 ] || die "window $1 did not answer '$key' within 5 s"
		done
		echo $(($(now_ms) - t0))
		[ "$key" = '>' ] && key='<' || key='>'
	done
}
# stats LABEL: median, 90th percentile and maximum of the numbers on standard input.
stats() {
	sort -n | awk -v l="$1" '{ v[NR] = $1 } END {
		printf "%-44s median %4d ms, 90th percentile %4d ms, max %4d ms\n", l, v[int((NR + 1) / 2)],
			v[int(NR * 0.9 + 0.5)], v[NR] }'
}

tm new-session -d -s floor -x 120 -y 40 "bash -c 'while read -rsn1 k; do printf \"\\033[H\\033[2Jsort %s\\n\" \"\$k\"; done'"
sleep 0.5
tm send-keys -t floor x
sleep 0.5
floor=$(measure floor 0.2 | stats "floor (a shell loop printing each key)")
echo "$((PROCS * THREADS)) idle threads, -H -d $DELAY, $KEYS keys at random moments:"
echo "$floor"
for b in "${bins[@]}"; do
	t0=$(now_ms)
	tm new-session -d -s dt -x 120 -y 40 "$b -H -d $DELAY"
	until header dt >/dev/null; do sleep 0.02; done # the first screen
	first=$(($(now_ms) - t0))
	sleep $((2 * ${DELAY%.*} + 1))
	st=
	if command -v strace >/dev/null; then
		pid=$(tm display-message -p -t dt '#{pane_pid}')
		[ "$(cat "/proc/$pid/comm")" = "${b##*/}" ] || pid=$(pgrep -P "$pid" | head -1)
		strace -tt -p "$pid" -e trace=read,write -o "$tmp/strace" 2>/dev/null &
		st=$!
		sleep 0.5
	fi
	measure dt "$DELAY" | stats "$b"
	echo "  first screen $first ms after start"
	if [ -n "$st" ]; then
		kill "$st" 2>/dev/null || true
		wait "$st" 2>/dev/null || true
		awk '/read\(0, "[<>]"/ { t = stamp($1); pending = 1; next }
			pending && /write\(1,/ { printf "%.0f\n", (stamp($1) - t) * 1000; pending = 0 }
			function stamp(s, a) { split(s, a, ":"); return a[1] * 3600 + a[2] * 60 + a[3] }' \
			"$tmp/strace" | stats "  in delaytop (read of the key to first write)"
	fi
	tm kill-session -t dt
	sleep 1
done
