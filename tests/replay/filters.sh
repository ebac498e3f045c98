# filters.sh — the filters people know apply to a replay, as an ordinary user: -p (once refused
# with -r: a recording holds the tasks it read, so -p filters its rows by process id), -u and -c,
# alone and together, in the text, JSON and CSV reports and on the screen (the header counts the
# pids, the p prompt offers them, an empty answer shows every row); bad values end with status 2
# and a message naming the value; what still does not go with -r is refused.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"
. "$top_srcdir/tests/replay/fixture.sh"

JQ=${JQ-jq}
# text_pids FIXTURE ARGS...: the first column of the text report's rows, space-separated.
text_pids() {
	dt -r "$FIX/$1" -b -n 1 "${@:2}" 2>&1 | awk 'seen && /^ *[0-9]+ / { printf "%s ", $1 } /^ +(PID|TID) / { seen = 1 }'
}
check_rows() {
	local desc=$1 want=$2 got
	shift 2
	got=$(text_pids "$@")
	[ "$got" = "$want" ]
	tap_ok $? "$desc" "want: $want" "got: $got"
}
check_rows "text: -p 210,480 keeps those two processes" "480 210 " procs.rec -p 210,480
check_rows "text: -p twice adds to the list" "480 210 " procs.rec -p 210 -p 480
check_rows "text: -p of a pid the recording lacks keeps no row" "" procs.rec -p 99999
check_rows "text: threads.rec -p 1500 keeps the process's four threads" "1501 1503 1502 1500 " threads.rec -p 1500
check_rows "text: -p with -u: the rows both keep" "1500 1600 " procs.rec -p 1500,1600,210 -u 1001
check_rows "text: -c /system.slice: the rows in that cgroup and below" "480 210 " procs.rec -c /system.slice
check_rows "text: -c with -p" "210 " procs.rec -c /system.slice -p 210,1500

csv=$(dt -r "$FIX/procs.rec" --format csv -n 1 -p 210,480 | cut -d, -f3 | tr '\n' ' ')
[ "$csv" = "pid 480 210 " ]
tap_ok $? "CSV: -p 210,480, the header and their two lines" "got: $csv"
if [ -n "$JQ" ] && command -v "$JQ" >/dev/null 2>&1; then
	got=$(dt -r "$FIX/procs.rec" --format json -p 210 -u 0 | "$JQ" -r 'select(.type == "task") | .pid' | sort -u | tr '\n' ' ')
	[ "$got" = "210 " ]
	tap_ok $? "JSON: -p 210 -u 0 over every reading: only 210's records" "got: $got"
	got=$(dt -r "$FIX/procs.rec" --format json -n 1 -c /system.slice | "$JQ" -r 'select(.type == "task") | .cgroup' | sort -u | tr '\n' ' ')
	[ "$got" = "/system.slice/postgresql.service /system.slice/ssh.service " ]
	tap_ok $? "JSON: -c /system.slice: only its cgroups' tasks" "got: $got"
else
	tap_skip "JSON: -p and -u over every reading" "needs jq"
	tap_skip "JSON: -c" "needs jq"
fi

# ---- exited tasks: 1310 (as) exits in the second reading ----
got=$(dt -r "$FIX/procs.rec" -b -n 2 | awk '$1 == 1310 { print $NF }' | tr '\n' ' ')
[ "$got" = "as <exited> " ]
tap_ok $? "text: the reading 1310 exits in shows it, marked <exited>" "got: $got"
got=$(dt -r "$FIX/procs.rec" -b -n 2 --hide-exited | awk '$1 == 1310 { print $NF }' | tr '\n' ' ')
[ "$got" = "as " ]
tap_ok $? "text: --hide-exited leaves it out of that reading, not of the one before" "got: $got"

