#!/bin/bash
# cgroups.sh — the cgroup column, -c and the cgroup view against real cgroups. In a v2 test
# cgroup two spinners share one CPU: its row sums their CPU delay (what the kernel counted for
# them: about 100% on a quiet machine) and counts 2 running tasks, its cpu.pressure "some" is
# high, an empty sibling shows 0, not unavailable; the tasks' CGROUP is the cgroup's path; -c keeps only them; a missing -c path is
# refused with status 2; a cgroup removed while delaytop reads does no harm. Then, in a private
# mount namespace without the v2 mount (a v1 machine), the same in the name=systemd hierarchy with
# the state counts from the kernel's CGROUPSTATS. Command mode reports by cgroup when a child of
# the command moves to another. Every cgroup is made and removed here.
. "$top_srcdir/tests/lib.sh"

require_root
require_cpus 2
require_cmd jq unshare awk
require_taskstats
lock_global # the spinners load CPU 1

require_v2
NAME=delaytop-test.$$
CG=$V2/$NAME
mkdir "$CG" "$CG/a" "$CG/b" || skip_all "cannot create cgroups under $V2"
V1=$(mount_of cgroup name=systemd)
cleanup_cgroups() {
	local d
	for d in "$CG/a" "$CG/b" "$CG/gone" "$CG" ${V1:+"$V1/$NAME/a" "$V1/$NAME"}; do
		[ -d "$d" ] && rmdir "$d" 2>/dev/null
	done
	return 0
}
trap 'cleanup; cleanup_cgroups' EXIT

start_workload spin 1; A=$WORKLOAD_PID
start_workload spin 1; B=$WORKLOAD_PID
echo "$A" >"$CG/a/cgroup.procs" && echo "$B" >"$CG/a/cgroup.procs" || skip_all "cannot move tasks into $CG/a"
sleep 0.5

T=$TMPDIR_TEST
"$DELAYTOP" -b -n 3 -d 0.5 -c "/$NAME/" --format json >"$T/procs.json" 2>"$T/procs.err" 9>&- &
P=$!
follow_start "$T/cg.json" "$T/cg.err" "$A" "$B" -- "$DELAYTOP" -b -n 3 -d 0.5 --group=cgroup -c "/$NAME" --format json
{ sleep 0.2; mkdir "$CG/gone" && sleep 0.6 && rmdir "$CG/gone"; } 9>&- & # seen by one reading, gone by the next
track_pid $!
follow_reports
tap_ok "$DT_STATUS" "delaytop --group=cgroup -c /$NAME exits 0" "$(head -2 "$T/cg.err")"
wait "$P"
tap_ok $? "delaytop -c /$NAME/ (a trailing slash is fine) exits 0" "$(head -2 "$T/procs.err")"

last() { jq -c --arg t "$(jq -r 'select(.type == "psi") | .time' "$1" | tail -1)" 'select(.time == $t)' "$1"; }
last "$T/cg.json" >"$T/cg.last"
last "$T/procs.json" >"$T/procs.last"
row() { jq -c --arg p "$2" 'select(.type == "cgroup" and .cgroup == $p)' "$1"; }

a=$(row "$T/cg.last" "/$NAME/a")
bad=""
for k in 1 2 3; do
	r=$(jq -c --arg p "/$NAME/a" 'select(.type == "cgroup" and .cgroup == $p)' "$T/cg.json" | sed -n "${k}p")
	agrees_with_kernel "$(jq -r '.delay.cpu.pct' <<<"${r:-null}")" "$(jq -r '.interval_s' <<<"${r:-null}")" wait "$k" "$A" "$B" ||
		bad="$bad report $k: $AGREED;"
	[ "$k" = 3 ] && diag "cgroup a, report 3: $AGREED"
done
[ "$REPORTS" = 3 ] && [ -z "$bad" ]
tap_ok $? "cgroup a's CPU delay in each report is the sum of its two spinners' run-queue waits (schedstat)" \
	"$REPORTS reports;$bad"
