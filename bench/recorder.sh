#!/usr/bin/env bash
# bench/recorder.sh — what `-w` costs at scale: on PROCS x THREADS threads (100 x 1,000) of which
# BUSY processes (100) have a thread waking every 50 ms, `delaytop -b [-H] -d DELAY -w FILE` and
# the same without -w, side by side, rounds rotated; the file's bytes per second and per reading,
# the tasks each reading lists, and the CPU per reading that -w adds; see bench/README.md.
#
#   bench/recorder.sh [DELAYTOP]   (default: src/delaytop of this tree; tests/workload and
#                                  bench/recstat are taken from the same build: make
#                                  tests/workload bench/recstat first)
#
# Environment: ROUNDS (3), N (20 readings measured per run), DELAY (1 s), PROCS (100), THREADS
# (1000), BUSY (100), MODES ("thread process": -b -H and -b), BASE (another build's delaytop,
# measured the same way in the same rounds, side by side), KEEP (a directory to keep the last
# recordings in). Needs root. Sets kernel.task_delayacct and kernel.pid_max for the run and puts
# them back; the workload is stopped by its pid.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
delaytop=${1:-$root/src/delaytop}
ROUNDS=${ROUNDS:-3}
N=${N:-20}
DELAY=${DELAY:-1}
PROCS=${PROCS:-100}
THREADS=${THREADS:-1000}
BUSY=${BUSY:-100}
MODES=${MODES:-thread process}
CC=${CC:-cc}