# ---- bad values ----
check_error() {
	local desc=$1 want=$2 out rc
	shift 2
	out=$(dt "$@" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" -eq 2 ] && printf '%s\n' "$out" | grep -q -F -- "$want"
	tap_ok $? "$desc" "status: $rc (want 2)" "stderr: $out" "want: $want"
}
check_error "-p abc: status 2, naming the value" "invalid pid 'abc'" -r "$FIX/procs.rec" -b -p abc
check_error "-p 0: status 2, naming the value" "invalid pid '0'" -r "$FIX/procs.rec" -b -p 0
check_error "-p 210,x: status 2, naming the bad pid" "'x'" -r "$FIX/procs.rec" -b -p 210,x
check_error "-u of no user: status 2, naming it" "unknown user 'no-such-user-x'" -r "$FIX/procs.rec" -b -u no-such-user-x
check_error "-c that climbs out: status 2, naming it" "'../x'" -r "$FIX/procs.rec" -b -c ../x
check_error "-p with --group=cgroup is still refused" "--group=cgroup sums every task" -r "$FIX/cgroups.rec" -b --group cgroup -p 210
check_error "-w with -r is still refused, -p no longer named" "-r replays a recording: -w, --listen, --trigger and a command do not apply to it" \
	-r "$FIX/procs.rec" -w "$TMPDIR_TEST/x.rec"

# ---- the screen ----
SCREEN_W=120 SCREEN_H=30
open_replay -- -r "$FIX/procs.rec" -p 210,480
keys n
rows_are "480 210 "
screen_ok $? "screen: -p 210,480 keeps those two" "rows: $(ids)"
header | grep -q -F 'filter 2 pids'
screen_ok $? "screen: the header counts the pids" "header: $(header)"
keys p
wait_for_screen 'Only processes PID\[,PID\.\.\.\] \(empty: all\): 210,480_' 3
screen_ok $? "screen: p offers the -p list to edit"
type_text "1500"
keys Enter
rows_are "1500 "
screen_ok $? "screen: typing at p replaces the offered list (1500, not 210,4801500)" "rows: $(ids)" "footer: $(line "$SCREEN_H")"
keys p Right
type_text ",210"
keys Enter
rows_are "1500 210 "
screen_ok $? "screen: Right keeps the offered list to edit at its end (1500,210)" "rows: $(ids)" "footer: $(line "$SCREEN_H")"
keys p BSpace Enter
rows_are "480 1301 1310 1500 1600 1300 1700 1601 1 210 1200 "
screen_ok $? "screen: Backspace on the offered list empties it; an empty answer shows every row" "rows: $(ids)"
open_replay -- -r "$FIX/procs.rec" -u 1001 -p 1500,210
keys n
rows_are "1500 "
screen_ok $? "screen: -u 1001 with -p 1500,210: the one row both keep" "rows: $(ids)"
keys u
type_text "0"
keys Enter
rows_are "210 "
screen_ok $? "screen: typing at u replaces the offered user (0, not 10010)" "rows: $(ids)" "footer: $(line "$SCREEN_H")"
keys u C-u Enter
rows_are "1500 210 "
screen_ok $? "screen: u with an empty answer leaves -p's rows" "rows: $(ids)"
open_replay -- -r "$FIX/procs.rec"
keys n n
rows_are "1301 480 1310 1500 1600 1700 1300 1601 210 1 1200 1320 "
screen_ok $? "screen: the reading 1310 exits in shows it" "rows: $(ids)"
keys x
rows_are "1301 480 1500 1600 1700 1300 1601 210 1 1200 1320 " && header | grep -q -F 'filter no exited'
screen_ok $? "screen: x hides the exited task; the header says so" "rows: $(ids)" "header: $(header)"
keys x
rows_are "1301 480 1310 1500 1600 1700 1300 1601 210 1 1200 1320 "
screen_ok $? "screen: x again shows it" "rows: $(ids)"
open_replay -- -r "$FIX/procs.rec" -c /system.slice
keys n
rows_are "480 210 "
screen_ok $? "screen: -c /system.slice keeps the rows in it" "rows: $(ids)"
keys /
type_text "ssh"
rows_are "210 "
screen_ok $? "screen: / with -c: both apply" "rows: $(ids)"
keys Enter
quit_ok "q quits with status 0"

done_testing
