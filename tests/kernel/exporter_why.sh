#!/bin/bash
# exporter_why.sh — the exporter with --why on the real kernel: two spinners pinned to one CPU in
# a cgroup of their own have delaytop_cgroup_wait_seconds histograms of kind cpu there; the buckets
# are cumulative, rise with le to +Inf, only grow from scrape to scrape, and _count is the +Inf
# bucket; what _sum grew between two scrapes is the spinners' run-queue wait the kernel counted
# (/proc/PID/schedstat field 2) over the same interval within 20%, and the exporter's own CPU
# delay counter for the cgroup over it within 20%; the HELP says blocked is not a delay;
# promtool check metrics passes; without --why there is no such series.
. "$top_srcdir/tests/lib.sh"

require_root
require_cpus 2
require_cmd curl awk jq promtool python3
require_taskstats

# Skips only where the eBPF side cannot run at all: a build without it, a kernel without BTF.
require_why --loose # and the global lock, which the spinners below want too

require_v2
NAME=delaytop-expwhy.$$
mkdir "$V2/$NAME" || skip_all "cannot create a cgroup under $V2"
trap 'cleanup; rmdir "$V2/$NAME" 2>/dev/null' EXIT
T=$TMPDIR_TEST
H=delaytop_cgroup_wait_seconds
CG="cgroup=\"/$NAME\""

wait_cpu_quiet 1
start_workload spin 1; A=$WORKLOAD_PID
start_workload spin 1; B=$WORKLOAD_PID
echo "$A" >"$V2/$NAME/cgroup.procs" && echo "$B" >"$V2/$NAME/cgroup.procs" || skip_all "cannot move tasks into $V2/$NAME"

start_exporter --readings 2 -d 0.5 --why
tap_ok $? "the exporter with --why answers" "stderr: $(head -3 "$T/exporter.err")"
scrape_reading "$T/s1" "$A" "$B"
LO1=$SCRAPE_LO HI1=$SCRAPE_HI
sleep 6
scrape_reading "$T/s2" "$A" "$B"
tap_ok $? "two scrapes of different readings" "stderr: $(head -3 "$T/exporter.err")"
LO2=$SCRAPE_LO HI2=$SCRAPE_HI

# value FILE SERIES: the sample of SERIES (name and labels, exactly) in FILE, or nothing.
value() { awk -v s="$2" 'substr($0, 1, length(s) + 1) == s " " { print $NF; exit }' "$1"; }
# buckets FILE: "le count" of the cgroup's cpu buckets, in the exposition's order.
buckets() {
	grep "^${H}_bucket{$CG,kind=\"cpu\",le=" "$1" | sed -E 's/.*,le="([^"]*)"} (.*)/\1 \2/'
}

buckets "$T/s2" >"$T/b2"
buckets "$T/s1" >"$T/b1"
n=$(wc -l <"$T/b2")
[ "$n" -ge 10 ] && [ "$n" -le 12 ] && [ "$(tail -1 "$T/b2" | cut -d' ' -f1)" = +Inf ]
tap_ok $? "the spinners' cgroup has a cpu histogram of 10 to 12 buckets, +Inf the last ($n)" \
	"$(grep -m 3 "$H" "$T/s2")" "stderr: $(head -2 "$T/exporter.err")"
awk 'NR > 1 && ($1 != "+Inf" && $1 + 0 <= le || $2 + 0 < c) { bad = 1 } { le = $1 + 0; c = $2 + 0 } END { exit bad || NR == 0 }' "$T/b2"
tap_ok $? "its buckets are cumulative: le rises and so do the counts" "$(tr '\n' ' ' <"$T/b2")"
inf=$(tail -1 "$T/b2" | cut -d' ' -f2)
count=$(value "$T/s2" "${H}_count{$CG,kind=\"cpu\"}")
[ -n "$count" ] && [ "$count" = "$inf" ] && [ "$count" -gt 0 ]
tap_ok $? "_count is the +Inf bucket ($count)" "_count ${count:-none}, +Inf ${inf:-none}"
paste -d' ' "$T/b1" "$T/b2" | awk 'NF != 4 || $1 != $3 || $4 + 0 < $2 + 0 { bad = 1 } END { exit bad || NR == 0 }'
tap_ok $? "from one scrape to the next every bucket only grew" "$(paste -d' ' "$T/b1" "$T/b2" | tr '\n' ';')"

