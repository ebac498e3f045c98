#!/usr/bin/env bash
# bench/cgroups.sh — CPU per refresh of delaytop's cgroup view against its process and thread
# modes, side by side in one run, on 10,000 idle threads spread over CGROUPS cgroups (default
# 1,000) made for the run in the v2 hierarchy; see bench/README.md.
#
#   bench/cgroups.sh [DELAYTOP]        (WORKLOAD=build/tests/workload for a build directory)
#
# Environment: ROUNDS (3), N (20 refreshes measured per run), DELAY (0.5 s), PROCS (10),
# THREADS (1000 per process), CGROUPS (1000). Needs root. Every cgroup it makes is removed at
# the end, and the workload stopped by its pid.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
delaytop=${1:-$root/src/delaytop}
ROUNDS=${ROUNDS:-3}
N=${N:-20}
DELAY=${DELAY:-0.5}
PROCS=${PROCS:-10}
THREADS=${THREADS:-1000}
CGROUPS=${CGROUPS:-1000}
CC=${CC:-cc}

die() { echo "cgroups.sh: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root"
case $delaytop in /*) ;; *) delaytop=$PWD/$delaytop ;; esac
[ -x "$delaytop" ] || die "no delaytop binary at $delaytop"
workload=${WORKLOAD:-$root/tests/workload}
[ -x "$workload" ] || die "no $workload: run 'make tests/workload' first (or set WORKLOAD)"
v2=$(awk '{ for (i = 7; $i != "-"; i++); if ($(i + 1) == "cgroup2") { print $5; exit } }' /proc/self/mountinfo)
[ -n "$v2" ] || die "no cgroup v2 hierarchy is mounted"

tmp=$(mktemp -d)
top=$v2/delaytop-bench.$$
workload_pid=
cleanup() {
	if [ -n "$workload_pid" ]; then
		kill "$workload_pid" 2>/dev/null || true
		wait "$workload_pid" 2>/dev/null || true
	fi
	sleep 0.5 # the children die with their parent
	[ -d "$top" ] && find "$top" -depth -type d -exec rmdir {} + 2>/dev/null
	rm -rf "$tmp"
}
. "$here/lock.sh"
bench_lock
trap cleanup EXIT
trap 'exit 130' INT TERM

"$CC" -O2 -std=c11 -Wall -Wextra -o "$tmp/cputime" "$here/cputime.c"

# CGROUPS cgroups: groups of 100 under $top (a tree three deep, as slices and services are).
mkdir "$top"
for ((i = 0; i < CGROUPS; i++)); do
	mkdir -p "$top/slice$((i / 100))/svc$i"
done
made=$(find "$top" -type d | wc -l)

"$workload" idle "$PROCS" "$THREADS" > "$tmp/workload.out" &
workload_pid=$!
for ((i = 0; i < 600; i++)); do
	n=$(ls /proc/"$workload_pid"/task/"$workload_pid"/children 2>/dev/null && wc -w < /proc/"$workload_pid"/task/"$workload_pid"/children || echo 0)
	[ "${n##* }" -ge "$PROCS" ] 2>/dev/null && break
	sleep 0.1
done
sleep 2 # every thread started
k=0
for c in $(cat /proc/"$workload_pid"/task/"$workload_pid"/children); do
	echo "$c" > "$top/slice$((k % (CGROUPS / 100 > 0 ? CGROUPS / 100 : 1)))/svc$((k * (CGROUPS / PROCS)))/cgroup.procs"
	k=$((k + 1))
done

set_cmd() {
	case $1 in
	process) cmd=("$delaytop" -b -n "$2" -d "$DELAY") ;;
	thread) cmd=("$delaytop" -b -H -n "$2" -d "$DELAY") ;;
	cgroup) cmd=("$delaytop" -b --group=cgroup -n "$2" -d "$DELAY") ;;
	esac
}
run() {
	set_cmd "$1" "$2"
	"$tmp/cputime" -o "$tmp/ru" "${cmd[@]}" > /dev/null 2>> "$tmp/stderr.log" || die "$1 failed: $(tail -3 "$tmp/stderr.log")"
	read -r user sys rss < "$tmp/ru"
}

echo "delaytop: $delaytop; kernel $(uname -r); $(nproc) CPUs"
echo "load: $PROCS idle processes of $THREADS threads in $made cgroups under $top"
echo "per refresh: (CPU of a run of $((N + 1)) refreshes - CPU of a run of 1) / $N, delay $DELAY s; $ROUNDS rounds"
tools=(process thread cgroup)
: > "$tmp/raw"
for ((r = 0; r < ROUNDS; r++)); do
	line="round $((r + 1)):"
	for ((j = 0; j < 3; j++)); do
		t=${tools[(r + j) % 3]}
		run "$t" 1
		u1=$user s1=$sys
		run "$t" $((N + 1))
		ms=$(awk -v u1="$u1" -v s1="$s1" -v u="$user" -v s="$sys" -v n="$N" 'BEGIN { printf "%.3f", (u + s - u1 - s1) / n * 1000 }')
		echo "$t $ms $rss" >> "$tmp/raw"
		line+=" $t ${ms}ms"
	done
	echo "$line"
done
echo
awk '{ v[$1] = v[$1] " " $2; k[$1] = $3 }
function median(list,   a, n, i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
END {
	printf "%-28s %12s %10s\n", "mode", "ms/refresh", "peak KiB"
	printf "%-28s %12.2f %10d\n", "delaytop -b", median(v["process"]), k["process"]
	printf "%-28s %12.2f %10d\n", "delaytop -b -H", median(v["thread"]), k["thread"]
	printf "%-28s %12.2f %10d\n", "delaytop -b --group=cgroup", median(v["cgroup"]), k["cgroup"]
	c = median(v["cgroup"]); t = median(v["thread"])
	printf "\ncgroup view / thread mode: %.2fx (goal: below 1x): %s\n", c / t, c < t ? "PASS" : "FAIL"
}' "$tmp/raw"
