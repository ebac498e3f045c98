#!/usr/bin/env bash
# bench/exits.sh — exit records lost at the default buffer during an exit storm: PROCS processes
# of the test workload's churn mode (THREADS threads at a time, each gone after MS ms) for
# DURATION seconds, under `delaytop -b -H -d 1`; prints the tasks created (from /proc/stat), the records
# delaytop received and those it counted as lost.
#
#   bench/exits.sh [DELAYTOP]    (default: src/delaytop; WORKLOAD=build/tests/workload with a
#                                build directory)
#
# Environment: PROCS (2), THREADS (100), MS (8), DURATION (10), ARGS (more delaytop options),
# STRICT=1 to exit 1 when a record was lost. Needs root; sets kernel.task_delayacct for the run.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
delaytop=${1:-$root/src/delaytop}
workload=${WORKLOAD:-$root/tests/workload}
PROCS=${PROCS:-2}
THREADS=${THREADS:-100}
MS=${MS:-8}
DURATION=${DURATION:-10}
STRICT=${STRICT:-0}

die() { echo "exits.sh: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "run as root (the exit listeners need CAP_NET_ADMIN)"
[ -x "$delaytop" ] || die "no delaytop binary at $delaytop"
[ -x "$workload" ] || die "no $workload: run 'make tests/workload' first (or set WORKLOAD)"

tmp=$(mktemp -d)
. "$here/lock.sh"
bench_lock
old=$(cat /proc/sys/kernel/task_delayacct)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	echo "$old" >/proc/sys/kernel/task_delayacct
	rm -rf "$tmp"
}
trap cleanup EXIT
echo 1 >/proc/sys/kernel/task_delayacct
forks() { awk '$1 == "processes" { print $2 }' /proc/stat; }

# shellcheck disable=SC2086
"$delaytop" -b -H --format json -d 1 -n $((DURATION + 2)) ${ARGS:-} >"$tmp/out.json" &
pids+=($!)
until grep -q '"type":"psi"' "$tmp/out.json" 2>/dev/null; do sleep 0.1; done
f0=$(forks)
for ((i = 0; i < PROCS; i++)); do
	"$workload" churn "$THREADS" "$MS" >/dev/null 2>&1 &
	pids+=($!)
done
sleep "$DURATION"
for p in "${pids[@]:1}"; do kill "$p"; wait "$p" 2>/dev/null || true; done
f1=$(forks)
wait "${pids[0]}"
read -r got lost < <(jq -r 'select(.type == "psi") | "\(.exits) \(.exits_lost)"' "$tmp/out.json" |
	awk 'NR == 1 { a = $1 } { b = $1; l = $2 } END { print b - a, l }')
made=$((f1 - f0))
echo "storm: $PROCS x churn $THREADS $MS for $DURATION s; $(nproc) CPUs; kernel $(uname -r)"
printf 'tasks created %d (%d/s), records received %d, lost %d\n' "$made" $((made / DURATION)) "$got" "$lost"
[ "$STRICT" = 1 ] && [ "$lost" != 0 ] && exit 1
exit 0
