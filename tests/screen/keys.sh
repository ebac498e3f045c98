# keys.sh — the screen's keys: < and > move the sort marker (over the columns of the view), r reverses a known order, / filters
# by command and Esc clears it, H shows threads, ? shows the help, m cycles the metric, a hides
# idle rows, z pauses, d checks the interval, Ctrl-T switches kernel.task_delayacct after a
# confirmation, q quits with status 0.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats
require_cpus 2
lock_global
enable_delayacct
diag "got the global lock after ${SECONDS} s"
LOCKED_AT=$SECONDS

# Four processes under a name of their own (comm is the executable's name): three threads
# spinning on CPU 1 (~200% CPU delay), two spinners on CPU 0 (~50% each), one sleeper (0%).
NAME=dtk$$
ln -s "$WORKLOAD" "$TMPDIR_TEST/$NAME"
bg_start HEAVY "$TMPDIR_TEST/$NAME" threads 3 1
bg_start SPIN1 "$TMPDIR_TEST/$NAME" spin 0
bg_start SPIN2 "$TMPDIR_TEST/$NAME" spin 0
bg_start IDLE "$TMPDIR_TEST/$NAME" sleep 60
OURS=$(printf '%s\n' "$HEAVY" "$SPIN1" "$SPIN2" "$IDLE" | sort -n)

# The default columns, CGROUP among them, named: on a host where every task is in the v2 root the
# default leaves CGROUP out (tests/screen/hybrid.sh), and the steps below pass over it.
start_screen -- -d 0.5 --columns pid,user,state,pcpu,cpu,io,swapin,reclaim,thrashing,compact,wpcopy,irq,total,cgroup,command
wait_for_screen '^ +PID .*TOTAL' 5
screen_ok $? "the screen comes up with its table"

# ---- < and > ----
want_marker=""
marker_on() { [ "$(marked_title)" = "$want_marker" ]; }
for step in "> CGROUP" "> COMMAND" "< CGROUP" "< TOTAL" "< IRQ" "> TOTAL"; do
	set -- $step
	want_marker=$2
	keys "$1"
	wait_for_screen_fn marker_on 3
	screen_ok $? "$1 moves the sort marker to $2" "marked: $(marked_title)"
done

# ---- / filters as one types ----
# The pattern goes through a file: a grep whose command line held the name would match the filter
# itself and show up as a row, rightly.
printf '%s\n' "Filter by command name or line (Enter keeps, Esc clears): ${NAME}_" >"$TMPDIR_TEST/prompt"
keys /
type_text "$NAME"
only_ours() { [ "$(row_ids | sort -n)" = "$OURS" ]; }
typed() { line "$SCREEN_H" | grep -q -F -f "$TMPDIR_TEST/prompt"; } # all of it (a prefix filters too)
wait_for_screen_fn only_ours 5 && wait_for_screen_fn typed 3
screen_ok $? "/ and typing $NAME leaves only its four processes ($(echo $OURS))" "rows: $(row_ids | tr '\n' ' ')"
typed && only_ours
screen_ok $? "the footer shows the filter prompt with the typed text"
keys Enter
closed_and_ours() { line "$SCREEN_H" | grep -q '^h help' && only_ours; }
wait_for_screen_fn closed_and_ours 3
screen_ok $? "Enter closes the prompt and keeps the filter"

# ---- r reverses the order ----
# rows in screen order: HEAVY first, the spinners, IDLE last (or the other way round)
order_is() {
	local ids mid
	ids=$(row_ids)
	[ "$(printf '%s\n' "$ids" | grep -c .)" -eq 4 ] || return 1
	mid=$(printf '%s\n' "$ids" | sed -n 2,3p | sort -n | tr '\n' ' ')
	[ "$mid" = "$(printf '%s\n' "$SPIN1" "$SPIN2" | sort -n | tr '\n' ' ')" ] || return 1
	[ "$(printf '%s\n' "$ids" | sed -n 1p)" = "$1" ] && [ "$(printf '%s\n' "$ids" | sed -n 4p)" = "$2" ]
}
largest_first() { order_is "$HEAVY" "$IDLE" && title_line | grep -q '▼TOTAL'; }
smallest_first() { order_is "$IDLE" "$HEAVY" && title_line | grep -q '▲TOTAL'; }
wait_for_screen_fn largest_first 6
screen_ok $? "sorted by TOTAL: the 3-thread spinner ($HEAVY) first, the spinner pair, the sleeper ($IDLE) last" \
	"rows: $(row_ids | tr '\n' ' ')"
