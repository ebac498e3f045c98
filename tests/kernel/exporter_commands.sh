#!/bin/bash
# exporter_commands.sh — on a host full of tasks that do not wait (the kernel's threads, and 40
# sleeping processes of distinct names started first), the exporter's 20 command series (the
# default --top-commands) go to commands that wait, among them two spinners sharing CPU 1 (dtspin,
# CPU delay) and an O_DIRECT writer (dtwrite, block I/O delay). The sleepers have none, _other is
# there, the waiters keep their series from scrape to scrape, no command counter goes down, and
# dtspin's series counts what the spinners' own schedstat says they waited. (20, not fewer: on a
# machine shared with compiles, a few series may rightly go to cc1, ld or sh, which wait more.)
. "$top_srcdir/tests/lib.sh"

require_root
require_cpus 2
require_cmd curl awk
require_taskstats
lock_global # the spinners load CPU 1, the writer the disk
enable_delayacct # before the writer starts: its I/O delay is counted only then

T=$TMPDIR_TEST
DIR=$(disk_dir)
[ -n "$DIR" ] || skip_all "no disk-backed writable directory for the O_DIRECT writer"
WDIR=$(mktemp -d "$DIR/delaytop-cmds.XXXXXX") || skip_all "cannot create a directory in $DIR"
trap 'cleanup; rm -rf "$WDIR"' EXIT

# A task's command name is the name of the file it runs: links to the workload, one per name.
WL=$(cd "$(dirname "$WORKLOAD")" && pwd)/$(basename "$WORKLOAD")
mkdir "$T/bin"
run_as() { # run_as NAME ARGS...: the workload as NAME, tracked
	ln -sf "$WL" "$T/bin/$1"
	"$T/bin/$1" "${@:2}" >/dev/null 2>&1 9>&- &
	track_pid $!
	LAST=$!
}

for i in $(seq -w 0 39); do
	run_as "dtidle-$i" sleep 600
done
wait_cpu_quiet 1
run_as dtspin spin 1; S1=$LAST
run_as dtspin spin 1; S2=$LAST
run_as dtwrite odirect "$WDIR/data"; W=$LAST
sleep 0.3
kill -0 "$W" 2>/dev/null || skip_all "O_DIRECT writes fail on $DIR ($(stat -f -c %T "$DIR"))"
wait_until 5 comm_is "$S1" dtspin || skip_all "a link does not name the task here: $(cat /proc/$S1/comm)"

w0=$(($(schedstat_wait "$S1") + $(schedstat_wait "$S2")))
start_exporter --readings 4 -d 0.5 || skip_all "the exporter did not answer: $(head -2 "$T/exporter.err")"

# series FILE: "name kind value" for each command series of FILE.
series() {
	sed -n 's/^delaytop_command_delay_seconds_total{command="\(.*\)",kind="\([a-z]*\)"} \(.*\)$/\1 \2 \3/p' "$1"
}
# value FILE NAME KIND: that series' value, nothing when it has none.
value() { series "$1" | awk -v n="$2" -v k="$3" '$1 == n && $2 == k { print $3 }'; }

# five scrapes 0.6 s apart, the first of them start_exporter's
cp "$T/exporter.scrape" "$T/m1"
for i in 2 3 4 5; do
	sleep 0.6
	curl -sf -o "$T/m$i" "$URL"
done
w1=$(($(schedstat_wait "$S1") + $(schedstat_wait "$S2")))
names=$(series "$T/m5" | awk '{ print $1 }' | sort -u | tr '\n' ' ')
diag "command series: $names"

spin=$(value "$T/m5" dtspin cpu)
within "$spin" 0.000001 1e9
tap_ok $? "the spinners sharing a CPU have a series of their own (dtspin)" "dtspin: '${spin}'; series: $names"
io=$(value "$T/m5" dtwrite io)
within "$io" 0.000001 1e9
tap_ok $? "the O_DIRECT writer has one, with its I/O delay (dtwrite)" "dtwrite io: '${io}'; series: $names"
idle=$(series "$T/m5" | awk '$1 ~ /^dtidle-/ { print $1 }' | sort -u | tr '\n' ' ')
[ -z "$idle" ] && [ "$(pgrep -c -f "$T/bin/dtidle-")" -eq 40 ]
tap_ok $? "none of the 40 sleepers started before them has one" "sleepers with series: $idle"
n=$(series "$T/m5" | awk '{ print $1 }' | sort -u | wc -l)
[ -n "$(value "$T/m5" _other cpu)" ] && [ "$n" -le 21 ]
tap_ok $? "_other is there, and 20 names beside it at most" "$n label values: $names"

missing=""
for i in 2 3 4 5; do
	for c in dtspin:cpu dtwrite:io; do
		[ -n "$(value "$T/m$i" "${c%:*}" "${c#*:}")" ] || missing="$missing ${c%:*}@scrape$i"
	done
done
[ -z "$missing" ]
tap_ok $? "the waiters keep their series from scrape to scrape" "missing:$missing"

down=""
for i in 2 3 4 5; do
	down="$down$(awk 'NR == FNR { if ($1 ~ /^delaytop_command_/) v[$1] = $2; next }
		($1 in v) && $2 + 0 < v[$1] + 0 { printf " %s %s -> %s;", $1, v[$1], $2 }' "$T/m$((i - 1))" "$T/m$i")"
done
[ -z "$down" ]
tap_ok $? "no command counter went down across the scrapes" "$down"

# dtspin's series counts every wait of the spinners from the exporter's first reading to its
# reading before the last scrape: a little less than what schedstat counted over the whole run.
ratio=$(awk -v s="$spin" -v a="$w0" -v b="$w1" 'BEGIN { if (s == "" || b <= a) print ""; else printf "%.3f", s * 1e9 / (b - a) }')
within "$ratio" 0.5 1.02
tap_ok $? "dtspin's series is what the spinners waited by their schedstat (0.5 to 1.02 of the run's)" \
	"dtspin $spin s; schedstat $(((w1 - w0) / 1000000)) ms; ratio '$ratio'"
done_testing
