# commands.sh — the roll-up by command (--group=command, g on the screen) on build.rec, as an
# ordinary user. In JSON, each command's record in every report sums the task records of its name
# in the same report of the process view: its processes counted, its user the one they share (null
# for sh, of root and alice), each kind's share and waits per second, CPU and TOTAL added, in the
# interval and in totals since the start. -u, -p, -c, --unit, -a and --hide-exited choose the
# tasks before they are summed; -s procs sorts the sums; CSV has a line a command; --group command
# is refused beside --tree, --listen and command mode. On the screen, g goes from the processes to
# the commands (the recording has no cgroup rows): PROCS and USER ("*" for two users), cc1's four
# processes with a carried CPU wait in the second reading, the selection staying on its name, i
# saying what the row is, Enter showing that name's processes alone (not cc1plus) and Esc all of
# them again, and W keeping the view for the next start.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"
. "$top_srcdir/tests/replay/fixture.sh"

JQ=${JQ-jq}
have_jq() { [ -n "$JQ" ] && command -v "$JQ" >/dev/null 2>&1; }

# ---- batch reports ----
if have_jq; then
	dt -r "$FIX/build.rec" --format json >"$TMPDIR_TEST/tasks.json"
	dt -r "$FIX/build.rec" --format json --group command >"$TMPDIR_TEST/cmds.json"
	dt -r "$FIX/build.rec" --format json --accumulate >"$TMPDIR_TEST/tasks-acc.json"
	dt -r "$FIX/build.rec" --format json --group command --accumulate >"$TMPDIR_TEST/cmds-acc.json"
	# sums FIELD: per report and name, "time name count sum" from the task records, then from the
	# command records; what differs by more than the rounding of the printed numbers is printed.
	sums_check() {
		"$JQ" -n -r --arg f "$1" --slurpfile t "$2" --slurpfile c "$3" '
			def val(r): r | getpath($f | split(".")) // 0;
			[$t[] | select(.type == "task")] | group_by([.time, .command])
			| map({ key: (.[0].time + " " + .[0].command),
				value: { n: ([.[].pid] | unique | length), sum: (map(val(.)) | add) } }) | from_entries as $want
			| [$c[] | select(.type == "command")]
			| (map(.time + " " + .command) | sort) as $names
			| (($want | keys) - $names | map("no command record for " + .))[],
			  (.[] | (.time + " " + .command) as $k | $want[$k] as $w
				| if $w == null then "a command record without tasks: " + $k
				  elif .processes != $w.n then $k + ": " + (.processes | tostring) + " processes, " + ($w.n | tostring) + " tasks"
				  elif ((val(.) - $w.sum) | fabs) > 0.002 * $w.n + 0.0001 then $k + ": " + (val(.) | tostring) + " != " + ($w.sum | tostring)
				  else empty end)'
	}
	for f in delay.cpu.pct delay.io.pct delay.cpu.per_s run_pct total_pct; do
		out=$(sums_check "$f" "$TMPDIR_TEST/tasks.json" "$TMPDIR_TEST/cmds.json" 2>&1)
		tap_ok $([ -z "$out" ] && echo 0 || echo 1) "JSON: every command's $f is the sum of its processes' in the same report, its processes counted" "$(printf '%s\n' "$out" | head -5)"
	done
	for f in delay.cpu.total_s delay.io.count total_s; do
		out=$(sums_check "$f" "$TMPDIR_TEST/tasks-acc.json" "$TMPDIR_TEST/cmds-acc.json" 2>&1)
		tap_ok $([ -z "$out" ] && echo 0 || echo 1) "JSON --accumulate: every command's $f is the sum of its processes' (an exited one's too)" "$(printf '%s\n' "$out" | head -5)"
	done
	got=$("$JQ" -r 'select(.type == "command") | "\(.command)=\(.processes)/\(.threads)/\(.user)"' "$TMPDIR_TEST/cmds.json" | head -8 | sort | xargs)
	want="as=1/1/alice bash=1/1/alice cc1=3/4/alice cc1plus=1/1/alice make=1/1/alice postgres=1/1/postgres sh=3/3/null systemd=1/1/root"
	[ "$got" = "$want" ]
	tap_ok $? "JSON: the first report's commands, processes/threads/user (null for sh of two users)" "want: $want" "got: $got"
	# filtered: the names' processes in the first report
	first() { dt -r "$FIX/build.rec" --format json -n 1 --group command "$@" | "$JQ" -r 'select(.type == "command") | "\(.command)=\(.processes)"' | sort | xargs; }
	check_first() {
		local desc=$1 want=$2 got
		shift 2
		got=$(first "$@")
		[ "$got" = "$want" ]
		tap_ok $? "$desc" "want: $want" "got: $got"
	}
	check_first "-u root: the tasks of root summed (one sh of three)" "sh=1 systemd=1" -u root
	check_first "-p 1310,1311,700: those processes summed" "cc1=2 sh=1" -p 1310,1311,700
	check_first "-c /system.slice: the tasks in it" "postgres=1 sh=1" -c /system.slice
	check_first "--unit cron.service: the task of that unit" "sh=1" --unit cron.service
	got=$(dt -r "$FIX/build.rec" --format json -n 2 --group command --hide-exited | "$JQ" -r 'select(.type == "command" and .command == "cc1") | .processes' | xargs)
	[ "$got" = "3 3" ]
	tap_ok $? "--hide-exited: cc1 counts 3 in the report 1311 exits in (4 without)" "got: $got"
	got=$(dt -r "$FIX/build.rec" --format json -n 1 --group command -a | "$JQ" -r 'select(.type == "command") | .command' | sort | xargs)
	[ "$got" = "as bash cc1 cc1plus make postgres sh systemd" ]
	tap_ok $? "-a: the names of tasks that waited" "got: $got"