keys r
wait_for_screen_fn smallest_first 3
screen_ok $? "r reverses it: the sleeper first, the 3-thread spinner last, marker ▲" "rows: $(row_ids | tr '\n' ' ')"
header | grep -q 'sort total reversed'
screen_ok $? "the header says the sort is reversed"
keys r
wait_for_screen_fn largest_first 3
screen_ok $? "r again restores the largest-first order"

# ---- the selection: on the first row it stays with its task; Home goes back to the top row ----
keys Down Up r
sel_heavy() { [ "$(selected_id)" = "$HEAVY" ]; }
sel_idle() { [ "$(selected_id)" = "$IDLE" ]; }
wait_for_screen_fn smallest_first 3 && wait_for_screen_fn sel_heavy 2
screen_ok $? "Down Up selects the first row ($HEAVY); after r it is still selected, now last" \
	"selected: $(selected_id), rows: $(row_ids | tr '\n' ' ')"
keys Home r
wait_for_screen_fn largest_first 3 && wait_for_screen_fn sel_heavy 2
keys r
wait_for_screen_fn smallest_first 3 && wait_for_screen_fn sel_idle 2
screen_ok $? "after Home the selection is the top row, whichever task the sort puts there ($IDLE after r)" \
	"selected: $(selected_id), rows: $(row_ids | tr '\n' ' ')"
keys r
wait_for_screen_fn largest_first 3

# ---- a hides the tasks that did not wait ----
keys a
active_only() {
	[ "$(row_ids | sort -n)" = "$(printf '%s\n' "$HEAVY" "$SPIN1" "$SPIN2" | sort -n)" ]
}
wait_for_screen_fn active_only 3
screen_ok $? "a hides the sleeper, which did not wait, and keeps the three that did" "rows: $(row_ids | tr '\n' ' ')"
keys a
wait_for_screen_fn only_ours 3
screen_ok $? "a again shows the sleeper again"

# ---- m cycles the metric the header names ----
metric_is() { header | grep -q -F "  $want_metric  sort "; }
want_metric="% time"
metric_is
screen_ok $? "the header names the metric: % time"
for want_metric in "ms/wait" "waits/s" "max ms" "% time"; do
	keys m
	wait_for_screen_fn metric_is 3
	screen_ok $? "m changes the header's metric to $want_metric" "header: $(header)"
done

# ---- H shows threads ----
TIDS=$(ls "/proc/$HEAVY/task" | grep -v -x "$HEAVY" | sort -n)
keys H
threads_shown() {
	local t
	title_line | grep -q -E '^ +TID ' || return 1
	for t in $TIDS $HEAVY; do
		[ -n "$(row_of "$t")" ] || return 1
	done
}
wait_for_screen_fn threads_shown 8
screen_ok $? "H: the first title is TID and the rows show the main thread and the three spinning threads ($(echo $TIDS)) of $HEAVY" \
	"rows: $(row_ids | tr '\n' ' ')"
[ "$(row_ids | grep -c .)" -eq 7 ]
screen_ok $? "H: seven thread rows match the filter (4 threads, 2 spinners, 1 sleeper)" "rows: $(row_ids | tr '\n' ' ')"
keys H
processes_shown() { title_line | grep -q -E '^ +PID ' && only_ours; }
wait_for_screen_fn processes_shown 8
screen_ok $? "H again: back to PID and the four processes"

# ---- ? shows the help; any key returns ----
keys '?'
wait_for_screen '^delaytop help' 3 && screen_has '^ +q +quit$'
screen_ok $? "? shows the help, which lists q quit"
keys x
wait_for_screen_fn processes_shown 3 && ! screen_has '^delaytop help'
screen_ok $? "any key (x) returns from the help to the table"