[ "$(jq -r '[.tasks, .processes, .states.running, .depth] | join(" ")' <<<"$a")" = "2 2 2 1" ]
tap_ok $? "cgroup a: 2 tasks, 2 processes, 2 running, depth 1" "$a"
[ "$(jq -r '[.states.iowait, .states_from] | join(" ")' <<<"$a")" = " tasks" ]
tap_ok $? "on v2 the states come from the tasks, and I/O wait is unavailable (null)" "$a"
some=$(jq -r '.pressure.cpu_some' <<<"$a")
within "$some" 50 101
tap_ok $? "cgroup a's own cpu.pressure: some above 50% (a task always waits)" "cpu_some: $some"
top=$(row "$T/cg.last" "/$NAME")
[ "$(jq -r '[.depth, .tasks] | join(" ")' <<<"$top")" = "0 2" ] &&
	agrees_with_kernel "$(jq -r '.delay.cpu.pct' <<<"$top")" "$(jq -r '.interval_s' <<<"$top")" wait 3 "$A" "$B"
tap_ok $? "the root of the tree (-c) sums its children: depth 0, 2 tasks, the spinners' CPU delay" "$top" "$AGREED"
b=$(row "$T/cg.last" "/$NAME/b")
[ "$(jq -r '[.tasks, .delay.cpu.pct, .states.running, (.pressure.cpu_some | type)] | join(" ")' <<<"$b")" = "0 0 0 number" ]
tap_ok $? "the empty cgroup b: 0 tasks, 0% delay, 0 running, its pressure a number" "$b"
[ -z "$(jq -r 'select(.type == "cgroup") | .cgroup' "$T/cg.last" | grep -v "^/$NAME")" ]
tap_ok $? "-c: the tree holds only the cgroup and what is below it"
[ -z "$(row "$T/cg.last" "/$NAME/gone")" ]
tap_ok $? "a cgroup removed between readings drops out of the later reports"

ids=$(jq -r 'select(.type == "task") | "\(.pid) \(.cgroup)"' "$T/procs.last" | sort)
[ "$ids" = "$(printf '%s /%s/a\n%s /%s/a\n' "$A" "$NAME" "$B" "$NAME" | sort)" ]
tap_ok $? "-c keeps the two spinners, each with its cgroup path" "got: $ids"

"$DELAYTOP" -b -n 1 -d 0.1 -p "$A" 2>/dev/null | awk -v p="$A" '$1 == p' >"$T/text"
grep -q "/$NAME/a" "$T/text"
tap_ok $? "text: the CGROUP column names the cgroup" "$(cat "$T/text")"
"$DELAYTOP" -b -n 1 -d 0.1 --format csv -p "$A" >"$T/csv" 2>/dev/null
[ "$(python3 -c 'import csv,sys; r = list(csv.DictReader(open(sys.argv[1]))); print(r[-1]["cgroup"])' "$T/csv")" = "/$NAME/a" ]
tap_ok $? "CSV: the cgroup field" "$(tail -1 "$T/csv")"

"$DELAYTOP" -b -n 1 -c "/$NAME/nosuch" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "cannot read cgroup '/$NAME/nosuch'" "$T/err"
tap_ok $? "-c with a missing cgroup: status 2 and a message naming it" "status $rc: $(cat "$T/err")"

# Processes that live between two readings are known only from their exit records: they ran in
# their parent's cgroup.
sh -c "echo \$\$ >$CG/b/cgroup.procs; sleep 0.7; i=0; while [ \$i -lt 20 ]; do /bin/true; i=\$((i + 1)); sleep 0.05; done; sleep 1" \
	>/dev/null 2>&1 9>&- &
track_pid $!
"$DELAYTOP" -b -n 5 -d 0.5 --format json >"$T/short.json" 2>/dev/null
got=$(jq -r 'select(.type == "task" and .command == "true" and .exited) | .cgroup' "$T/short.json" | sort | uniq -c | tr -s ' \n' ' ')
[ -n "$got" ] && [ -z "$(jq -r 'select(.type == "task" and .command == "true" and .exited) | .cgroup' "$T/short.json" | grep -vx "/$NAME/b")" ]
tap_ok $? "short-lived children, seen only in their exit records, are in their parent's cgroup" "cgroups of the exited 'true' rows: $got"

