#!/usr/bin/env bash
# bench/run.sh — CPU per refresh of delaytop (process and thread mode), iotop-c and a minimal
# raw sampler, side by side on 10,000 idle threads; see bench/README.md.
#
#   bench/run.sh [DELAYTOP]        (default: src/delaytop of this repository; with a build
#                                  directory: WORKLOAD=build/tests/workload bench/run.sh build/src/delaytop)
#
# Environment: ROUNDS (5), N (20 refreshes measured per run), DELAY (0.5 s), PROCS (10) and
# THREADS (1000 per process) for the load, BUSY (0: how many of the processes have a thread that
# wakes every 50 ms, so that their delays move at every refresh), TOOLS (the tools to run, default all four: process
# thread iotop minimal; also walk: thread mode walking /proc at each reading, DELAYTOP_TASK_WALK=1; and
# process_base, thread_base: BASE=PATH, another build's delaytop, side by side; minimal_states: the
# minimal sampler reading every thread's state at its first refresh, -s), STRICT=1 to exit 1
# when a target fails.
# Needs root: taskstats queries need CAP_NET_ADMIN, and kernel.task_delayacct is switched on for
# the run and put back after it.
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
TOOLS=${TOOLS:-process thread iotop minimal}
STRICT=${STRICT:-0}
CC=${CC:-cc}