else
	tap_skip "JSON: the sums and counts of the command records" "needs jq"
fi

got=$(dt -r "$FIX/build.rec" -b -n 1 --group command -s procs | awk 'seen { print $1 "=" $NF } /^ *[▼▲]?PROCS/ { seen = 1 }' | head -3 | xargs)
[ "$got" = "3=cc1 3=sh 1=as" ]
tap_ok $? "text -s procs: the most processes first, ties by name" "got: $got"
got=$(dt -r "$FIX/build.rec" -b -n 1 --group command | sed -n '/PROCS/,$p' | sed -n '1,2p' | xargs)
want="PROCS USER CPU% CPU IO SWAP RECLAIM THRASH COMPACT WPCOPY IRQ TOTAL COMMAND 3 alice 210.1 35.8 25.5 0.0 0.0 0.0 0.0 0.0 0.0 61.3 cc1"
[ "$got" = "$want" ]
tap_ok $? "text: the titles, and cc1's three processes first, above postgres (its one process waits most)" "got: $got"
csv=$(dt -r "$FIX/build.rec" --format csv -n 1 --group command | cut -d, -f3-6 | head -3 | xargs)
[ "$csv" = "command,processes,threads,user cc1,3,4,alice postgres,1,1,postgres" ]
tap_ok $? "CSV: a line a command, with processes, threads and user" "got: $csv"
sh_user=$(dt -r "$FIX/build.rec" --format csv -n 1 --group command | awk -F, '$3 == "sh" { print "[" $6 "]" }')
[ "$sh_user" = "[]" ]
tap_ok $? "CSV: sh's user is empty (root and alice)" "got: $sh_user"

