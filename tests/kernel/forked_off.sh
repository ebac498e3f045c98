#!/bin/bash
# forked_off.sh — a task forked while kernel.task_delayacct was 0 never gets non-CPU delays, even
# after the switch goes on; the kernel then sends zeros that look like health. A task delaytop saw
# while the switch was off keeps its non-CPU kinds unavailable for the rest of its life, after
# the switch went on: null in JSON, empty in CSV, '-' in text and in --accumulate totals, in
# process and thread rows; its CPU delay stays a number. A task started after the switch went on
# (and after delaytop saw it on) shows real numbers in the same reports. Command mode started with
# the switch on counts CPU delay only for the records it reads after finding the switch off.
# Booted without the delayacct parameter, kthreadd (forked at boot, with the switch off) has its
# non-CPU kinds unavailable even when delaytop only ever sees the switch on.
. "$top_srcdir/tests/lib.sh"

require_root
require_cmd jq flock
require_taskstats
[ -e /proc/sys/kernel/task_delayacct ] || skip_all "this kernel has no kernel.task_delayacct"

# O_DIRECT writers wait for block I/O: they need a disk-backed directory.
WDIR=""
for d in /var/tmp /tmp; do
	case $(stat -f -c %T "$d" 2>/dev/null) in tmpfs | ramfs | "") continue ;; esac
	WDIR=$(mktemp -d "$d/delaytop-forked-off.XXXXXX") && break
done
[ -n "$WDIR" ] || skip_all "no disk-backed directory for O_DIRECT writes (/var/tmp and /tmp are tmpfs)"
trap 'cleanup; rm -rf "$WDIR"' EXIT

lock_global
set_sysctl kernel.task_delayacct 0 || skip_all "cannot set kernel.task_delayacct"

start_workload odirect "$WDIR/old"; OLD=$WORKLOAD_PID # forked while the switch is off
sleep 0.3
kill -0 "$OLD" 2>/dev/null || skip_all "O_DIRECT writes fail in $WDIR"

# Four runs at once, each with a first reading while the switch is off; 16 readings over 8 s.
T=$TMPDIR_TEST
"$DELAYTOP" -b -d 0.5 -n 16 --format json >"$T/proc.json" 2>/dev/null & J=$!
"$DELAYTOP" -b -H -d 0.5 -n 16 --format csv >"$T/thr.csv" 2>/dev/null & C=$!
"$DELAYTOP" -b -d 0.5 -n 16 --accumulate >"$T/acc.txt" 2>/dev/null & A=$!
"$DELAYTOP" -b -H -d 0.5 -n 16 --accumulate --format json >"$T/acc.json" 2>/dev/null & AJ=$!
for p in $J $C $A $AJ; do
	wait_first_reading "$p"
done
sleep 0.7 # and a report each with the switch off
OUTS="$T/proc.json $T/thr.csv $T/acc.txt $T/acc.json"
set_sysctl kernel.task_delayacct 1
ON=$(date +%s.%N)
declare -A AT_ON
for f in $OUTS; do AT_ON[$f]=$(reports_in "$f"); done
# two more reports of each run: the second read the switch on
read_on() {
	local f
	for f in $OUTS; do
		[ "$(reports_in "$f")" -ge $((AT_ON[$f] + 2)) ] || return 1
	done
}
wait_until 10 read_on
start_workload odirect "$WDIR/new"; NEW=$WORKLOAD_PID
wait $J $C $A $AJ
stop_pid "$OLD"
stop_pid "$NEW"
diag "switch on at $ON; old writer $OLD, new writer $NEW"

