#!/bin/bash
# bench/record.sh — what a recording costs on disk, and how fast a replay seeks.
#
# Size: PROCS processes (1,000) of which CHANGE (50) wake up each second and run for a few
# milliseconds (bench/changers.c), in a cgroup of their own, recorded with `delaytop -w -c
# CGROUP` at -d 1 for DURATION seconds (3600): the cgroup keeps the tasks of whatever else runs
# on the machine out of the count. bench/recstat then counts the task readings the records
# carried (a task that did not change is carried by none) and divides the file's size,
# everything included (header, key readings, the tasks' names and command lines, pressure,
# cgroups), by them. Target: at most 16 bytes per changed task reading.
#
# Seek: bench/recsynth writes a day of readings (86,400 at 1 s, 1,000 tasks, 50 changing), and
# `delaytop -r FILE -b --begin @T -n 1` is timed for SEEKS (10) times spread over the day.
# Target: under 100 ms each.
#
# Usage (root, from a build tree: make bench/recstat bench/recsynth tests/workload first):
#   sudo bench/record.sh [PATH-TO-DELAYTOP]
# Settings from the environment: DURATION, PROCS, CHANGE, SPIN_MS (2), SEEKS, READINGS (86400),
# PARTS ("size seek"), KEEP (a directory to keep the recordings in).
set -u
here=$(cd "$(dirname "$0")" && pwd)
delaytop=${1:-src/delaytop}
DURATION=${DURATION:-3600}
PROCS=${PROCS:-1000}
CHANGE=${CHANGE:-50}
SPIN_MS=${SPIN_MS:-2}
SEEKS=${SEEKS:-10}
READINGS=${READINGS:-86400}
PARTS=${PARTS:-"size seek"}
CC=${CC:-cc}
recstat=$(dirname "$delaytop")/../bench/recstat
recsynth=$(dirname "$delaytop")/../bench/recsynth

if [ "$(id -u)" != 0 ]; then
	echo "bench/record.sh: run it as root (taskstats needs CAP_NET_ADMIN)" >&2
	exit 1
fi
for tool in "$delaytop" "$recstat" "$recsynth"; do
	if [ ! -x "$tool" ]; then
		echo "bench/record.sh: $tool is missing: make src/delaytop bench/recstat bench/recsynth" >&2
		exit 1
	fi
done
tmp=$(mktemp -d /var/tmp/delaytop-record.XXXXXX)
load=
cgroup=/delaytop-bench-$$
cgdir=
die() { echo "bench/record.sh: $*" >&2; exit 1; }
. "$here/lock.sh"
bench_lock
old_delayacct=$(sysctl -n kernel.task_delayacct)
cleanup() {
	[ -n "$load" ] && kill -TERM -- "-$load" 2>/dev/null
	[ -n "$load" ] && wait "$load" 2>/dev/null
	if [ -n "$cgdir" ]; then
		for i in $(seq 50); do rmdir "$cgdir" 2>/dev/null && break; sleep 0.1; done
	fi
	sysctl -q kernel.task_delayacct="$old_delayacct"
	[ -n "${KEEP:-}" ] && cp "$tmp"/*.rec "$KEEP"/ 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
sysctl -q kernel.task_delayacct=1

size_part() {
	"$CC" -O2 -std=c11 -Wall -Wextra -o "$tmp/changers" "$here/changers.c" || exit 1
	cgdir=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)$cgroup
	mkdir "$cgdir" || exit 1
	# the load starts in the cgroup: this shell moves itself there, then back
	echo $$ > "$cgdir/cgroup.procs"
	setsid "$tmp/changers" "$PROCS" "$CHANGE" "$SPIN_MS" &
	load=$!
	echo $$ > "$(dirname "$cgdir")/cgroup.procs"
	sleep 2
	echo "size: $PROCS processes, $CHANGE changing a second, recorded at -d 1 for $DURATION s"
	/usr/bin/time -f "delaytop -w: %U s user, %S s system, %M KiB max RSS" \
		"$delaytop" -w "$tmp/size.rec" -c "$cgroup" -d 1 -n "$DURATION" </dev/null >/dev/null
	kill -TERM -- "-$load" 2>/dev/null
	wait "$load" 2>/dev/null
	load=
	"$recstat" "$tmp/size.rec" | tee "$tmp/size.txt"
	awk '$1 == "bytes_per_changed_task_reading" { printf "size: %.2f bytes per changed task reading (target 16): %s\n", $2, $2 <= 16 ? "met" : "NOT met" }' "$tmp/size.txt"
}

seek_part() {
	local first last t ms worst=0 all=()
	"$recsynth" "$tmp/day.rec" 1000 50 "$READINGS" || exit 1
	ls -l "$tmp/day.rec" | awk '{ printf "seek: a day-long recording of %d bytes\n", $5 }'
	first=$("$delaytop" -r "$tmp/day.rec" --format json -n 1 | jq -r 'select(.type == "psi") | .time' | head -1)
	first=$(date -d "$first" +%s)
	for i in $(seq 1 "$SEEKS"); do
		t=$((first + READINGS * i / (SEEKS + 1)))
		/usr/bin/time -f "%e" -o "$tmp/t" "$delaytop" -r "$tmp/day.rec" --begin "@$t" -b -n 1 >/dev/null
		ms=$(awk '{ printf "%d", $1 * 1000 }' "$tmp/t")
		all+=("$ms")
		[ "$ms" -gt "$worst" ] && worst=$ms
	done
	echo "seek: ${all[*]} ms (slowest $worst ms, target under 100 ms): $([ "$worst" -lt 100 ] && echo met || echo NOT met)"
}

for part in $PARTS; do
	"${part}_part"
done
