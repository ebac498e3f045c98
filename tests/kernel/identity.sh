#!/bin/bash
# identity.sh — a container id a user can fake is marked with that user: in a v2 test cgroup, a
# root-owned docker-ID.scope (the system's container) and a subtree delegated to uid 65534 (made by
# root, then chowned, as systemd delegates) holding a docker-ID.scope of the same id and a
# Kubernetes pod's slice. A sleeping task in each container: JSON and CSV give the real one
# identity_uid null (empty) and the fake one 65534; the cgroup view's records give each cgroup its
# delegate (the delegated directory and all below it 65534, the one above null); the text columns
# mark the fake container and unit with ~65534; a recording replays it all; the exporter's series
# of the fake carry identity_uid="65534", the real one's none, so that summing by container_id and
# identity_uid keeps them apart (as many sums as containers), and promtool accepts the scrape.
# Every cgroup is made and removed here.
. "$top_srcdir/tests/lib.sh"

require_root
require_cmd jq python3 promtool curl awk
require_taskstats

require_v2
P=delaytop-identity-$$.slice
DID=$(printf 'fa4e1d%058x' $$) # 64 lowercase hex digits
POD_UID=5b2e9c1a-7d3f-4e6a-8b9c-$(printf '%012x' $$)
REAL=$P/docker-$DID.scope
DELEG=$P/user-65534
FAKE=$DELEG/docker-$DID.scope
FAKEPOD=$DELEG/kubepods-besteffort-pod${POD_UID//-/_}.slice
cleanup_cgroups() {
	local d
	for d in "$V2/$FAKE" "$V2/$FAKEPOD" "$V2/$DELEG" "$V2/$REAL" "$V2/$P"; do
		[ -d "$d" ] && rmdir "$d" 2>/dev/null
	done
	return 0
}
trap 'cleanup; cleanup_cgroups' EXIT
mkdir -p "$V2/$REAL" "$V2/$DELEG" || skip_all "cannot create cgroups under $V2"
chown 65534 "$V2/$DELEG" || skip_all "cannot chown a cgroup under $V2"
# what the delegate makes below is its own
mkdir "$V2/$FAKE" "$V2/$FAKEPOD" && chown 65534 "$V2/$FAKE" "$V2/$FAKEPOD" ||
	skip_all "cannot make the delegate's cgroups under $V2/$DELEG"

# in CGROUP: a sleeping task moved into $V2/CGROUP; its pid in PID.
in_cgroup() {
	start_workload sleep 600 # stopped at the end
	PID=$WORKLOAD_PID
	echo "$PID" >"$V2/$1/cgroup.procs" || skip_all "cannot move a task into $V2/$1"
}
in_cgroup "$REAL"; R=$PID
in_cgroup "$FAKE"; F=$PID
T=$TMPDIR_TEST

# JSON and CSV: the same container id, told apart by identity_uid.
"$DELAYTOP" -b -n 1 -d 0.2 -c "/$P" --format json >"$T/json" 2>"$T/json.err"
ident() { jq -r --argjson p "$2" 'select(.type == "task" and .pid == $p) | [.container_id, (.identity_uid | tostring)] | join(" ")' "$1"; }
[ "$(ident "$T/json" "$R")" = "$DID null" ]
tap_ok $? "JSON: the root-owned container's task: its id, identity_uid null" "$(ident "$T/json" "$R")" "$(head -2 "$T/json.err")"
[ "$(ident "$T/json" "$F")" = "$DID 65534" ]
tap_ok $? "JSON: the same id in the subtree delegated to 65534: identity_uid 65534" "$(ident "$T/json" "$F")"
jq -e 'select(.type == "task") | has("identity_uid")' "$T/json" >/dev/null &&
	[ "$(jq -r 'select(.type == "task") | keys_unsorted | .[-2:] | join(" ")' "$T/json" | sort -u)" = "qos identity_uid" ]
tap_ok $? "JSON: every task record has identity_uid, after the other identity fields" \
	"$(jq -r 'select(.type == "task") | keys_unsorted | .[-3:] | join(" ")' "$T/json" | sort -u)"
"$DELAYTOP" -b -n 1 -d 0.2 -c "/$P" --format csv >"$T/csv" 2>/dev/null
csvid() { python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["pid"] == sys.argv[2]:
        print(r["container_id"], r["identity_uid"] or "empty")' "$T/csv" "$1"; }
[ "$(csvid "$R")" = "$DID empty" ] && [ "$(csvid "$F")" = "$DID 65534" ]
tap_ok $? "CSV: the column identity_uid, empty for the real one, 65534 for the fake" "$(csvid "$R") / $(csvid "$F")"

# The cgroup view: each cgroup's delegate.
"$DELAYTOP" -b -n 1 -d 0.2 -c "/$P" --group cgroup --format json >"$T/cg.json" 2>/dev/null
cgid() { jq -r --arg c "/$1" 'select(.type == "cgroup" and .cgroup == $c) | [(.container_id // .pod_uid // "-"), (.identity_uid | tostring)] | join(" ")' "$2"; }
[ "$(cgid "$P" "$T/cg.json")" = "- null" ] && [ "$(cgid "$REAL" "$T/cg.json")" = "$DID null" ] &&
	[ "$(cgid "$DELEG" "$T/cg.json")" = "- 65534" ] && [ "$(cgid "$FAKE" "$T/cg.json")" = "$DID 65534" ] &&
	[ "$(cgid "$FAKEPOD" "$T/cg.json")" = "$POD_UID 65534" ]
tap_ok $? "JSON cgroup records: the real container null; the delegated directory, the fake container and pod 65534" \
	"$(for c in "$P" "$REAL" "$DELEG" "$FAKE" "$FAKEPOD"; do echo "${c##*/}: $(cgid "$c" "$T/cg.json")"; done)"

# Text: the columns mark the fake one, cut so that the mark shows whole.
"$DELAYTOP" -b -n 1 -d 0.2 -c "/$P" --columns pid,unit,container,command >"$T/text" 2>/dev/null
line() { awk -v p="$1" '$1 == p' "$T/text"; }
[ "$(line "$R" | awk '{ print $3 }')" = "docker:${DID:0:12}" ] && line "$F" | awk '{ print $2, $3 }' |
	grep -q -E "^docker-fa4e1d[0-9a-f]*~65534 docker:${DID:0:10}~65534\$"
tap_ok $? "text: UNIT and CONTAINER of the fake end in ~65534, the real one's are unmarked" "$(line "$R")" "$(line "$F")"
"$DELAYTOP" -b -n 1 -d 0.2 -c "/$P" --group cgroup >"$T/cg.txt" 2>/dev/null
grep -q "docker-$DID.scope  \\[docker:${DID:0:12}~65534\\]\$" "$T/cg.txt" &&
	grep -q "docker-$DID.scope  \\[docker:${DID:0:12}\\]\$" "$T/cg.txt"
tap_ok $? "the cgroup view's labels: [docker:ID~65534] for the fake, [docker:ID] for the real" "$(grep docker "$T/cg.txt")"

# A recording keeps it (it is not in the path).
"$DELAYTOP" -w "$T/rec" -d 0.2 -n 2 -c "/$P" </dev/null >/dev/null 2>"$T/rec.err"
"$DELAYTOP" -r "$T/rec" --format json >"$T/replay.json" 2>>"$T/rec.err"
"$DELAYTOP" -r "$T/rec" --group cgroup --format json >"$T/replay-cg.json" 2>>"$T/rec.err"
[ "$(ident "$T/replay.json" "$R" | sort -u)" = "$DID null" ] && [ "$(ident "$T/replay.json" "$F" | sort -u)" = "$DID 65534" ] &&
	[ "$(cgid "$FAKE" "$T/replay-cg.json" | sort -u)" = "$DID 65534" ] && [ "$(cgid "$REAL" "$T/replay-cg.json" | sort -u)" = "$DID null" ]
tap_ok $? "a recording replays identity_uid, of the tasks and of the cgroups" \
	"$(ident "$T/replay.json" "$F" | sort -u) / $(cgid "$FAKE" "$T/replay-cg.json" | sort -u)" "$(head -2 "$T/rec.err")"

# The exporter: identity_uid on the fake's series only; summed by container_id and identity_uid,
# the two containers stay apart.
start_exporter --readings 2 -d 0.3 -c "/$P"
tap_ok $? "the exporter answers a scrape after 2 readings" "$(head -2 "$T/exporter.err")"
m=$T/exporter.scrape
grep -q "^delaytop_cgroup_delay_seconds_total{cgroup=\"/$FAKE\",unit=\"docker-$DID.scope\",container_id=\"$DID\",identity_uid=\"65534\",kind=\"cpu\"} " "$m" &&
	grep -q "^delaytop_cgroup_delay_seconds_total{cgroup=\"/$REAL\",unit=\"docker-$DID.scope\",container_id=\"$DID\",kind=\"cpu\"} " "$m" &&
	grep -q "^delaytop_cgroup_pressure_cpu_waiting_seconds_total{cgroup=\"/$FAKE\",.*identity_uid=\"65534\"} " "$m" &&
	! grep "cgroup=\"/$REAL\"" "$m" | grep -q identity_uid && ! grep "cgroup=\"/$P\"" "$m" | grep -q identity_uid
tap_ok $? "the fake's series carry identity_uid=\"65534\", the real one's and the parent's none" \
	"$(grep -E "cgroup=\"/$P[^\"]*docker" "$m" | grep 'kind="cpu"' | head -4)"
sums=$(python3 - "$m" "$DID" <<'EOF'
import re, sys
sums = {}
for line in open(sys.argv[1]):
    if not line.startswith("delaytop_cgroup_delay_seconds_total{") or 'kind="cpu"' not in line:
        continue
    labels = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', line[line.index("{"):line.rindex("}")]))
    if labels.get("container_id") != sys.argv[2]:
        continue
    key = (labels["container_id"][:6], labels.get("identity_uid", ""))
    sums[key] = sums.get(key, 0) + float(line.split()[-1])
print(" ".join("%s/%s" % k for k in sorted(sums)))
EOF
)
[ "$sums" = "fa4e1d/ fa4e1d/65534" ]
tap_ok $? "sum by (container_id, identity_uid): two sums, the system's and the user's" "sums: $sums"
promtool check metrics <"$m" >"$T/lint" 2>&1
tap_ok $? "promtool check metrics passes" "$(head -5 "$T/lint")"

done_testing