# ---- z pauses: PAUSED, and the clock in the header stops ----
clock() { line 1 | grep -o -E '[0-9]{2}:[0-9]{2}:[0-9]{2}' | head -1; }
keys z
wait_for_screen '^PAUSED ' 3
screen_ok $? "z shows PAUSED at the start of the header's second line"
# A reading asked for before z may still be under way, and lands after PAUSED is drawn (on a
# loaded machine a reading takes a good part of the 0.5 s): the clock may move that once, never again.
c1=$(clock)
sleep 2.2
capture
c2=$(clock)
if [ -n "$c1" ] && [ "$c1" != "$c2" ]; then
	diag "the reading under way when z came moved the clock from $c1 to $c2"
	c1=$c2
	sleep 2.2
	capture
	c2=$(clock)
fi
screen_has '^PAUSED ' && [ -n "$c1" ] && [ "$c1" = "$c2" ]
screen_ok $? "while paused the header's clock stays at $c1 (after 2.2 s: $c2)"
keys z
wait_for_screen_not '^PAUSED ' 3
unpaused=$?
clock_moved() { [ "$(clock)" != "$c1" ]; }
wait_for_screen_fn clock_moved 3
[ $? -eq 0 ] && [ "$unpaused" -eq 0 ]
screen_ok $? "z again resumes: PAUSED goes and the clock moves on"

# ---- d checks the interval as -d does ----
keys d
wait_for_screen '^Seconds between readings: 0\.5_' 3
screen_ok $? "d opens the interval prompt with the current interval (0.5)"
keys C-u
keys 0 Enter
wait_for_screen "'0'" 3 && line "$SCREEN_H" | grep -q "'0'"
screen_ok $? "an interval of 0 is refused with a message naming '0'" "footer: $(line "$SCREEN_H")"
header | grep -q -E '  every 0\.5s  '
screen_ok $? "the interval stays 0.5s after the refused value"
keys d C-u 2 Enter
wait_for_screen '^(processes|threads)  every 2s  ' 3
screen_ok $? "d 2 Enter sets the interval the header shows to 2s"

# ---- Esc clears the filter ----
keys Escape
others_back() {
	[ "$(row_ids | grep -c .)" -gt 4 ] && table_rows | awk -v n="$NAME" '$NF != n { found = 1 } END { exit !found }'
}
wait_for_screen_fn others_back 3
screen_ok $? "Esc clears the filter: rows of other commands are back" \
	"rows: $(row_ids | tr '\n' ' ')"

# ---- Ctrl-T switches kernel.task_delayacct, after a confirmation ----
set_sysctl kernel.task_delayacct 0
wait_for_screen '^[0-9:]{8} up .* delayacct OFF ' 5
screen_ok $? "the header says when delay accounting is off"
keys C-t
wait_for_screen 'Only tasks started after this get non-CPU delays\. \[y/N\]' 3
screen_ok $? "Ctrl-T asks first, and says that only tasks started after get non-CPU delays"
keys n
wait_for_screen_not '\[y/N\]' 3
[ "$(sysctl -n kernel.task_delayacct)" = 0 ]
screen_ok $? "answering n closes the question and leaves kernel.task_delayacct at 0"
keys C-t
wait_for_screen '\[y/N\]' 3
keys y
delayacct_is() { [ "$(sysctl -n kernel.task_delayacct)" = "$1" ]; }
wait_until 3 delayacct_is 1
screen_ok $? "answering y switches kernel.task_delayacct on (got $(sysctl -n kernel.task_delayacct))"
wait_for_screen '^[0-9:]{8} up .* delayacct on ' 5
screen_ok $? "the header follows: delayacct on"

# ---- q quits with status 0 ----
keys q
wait_until 3 test -s "$SCREEN_STATUS_FILE"
capture
[ "$(screen_status)" = 0 ]
screen_ok $? "q ends delaytop with status 0 (got '$(screen_status)')"
wait_until 2 pid_gone "$SCREEN_PID"
screen_ok $? "q: the delaytop process $SCREEN_PID is gone"

diag "ran for $((SECONDS - LOCKED_AT)) s under the lock"
done_testing
