# keys.sh — the screen's keys on a fixture recording (procs.rec), as an ordinary user: it opens
# paused on the first reading, naming the file and the host; n steps; < and > move the sort
# marker; s opens the sort menu, which scrolls and shows every title whole; r reverses the order and the header says so; / filters by command as one types and
# Esc clears; u (a uid: names are the machine's) and p keep one user's or some pids' rows; a hides the rows that did not wait;
# m cycles the metric; c shows the command lines; A shows the totals since the start; the
# selection follows Down and Home; h shows the help and any key returns; H says a recording keeps
# its rows; q quits with status 0.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"
. "$top_srcdir/tests/replay/fixture.sh"

open_replay -- -r "$FIX/procs.rec"
wait_for_screen '^RECORDING 2026-01-01 00:00:00\.0  PAUSED 1x  procs\.rec, recorded on fixture-host  ' 3
screen_ok $? "the screen opens paused on the first reading, naming the file and the host"
keys n
BY_TOTAL="480 1301 1310 1500 1600 1300 1700 1601 1 210 1200 "
rows_are "$BY_TOTAL"
screen_ok $? "n: the next reading's rows, sorted by TOTAL" "rows: $(ids)"

# ---- < > r ----
want=""
marker_on() { [ "$(marked_title)" = "$want" ]; }
for step in "< IRQ" "< WPCOPY" "> IRQ" "> TOTAL" "> CGROUP" "< TOTAL"; do
	set -- $step
	want=$2
	keys "$1"
	wait_for_screen_fn marker_on 3
	screen_ok $? "$1 moves the sort marker to $2" "marked: $(marked_title)"
done
keys r
rows_are "$(echo $BY_TOTAL | tr ' ' '\n' | tac | tr '\n' ' ')" &&
	title_line | grep -q '▲TOTAL' && header | grep -q 'sort total reversed'
screen_ok $? "r reverses the order (▲TOTAL, the header says reversed)" "rows: $(ids)"
keys r
rows_are "$BY_TOTAL"
screen_ok $? "r again: the largest first"

# ---- the sort menu ----
keys s
wait_for_screen '^Sort by \(Up/Down, Enter; Esc cancels\):' 3 && screen_has '^  TOTAL +total'
screen_ok $? "s opens the sort menu on the sort column (TOTAL)"
for i in $(seq 40); do keys Down; done
wait_for_screen '^  CONTAINER container *$' 3 && screen_has '^  COMMAND +command'
screen_ok $? "the sort menu scrolls to its last entries, every title whole (CONTAINER, not CONTAINE)" \
	"screen: $(capture; echo "$SCREEN" | sed -n 10,30p)"
keys Up Up Enter
wait_for_screen_not '^Sort by' 3 && wait_for_screen 'sort container ' 3
screen_ok $? "Up Up Enter sorts by the entry two above COMMAND (CONTAINER)" "header: $(header)"
keys s
wait_for_screen '^Sort by' 3
for i in $(seq 40); do keys Up; done
keys Down Down Down Down Down Down Down Down Down Down Down Down
keys Enter
want=TOTAL
wait_for_screen_fn marker_on 3
screen_ok $? "back to TOTAL through the menu" "marked: $(marked_title)"

# ---- / u p ----
keys /
type_text "COLLECT"
rows_are "1301 1310 "
screen_ok $? "/ COLLECT: the two whose command lines hold collect, whatever the case" "rows: $(ids)"
line "$SCREEN_H" | grep -q -F 'Filter by command name or line (Enter keeps, Esc clears): COLLECT_'
screen_ok $? "the footer shows the filter prompt with the typed text" "footer: $(line "$SCREEN_H")"
keys Enter Escape
rows_are "$BY_TOTAL"
screen_ok $? "Enter keeps it, Esc clears it"
keys u
type_text 1001
keys Enter
rows_are "1500 1600 "
screen_ok $? "u 1001: bob's two processes" "rows: $(ids)"
keys u C-u Enter
rows_are "$BY_TOTAL"
screen_ok $? "u and an empty answer: every user again" "rows: $(ids)"
keys u
type_text 4242
keys Enter
rows_are "1700 "
screen_ok $? "u 4242: the uid the recording named by number" "rows: $(ids)"
keys u C-u Enter p
type_text "1,1601,210"
keys Enter
rows_are "1601 1 210 "
screen_ok $? "p 1,1601,210: those three" "rows: $(ids)"
keys p C-u Enter
rows_are "$BY_TOTAL"

# ---- a: at the third reading ld is new (no rates), so it did not wait ----
keys n
rows_are "1301 480 1310 1500 1600 1700 1300 1601 210 1 1200 1320 "
screen_ok $? "n: the third reading, with ld (1320) new and last" "rows: $(ids)"
keys a
rows_are "1301 480 1310 1500 1600 1700 1300 1601 210 1 1200 "
screen_ok $? "a hides ld, which has no rates yet" "rows: $(ids)"
keys a

# ---- m c A ----
want=""
metric_is() { header | grep -q -F "  $want  sort "; }
for want in "ms/wait" "waits/s" "max ms" "% time"; do
	keys m
	wait_for_screen_fn metric_is 3
	screen_ok $? "m: the header names $want" "header: $(header)"
done
keys c
wait_for_screen '^ +1301 .* /usr/lib/gcc/x86_64-li' 3 && screen_has '^ +1200 .* -bash$'
screen_ok $? "c shows the command lines, the long one cut at the screen's edge"
keys c A
wait_for_screen '  since start, s waited  ' 3 && title_line | grep -q -E ' CPU s +CPU '
screen_ok $? "A: totals since the start, in seconds" "header: $(header)"
[ "$(row_of 1301 | awk '{ print $5 }')" = 1.58 ]
screen_ok $? "A: cc1's CPU delay since the start is 1.58 s" "row: $(row_of 1301)"
keys A

# ---- the selection ----
keys Home Down
want_sel=""
sel_ok() { [ "$(selected_id)" = "$want_sel" ]; }
want_sel=480
wait_for_screen_fn sel_ok 3
screen_ok $? "Home Down selects the second row (480)" "selected: $(selected_id)"
keys Up
want_sel=1301
wait_for_screen_fn sel_ok 3
screen_ok $? "Up selects the first row again (1301)" "selected: $(selected_id)"

# ---- h, H, q ----
keys h
wait_for_screen '^delaytop help' 3 && screen_has '^  J +replay \(-r\): go to a time typed in'
screen_ok $? "h shows the help, with the replay keys"
keys x
wait_for_screen_not '^delaytop help' 3
screen_ok $? "any key returns from the help"
keys H
wait_for_screen 'a recording shows the rows it was made with: threads only when made with -H' 3 &&
	title_line | grep -q -E '^ +PID '
screen_ok $? "H says a recording shows the rows it was made with, and the rows stay processes"
quit_ok "q quits with status 0"
done_testing