# What _sum grew, against the kernel's run-queue wait of the spinners over the same readings: the
# first scrape's reading came from between its marks LO1 and HI1, the second's between LO2 and
# HI2, so the growth lies between the kernel's from HI1 to LO2 and from LO1 to HI2.
sum1=$(value "$T/s1" "${H}_sum{$CG,kind=\"cpu\"}")
sum2=$(value "$T/s2" "${H}_sum{$CG,kind=\"cpu\"}")
d1=$(value "$T/s1" "delaytop_cgroup_delay_seconds_total{$CG,kind=\"cpu\"}")
d2=$(value "$T/s2" "delaytop_cgroup_delay_seconds_total{$CG,kind=\"cpu\"}")
grew=$(awk -v a="$sum1" -v b="$sum2" 'BEGIN { if (a != "" && b != "") printf "%.4f", b - a }')
lo=$(marked wait "$HI1" "$LO2" "$A" "$B")
hi=$(marked wait "$LO1" "$HI2" "$A" "$B")
within "${grew:-x}" "$(awk -v v="$lo" 'BEGIN { print v / 1000 * 0.8 - 0.01 }')" \
	"$(awk -v v="$hi" 'BEGIN { print v / 1000 * 1.2 + 0.01 }')" && [ -n "$lo" ] && [ -n "$hi" ]
tap_ok $? "_sum grew by the spinners' run-queue wait of the kernel (schedstat) within 20% (${grew:-?} s; the kernel ${lo:-?}..${hi:-?} ms)" \
	"_sum ${sum1:-none} -> ${sum2:-none}"
delay=$(awk -v a="$d1" -v b="$d2" 'BEGIN { if (a != "" && b != "") printf "%.4f", b - a }')
within "${grew:-x}" "$(awk -v v="$delay" 'BEGIN { print v * 0.8 - 0.01 }')" "$(awk -v v="$delay" 'BEGIN { print v * 1.2 + 0.01 }')" &&
	[ -n "$delay" ]
tap_ok $? "and by the exporter's own CPU delay counter of the cgroup within 20% (${delay:-?} s)" \
	"delaytop_cgroup_delay_seconds_total ${d1:-none} -> ${d2:-none}"
diag "over the second interval: _sum grew ${grew:-?} s, the CPU delay counter ${delay:-?} s, schedstat ${lo:-?}..${hi:-?} ms; $count waits"

grep -q "^# HELP $H .*blocked (.*), which is not a delay" "$T/s2" && grep -q "^# TYPE $H histogram$" "$T/s2"
tap_ok $? "a histogram family whose HELP says blocked is not a delay" "$(grep "^# [A-Z]* $H " "$T/s2")"
promtool check metrics <"$T/s2" >"$T/lint" 2>&1
tap_ok $? "promtool check metrics passes" "$(head -5 "$T/lint")"
kinds=$(grep "^${H}_count{" "$T/s2" | sed -E 's/.*kind="([^"]*)".*/\1/' | sort -u | tr '\n' ' ')
measured=$(jq -r 'select(.type == "psi") | .why.kinds | join(" ")' "$T/probe.json" 2>/dev/null | tail -1)
bad=$(for k in $kinds; do case " $measured " in *" $k "*) ;; *) echo "$k" ;; esac; done)
[ -n "$kinds" ] && [ -z "$bad" ]
tap_ok $? "only measured kinds have histograms ($kinds; measured: $measured)" "not measured: $bad"

kill -TERM "$EXPORTER_PID"
wait "$EXPORTER_PID" 2>/dev/null
start_exporter --readings 2 -d 0.5
tap_ok $? "the exporter without --why answers" "stderr: $(head -3 "$T/exporter.err")"
grep -q "^delaytop_cgroup_delay_seconds_total{$CG,kind=\"cpu\"}" "$T/exporter.scrape" && ! grep -q "$H" "$T/exporter.scrape"
tap_ok $? "without --why: the cgroup's delay series, no wait histogram" "$(grep -m 2 -e "$H" -e "{$CG" "$T/exporter.scrape")"

done_testing
