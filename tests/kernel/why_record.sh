#!/bin/bash
# why_record.sh — --why's waits in a recording (format 1.3 on): two spinners sharing one CPU,
# recorded while printed; the replay's JSON and CSV (the task, thread and cgroup views) are byte
# for byte what the live run printed, "why" and its histograms included; a recording without
# --why replays with "why": null; the file says format 1.4 and names the kinds of its waits.
. "$top_srcdir/tests/lib.sh"

require_root
require_cpus 2
require_cmd jq
require_taskstats

require_why # and the global lock, which the spinners below want too
enable_delayacct
wait_cpu_quiet 1
start_workload spin 1; A=$WORKLOAD_PID
start_workload spin 1; B=$WORKLOAD_PID
sleep 0.3
T=$TMPDIR_TEST

# without_stacks: the JSON lines on stdin without the off-CPU stacks that -p makes the live run
# take ("stacks": null or [...], and "stacks_not_fitted_total"), which recordings do not keep;
# the rest of each line byte for byte.
without_stacks() {
	python3 -c '
import re, sys
KEY = ",\"stacks\":"
def value_end(line, j):
    if line.startswith("null", j):
        return j + 4
    depth, instr, k = 0, False, j
    while k < len(line):
        c = line[k]
        if instr:
            if c == "\\":
                k += 1
            elif c == "\"":
                instr = False
        elif c == "\"":
            instr = True
        elif c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
            if depth == 0:
                return k + 1
        k += 1
    return k
def cut(line):
    line = re.sub(r",\"stacks_not_fitted_total\":[0-9]+", "", line)
    out, at = [], 0
    while (i := line.find(KEY, at)) >= 0:
        out.append(line[at:i])
        at = value_end(line, i + len(KEY))
    return "".join(out) + line[at:]
for line in sys.stdin:
    sys.stdout.write(cut(line))
'
}

# live NAME ARGS...: a live run printed and recorded; its replay printed the same way (without
# -H: a replay shows the rows as recorded). The stacks are left out of the comparison on both
# sides: a recording keeps them only with a trigger's event, and its replay has "stacks": null
# (checked below).
live() {
	local n=$1 a replay=(); shift
	for a in "$@"; do [ "$a" = -H ] || replay+=("$a"); done
	"$DELAYTOP" -b --why -n 3 -d 0.5 -w "$T/$n.rec" "$@" >"$T/$n.out" 2>"$T/$n.err"
	without_stacks <"$T/$n.out" >"$T/$n.live"
	"$DELAYTOP" -r "$T/$n.rec" -b "${replay[@]}" >"$T/$n.raw" 2>"$T/$n.rerr"
	without_stacks <"$T/$n.raw" >"$T/$n.replay"
	cmp -s "$T/$n.live" "$T/$n.replay"
	tap_ok $? "$n: the replay is byte for byte what the live run printed" \
		"$(diff "$T/$n.live" "$T/$n.replay" | head -6 | cut -c1-300)" "stderr: $(head -2 "$T/$n.rerr")"
}
live json --format json -p "$A,$B"
live csv --format csv -p "$A,$B"
live threads --format json -H -p "$A,$B"
live cgroup --format json --group=cgroup
grep -q '"stacks":\[' "$T/json.out" && grep -q '"stacks":null' "$T/json.raw" && ! grep -q '"stacks":\[' "$T/json.raw"
tap_ok $? "the live run chose its tasks' stacks; the recording keeps none without a trigger's event: its replay shows \"stacks\": null" \
	"live: $(grep -c '"stacks":\[' "$T/json.out") lines with stacks; replay: $(grep -c '"stacks":\[' "$T/json.raw") with, $(grep -c '"stacks":null' "$T/json.raw") null"

# the histograms are there, not "why": null on both sides
n=$(jq -s --argjson p "$A" '[.[] | select(.type == "task" and .pid == $p and .why.latency.cpu.count > 0)
	| select(([.why.latency.cpu.buckets[][1]] | add) == .why.latency.cpu.count)] | length' "$T/json.replay")
[ "$n" = 3 ]
tap_ok $? "the replay has spinner A's run-queue histogram in each of the 3 reports, its buckets adding up" "got $n" \
	"A's records: $(jq -c --argjson p "$A" 'select(.type == "task" and .pid == $p) | [.state, .why.latency.cpu.count]' "$T/json.replay" | tr '\n' ' ')"
n=$(jq -s '[.[] | select(.type == "cgroup" and .why != null and .why.latency.cpu.count > 0)] | length' "$T/cgroup.replay")
[ "$n" -ge 3 ]
tap_ok $? "the replay's cgroups have their waits summed ($n records with run-queue waits)"
grep -a -q '^format 1\.4$' "$T/json.rec" && grep -a -q '^waits cpu io .* blocked$' "$T/json.rec"
tap_ok $? "the file says format 1.4 and the kinds of its waits"

# without --why: no section, "why": null
"$DELAYTOP" -b --format json -n 2 -d 0.3 -p "$A" -w "$T/plain.rec" >/dev/null 2>&1
"$DELAYTOP" -r "$T/plain.rec" -b --format json >"$T/plain.replay" 2>"$T/plain.rerr"
h=$(jq -r 'select(.type == "psi") | .why' "$T/plain.replay" | sort -u | tr '\n' ' ')
t=$(jq -s '[.[] | select(.type == "task" and .why != null)] | length' "$T/plain.replay")
[ "$h" = "null " ] && [ "$t" = 0 ]
tap_ok $? "a recording without --why replays with \"why\": null" "header: '$h', tasks with a why: $t"

stop_pid "$A"
stop_pid "$B"
done_testing