# refusals
check_error() {
	local desc=$1 want=$2 out rc
	shift 2
	out=$(dt "$@" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" -eq 2 ] && printf '%s\n' "$out" | grep -q -F -- "$want"
	tap_ok $? "$desc" "status: $rc (want 2)" "stderr: $out" "want: $want"
}
check_error "--group with an unknown name lists command among the choices" "choose from: process, thread, cgroup, command" \
	-r "$FIX/build.rec" -b --group programs
check_error "--group command --tree is refused" "--tree arranges processes" -r "$FIX/build.rec" -b --group command --tree
check_error "--group command --listen is refused" "--listen reads processes" --group command --listen 127.0.0.1:9
check_error "--group command in command mode is refused" "does not apply to command mode" --group command -- true

# ---- the screen ----
# crow NAME: the row of the command view whose command is NAME.
crow() { printf '%s\n' "$SCREEN" | awk -v n="$1" 'seen && $NF == n { print; exit } /^ *[▼▲]?PROCS[▼▲]? / { seen = 1 }'; }
# selected_name: the last word of the table's line in reverse video (the titles' line is too).
selected_name() {
	local sgr=$'\e\\[[0-9;]*m' rev=$'\e\\[([0-9;]*;)?7m'
	capture -e
	printf '%s\n' "$SCREEN" | grep -E "^($sgr)*$rev" | sed -E "s/$sgr//g" | awk '!/PROCS/ { print $NF; exit }'
	capture
}
CFG=$TMPDIR_TEST/cfg
SCREEN_W=140
open_replay XDG_CONFIG_HOME="$CFG" -- -r "$FIX/build.rec"
keys n
wait_for_screen '^ +PID ' 3
keys g
wait_for_screen '^ *[▼▲]?PROCS USER .* COMMAND *$' 3 && header | grep -q 'processes summed by command'
screen_ok $? "g: the command view, PROCS first, and the header says so" "header: $(header)"
crow cc1 | grep -q -E '^ +3 alice +210\.1 +35\.8 +25\.5 .* 61\.3 cc1$' && crow sh | grep -q -E '^ +3 \* ' &&
	crow cc1plus | grep -q -E '^ +1 alice '
screen_ok $? "cc1's three processes summed (TOTAL 61.3), sh's three of two users (*), cc1plus apart" \
	"cc1: $(crow cc1)" "sh: $(crow sh)"
[ "$(selected_name)" = cc1 ]
screen_ok $? "the first row, cc1, is selected" "selected: $(selected_name)"
keys Down
# (eval: the selection read afresh at each try, not once when wait_until is called)
wait_until 3 eval '[ "$(selected_name)" = postgres ]'
keys n
wait_for_screen '^ +4 alice .*\+ cc1$' 3
screen_ok $? "the next reading: cc1's four processes, its CPU wait carried over (+)" "cc1: $(crow cc1)"
[ "$(selected_name)" = postgres ]
screen_ok $? "the selection stays on postgres across the reading" "selected: $(selected_name)"
keys i
wait_for_screen "a command's row sums its processes" 3
screen_ok $? "i on a command's row says Enter shows its processes" "footer: $(line "$SCREEN_H")"
keys Up Enter
rows_are "1313 1311 1310 1312 "
screen_ok $? "Enter on cc1: its four processes, and not cc1plus" "rows: $(ids)"
header | grep -q 'command cc1' && header | grep -q -v 'summed'
screen_ok $? "the header names the command opened, in the process view" "header: $(header)"
keys Escape
wait_for_screen '^ +1330 ' 3 && ! header | grep -q 'command cc1'
screen_ok $? "Esc: every process again" "header: $(header)"
keys g
wait_for_screen '^ *[▼▲]?PROCS ' 3
keys W
wait_for_screen 'settings written to' 3
grep -qx 'group=command' "$CFG/delaytop/delaytoprc"
tap_ok $? "W in the command view writes group=command" "$(cat "$CFG/delaytop/delaytoprc" 2>&1)"
open_replay XDG_CONFIG_HOME="$CFG" -- -r "$FIX/build.rec"
keys n
wait_for_screen '^ *[▼▲]?PROCS USER ' 3
screen_ok $? "the next start opens in the command view"
keys g
wait_for_screen '^ +PID ' 3
screen_ok $? "g from the command view: the processes again"
stop_screen
done_testing
