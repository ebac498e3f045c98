#!/bin/bash
# zombies.sh — a process that ended but is still listed in /proc (a zombie whose parent does not
# wait for it) is shown once, as exited, from its exit record, and never again as a live task:
# not as a fresh row of its own, not with zeros. Both for a child delaytop saw running and for
# one born and gone within one interval; in process and in thread mode.
. "$top_srcdir/tests/lib.sh"

require_root
require_cmd jq
require_taskstats
lock_global # the children are busy on CPU 0

T=$TMPDIR_TEST
"$DELAYTOP" -b -d 0.5 -n 8 --format json >"$T/proc.json" 2>"$T/proc.err" &
P=$!
"$DELAYTOP" -b -H -d 0.5 -n 8 --format json >"$T/thr.json" 2>"$T/thr.err" &
H=$!
track_pid "$P"
track_pid "$H"
wait_first_reading "$P" && wait_first_reading "$H" # the children start in a run's interval
# The first child runs 1.2 s, read alive twice or more; the second, 1.5 s in, lives 0.15 s.
"$WORKLOAD" zombies 1200 1500 150 >"$T/pids" 2>/dev/null 9>&- &
W=$!
track_pid "$W"
wait "$P" "$H"
mapfile -t kids <"$T/pids"
states=""
for k in "${kids[@]}"; do
	states="$states $(awk '{ print $3 }' "/proc/$k/stat" 2>/dev/null)"
done
stop_pid "$W"
[ "${#kids[@]}" -eq 2 ] && [ "$states" = " Z Z" ]
tap_ok $? "the workload's two children are zombies when delaytop ends" "children: ${kids[*]}; states:$states"

# rows FILE FIELD ID: the task rows of ID in time order, as "exited state" lines.
rows() {
	jq -r --arg f "$2" --argjson id "$3" 'select(.type == "task" and .[$f] == $id) | "\(.exited) \(.state)"' "$1"
}
for mode in proc:pid thr:tid; do
	file=$T/${mode%%:*}.json field=${mode#*:}
	for i in 0 1; do
		got=$(rows "$file" "$field" "${kids[$i]}" | tr '\n' ',')
		exited=$(rows "$file" "$field" "${kids[$i]}" | grep -c '^true')
		after=$(rows "$file" "$field" "${kids[$i]}" | sed -n '/^true/,$p' | tail -n +2 | wc -l)
		[ "$exited" -eq 1 ] && [ "$after" -eq 0 ]
		tap_ok $? "${mode%%:*} mode, child $((i + 1)): one exited row and no row after it" \
			"rows (exited state) in time order: $got"
	done
	alive=$(rows "$file" "$field" "${kids[0]}" | grep -c '^false')
	[ "$alive" -ge 1 ]
	tap_ok $? "${mode%%:*} mode: the first child was read while it ran (the check above can fail)" \
		"rows while it ran: $alive"
done

done_testing