die() { echo "recorder.sh: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (taskstats needs CAP_NET_ADMIN; the run sets kernel.task_delayacct)"
case $delaytop in /*) ;; *) delaytop=$PWD/$delaytop ;; esac
[ -x "$delaytop" ] || die "no delaytop binary at $delaytop (build it, or pass its path)"
build=$(dirname "$delaytop")/..
workload=${WORKLOAD:-$build/tests/workload}
recstat=${RECSTAT:-$build/bench/recstat}
[ -x "$workload" ] || die "no $workload: make tests/workload (or set WORKLOAD)"
[ -x "$recstat" ] || die "no $recstat: make bench/recstat (or set RECSTAT)"
for m in $MODES; do
	case $m in thread | process) ;; *) die "unknown mode '$m' in MODES (thread process)" ;; esac
done
builds=(this)
if [ -n "${BASE:-}" ]; then
	case $BASE in /*) ;; *) BASE=$PWD/$BASE ;; esac
	[ -x "$BASE" ] || die "no delaytop binary at BASE=$BASE"
	builds+=(base)
fi

tmp=$(mktemp -d /var/tmp/delaytop-recorder.XXXXXX)
. "$here/load.sh"
cleanup() {
	load_restore
	[ -z "${KEEP:-}" ] || cp "$tmp"/*.rec "$KEEP"/ 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$CC" -O2 -std=c11 -Wall -Wextra -o "$tmp/cputime" "$here/cputime.c"

load_settings $((PROCS * THREADS))
load_start "$workload" "$PROCS" "$THREADS" "$BUSY" "$tmp/workload.out"

# run BUILD MODE REC REPORTS: one run, its CPU in user and sys (s); REC 1: with -w
# $tmp/BUILD.MODE.REPORTS.rec (a new file).
run() {
	local bin=$delaytop mode=$2 rec=$3 n=$4 rc=0 cmd
	[ "$1" = base ] && bin=$BASE
	cmd=("$bin" -b -d "$DELAY" -n "$n")
	[ "$mode" = thread ] && cmd+=(-H)
	if [ "$rec" = 1 ]; then
		rm -f "$tmp/$1.$mode.$n.rec"
		cmd+=(-w "$tmp/$1.$mode.$n.rec")
	fi
	"$tmp/cputime" -o "$tmp/ru" "${cmd[@]}" > /dev/null 2>> "$tmp/stderr.log" || rc=$?
	[ "$rc" = 0 ] || die "${cmd[*]} failed (exit $rc): $(tail -3 "$tmp/stderr.log")"
	read -r user sys _ _ < "$tmp/ru"
}

commit_of() { git -C "$(dirname "$1")" log --oneline -1 --format=%h 2>/dev/null || echo ?; }
echo "delaytop: $delaytop ($(commit_of "$delaytop"))${BASE:+; base: $BASE ($(commit_of "$BASE"))};" \
	"kernel $(uname -r); $(nproc) CPUs; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "load: tests/workload idle $PROCS $THREADS $BUSY: $((PROCS * THREADS)) threads, $BUSY processes with a thread" \
	"waking every 50 ms; $(nr_threads) threads on the machine"
echo "per reading: (a run of $((N + 1)) reports - a run of 1) / $N, -d $DELAY; $ROUNDS rounds, order rotated"
echo
read -r -a modes <<<"$MODES"
variants=()
for b in "${builds[@]}"; do
	for m in "${modes[@]}"; do variants+=("$b:$m:0" "$b:$m:1"); done
done
: > "$tmp/raw"
for ((r = 0; r < ROUNDS; r++)); do
	line="round $((r + 1)):"
	for ((k = 0; k < ${#variants[@]}; k++)); do
		v=${variants[(r + k) % ${#variants[@]}]}
		IFS=: read -r b m w <<<"$v"
		run "$b" "$m" "$w" 1
		u1=$user s1=$sys
		run "$b" "$m" "$w" $((N + 1))
		ms=$(awk -v u1="$u1" -v s1="$s1" -v u="$user" -v s="$sys" -v n="$N" 'BEGIN { printf "%.1f", (u + s - u1 - s1) / n * 1000 }')
		if [ "$w" = 1 ]; then
			small=$(stat -c %s "$tmp/$b.$m.1.rec")
			big=$(stat -c %s "$tmp/$b.$m.$((N + 1)).rec")
			"$recstat" "$tmp/$b.$m.$((N + 1)).rec" > "$tmp/stat"
			# readings key_readings changed(non-key) key_task_readings raw_key raw_other tasks_per_reading
			st=$(awk '{ v[$1] = $2 } END { print v["readings"], v["key_readings"], v["changed_task_readings"],
				v["key_task_readings"], v["raw_bytes_key_readings"], v["raw_bytes_other_readings"], v["tasks_per_reading"] }' "$tmp/stat")
			echo "$b:$m 1 $ms $small $big $st $((r + 1))" >> "$tmp/raw"
			line+=" $b $m -w ${ms}ms $(((big - small) / N))B"
		else
			echo "$b:$m 0 $ms - - - - - - - - - $((r + 1))" >> "$tmp/raw"
			line+=" $b $m ${ms}ms"
		fi
	done
	echo "$line"
done
echo

awk -v n="$N" -v delay="$DELAY" -v busy="$BUSY" '
function sorted(a, c,   i, j, t) { for (i = 2; i <= c; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t } }
function med(a, c) { sorted(a, c); return c % 2 ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2 }
function spread(key, c,   v, i) { for (i = 1; i <= c; i++) v[i] = x[key, i]; m = med(v, c); lo = v[1]; hi = v[c]; return m }
{
	k = $1 ":" $2; c = ++cnt[k]; x[k, c] = $3
	if ($2 == 1) {
		# steady readings: the difference of the two files; recstat of the long one
		x[$1 ":bps", c] = ($5 - $4) / n / delay
		x[$1 ":bpr", c] = ($5 - $4) / n
		x[$1 ":listed", c] = $8 / ($6 - $7)   # tasks listed per reading that is not a key reading
		x[$1 ":rawpr", c] = $11 / ($6 - $7)   # uncompressed bytes of such a reading
		x[$1 ":keytasks", c] = $9 / $7
		x[$1 ":rawkey", c] = $10 / $7
		x[$1 ":small", c] = $4
		x[$1 ":tasks", c] = $12
		with[$1, $13] = $3
	} else
		without[$1, $13] = $3
}
END {
	for (key in with) { # against the run without -w of the same round
		split(key, kr, SUBSEP)
		x[kr[1] ":add", ++nadd[kr[1]]] = with[key] - without[key]
	}
	printf "%-13s %20s %22s %22s\n", "build mode", "CPU ms/reading", "with -w", "-w adds"
	for (bm = 1; bm <= 4; bm++) {
		mo = (bm <= 2 ? "this:" : "base:") (bm % 2 ? "thread" : "process")
		if (!cnt[mo ":1"]) continue
		c = cnt[mo ":1"]
		a = spread(mo ":0", c); sa = sprintf("%.1f (%.1f..%.1f)", a, lo, hi)
		b = spread(mo ":1", c); sb = sprintf("%.1f (%.1f..%.1f)", b, lo, hi)
		d = spread(mo ":add", c); sd = sprintf("%.1f (%.1f..%.1f)", d, lo, hi)
		printf "%-13s %20s %22s %22s\n", mo, sa, sb, sd
	}
	print ""
	for (bm = 1; bm <= 4; bm++) {
		mo = (bm <= 2 ? "this:" : "base:") (bm % 2 ? "thread" : "process")
		if (!cnt[mo ":1"]) continue
		c = cnt[mo ":1"]
		bps = spread(mo ":bps", c); printf "%s -w: %.0f bytes/s on disk (%.0f..%.0f) at -d %s", mo, bps, lo, hi, delay
		listed = spread(mo ":listed", c)
		bpr = spread(mo ":bpr", c)
		printf "; a reading lists %.0f of %.0f tasks (%d processes busy): %.1f bytes per listed task on disk (%.1f raw)\n",
			listed, spread(mo ":tasks", c), busy, listed ? bpr / listed : 0, listed ? spread(mo ":rawpr", c) / listed : 0
		printf "  key readings (every 256): %.0f tasks, %.0f bytes raw; the file after its first 2 readings (header, key, a reading): %.0f bytes\n",
			spread(mo ":keytasks", c), spread(mo ":rawkey", c), spread(mo ":small", c)
		printf "  over a day (a key reading every 256): about %.1f MB\n",
			(spread(mo ":small", c) / 256 + bpr * 255 / 256) * 86400 / delay / 1e6
	}
}' "$tmp/raw"