# JSON, process rows: every reading of the old writer after the switch went on.
old=$(jq -c --argjson p "$OLD" 'select(.type == "task" and .pid == $p)
	| [.delay.io.pct, .delay.swapin.pct, .delay.cpu.pct | type]' "$T/proc.json" | sort | uniq -c | tr -s ' \n' ' ')
n_old=$(jq -s --argjson p "$OLD" 'map(select(.type == "task" and .pid == $p)) | length' "$T/proc.json")
[ "$n_old" -ge 12 ] && [ -z "$(jq -r --argjson p "$OLD" 'select(.type == "task" and .pid == $p and
	((.delay.io.pct, .delay.io.avg_ms, .delay.io.per_s, .delay.swapin.pct, .delay.reclaim.pct) != null))
	| .pid' "$T/proc.json")" ]
tap_ok $? "JSON: the writer forked while the switch was off has null io/swapin/reclaim in every report, after the switch too" \
	"readings: $n_old (expected >= 12); [io, swapin, cpu] types: $old"
jq -e -s --argjson p "$OLD" 'map(select(.type == "task" and .pid == $p) | .delay.cpu.pct) | .[1:] | all(type == "number")' \
	"$T/proc.json" >/dev/null
tap_ok $? "JSON: its CPU delay stays a number" "types: $old"
new_io=$(jq -s --argjson p "$NEW" 'map(select(.type == "task" and .pid == $p) | .delay.io.pct) | map(select(. != null)) | max' "$T/proc.json")
# At least 1%; a wait that ends in a short interval can carry it past 100% (marked "carried").
within "${new_io:-}" 1 100000
tap_ok $? "JSON: the writer started after the switch went on shows its I/O delay" "max io pct: ${new_io:-none}"

# CSV, thread rows.
got=$(awk -F, -v old="$OLD" -v new="$NEW" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["tid"] == old { o++; if ($c["io_pct"] != "" || $c["swapin_pct"] != "") ob++ }
	$c["tid"] == new && $c["io_pct"] + 0 > 1 { nb++ }
	END { printf "%d %d %d", o, ob, nb }' "$T/thr.csv")
read -r o ob nb <<<"$got"
[ "$o" -ge 12 ] && [ "$ob" -eq 0 ]
tap_ok $? "CSV, thread rows: the old writer's io_pct and swapin_pct are empty in every report" \
	"rows $o (expected >= 12), with a value: $ob"
[ "$nb" -ge 1 ]
tap_ok $? "CSV, thread rows: the new writer's io_pct has values" "rows with io_pct above 1: $nb"

# Totals since the start, text: the last report's IO cells.
cells=$(awk -v old="$OLD" -v new="$NEW" '/^ *PID +USER/ { sub(/CPU s/, "CPUs") # one title, one field
	for (i = 1; i <= NF; i++) col[$i] = i; hdr = 1; delete seen; next }
	hdr && ($1 == old || $1 == new) { seen[$1] = $1 ":" $col["IO"] ":" $col["SWAP"] ":" $col["CPU"] }
	END { print seen[old], seen[new] }' "$T/acc.txt")
read -r c_old c_new <<<"$cells"
[[ $c_old == "$OLD:-:-:"[0-9]* ]]
tap_ok $? "--accumulate text: the old writer's IO and SWAP totals are '-', its CPU total a number" "got '$c_old'"
[[ $c_new =~ ^$NEW:[0-9.]+:[0-9.]+: ]] && [ "${c_new#*:}" != "0.00:0.00:0.00" ]
tap_ok $? "--accumulate text: the new writer's IO total is a number" "got '$c_new'"

# Totals since the start, JSON thread rows.
got=$(jq -c -s --argjson p "$OLD" --argjson q "$NEW" 'map(select(.type == "task")) |
	[(map(select(.tid == $p)) | .[-1] | [.delay.io.total_s, .delay.io.count]),
	 (map(select(.tid == $q)) | .[-1] | .delay.io.total_s | type)]' "$T/acc.json")
[ "$got" = '[[null,null],"number"]' ]
tap_ok $? "--accumulate JSON, thread rows: the old writer's io total and count are null; the new one's a number" \
	"expected [[null,null],\"number\"], got $got"

# Command mode: the command switches it off, then runs a writer forked while it is off.
set_sysctl kernel.task_delayacct 1
"$DELAYTOP" --format json -o "$T/cmd.json" -- sh -c 'sysctl -q -w kernel.task_delayacct=0 >/dev/null &&
	exec timeout 1 "$1" odirect "$2"' sh "$WORKLOAD" "$WDIR/cmd" 2>"$T/cmd.err"
got=$(jq -c '[.delay.io.total_s, .delay.io.count, (.delay.cpu.total_s | type)]' "$T/cmd.json")
[ "$got" = '[null,null,"number"]' ]
tap_ok $? "command mode: a writer forked after the command switched delay accounting off has null I/O, not 0" \
	"expected [null,null,\"number\"] as [io total_s, io count, cpu total_s type], got $got" "$(head -2 "$T/cmd.err")"

set_sysctl kernel.task_delayacct 1
if [ "$(awk '{ print $2, $4 }' /proc/2/stat)" != "(kthreadd) 0" ]; then
	diag "no boot-time check: pid 2 is not kthreadd (a pid namespace?)"
elif sed 's/ -- .*//' /proc/cmdline | tr ' ' '\n' | grep -q '^delayacct'; then
	diag "no boot-time check: booted with delayacct, so kthreadd has delay accounting"
else
	"$DELAYTOP" -b -n 1 -d 0.3 -p 2 --format json >"$T/boot.json" 2>/dev/null
	"$DELAYTOP" -b -H -n 1 -d 0.3 -p 2 --format json >>"$T/boot.json" 2>/dev/null
	got=$(jq -c -s 'map(select(.type == "task" and (.tid == null or .tid == 2)) | [.delay.io.pct, (.delay.cpu.pct | type)])' "$T/boot.json")
	[ "$got" = '[[null,"number"],[null,"number"]]' ]
	tap_ok $? "booted without delayacct: kthreadd's I/O is unavailable with the switch on, process and thread rows" \
		"expected [[null,\"number\"],[null,\"number\"]], got $got"
fi
done_testing