die() { echo "run.sh: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (taskstats needs CAP_NET_ADMIN; the run sets kernel.task_delayacct)"
case $delaytop in /*) ;; *) delaytop=$PWD/$delaytop ;; esac
[ -x "$delaytop" ] || die "no delaytop binary at $delaytop (build it, or pass its path)"
workload=${WORKLOAD:-$root/tests/workload}
[ -x "$workload" ] || die "no $workload: run 'make tests/workload' first (or set WORKLOAD)"

for t in $TOOLS; do
	case $t in
	process | thread | walk | iotop | minimal | minimal_states) ;;
	process_base | thread_base) [ -x "${BASE:-}" ] || die "$t needs BASE=PATH, another build's delaytop" ;;
	*) die "unknown tool '$t' in TOOLS (process thread walk process_base thread_base iotop minimal minimal_states)" ;;
	esac
done
iotop=$(command -v iotop-c || true)
[ -n "$iotop" ] || iotop=$( [ -x /usr/sbin/iotop-c ] && echo /usr/sbin/iotop-c || true)
if [ -z "$iotop" ] && [[ " $TOOLS " == *" iotop "* ]]; then
	echo "run.sh: installing iotop-c" >&2
	DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iotop-c >/dev/null
	iotop=$(command -v iotop-c || echo /usr/sbin/iotop-c)
	[ -x "$iotop" ] || die "cannot install iotop-c"
fi

tmp=$(mktemp -d)
. "$here/load.sh"
cleanup() {
	load_restore
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$CC" -O2 -std=c11 -Wall -Wextra -o "$tmp/minsampler" "$here/minsampler.c"
"$CC" -O2 -std=c11 -Wall -Wextra -o "$tmp/cputime" "$here/cputime.c"

# Room for the load's thread ids (100,000 threads need more than the usual 32,768), put back after.
load_settings $((PROCS * THREADS))
before=$(nr_threads)
load_start "$workload" "$PROCS" "$THREADS" "$BUSY" "$tmp/workload.out"

read -r -a tools <<<"$TOOLS"
label() {
	case $1 in
	process) echo "delaytop -b" ;;
	thread) echo "delaytop -b -H" ;;
	walk) echo "walking -b -H" ;;
	process_base) echo "base -b" ;;
	thread_base) echo "base -b -H" ;;
	iotop) echo "iotop-c -b" ;;
	minimal) echo "minsampler" ;;
	minimal_states) echo "minsampler -s" ;;
	esac
}
# set_cmd TOOL REFRESHES: the command line, in cmd. delaytop's -n counts reports after its first
# reading, iotop-c's and minsampler's count readings: the difference of two runs is N refreshes
# either way.
set_cmd() {
	case $1 in
	process) cmd=("$delaytop" -b -n "$2" -d "$DELAY") ;;
	thread) cmd=("$delaytop" -b -H -n "$2" -d "$DELAY") ;;
	walk) cmd=(env DELAYTOP_TASK_WALK=1 "$delaytop" -b -H -n "$2" -d "$DELAY") ;;
	process_base) cmd=("$BASE" -b -n "$2" -d "$DELAY") ;;
	thread_base) cmd=("$BASE" -b -H -n "$2" -d "$DELAY") ;;
	iotop) cmd=("$iotop" -b --threads --no-only -n "$2" -d "$DELAY") ;;
	minimal) cmd=("$tmp/minsampler" -n "$2" -d "$DELAY") ;;
	minimal_states) cmd=("$tmp/minsampler" -s -n "$2" -d "$DELAY") ;;
	esac
}
# run TOOL REFRESHES: sets user and sys (CPU seconds), rss (peak KiB) and wall (seconds).
run() {
	local rc=0
	set_cmd "$1" "$2"
	"$tmp/cputime" -o "$tmp/ru" "${cmd[@]}" > /dev/null 2>> "$tmp/stderr.log" || rc=$?
	[ "$rc" = 0 ] || die "$(label "$1") failed (exit $rc): $(tail -3 "$tmp/stderr.log")"
	read -r user sys rss wall < "$tmp/ru"
}

mkdir -p "$here/results"
raw=$here/results/raw.tsv
printf 'round\ttool\tthreads\tuser1_s\tsys1_s\tuserN1_s\tsysN1_s\tms_per_refresh\tuser_ms\tsys_ms\tmaxrss_kib\tfirst_s\n' > "$raw"

# The commit of the tree the binary sits in, when it is in one.
bindir=$(dirname "$delaytop")
if commit=$(git -C "$bindir" log --oneline -1 2>/dev/null); then
	[ -z "$(git -C "$bindir" status --porcelain --untracked-files=no -- . 2>/dev/null)" ] ||
		commit+=" (with uncommitted changes)"
else
	commit="(not in a git checkout)"
fi
echo "delaytop: $delaytop, commit $commit"
echo "${iotop:+$("$iotop" --version 2>&1 | head -1); }kernel $(uname -r); $(nproc) CPUs"
echo "load: tests/workload idle $PROCS $THREADS $BUSY: $((PROCS * THREADS)) threads added to $before already there," \
	"$BUSY of the $PROCS processes busy (a thread waking every 50 ms)"
echo "per refresh: (CPU of a run of $((N + 1)) refreshes - CPU of a run of 1) / $N, delay $DELAY s;" \
	"$ROUNDS rounds, order rotated"
echo

for ((r = 0; r < ROUNDS; r++)); do
	order=()
	for ((k = 0; k < ${#tools[@]}; k++)); do
		order+=("${tools[(r + k) % ${#tools[@]}]}")
	done
	line="round $((r + 1)):"
	for t in "${order[@]}"; do
		threads=$(nr_threads)
		run "$t" 1
		u1=$user s1=$sys
		# delaytop's first report comes one delay after its first reading; the others' at once
		first=$(awk -v w="$wall" -v d="$DELAY" -v t="$t" 'BEGIN { printf "%.3f", t !~ /^(iotop|minimal|minimal_states)$/ ? w - d : w }')
		run "$t" $((N + 1))
		threads2=$(nr_threads)
		ms=$(awk -v u1="$u1" -v s1="$s1" -v u="$user" -v s="$sys" -v n="$N" \
			'BEGIN { printf "%.3f\t%.3f\t%.3f", (u + s - u1 - s1) / n * 1000, (u - u1) / n * 1000, (s - s1) / n * 1000 }')
		printf '%d\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n' $((r + 1)) "$t" $(((threads + threads2) / 2)) \
			"$u1" "$s1" "$user" "$sys" "$ms" "$rss" "$first" >> "$raw"
		line+=" $t ${ms%%$'\t'*}ms"
	done
	echo "$line"
done
echo

# The table, the ratios and the verdicts, from the raw rows.
awk -F '\t' -v strict="$STRICT" -v load="$((PROCS * THREADS))" -v busy="$BUSY" -v procs="$PROCS" '
function median(a, tool, n,   i, j, v, t) {
	for (i = 1; i <= n; i++) v[i] = a[tool, i]
	for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
	lo = v[1]; hi = v[n]
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function verdict(ok) { if (!ok) failed = 1; return ok ? "PASS" : "FAIL" }
function target(what, value, unit, goal, ok) {
	printf "%-32s %8.2f%s %9s  %s\n", what, value, unit, goal, verdict(ok)
}
NR > 1 {
	c = ++cnt[$2]
	ms[$2, c] = $8; um[$2, c] = $9; sm[$2, c] = $10; rss[$2, c] = $11; fs[$2, c] = $12
	threads[$2] += $3
}
END {
	name["process"] = "delaytop -b"; name["thread"] = "delaytop -b -H"
	name["iotop"] = "iotop-c -b"; name["minimal"] = "minsampler"; name["walk"] = "walking -b -H"
	name["process_base"] = "base -b"; name["thread_base"] = "base -b -H"; name["minimal_states"] = "minsampler -s"
	norder = split("process_base process thread_base thread walk iotop minimal minimal_states", order, " ")
	printf "%-15s %10s %17s %8s %8s %10s %8s %10s %8s\n", "tool", "ms/refresh", "(min..max)", "user ms", "sys ms",
		"us/thread", "threads", "peak KiB", "first s"
	for (k = 1; k <= norder; k++) {
		t = order[k]
		n = cnt[t]
		if (!n) continue
		m[t] = median(ms, t, n); range = sprintf("(%.2f..%.2f)", lo, hi)
		u = median(um, t, n); sy = median(sm, t, n); r[t] = median(rss, t, n)
		th[t] = threads[t] / n
		f[t] = median(fs, t, n)
		printf "%-15s %10.2f %17s %8.2f %8.2f %10.2f %8d %10d %8.2f\n", name[t], m[t], range, u, sy,
			m[t] * 1000 / th[t], th[t], r[t], f[t]
	}
	print ""
	printf "%-32s %9s %9s  %s\n", "target", "value", "goal", "result"
	# thread mode against the floor: idle 0.2, busy (every process) 0.7, mixed 0.3
	goal = busy == 0 ? 0.2 : busy >= procs ? 0.7 : 0.3
	if (cnt["thread"] && cnt["minimal"])
		target("thread / minimal (CPU)", m["thread"] / m["minimal"], "x", sprintf("<= %.1fx", goal),
			m["thread"] <= goal * m["minimal"])
	if (cnt["process"] && cnt["minimal"] && busy >= procs)
		target("process / minimal (CPU)", m["process"] / m["minimal"], "x", "<= 0.5x", m["process"] <= 0.5 * m["minimal"])
	if (cnt["thread"] && cnt["thread_base"])
		target("thread / base thread (CPU)", m["thread"] / m["thread_base"], "x", "< 1x", m["thread"] < m["thread_base"])
	if (cnt["thread"] && cnt["walk"])
		target("thread / walking (CPU)", m["thread"] / m["walk"], "x", "< 1x", m["thread"] < m["walk"])
	if (cnt["thread"] && cnt["iotop"])
		target("iotop-c / thread (CPU)", m["iotop"] / m["thread"], "x", ">= 8x", m["iotop"] >= 8 * m["thread"])
	if (cnt["thread"] && load >= 100000)
		target("delaytop -H CPU per refresh", m["thread"], "ms", "< 200 ms", m["thread"] < 200)
	if (cnt["thread"]) {
		# the first report within 1 s at 100,000 threads, 0.3 s at 10,000; 1.2 KiB a thread at 100,000
		limit = load >= 100000 ? 1 : 0.3
		target("delaytop -H first report", f["thread"], "s", sprintf("< %.1f s", limit), f["thread"] < limit)
		bpt = r["thread"] * 1024 / th["thread"]
		limit = load >= 100000 ? 1229 : 2048
		target("delaytop -H peak RSS, B/thread", bpt, " ", sprintf("<= %d", limit), bpt <= limit)
		printf "  (raw: delaytop -H peak RSS %d KiB, %d threads; nothing subtracted)\n", r["thread"], th["thread"]
	}
	exit strict && failed ? 1 : 0
}' "$raw"
