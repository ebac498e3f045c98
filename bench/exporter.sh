#!/usr/bin/env bash
# bench/exporter.sh — the exporter at scale: how long a scrape of `delaytop --listen` takes on a
# host of PROCS x THREADS threads (100,000) and CGROUPS cgroups (2,000), how much it serves (bytes,
# series by family), and whether scraping slows the readings; see bench/README.md.
#
#   bench/exporter.sh [DELAYTOP...]  (default: src/delaytop of this tree; each binary given is
#                                    measured in turn on the same load; the workload is taken
#                                    from the first one's build, or WORKLOAD=PATH)
#
# Environment: PROCS (100), THREADS (1000 per process), BUSY (100: processes whose main thread
# wakes every 50 ms), CGROUPS (2000, made flat under a parent of the run's own in the v2
# hierarchy; the processes spread over them, one in every CGROUPS/PROCS), DELAY (1 s between
# readings), ROUNDS (3: each a quiet phase and a scraping phase, the order rotated), SCRAPES (50 a
# scraping phase), GAP (0.2 s between scrapes), ARGS (more options for delaytop, such as -H).
# Needs root. Sets kernel.task_delayacct and kernel.pid_max for the run and puts them back; every
# cgroup it made is removed and every process it started is stopped by its pid.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
[ $# -gt 0 ] || set -- "$root/src/delaytop"
PROCS=${PROCS:-100}
THREADS=${THREADS:-1000}
BUSY=${BUSY:-100}
CGROUPS=${CGROUPS:-2000}
DELAY=${DELAY:-1}
ROUNDS=${ROUNDS:-3}
SCRAPES=${SCRAPES:-50}
GAP=${GAP:-0.2}
ARGS=${ARGS:-}

die() { echo "exporter.sh: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (taskstats needs CAP_NET_ADMIN; the run sets kernel.task_delayacct)"
bins=()
for b in "$@"; do
	case $b in /*) ;; *) b=$PWD/$b ;; esac
	[ -x "$b" ] || die "no delaytop binary at $b (build it, or pass its path)"
	bins+=("$b")
done
workload=${WORKLOAD:-$(dirname "${bins[0]}")/../tests/workload}
[ -x "$workload" ] || workload=$root/tests/workload
[ -x "$workload" ] || die "no tests/workload beside ${bins[0]}: make tests/workload (or set WORKLOAD)"
command -v curl >/dev/null || die "curl is needed"
v2=$(awk '{ for (i = 7; $i != "-"; i++); if ($(i + 1) == "cgroup2") { print $5; exit } }' /proc/self/mountinfo)
[ -n "$v2" ] || die "no cgroup v2 hierarchy is mounted"
[ "$CGROUPS" -ge "$PROCS" ] || die "CGROUPS must be at least PROCS"

tmp=$(mktemp -d)
top=$v2/delaytop-bench.$$
delaytop_pid=
. "$here/load.sh"
cleanup() {
	local i
	[ -z "$delaytop_pid" ] || stop_pid "$delaytop_pid"
	[ -z "$workload_pid" ] || stop_pid "$workload_pid"
	# the workload's children die with it (PR_SET_PDEATHSIG); their cgroups empty as they go
	if [ -d "$top" ]; then
		for ((i = 0; i < 100; i++)); do
			find "$top" -depth -type d -exec rmdir {} + 2>/dev/null
			[ -d "$top" ] || break
			sleep 0.2
		done
		[ ! -d "$top" ] || echo "exporter.sh: could not remove $top" >&2
	fi
	load_restore
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

load_settings $((PROCS * THREADS))

# The cgroups, flat under $top: cg0001..cgNNNN.
mkdir "$top"
for ((i = 1; i <= CGROUPS; i++)); do
	mkdir "$(printf '%s/cg%04d' "$top" "$i")"
done

# The load, its PROCS processes spread over the cgroups.
load_start "$workload" "$PROCS" "$THREADS" "$BUSY" "$tmp/workload.out"
kids=$(load_children)
k=0
for c in $kids; do
	printf '%s\n' "$c" > "$(printf '%s/cg%04d' "$top" $((k * CGROUPS / PROCS + 1)))/cgroup.procs"
	k=$((k + 1))
done

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null ||
	echo 19277)
url=http://127.0.0.1:$port/metrics
tck=$(getconf CLK_TCK)

# metric NAME FILE: a sample's value without labels.
metric() { awk -v n="$1" '$1 == n { print $2; exit }' "$2"; }
# scrape FILE: one scrape, 5 s at most; fails without an answer.
scrape() { curl -sf -m 5 -o "$1" "$url"; }
# The CPU, in ns, of delaytop's main thread (its readings, the exposition made from each, the
# publication) and, in clock ticks, of the whole process (the HTTP server's thread too).
main_ns() { awk '{ print $1 }' "/proc/$delaytop_pid/task/$delaytop_pid/schedstat"; }
all_ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$delaytop_pid/stat"; }

# phase B KIND ROUND: a quiet phase (a scrape at each end, for the readings counter) or a
# scraping phase (SCRAPES scrapes GAP apart, each timed) of binary number B: a line of figures
# in $tmp/phases.B, the scrapes in $tmp/scrapes.B, the reading durations they saw in
# $tmp/durations.B.
phase() {
	local b=$1 kind=$2 r=$3 n0 n1 m0 m1 a0 a1 t0 t1 s
	scrape "$tmp/p0" || die "a scrape failed"
	n0=$(metric delaytop_readings_total "$tmp/p0")
	m0=$(main_ns) a0=$(all_ticks) t0=$(date +%s.%N)
	if [ "$kind" = quiet ]; then
		sleep "$(awk -v s="$SCRAPES" -v g="$GAP" 'BEGIN { print s * (g + 0.03) }')"
	else
		for ((s = 0; s < SCRAPES; s++)); do
			curl -s -m 5 -o "$tmp/s" -w '%{time_total} %{size_download} %{http_code}\n' "$url" >> "$tmp/scrapes.$b"
			metric delaytop_reading_duration_seconds "$tmp/s" >> "$tmp/durations.$b"
			sleep "$GAP"
		done
	fi
	m1=$(main_ns) a1=$(all_ticks) t1=$(date +%s.%N)
	scrape "$tmp/p1" || die "a scrape failed"
	n1=$(metric delaytop_readings_total "$tmp/p1")
	[ "$n1" -gt "$n0" ] || die "no reading in a phase of $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
	echo "$r $kind $((n1 - n0)) $m0 $m1 $a0 $a1 $t0 $t1 $(nr_threads)" >> "$tmp/phases.$b"
}

# measure B: binary number B on the load: started, ROUNDS rounds, what it serves, stopped.
measure() {
	local b=$1 bin=${bins[$1]} r i commit
	commit=$(git -C "$(dirname "$bin")" log --oneline -1 --format=%h 2>/dev/null || echo "?")
	# shellcheck disable=SC2086 # ARGS: words
	"$bin" --listen "127.0.0.1:$port" -d "$DELAY" $ARGS > "$tmp/delaytop.out" 2> "$tmp/delaytop.err" &
	delaytop_pid=$!
	for ((i = 0; ; i++)); do
		scrape "$tmp/first" && [ "$(metric delaytop_readings_total "$tmp/first")" -ge 2 ] && break
		kill -0 "$delaytop_pid" 2>/dev/null || die "$bin ended: $(tail -3 "$tmp/delaytop.err")"
		[ "$i" -lt 600 ] || die "$bin: no second reading in 60 s"
		sleep 0.1
	done
	echo "[$b] $bin (commit $commit) $ARGS"
	for ((r = 1; r <= ROUNDS; r++)); do
		if ((r % 2)); then
			phase "$b" quiet "$r"
			phase "$b" scraping "$r"
		else
			phase "$b" scraping "$r"
			phase "$b" quiet "$r"
		fi
		echo "  round $r: $(awk -v r="$r" '$1 == r { printf "%s %.1f ms/reading  ", $2, ($5 - $4) / $3 / 1e6 }' "$tmp/phases.$b")"
	done
	scrape "$tmp/last.$b" || die "the last scrape failed"
	curl -sf -m 5 -o "$tmp/last.om.$b" -H 'Accept: application/openmetrics-text; version=1.0.0' "$url" || true
	stop_pid "$delaytop_pid"
	delaytop_pid=
}

echo "kernel $(uname -r); $(nproc) CPUs; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "load: tests/workload idle $PROCS $THREADS $BUSY ($((PROCS * THREADS)) threads, $BUSY processes waking" \
	"every 50 ms), in $PROCS of $CGROUPS cgroups under $top; $(nr_threads) threads on the machine"
echo "delaytop --listen -d $DELAY $ARGS; $ROUNDS rounds of a quiet phase and a phase of $SCRAPES scrapes" \
	"$GAP s apart, order rotated"
echo
for ((b = 0; b < ${#bins[@]}; b++)); do
	measure "$b"
done
echo

for ((b = 0; b < ${#bins[@]}; b++)); do
	last=$tmp/last.$b
	echo "[$b] ${bins[$b]}"
	# What a scrape serves: bytes, series, series by family (the name up to '{').
	echo "served: $(wc -c < "$last") bytes (OpenMetrics: $(wc -c < "$tmp/last.om.$b" 2>/dev/null || echo ?) bytes)," \
		"$(awk '!/^#/' "$last" | wc -l) series"
	awk '!/^#/ { n = $1; sub(/\{.*/, "", n); c[n]++ } END { for (f in c) printf "  %7d %s\n", c[f], f }' "$last" |
		sort -k1,1rn -k2 | awk '$1 > 1 { print; next } { ones++ } END { if (ones) printf "  %7d other families of one series each\n", ones }'
	echo "  cgroups with delay series: $(awk -F'"' '/^delaytop_cgroup_delay_seconds_total\{/ { print $2 }' "$last" | sort -u | wc -l)," \
		"with pressure series: $(awk -F'"' '/^delaytop_cgroup_pressure_/ { print $2 }' "$last" | sort -u | wc -l)," \
		"command names: $(awk -F'"' '/^delaytop_command_delay_seconds_total\{/ { print $2 }' "$last" | sort -u | wc -l)"
	awk -v tck="$tck" '
	function sorted(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t } }
	function pct(a, n, p,   i) { i = int(p * n + 0.999999); return a[i < 1 ? 1 : i > n ? n : i] }
	function stat(arr, k, n, f,   v, i) { for (i = 1; i <= n; i++) v[i] = arr[k, i]; sorted(v, n); return sprintf(f " (" f ".." f ")", pct(v, n, 0.5), v[1], v[n]) }
	FILENAME ~ /scrapes/ { if ($3 != 200) bad++; t[++n] = $1 * 1000; bytes += $2; next }
	FILENAME ~ /durations/ { if ($1 != "") d[++nd] = $1 * 1000; next }
	{ # phases: round kind readings main0 main1 all0 all1 t0 t1 threads
		k = $2; c = ++cnt[k]
		ms[k, c] = ($5 - $4) / $3 / 1e6; allms[k, c] = ($7 - $6) * 1000 / tck / $3; rate[k, c] = $3 / ($9 - $8)
	}
	END {
		sorted(t, n); sorted(d, nd)
		printf "scrapes: %d (%d not 200), median %.1f ms, p90 %.1f ms, max %.1f ms; %.0f bytes each\n", n, bad,
			pct(t, n, 0.5), pct(t, n, 0.9), t[n], n ? bytes / n : 0
		printf "reading duration (delaytop_reading_duration_seconds as the scrapes saw it): median %.1f ms, max %.1f ms\n",
			pct(d, nd, 0.5), d[nd]
		printf "%-9s %28s %28s %18s\n", "phase", "main thread CPU ms/reading", "process CPU ms/reading", "readings/s"
		for (i = 1; i <= 2; i++) {
			k = i == 1 ? "quiet" : "scraping"
			printf "%-9s %28s %28s %18s\n", k, stat(ms, k, cnt[k], "%.1f"), stat(allms, k, cnt[k], "%.1f"),
				stat(rate, k, cnt[k], "%.2f")
		}
		printf "target: every scrape under 50 ms (p90 %.1f ms, max %.1f ms): %s\n\n", pct(t, n, 0.9), t[n],
			t[n] < 50 ? "PASS" : "FAIL"
	}' "$tmp/scrapes.$b" "$tmp/durations.$b" "$tmp/phases.$b"
done
