#!/usr/bin/env bash
# bench/screen.sh — the screen's peak memory at scale: delaytop -H runs in a tmux pane of its own
# tmux server under /usr/bin/time -v on PROCS x THREADS threads (bench/load.sh, BUSY processes
# with a thread waking every 50 ms), for RUN seconds after its first screen, then quits with q;
# the peak resident set is divided by the threads on the machine. Variants: "plain" (the screen as
# it starts) and "A" (A pressed at the first screen: the totals since the start shown). With
# BASE=PATH another build is measured the same way in the same rounds, side by side; each round
# runs every build and variant in a rotated order, and the table gives the median and the range.
#
#   bench/screen.sh [DELAYTOP]   (WORKLOAD=build/tests/workload for a build directory)
#
# Environment: ROUNDS (3), RUN (10 s), DELAY (1 s), PROCS (100), THREADS (1000), BUSY (100),
# VARIANTS ("plain A"), BASE. Needs root, tmux and /usr/bin/time. Sets kernel.task_delayacct and
# kernel.pid_max for the run and puts them back; the workload is stopped by its pid.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
delaytop=${1:-$root/src/delaytop}
ROUNDS=${ROUNDS:-3}
RUN=${RUN:-10}
DELAY=${DELAY:-1}
PROCS=${PROCS:-100}
THREADS=${THREADS:-1000}
BUSY=${BUSY:-100}
VARIANTS=${VARIANTS:-plain A}

die() { echo "screen.sh: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (taskstats needs CAP_NET_ADMIN)"
command -v tmux >/dev/null || die "needs tmux"
[ -x /usr/bin/time ] || die "needs /usr/bin/time (GNU time)"
case $delaytop in /*) ;; *) delaytop=$PWD/$delaytop ;; esac
[ -x "$delaytop" ] || die "no delaytop binary at $delaytop"
workload=${WORKLOAD:-$root/tests/workload}
[ -x "$workload" ] || die "no $workload: run 'make tests/workload' first (or set WORKLOAD)"
for v in $VARIANTS; do
	case $v in plain | A) ;; *) die "unknown variant '$v' in VARIANTS (plain A)" ;; esac
done
builds=(this)
if [ -n "${BASE:-}" ]; then
	case $BASE in /*) ;; *) BASE=$PWD/$BASE ;; esac
	[ -x "$BASE" ] || die "no delaytop binary at BASE=$BASE"
	builds+=(base)
fi

sock=delaytop-screen-$$
tmp=$(mktemp -d)
tm() { env -u TMUX tmux -L "$sock" -f /dev/null "$@"; }
. "$here/load.sh"
cleanup() {
	tm kill-server >/dev/null 2>&1 || true
	load_restore
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

load_settings $((PROCS * THREADS))
load_start "$workload" "$PROCS" "$THREADS" "$BUSY" "$tmp/workload.out"
threads=$(nr_threads)

commit_of() { git -C "$(dirname "$1")" log --oneline -1 --format=%h 2>/dev/null || echo ?; }
echo "delaytop: $delaytop ($(commit_of "$delaytop"))${BASE:+; base: $BASE ($(commit_of "$BASE"))};" \
	"kernel $(uname -r); $(nproc) CPUs; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "load: tests/workload idle $PROCS $THREADS $BUSY; $threads threads on the machine;" \
	"delaytop -H -d $DELAY in tmux (120x40), $RUN s after its first screen, then q"
echo

# one BUILD VARIANT OUT: one run of the screen; its peak RSS in KiB into OUT.
one() {
	local bin=$delaytop i
	[ "$1" = base ] && bin=$BASE
	rm -f "$tmp/time"
	tm new-session -d -s dt -x 120 -y 40 "/usr/bin/time -v -o $tmp/time $bin -H -d $DELAY 2>$tmp/err"
	for ((i = 0; i < 600; i++)); do # the first screen: its header names the sort column
		tm capture-pane -t dt -p 2>/dev/null | grep -q 'sort' && break
		sleep 0.1
	done
	[ "$i" -lt 600 ] || die "no first screen from $bin in 60 s: $(cat "$tmp/err" 2>/dev/null)"
	[ "$2" = A ] && tm send-keys -t dt A
	sleep "$RUN"
	tm send-keys -t dt q
	for ((i = 0; i < 300; i++)); do
		[ -s "$tmp/time" ] && grep -q 'Exit status' "$tmp/time" && break
		sleep 0.1
	done
	tm kill-session -t dt >/dev/null 2>&1 || true
	grep -q 'Exit status: 0' "$tmp/time" || die "$bin did not quit cleanly: $(cat "$tmp/err" "$tmp/time" 2>/dev/null | tail -5)"
	awk -F': ' '/Maximum resident set size/ { print $2 }' "$tmp/time" > "$3"
}

read -r -a variants <<<"$VARIANTS"
runs=()
for b in "${builds[@]}"; do
	for v in "${variants[@]}"; do runs+=("$b:$v"); done
done
: > "$tmp/raw"
for ((r = 0; r < ROUNDS; r++)); do
	line="round $((r + 1)):"
	for ((k = 0; k < ${#runs[@]}; k++)); do
		IFS=: read -r b v <<<"${runs[(r + k) % ${#runs[@]}]}"
		one "$b" "$v" "$tmp/kib"
		kib=$(cat "$tmp/kib")
		echo "$b:$v $kib" >> "$tmp/raw"
		line+=" $b $v ${kib}KiB"
	done
	echo "$line"
done
echo
awk -v threads="$threads" '
function median(key, n,   i, j, t, a) {
	for (i = 1; i <= n; i++) a[i] = v[key, i]
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	lo = a[1]; hi = a[n]
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ v[$1, ++n[$1]] = $2; if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
END {
	printf "%-12s %26s %22s\n", "build:screen", "peak RSS MB (min..max)", "B/thread (min..max)"
	for (i = 1; i <= k; i++) {
		m = median(order[i], n[order[i]])
		printf "%-12s %26s %22s\n", order[i], sprintf("%.1f (%.1f..%.1f)", m * 1024 / 1e6, lo * 1024 / 1e6, hi * 1024 / 1e6),
			sprintf("%.0f (%.0f..%.0f)", m * 1024 / threads, lo * 1024 / threads, hi * 1024 / threads)
	}
}' "$tmp/raw"
