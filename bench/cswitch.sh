#!/usr/bin/env bash
# bench/cswitch.sh — what --why costs a context-switch storm: two processes bouncing a byte
# through pipes on one CPU (bench/pingpong.c), their round trips a second alone, beside
# libbpf-tools' runqlat (system-wide), beside `delaytop -b --why` on every task and beside
# `delaytop -b` without it (what delaytop's own work on the other CPU does, apart from its eBPF
# programs), alternating over ROUNDS rounds; the median and spread of each share of the
# throughput alone. A spinner keeps the other CPUs busy in every run: on a virtual machine an
# idle CPU beside the storm's changes its rate (here it halved it), and a tracer's own work
# would otherwise count as a gain. See bench/README.md.
#
#   bench/cswitch.sh [DELAYTOP]
#
# Environment: ROUNDS (7), SECS (5 s a run), CPU (1: where the storm runs), FORMAT (json: what
# delaytop prints, to /dev/null), RUNQLAT (runqlat in PATH or /usr/sbin), SPIN (1: the spinner
# on every other CPU; 0: none). Needs root. Every tracer and spinner is stopped by its pid.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
delaytop=${1:-$root/src/delaytop}
ROUNDS=${ROUNDS:-7}
SECS=${SECS:-5}
CPU=${CPU:-1}
FORMAT=${FORMAT:-json}
SPIN=${SPIN:-1}
CC=${CC:-cc}
RUNQLAT=${RUNQLAT:-$(command -v runqlat || echo /usr/sbin/runqlat)}

die() { echo "cswitch.sh: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root"
case $delaytop in /*) ;; *) delaytop=$PWD/$delaytop ;; esac
[ -x "$delaytop" ] || die "no delaytop binary at $delaytop"
[ -x "$RUNQLAT" ] || die "no runqlat (apt-get install libbpf-tools)"
[ "$(nproc)" -gt "$CPU" ] || die "no CPU $CPU"

tmp=$(mktemp -d)
tracer=
spinners=
cleanup() {
	for p in $spinners; do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	if [ -n "$tracer" ]; then
		kill "$tracer" 2>/dev/null || true
		wait "$tracer" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
. "$here/lock.sh"
bench_lock
trap cleanup EXIT
trap 'exit 130' INT TERM

"$CC" -O2 -std=c11 -Wall -Wextra -o "$tmp/pingpong" "$here/pingpong.c"

"$delaytop" -b --why --format json -n 1 -d 0.2 -p 1 2>"$tmp/probe.err" | grep -q '"why":{"state":"on"' ||
	die "--why is not on here: $(head -1 "$tmp/probe.err")"

# start_tracer NAME: the tracer of a run, in the background (tracer holds its pid), once it has
# loaded its programs.
start_tracer() {
	case $1 in
	alone) return ;;
	runqlat) "$RUNQLAT" >/dev/null 2>"$tmp/tracer.err" & ;;
	delaytop) "$delaytop" -b --why --format "$FORMAT" -d 1 >/dev/null 2>"$tmp/tracer.err" & ;;
	plain) "$delaytop" -b --format "$FORMAT" -d 1 >/dev/null 2>"$tmp/tracer.err" & ;;
	esac
	tracer=$!
	sleep 2 # loaded, and delaytop's first reading made
	kill -0 "$tracer" 2>/dev/null || die "$1 stopped: $(head -2 "$tmp/tracer.err")"
}

stop_tracer() {
	[ -n "$tracer" ] || return 0
	kill "$tracer" 2>/dev/null || true
	wait "$tracer" 2>/dev/null || true
	tracer=
}

if [ "$SPIN" = 1 ]; then
	for ((c = 0; c < $(nproc); c++)); do
		[ "$c" = "$CPU" ] && continue
		taskset -c "$c" sh -c 'while :; do :; done' &
		spinners="$spinners $!"
	done
fi

names=(alone runqlat delaytop plain)
: >"$tmp/raw"
for ((r = 0; r < ROUNDS; r++)); do
	for ((i = 0; i < 4; i++)); do
		name=${names[$(((i + r) % 4))]} # each round in a rotated order
		start_tracer "$name"
		rate=$("$tmp/pingpong" "$SECS" "$CPU")
		stop_tracer
		echo "$r $name $rate" >>"$tmp/raw"
		echo "round $((r + 1)): $name $rate round trips/s" >&2
	done
done

# Each round's share of its own alone run, then the median and the spread over the rounds.
awk -v rounds="$ROUNDS" '
	{ rate[$1, $2] = $3 }
	function median(a, n,   i, j, t) {
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	END {
		for (r = 0; r < rounds; r++) {
			alone[r + 1] = rate[r, "alone"]
			rq[r + 1] = 100 * rate[r, "runqlat"] / rate[r, "alone"]
			dt[r + 1] = 100 * rate[r, "delaytop"] / rate[r, "alone"]
			pl[r + 1] = 100 * rate[r, "plain"] / rate[r, "alone"]
			bpf[r + 1] = 100 * rate[r, "delaytop"] / rate[r, "plain"]
			gap[r + 1] = dt[r + 1] - rq[r + 1]
		}
		printf "%-28s %12s %14s\n", "", "median", "min..max"
		m = median(alone, rounds); lo = alone[1]; hi = alone[rounds]
		printf "%-28s %12.0f %6.0f..%.0f\n", "alone (round trips/s)", m, lo, hi
		m = median(rq, rounds); lo = rq[1]; hi = rq[rounds]
		printf "%-28s %11.1f%% %5.1f..%.1f%%\n", "beside runqlat", m, lo, hi
		m = median(dt, rounds); lo = dt[1]; hi = dt[rounds]
		printf "%-28s %11.1f%% %5.1f..%.1f%%\n", "beside delaytop -b --why", m, lo, hi
		m = median(pl, rounds); lo = pl[1]; hi = pl[rounds]
		printf "%-28s %11.1f%% %5.1f..%.1f%%\n", "beside delaytop -b", m, lo, hi
		m = median(bpf, rounds); lo = bpf[1]; hi = bpf[rounds]
		printf "%-28s %11.1f%% %5.1f..%.1f%%\n", "--why / -b (its programs)", m, lo, hi
		m = median(gap, rounds); lo = gap[1]; hi = gap[rounds]
		printf "%-28s %+11.1f %+6.1f..%+.1f points\n", "delaytop share - runqlat share", m, lo, hi
	}' "$tmp/raw"
