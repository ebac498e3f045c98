#!/bin/bash
# ident.sh — which service, which container, on real tasks: in a v2 test cgroup, a task in
# web.service, one in docker-ID.scope and one in a Kubernetes pod's cri-containerd-ID.scope (the
# systemd driver's slices). The text columns UNIT and CONTAINER name them; JSON and CSV carry
# unit, container_runtime, container_id, pod_uid and qos; --unit keeps one unit (a pattern too);
# the cgroup view labels where the container and the pod begin; a recording replays with the
# fields (they are made from the path, not recorded); the exporter's cgroup series carry the
# labels unit, container_id, pod_uid and qos, no empty one, and promtool accepts the scrape. Then,
# in a private mount namespace without the v2 mount, a docker scope in the name=systemd v1
# hierarchy. Every cgroup is made and removed here.
. "$top_srcdir/tests/lib.sh"

require_root
require_cmd jq python3 promtool curl awk unshare
require_taskstats

require_v2
V1=$(mount_of cgroup name=systemd)
P=delaytop-ident-$$.slice
DID=$(printf 'd0c4e5%058x' $$)             # 64 lowercase hex digits
CID=$(printf 'c0e7a1%058x' $((2 * $$)))
POD_UID=8a5e3b1c-2d4f-4a6b-9c8d-$(printf '%012x' $$)
POD=kubepods-besteffort-pod${POD_UID//-/_}.slice
WEB=$P/web.service
DOCKER=$P/docker-$DID.scope
KUBE=$P/$POD/cri-containerd-$CID.scope
V1DOCKER=$P/v1/docker-$DID.scope # a path of its own: a reading of v2 would not give it
cleanup_cgroups() {
	local d
	for d in "$V2/$WEB" "$V2/$DOCKER" "$V2/$KUBE" "$V2/$P/$POD" "$V2/$P" \
		${V1:+"$V1/$V1DOCKER" "$V1/$P/v1" "$V1/$P"}; do
		[ -d "$d" ] && rmdir "$d" 2>/dev/null
	done
	return 0
}
trap 'cleanup; cleanup_cgroups' EXIT
mkdir -p "$V2/$WEB" "$V2/$DOCKER" "$V2/$KUBE" || skip_all "cannot create cgroups under $V2"

# in CGROUP: a sleeping task moved into $V2/CGROUP; its pid in PID.
in_cgroup() {
	start_workload sleep 600 # stopped at the end; a loaded machine may take minutes
	PID=$WORKLOAD_PID
	echo "$PID" >"$V2/$1/cgroup.procs" || skip_all "cannot move a task into $V2/$1"
}
in_cgroup "$WEB"; W=$PID
in_cgroup "$DOCKER"; D=$PID
in_cgroup "$KUBE"; K=$PID
T=$TMPDIR_TEST

# Text: the columns.
"$DELAYTOP" -b -n 1 -d 0.2 -c "/$P" --columns pid,unit,container,command >"$T/text" 2>"$T/text.err"
line() { awk -v p="$1" '$1 == p' "$T/text"; }
[ "$(line "$W" | awk '{ print $2, $3 }')" = "web.service -" ]
tap_ok $? "text: web.service's task: UNIT web.service, CONTAINER -" "$(line "$W")" "$(head -2 "$T/text.err")"
[ "$(line "$D" | awk '{ print $3 }')" = "docker:${DID:0:12}" ] && line "$D" | awk '{ print $2 }' | grep -q '^docker-d0c4e5'
tap_ok $? "text: the docker scope's task: UNIT its scope, CONTAINER docker:${DID:0:12}" "$(line "$D")"
[ "$(line "$K" | awk '{ print $3 }')" = "containerd:${CID:0:12}" ]
tap_ok $? "text: the pod's container's task: CONTAINER containerd:${CID:0:12}" "$(line "$K")"

# JSON and CSV: the fields.
"$DELAYTOP" -b -n 1 -d 0.2 -c "/$P" --format json >"$T/json" 2>"$T/json.err"
fields() { jq -r --argjson p "$2" 'select(.type == "task" and .pid == $p) | [.unit, .container_runtime, .container_id, .pod_uid, .qos] | map(. // "null") | join(" ")' "$1"; }
[ "$(fields "$T/json" "$W")" = "web.service null null null null" ]
tap_ok $? "JSON: web.service's task: unit, and null for the rest" "$(fields "$T/json" "$W")" "$(head -2 "$T/json.err")"
[ "$(fields "$T/json" "$D")" = "docker-$DID.scope docker $DID null null" ]
tap_ok $? "JSON: the docker task: its scope, docker, the whole id" "$(fields "$T/json" "$D")"
[ "$(fields "$T/json" "$K")" = "cri-containerd-$CID.scope containerd $CID $POD_UID besteffort" ]
tap_ok $? "JSON: the pod's task: its scope, containerd, the id, the pod's UID with dashes, besteffort" "$(fields "$T/json" "$K")"
"$DELAYTOP" -b -n 1 -d 0.2 -c "/$P" --format csv >"$T/csv" 2>/dev/null
got=$(python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["pid"] == sys.argv[2]:
        print(r["unit"], r["container_runtime"], r["container_id"], r["pod_uid"], r["qos"])' "$T/csv" "$K")
[ "$got" = "cri-containerd-$CID.scope containerd $CID $POD_UID besteffort" ]
tap_ok $? "CSV: the same fields by name" "$got"

# --unit: one unit's tasks, by name or pattern.
pids() { jq -r 'select(.type == "task") | .pid' "$1" | sort -n | tr '\n' ' '; }
"$DELAYTOP" -b -n 1 -d 0.2 -c "/$P" --unit 'docker-*.scope' --format json >"$T/unit.json" 2>"$T/unit.err"
[ "$(pids "$T/unit.json")" = "$D " ]
tap_ok $? "--unit 'docker-*.scope': only the docker task" "pids: $(pids "$T/unit.json") $(head -2 "$T/unit.err")"
"$DELAYTOP" -b -n 1 -d 0.2 --unit web.service --format json >"$T/web.json" 2>/dev/null
[ "$(pids "$T/web.json")" = "$W " ]
tap_ok $? "--unit web.service (no -c): only the web task" "pids: $(pids "$T/web.json")"

# The cgroup view: the labels where the container and the pod begin, the fields of each cgroup.
"$DELAYTOP" -b -n 1 -d 0.2 -c "/$P" --group cgroup >"$T/cg.txt" 2>/dev/null
grep -q "docker-$DID.scope  \[docker:${DID:0:12}\]\$" "$T/cg.txt" &&
	grep -q "$POD  \[pod $POD_UID, besteffort\]\$" "$T/cg.txt" &&
	grep -q "cri-containerd-$CID.scope  \[containerd:${CID:0:12}\]\$" "$T/cg.txt" &&
	grep -q ' web.service$' "$T/cg.txt"
tap_ok $? "the cgroup view labels the docker scope, the pod's slice and its container; not web.service" \
	"$(grep -E 'docker|pod|web' "$T/cg.txt")"
"$DELAYTOP" -b -n 1 -d 0.2 -c "/$P" --group cgroup --format json >"$T/cg.json" 2>/dev/null
got=$(jq -r --arg c "/$P/$POD" 'select(.type == "cgroup" and .cgroup == $c) | [.unit, .container_id, .pod_uid, .qos] | map(. // "null") | join(" ")' "$T/cg.json")
[ "$got" = "$POD null $POD_UID besteffort" ]
tap_ok $? "JSON cgroup record: the pod's slice names the pod, no container" "$got"

# A recording replays with the fields: they are made from the cgroup path.
"$DELAYTOP" -w "$T/rec" -d 0.2 -n 2 -c "/$P" </dev/null >/dev/null 2>"$T/rec.err"
"$DELAYTOP" -r "$T/rec" --format json >"$T/replay.json" 2>>"$T/rec.err"
[ "$(fields "$T/replay.json" "$D" | sort -u)" = "docker-$DID.scope docker $DID null null" ]
tap_ok $? "a recording replays the docker task with its fields" "$(fields "$T/replay.json" "$D")" "$(head -2 "$T/rec.err")"

# The exporter: the labels, none empty, the same number of series as without them, promtool.
start_exporter --readings 2 -d 0.3 -c "/$P"
tap_ok $? "the exporter answers a scrape after 2 readings" "$(head -2 "$T/exporter.err")"
m=$T/exporter.scrape
grep -q "^delaytop_cgroup_delays_total{cgroup=\"/$KUBE\",unit=\"cri-containerd-$CID.scope\",container_id=\"$CID\",pod_uid=\"$POD_UID\",qos=\"besteffort\",kind=\"cpu\"} " "$m" &&
	grep -q "^delaytop_cgroup_delays_total{cgroup=\"/$DOCKER\",unit=\"docker-$DID.scope\",container_id=\"$DID\",kind=\"cpu\"} " "$m" &&
	grep -q "^delaytop_cgroup_delays_total{cgroup=\"/$WEB\",unit=\"web.service\",kind=\"cpu\"} " "$m" &&
	grep -q "^delaytop_cgroup_pressure_cpu_waiting_seconds_total{cgroup=\"/$DOCKER\",unit=\"docker-$DID.scope\",container_id=\"$DID\"} " "$m"
tap_ok $? "the cgroup series carry unit, container_id, pod_uid and qos where known" "$(grep "cgroup=\"/$P" "$m" | grep 'kind="cpu"' | head -5)"
! grep -q '=""' "$m"
tap_ok $? "no label is empty" "$(grep '=""' "$m" | head -3)"
a=$(grep -c "^delaytop_cgroup_[a-z_]*{cgroup=\"/$P" "$m")
b=$(grep "^delaytop_cgroup_[a-z_]*{cgroup=\"/$P" "$m" | sed -E 's/,(unit|container_id|pod_uid|qos)="[^"]*"//g' | awk '{ print $1 }' | sort -u | wc -l)
[ "$a" -gt 0 ] && [ "$a" -eq "$b" ]
tap_ok $? "the labels add no series: as many series as without them" "$a series, $b without the labels"
promtool check metrics <"$m" >"$T/lint" 2>&1
tap_ok $? "promtool check metrics passes" "$(head -5 "$T/lint")"

# v1: the name=systemd hierarchy, without any v2 mount (every one unmounted in a private mount
# namespace: a bind mount of it elsewhere would do as well as the first).
if [ -z "$V1" ] || ! mkdir -p "$V1/$V1DOCKER"; then
	tap_skip "v1: a docker scope's task" "needs a name=systemd cgroup v1 hierarchy to create a cgroup in"
	done_testing
fi
echo "$D" >"$V1/$V1DOCKER/cgroup.procs"
V2ALL=$(awk '{ for (i = 7; $i != "-"; i++); if ($(i + 1) == "cgroup2") print $5 }' /proc/self/mountinfo | sort -r | tr '\n' ' ')
unshare -m --propagation private sh -c "umount $V2ALL && exec '$DELAYTOP' -b -n 1 -d 0.2 -c '/$P' --format json" \
	>"$T/v1.json" 2>"$T/v1.err"
got=$(jq -r --argjson p "$D" 'select(.type == "task" and .pid == $p) | [.cgroup, .unit, .container_runtime, .container_id] | join(" ")' "$T/v1.json")
[ "$got" = "/$V1DOCKER docker-$DID.scope docker $DID" ]
tap_ok $? "v1 (name=systemd): the docker task's path, unit and container" "$got" "$(head -2 "$T/v1.err")"
echo "$D" >"$V1/cgroup.procs"

done_testing
