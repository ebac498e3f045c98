#!/bin/bash
# cgroups.sh — the cgroup view on the screen: g cycles processes, threads, cgroups, commands (the
# two sleepers of one name as one row, Enter showing them, Esc clearing it); the tree shows
# a test cgroup and its child indented; - hides a subtree (marked [+]) and + shows it again;
# Enter on a cgroup shows its processes and the header names it; Esc goes back to -c's cgroup. A
# cgroup named like a docker container's scope is labelled with the container; --unit keeps its
# task and the header says so.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats
require_cmd awk

require_v2
NAME=dt-screen.$$
DID=$(printf 'd5c4ee%058x' $$)
BOX=docker-$DID.scope
mkdir "$V2/$NAME" "$V2/$NAME/inner" "$V2/$NAME/inner/$BOX" || skip_all "cannot create cgroups under $V2"
trap 'screen_cleanup; cleanup; rmdir "$V2/$NAME/inner/$BOX" "$V2/$NAME/inner" "$V2/$NAME" 2>/dev/null' EXIT
bg_start S "$WORKLOAD" sleep 60
echo "$S" >"$V2/$NAME/inner/cgroup.procs" || skip_all "cannot move a task into $V2/$NAME/inner"
bg_start B "$WORKLOAD" sleep 60
echo "$B" >"$V2/$NAME/inner/$BOX/cgroup.procs" || skip_all "cannot move a task into $V2/$NAME/inner/$BOX"

SCREEN_W=160 # the CGROUP column is the first to go on a narrower one
start_screen -- -d 0.5 -c "/$NAME"
wait_for_screen '^ +PID .*CGROUP +COMMAND' 5
screen_ok $? "a screen of 160 columns shows the CGROUP column before COMMAND"
wait_for_screen "^ *$S .*/$NAME/inner " 3
screen_ok $? "-c /$NAME: the sleeper's row names its cgroup"

keys g
wait_for_screen '^ +TID ' 3
screen_ok $? "g: threads"
keys g
wait_for_screen '^ *TASKS .*CGROUP *$' 3
screen_ok $? "g again: the cgroup view, its tree name the last column"
header | grep -q 'cgroups'
screen_ok $? "the header says cgroups" "header: $(header)"
wait_for_screen "^ +2 .* $NAME\$" 3 && screen_has "^ +2 .*   inner\$"
screen_ok $? "the tree: $NAME with two tasks, inner indented under it"

keys -- -
wait_for_screen "$NAME \\[\\+\\]\$" 3 && ! screen_has 'inner$'
screen_ok $? "- on the selected cgroup hides what is below it, marked [+]"
keys +
wait_for_screen 'inner$' 3 && ! screen_has '\[\+\]'
screen_ok $? "+ shows it again"

keys Down Enter
wait_for_screen "^ *$S .*/$NAME/inner " 3
screen_ok $? "Enter on inner shows its processes"
header | grep -q "cgroup /$NAME/inner" && header | grep -q processes
screen_ok $? "the header names the cgroup opened, in the process view" "header: $(header)"
keys Escape
wait_for_screen "cgroup /$NAME( |$)" 3 && ! header | grep -q "cgroup /$NAME/inner"
screen_ok $? "Esc goes back to -c's cgroup" "header: $(header)"

# the command view: the two sleepers, both named workload, as one row
keys g g g
# the PROCS column comes at once, over the last reading's threads; the processes with the next
wait_for_screen 'processes summed by command' 5 && screen_has '^ *[▼▲]?PROCS USER .* COMMAND *$'
screen_ok $? "g after the cgroup view: the command view" "header: $(header)"
wait_for_screen '^ +2 root .* workload$' 3
screen_ok $? "the two workload sleepers of -c's cgroup as one row of 2 processes"
keys Enter
wait_for_screen "^ *$S .* workload\$" 3 && screen_has "^ *$B .* workload\$" && header | grep -q 'command workload'
screen_ok $? "Enter on it: both processes, and the header names the command" "header: $(header)"
keys Escape
wait_for_screen_not 'command workload' 3
screen_ok $? "Esc clears the command opened" "header: $(header)"

stop_screen
start_screen -- -d 0.5 -c "/$NAME" --unit 'docker-*' --columns pid,unit,container,command
wait_for_screen "^ *$B +docker-d5c4ee[0-9a-f]* +docker:${DID:0:12} " 5 && ! screen_has "^ *$S "
screen_ok $? "--unit 'docker-*' --columns pid,unit,container: the docker task with its unit and container, not the other"
header | grep -q "filter unit docker-\*"
screen_ok $? "the header names the unit filter" "header: $(header)"
keys g g
wait_for_screen "^docker-d5c4ee[0-9a-f]* +docker:${DID:0:12} +    $BOX  \\[docker:${DID:0:12}\\]\$" 5 &&
	screen_has "^- +- +   inner\$" && screen_has "^- +- +$NAME\$"
screen_ok $? "the cgroup view: the docker scope's unit, container and label, under inner and $NAME (which name none)"

done_testing