# Without the capability the cgroup view still sums the tasks (CPU delay from /proc) and counts
# their states.
setup_nobody
follow_delaytop "$T/nobody.json" /dev/null "$A" "$B" -- \
	"${NOBODY[@]}" "$DT" -b -n 2 -d 0.5 --group=cgroup -c "/$NAME" --format json
last "$T/nobody.json" >"$T/nobody.last"
a=$(row "$T/nobody.last" "/$NAME/a")
[ "$(jq -r '.states.running' <<<"$a")" = 2 ] &&
	agrees_with_kernel "$(jq -r '.delay.cpu.pct' <<<"$a")" "$(jq -r '.interval_s' <<<"$a")" wait 2 "$A" "$B"
tap_ok $? "unprivileged, the cgroup view sums the spinners' CPU delay and counts 2 running" "$a" "$AGREED"

# Command mode: a child that moves itself into cgroup b and spins there for a second.
"$DELAYTOP" --format json -o "$T/cmd.json" -- sh -c "sh -c 'echo \$\$ >$CG/b/cgroup.procs && exec $WORKLOAD spin 0' & p=\$!; sleep 1; kill \$p; wait" 2>"$T/cmd.err"
tap_ok $? "command mode with a child that moves to another cgroup exits 0" "$(head -2 "$T/cmd.err")"
by=$(jq -c '[.by_cgroup[] | {cgroup, processes}]' "$T/cmd.json")
jq -e --arg b "/$NAME/b" '(.by_cgroup | length) >= 2 and any(.by_cgroup[]; .cgroup == $b and .processes == 1 and .delay.cpu.total_s > 0)' \
	"$T/cmd.json" >/dev/null
tap_ok $? "command mode's report has a by-cgroup table with the child in /$NAME/b" "by_cgroup: $by"
"$DELAYTOP" -o "$T/cmd.txt" -- sh -c "sh -c 'echo \$\$ >$CG/b/cgroup.procs && exec sleep 0.6' & wait" 2>/dev/null
grep -q "^/$NAME/b\$" "$T/cmd.txt" && grep -q '^CGROUP ' "$T/cmd.txt"
tap_ok $? "the text report prints the table when the run used two cgroups" "$(tail -5 "$T/cmd.txt")"

# A v1 machine: the v2 mount hidden in a private mount namespace, the name=systemd hierarchy.
if [ -z "$V1" ] || ! mkdir -p "$V1/$NAME/a"; then
	tap_skip "v1: the states from CGROUPSTATS" "needs a name=systemd cgroup v1 hierarchy to create a cgroup in"
	done_testing
fi
echo "$A" >"$V1/$NAME/a/cgroup.procs" && echo "$B" >"$V1/$NAME/a/cgroup.procs"
follow_delaytop "$T/v1.json" "$T/v1.err" "$A" "$B" -- \
	unshare -m --propagation private sh -c "umount '$V2' && exec '$DELAYTOP' -b -n 2 -d 0.5 --group=cgroup -c '/$NAME' --format json"
tap_ok "$DT_STATUS" "without the v2 mount, delaytop --group=cgroup in the name=systemd hierarchy exits 0" "$(head -2 "$T/v1.err")"
last "$T/v1.json" >"$T/v1.last"
a=$(row "$T/v1.last" "/$NAME/a")
[ "$(jq -r '[.states_from, .states.running, .states.iowait, .tasks] | join(" ")' <<<"$a")" = "cgroupstats 2 0 2" ]
tap_ok $? "v1: the states come from CGROUPSTATS: 2 running, 0 in I/O wait (a number), 2 tasks" "$a"
agrees_with_kernel "$(jq -r '.delay.cpu.pct' <<<"$a")" "$(jq -r '.interval_s' <<<"$a")" wait 2 "$A" "$B"
tap_ok $? "v1: the cgroup sums its spinners' CPU delay (their run-queue waits, schedstat)" "$a" "$AGREED"
[ "$(jq -r '.pressure.cpu_some' <<<"$a")" = "null" ]
tap_ok $? "v1: a v1 cgroup has no pressure files: null, not 0" "$a"

done_testing
