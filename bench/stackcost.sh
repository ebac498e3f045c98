#!/usr/bin/env bash
# bench/stackcost.sh — what --why's off-CPU stacks cost, beside libbpf-tools' offcputime on the
# same workload in one run: a context-switch storm (bench/pingpong.c: two processes bouncing a
# byte through pipes on one CPU), each tool following the storm's first process for the same
# seconds. For each tool: the storm's round trips a second beside it (none: alone), and the
# tool's own CPU time (user + system, from /usr/bin/time -v) and peak memory. Rounds alternate
# the tools, so that a noisy neighbour spreads over all of them. "trigger" is --why with a --trigger
# that does not fire: the stacks of the tasks that stalled most lately (up to 32), the storm's
# among them. "stacks_base" is "stacks" with the build BASE, to compare two builds side by side.
#
#   bench/stackcost.sh [DELAYTOP]
#
# Environment: ROUNDS (3), SECS (6: the storm's length; the tools follow it for SECS-2 s), CPU
# (1), OFFCPUTIME (offcputime in PATH or /usr/sbin), TOOLS (none offcputime stacks trigger why),
# BASE (another delaytop, for stacks_base). Needs root.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
delaytop=${1:-$root/src/delaytop}
ROUNDS=${ROUNDS:-3}
SECS=${SECS:-6}
CPU=${CPU:-1}
CC=${CC:-cc}
OFFCPUTIME=${OFFCPUTIME:-$(command -v offcputime || echo /usr/sbin/offcputime)}
TOOLS=${TOOLS:-none offcputime stacks trigger why}
BASE=${BASE:-}

die() { echo "stackcost.sh: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root"
[ -x "$delaytop" ] || die "no delaytop binary at $delaytop"
[ -x "$OFFCPUTIME" ] || die "no offcputime (apt-get install libbpf-tools)"
case " $TOOLS " in *" stacks_base "*) [ -x "$BASE" ] || die "stacks_base needs BASE=DELAYTOP" ;; esac
[ -x /usr/bin/time ] || die "no /usr/bin/time (apt-get install time)"
tmp=$(mktemp -d)
. "$here/lock.sh"
bench_lock
trap 'rm -rf "$tmp"' EXIT
"$CC" -O2 -std=c11 -Wall -Wextra -o "$tmp/pingpong" "$here/pingpong.c"
follow=$((SECS - 2))

# run TOOL: one storm with TOOL following it; prints "RATE CPU_S MAXRSS_KB"
run() {
	local tool=$1 pp rate cpu rss
	"$tmp/pingpong" "$SECS" "$CPU" >"$tmp/rate" &
	pp=$!
	sleep 0.5
	case $tool in
	none) sleep "$follow" ;;
	offcputime) /usr/bin/time -v -o "$tmp/time" "$OFFCPUTIME" -p "$pp" "$follow" >/dev/null 2>&1 ;;
	why) /usr/bin/time -v -o "$tmp/time" "$delaytop" -b --why --format json -d 1 -n "$follow" \
		>/dev/null 2>&1 ;;
	stacks) /usr/bin/time -v -o "$tmp/time" "$delaytop" -b --why --format json -d 1 -n "$follow" -p "$pp" \
		>/dev/null 2>&1 ;;
	stacks_base) /usr/bin/time -v -o "$tmp/time" "$BASE" -b --why --format json -d 1 -n "$follow" -p "$pp" \
		>/dev/null 2>&1 ;;
	# the stacks of the tasks that stalled most (the storm's, on a CPU it shares), for a
	# trigger's event: a trigger that never fires, so that only the choice costs
	trigger) /usr/bin/time -v -o "$tmp/time" "$delaytop" -b --why --format json -d 1 -n "$follow" \
		--trigger 'cpu some 2s 2s' >/dev/null 2>&1 ;;
	esac
	wait "$pp"
	rate=$(grep -o '[0-9.]*' "$tmp/rate" | tail -1)
	if [ "$tool" = none ]; then
		echo "$rate - -"
		return
	fi
	cpu=$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { printf "%.2f", u + s }' "$tmp/time")
	rss=$(awk -F': ' '/Maximum resident/ { print $2 }' "$tmp/time")
	echo "$rate $cpu $rss"
}

printf '%-11s %5s %16s %10s %12s\n' tool round round_trips_per_s cpu_s max_rss_kb
for r in $(seq "$ROUNDS"); do
	for tool in $TOOLS; do
		read -r rate cpu rss <<<"$(run "$tool")"
		printf '%-11s %5s %16s %10s %12s\n' "$tool" "$r" "$rate" "$cpu" "$rss"
	done
done
