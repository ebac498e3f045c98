#!/bin/bash
# identity.sh — the screen marks a container a user could have named: a root-owned
# docker-ID.scope and, in a subtree delegated to uid 65534, a docker-ID.scope of the same id, a
# sleeping task in each. The UNIT and CONTAINER cells of the fake end in ~65534 (the id cut so that
# the mark shows), the real one's are unmarked; the detail view (Enter) says who the cgroup is
# delegated to, by uid and name; the cgroup view labels the fake [docker:ID~65534]; on a screen of
# 80 columns the mark still shows. Every cgroup is made and removed here.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats
require_cmd awk getent

require_v2
NAME=dt-identity.$$
DID=$(printf '5cee1d%058x' $$)
REAL=$NAME/docker-$DID.scope
DELEG=$NAME/user-65534
FAKE=$DELEG/docker-$DID.scope
WHO=$(getent passwd 65534 | cut -d: -f1)
[ -n "$WHO" ] || skip_all "uid 65534 has no name in the user database"
mkdir -p "$V2/$REAL" "$V2/$DELEG" || skip_all "cannot create cgroups under $V2"
trap 'screen_cleanup; cleanup; rmdir "$V2/$FAKE" "$V2/$DELEG" "$V2/$REAL" "$V2/$NAME" 2>/dev/null' EXIT
chown 65534 "$V2/$DELEG" && mkdir "$V2/$FAKE" && chown 65534 "$V2/$FAKE" || skip_all "cannot delegate a cgroup under $V2"
bg_start R "$WORKLOAD" sleep 60
echo "$R" >"$V2/$REAL/cgroup.procs" || skip_all "cannot move a task into $V2/$REAL"
bg_start F "$WORKLOAD" sleep 60
echo "$F" >"$V2/$FAKE/cgroup.procs" || skip_all "cannot move a task into $V2/$FAKE"

SCREEN_W=160 # the cgroup view's line of the docker scope, with its label, is wide
start_screen -- -d 0.5 -c "/$NAME" --columns pid,unit,container,command
wait_for_screen "^ *$F +docker-5cee1d[0-9a-f]*~65534 +docker:${DID:0:10}~65534 " 5
screen_ok $? "the fake container's row: UNIT and CONTAINER end in ~65534, the id cut to keep it whole" "row: $(row_of "$F")"
screen_has "^ *$R +docker-5cee1d[0-9a-f]{7} +docker:${DID:0:12} "
screen_ok $? "the real container's row: unmarked" "row: $(row_of "$R")"
keys g g
wait_for_screen "docker-$DID\\.scope  \\[docker:${DID:0:12}~65534\\]\$" 3 &&
	screen_has "docker-$DID\\.scope  \\[docker:${DID:0:12}\\]\$"
screen_ok $? "the cgroup view: the fake labelled [docker:ID~65534], the real [docker:ID]"
stop_screen

start_screen -- -d 0.5 -p "$F"
wait_for_screen "^ *$F " 5 && keys Enter &&
	wait_for_screen "^Unit: docker-$DID\\.scope  Container: docker:${DID:0:12}\$" 3 &&
	screen_has "^Delegated to uid 65534 \\($WHO\\): a cgroup that user may name, and these names are theirs\$"
screen_ok $? "Enter: the detail view says the cgroup is delegated to uid 65534 ($WHO)"
stop_screen

SCREEN_W=80 SCREEN_H=24
start_screen -- -d 0.5 -p "$F" --columns pid,container,command
wait_for_screen "^ *$F +docker:${DID:0:10}~65534 " 5
screen_ok $? "80 columns: the CONTAINER cell keeps the mark" "row: $(row_of "$F")"
quit_ok "q quits with status 0"

done_testing
