#!/usr/bin/env bash
# bench/whycost.sh — CPU per refresh of `delaytop -b --why` beside `delaytop -b`, side by side in
# one run on PROCS x THREADS threads (bench/load.sh), each refresh as (CPU of N+1 refreshes -
# CPU of 1) / N as bench/run.sh measures it, and the peak memory; see bench/README.md.
#
#   bench/whycost.sh [DELAYTOP]    (WORKLOAD=build/tests/workload for a build directory)
#
# Environment: ROUNDS (5), N (20), DELAY (0.5 s), PROCS (10), THREADS (1000), BUSY (0: how many
# processes have a thread waking every 50 ms), TOOLS (plain why; also plain_h why_h: thread
# mode; plain_json why_json: JSON, where every row carries its histograms). Needs root.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
delaytop=${1:-$root/src/delaytop}
ROUNDS=${ROUNDS:-5}
N=${N:-20}
DELAY=${DELAY:-0.5}
PROCS=${PROCS:-10}
THREADS=${THREADS:-1000}
BUSY=${BUSY:-0}
TOOLS=${TOOLS:-plain why}
CC=${CC:-cc}

die() { echo "whycost.sh: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root"
case $delaytop in /*) ;; *) delaytop=$PWD/$delaytop ;; esac
[ -x "$delaytop" ] || die "no delaytop binary at $delaytop"
workload=${WORKLOAD:-$root/tests/workload}
[ -x "$workload" ] || die "no $workload: run 'make tests/workload' first (or set WORKLOAD)"
for t in $TOOLS; do
	case $t in plain | why | plain_h | why_h | plain_json | why_json) ;; *) die "unknown tool '$t' in TOOLS" ;; esac
done

tmp=$(mktemp -d)
. "$here/load.sh"
cleanup() {
	load_restore
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$CC" -O2 -std=c11 -Wall -Wextra -o "$tmp/cputime" "$here/cputime.c"
"$delaytop" -b --why --format json -n 1 -d 0.2 -p 1 2>"$tmp/probe.err" | grep -q '"why":{"state":"on"' ||
	die "--why is not on here: $(head -1 "$tmp/probe.err")"

load_settings $((PROCS * THREADS))
before=$(nr_threads)
load_start "$workload" "$PROCS" "$THREADS" "$BUSY" "$tmp/workload.out"

set_cmd() {
	local n=$2
	case $1 in
	plain) cmd=("$delaytop" -b -n "$n" -d "$DELAY") ;;
	why) cmd=("$delaytop" -b --why -n "$n" -d "$DELAY") ;;
	plain_h) cmd=("$delaytop" -b -H -n "$n" -d "$DELAY") ;;
	why_h) cmd=("$delaytop" -b -H --why -n "$n" -d "$DELAY") ;;
	plain_json) cmd=("$delaytop" -b --format json -n "$n" -d "$DELAY") ;;
	why_json) cmd=("$delaytop" -b --why --format json -n "$n" -d "$DELAY") ;;
	esac
}
run() {
	local rc=0
	set_cmd "$1" "$2"
	"$tmp/cputime" -o "$tmp/ru" "${cmd[@]}" >/dev/null 2>>"$tmp/stderr.log" || rc=$?
	[ "$rc" = 0 ] || die "$1 failed (exit $rc): $(tail -3 "$tmp/stderr.log")"
	read -r user sys rss wall <"$tmp/ru"
}

echo "delaytop: $delaytop; kernel $(uname -r); $(nproc) CPUs"
echo "load: tests/workload idle $PROCS $THREADS $BUSY: $((PROCS * THREADS)) threads beside $before," \
	"$BUSY of the $PROCS processes with a thread waking every 50 ms"
echo "per refresh: (CPU of $((N + 1)) refreshes - CPU of 1) / $N, delay $DELAY s; $ROUNDS rounds, order rotated"
read -r -a tools <<<"$TOOLS"
: >"$tmp/raw"
for ((r = 0; r < ROUNDS; r++)); do
	line="round $((r + 1)):"
	for ((k = 0; k < ${#tools[@]}; k++)); do
		t=${tools[(r + k) % ${#tools[@]}]}
		run "$t" 1
		u1=$user s1=$sys
		run "$t" $((N + 1))
		ms=$(awk -v u1="$u1" -v s1="$s1" -v u="$user" -v s="$sys" -v n="$N" 'BEGIN { printf "%.3f", (u + s - u1 - s1) / n * 1000 }')
		echo "$t $ms $rss" >>"$tmp/raw"
		line+=" $t ${ms}ms"
	done
	echo "$line"
done
echo
awk '
	{ c = ++n[$1]; ms[$1, c] = $2; rss[$1, c] = $3 }
	function median(a, t, k,   i, j, v, x) {
		for (i = 1; i <= k; i++) v[i] = a[t, i]
		for (i = 2; i <= k; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { x = v[j]; v[j] = v[j - 1]; v[j - 1] = x }
		lo = v[1]; hi = v[k]
		return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
	}
	END {
		name["plain"] = "delaytop -b"; name["why"] = "delaytop -b --why"
		name["plain_h"] = "delaytop -b -H"; name["why_h"] = "delaytop -b -H --why"
		name["plain_json"] = "-b --format json"; name["why_json"] = "-b --why --format json"
		printf "%-24s %10s %17s %10s\n", "", "ms/refresh", "(min..max)", "peak KiB"
		split("plain why plain_h why_h plain_json why_json", order, " ")
		for (i = 1; i <= 6; i++) {
			t = order[i]
			if (!n[t]) continue
			m[t] = median(ms, t, n[t]); range = sprintf("(%.2f..%.2f)", lo, hi)
			printf "%-24s %10.2f %17s %10d\n", name[t], m[t], range, median(rss, t, n[t])
		}
		for (i = 1; i <= 6; i += 2)
			if (n[order[i]] && n[order[i + 1]])
				printf "%s adds %.2f ms a refresh (%.2fx)\n", name[order[i + 1]], m[order[i + 1]] - m[order[i]],
					(m[order[i]] > 0 ? m[order[i + 1]] / m[order[i]] : 0)
	}' "$tmp/raw"
