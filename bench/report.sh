#!/bin/bash
# bench/report.sh — what the HTML report (--format html) of a day-long recording costs: time,
# memory and the page's size.
#
# bench/recsynth writes a day of readings (READINGS, 86,400 one second apart) of TASKS (1,000)
# tasks of which CHANGE (50) change at each, through the recorder that -w uses; then
# `delaytop -r FILE --format html -o PAGE` runs under /usr/bin/time -v. Targets: under 5 s (user
# and system time; the wall clock is printed too, and says more about a busy machine than about
# delaytop) and a page under 2 MB.
#
# Usage (from a build tree: make src/delaytop bench/recsynth first; no root needed):
#   bench/report.sh [PATH-TO-DELAYTOP]
# Settings from the environment: READINGS, TASKS, CHANGE, FILE (a recording to use instead of
# making one), KEEP (a directory to keep the recording and the page in).
set -u
delaytop=${1:-src/delaytop}
READINGS=${READINGS:-86400}
TASKS=${TASKS:-1000}
CHANGE=${CHANGE:-50}
recsynth=${RECSYNTH:-bench/recsynth}

[ -x "$delaytop" ] || { echo "report.sh: no delaytop at $delaytop" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "report.sh: needs /usr/bin/time (Debian's time package)" >&2; exit 1; }
dir=${KEEP:-$(mktemp -d)}
mkdir -p "$dir"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$dir"' EXIT

rec=${FILE:-$dir/day.rec}
if [ -z "${FILE:-}" ]; then
	[ -x "$recsynth" ] || { echo "report.sh: no recsynth at $recsynth (make bench/recsynth)" >&2; exit 1; }
	"$recsynth" "$rec" "$TASKS" "$CHANGE" "$READINGS" >/dev/null || exit 1
fi
echo "recording: $rec, $(stat -c %s "$rec") bytes"

/usr/bin/time -v "$delaytop" -r "$rec" --format html -o "$dir/report.html" 2>"$dir/time.txt"
status=$?
[ $status -eq 0 ] || { echo "report.sh: delaytop failed with status $status" >&2; cat "$dir/time.txt" >&2; exit 1; }
user=$(sed -n 's/^\tUser time (seconds): //p' "$dir/time.txt")
sys=$(sed -n 's/^\tSystem time (seconds): //p' "$dir/time.txt")
wall=$(sed -n 's/^\tElapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time.txt")
rss=$(sed -n 's/^\tMaximum resident set size (kbytes): //p' "$dir/time.txt")
size=$(stat -c %s "$dir/report.html")
points=$(grep -o 'data-points="[0-9]*"' "$dir/report.html" | sort -t'"' -k2 -n | tail -1)
cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')
echo "report: user $user s, system $sys s, wall $wall, max RSS $rss KB; page $size bytes, most points in a series: ${points:-none}"
ok=1
awk -v c="$cpu" 'BEGIN { exit !(c < 5) }' || { echo "report.sh: $cpu s of CPU time, above the 5 s target"; ok=0; }
[ "$size" -lt $((2 * 1024 * 1024)) ] || { echo "report.sh: the page is $size bytes, above the 2 MB target"; ok=0; }
[ $ok -eq 1 ] && echo "report.sh: within the targets (5 s, 2 MB)"
[ $ok -eq 1 ]
