# tree.sh — the process tree on the screen: t shows a parent with its two children under it (their
# commands indented with "`- "), S sums the children's CPU delay onto the parent, the header says
# which, t again gives the list back; in the thread view t only says that the tree is of processes.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats
require_cpus 2
lock_global
enable_delayacct

# A parent (a shell, asleep in wait) of two spinners on CPU 1, each waiting about half the time.
wait_cpu_quiet 1
start_family 1
parent=$FAMILY_PARENT kid1=$FAMILY_KID1 kid2=$FAMILY_KID2

# sorted by command, reversed: the spinners (workload) before the shell (sh) in the list, after
# it in the tree
start_screen -- -d 0.5 -s command --reverse -p "$parent,$kid1,$kid2" --columns pid,cpu,command
# command_of ID: the command cell of the row of ID (after PID and CPU)
command_of() { row_of "$1" | cut -c"$(($(command_column) + 1))"-; }
listed() { [ -n "$(row_of "$kid2")" ] && [ -n "$(row_of "$parent")" ]; }
wait_for_screen_fn listed 10
screen_ok $? "the parent and its two spinners are listed" "$SCREEN"

keys t
tree_shown() { header | grep -q 'processes as a tree' && [ "$(row_ids | head -1)" = "$parent" ]; }
wait_for_screen_fn tree_shown 5
screen_ok $? "t: the header says 'processes as a tree', the parent comes first, its children under it" \
	"rows: $(row_ids | tr '\n' ' '); header: $(header)"
indented() {
	command_of "$kid1" | grep -q '^`- workload' && command_of "$kid2" | grep -q '^`- workload' &&
		command_of "$parent" | grep -q '^sh'
}
wait_for_screen_fn indented 3
screen_ok $? "the children's commands are indented with '\`- ', the root's not" \
	"parent: '$(command_of "$parent")', child: '$(command_of "$kid1")'"

keys S
summed() {
	local p k1 k2
	p=$(cell "$parent" CPU) k1=$(cell "$kid1" CPU) k2=$(cell "$kid2" CPU)
	header | grep -q 'subtrees summed' &&
		awk -v p="$p" -v a="$k1" -v b="$k2" 'BEGIN { exit !(a > 20 && b > 20 && p >= a + b - 1 && p <= a + b + 1) }'
}
wait_for_screen_fn summed 6
screen_ok $? "S: the parent's CPU delay is its children's summed (each spinner about 50%)" \
	"parent $(cell "$parent" CPU), children $(cell "$kid1" CPU) $(cell "$kid2" CPU); header: $(header)"

keys t
flat() { ! header | grep -q 'as a tree' && ! command_of "$kid1" | grep -q '`- ' && [ "$(row_ids | tail -1)" = "$parent" ]; }
wait_for_screen_fn flat 5
screen_ok $? "t again: a list, without indentation" "$(command_of "$kid1"); header: $(header)"

keys H
thread_rows() { header | grep -q '^threads' && [ -n "$(cell "$kid1" CPU)" ]; }
wait_for_screen_fn thread_rows 5
keys t
wait_for_screen 'the tree arranges processes' 5
screen_ok $? "in the thread view, t says that the tree is of processes" "$SCREEN"

quit_ok "q ends the screen with status 0"
kill "$kid1" "$kid2" 2>/dev/null
stop_pid "$parent"
done_testing
