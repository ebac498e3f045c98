#!/bin/bash
# exporter_labels.sh — names that sanitising would make alike stay apart in /metrics: cgroups
# named tab<TAB>x, tab?x and b<0xff>c, processes named x<TAB>y, x?y, z<0xff>z and _other (the
# others' label value). No series appears twice, the names are told apart, and promtool check
# metrics passes.
. "$top_srcdir/tests/lib.sh"

require_root
require_cmd curl python3 promtool awk
require_taskstats

require_v2
P=delaytop-labels.$$
NAMES=($'tab\tx' 'tab?x' $'b\xffc')
mkdir "$V2/$P" || skip_all "cannot create a cgroup under $V2"
for n in "${NAMES[@]}"; do mkdir "$V2/$P/$n" || skip_all "cannot create a cgroup named $(printf %q "$n")"; done
finish() {
	cleanup
	for n in "${NAMES[@]}"; do rmdir "$V2/$P/$n"; done 2>/dev/null
	rmdir "$V2/$P" 2>/dev/null
}
trap finish EXIT
T=$TMPDIR_TEST

# name CGROUP COMM: a process in CGROUP named COMM for 20 s, waking every 10 ms: it waits a little
# for a CPU at each wake-up, so that its name, like any that waits, takes a series.
name() {
	python3 -c 'import sys, time
open(sys.argv[1] + "/cgroup.procs", "w").write("0")
open("/proc/self/comm", "wb").write(sys.argv[2].encode("utf-8", "surrogateescape"))
end = time.time() + 20
while time.time() < end:
    time.sleep(0.01)' "$1" "$2" 9>&- &
	track_pid $!
}
name "$V2/$P/${NAMES[0]}" $'x\ty'
name "$V2/$P/${NAMES[1]}" 'x?y'
name "$V2/$P/${NAMES[2]}" $'z\xffz'
name "$V2/$P/${NAMES[2]}" '_other'

start_exporter --readings 3 --top-commands 100000 -d 0.5
cp "$T/exporter.scrape" "$T/m" 2>/dev/null

dups=$(grep -v '^#' "$T/m" | awk '{ $NF = ""; print }' | sort | uniq -d | head -3)
[ -s "$T/m" ] && [ -z "$dups" ]
tap_ok $? "no series appears twice" "$dups" "$(head -2 "$T/exporter.err")"
n=$(grep "^delaytop_cgroup_delays_total{cgroup=\"/$P/" "$T/m" | sed 's/,kind=.*//' | sort -u | wc -l)
[ "$n" -eq 3 ]
tap_ok $? "the three cgroups have series of their own (3 label values)" "$n: $(grep "cgroup=\"/$P/" "$T/m" | head -5)"
grep -q '^delaytop_command_delays_total{command="__other",' "$T/m" &&
	[ "$(grep -c '^delaytop_command_delays_total{command="x.*y",kind="cpu"}' "$T/m")" -eq 2 ] &&
	grep -q $'^delaytop_command_delays_total{command="x\xef\xbf\xbd09y",kind="cpu"}' "$T/m" &&
	grep -q $'^delaytop_command_delays_total{command="z\xef\xbf\xbdFFz",kind="cpu"}' "$T/m"
tap_ok $? "a process named _other is __other; x<TAB>y and x?y apart; z<0xff>z as z, U+FFFD, FF, z" \
	"$(grep '^delaytop_command_delays_total{command="\(x\|_\)' "$T/m" | head -5)"
promtool check metrics <"$T/m" >"$T/lint" 2>&1
tap_ok $? "promtool check metrics passes" "$(head -5 "$T/lint")"
done_testing
