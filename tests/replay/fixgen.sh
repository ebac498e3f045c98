# fixgen.sh — the fixture recordings are made by tests/fixgen, the same bytes at every run and
# whatever the time zone, and they hold what the tests without root rely on (read back through
# the JSON printer): all eight delay kinds, the accounting fields, four users and a uid without a
# name, a tree of parents, threads, UTF-8 and control characters in names, a task that exits then
# departs, a carried wait, a reading with delay accounting off, trigger events, PSI, the cgroup
# view with states and pressure, three segments in long.rec, peaks.rec's bursts of pressure
# and events, hostile.rec's names of markup, a container id named twice: by the system and in
# a cgroup delegated to a user (identity_uid), build.rec's names shared by several processes, and
# why.rec's waits of --why, and stacks.rec's off-CPU stacks kept with its trigger events.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/replay/fixture.sh"

require_cmd cmp
JQ=${JQ-jq}
as_user mkdir "$TMPDIR_TEST/again"
TZ=Asia/Tokyo LC_ALL=C as_user "$FIXGEN" "$TMPDIR_TEST/again"
same=0 n=0
for f in "$FIX"/*.rec; do
	n=$((n + 1))
	cmp -s "$f" "$TMPDIR_TEST/again/${f##*/}" && same=$((same + 1))
done
[ "$n" -eq 9 ] && [ "$same" -eq 9 ]
tap_ok $? "fixgen writes the same 9 files again, byte for byte, in another time zone and locale" "$same of $n the same"
head -c 200 "$FIX/procs.rec" | grep -a -q 'fixture-host'
tap_ok $? "the recordings name the fixed host, fixture-host"

if [ -z "$JQ" ] || ! command -v "$JQ" >/dev/null 2>&1; then
	tap_skip "what the fixtures hold, read back through the JSON printer" "needs jq"
	done_testing
fi
json() { dt -r "$FIX/$1" --format json "${@:2}" 2>/dev/null; }
# facts FILE JQ-EXPRESSION: the expression over every object of FILE's JSON, slurped.
facts() { json "$1" "${@:3}" | "$JQ" -s -r "$2"; }
check_fact() {
	local desc=$1 want=$2 got
	shift 2
	got=$(facts "$@")
	[ "$got" = "$want" ]
	tap_ok $? "$desc" "want: $want" "got: $got"
}
check_fact "procs.rec: all eight delay kinds waited in" 8 procs.rec \
	'[.[] | select(.type == "task") | .delay | to_entries[] | select(.value.per_s > 0) | .key] | unique | length'
check_fact "procs.rec: the accounting fields are there" true procs.rec \
	'[.[] | select(.type == "task")][0] | (.read_bytes > 0 and .utime_s > 0 and .maxrss_bytes > 0 and .vcsw_count > 0)' --accumulate
check_fact "procs.rec: users root, postgres, alice, bob, mallory and the uid 4242" "4242 alice bob mallory postgres root" procs.rec \
	'[.[] | select(.type == "task") | .user] | unique | join(" ")'
check_fact "procs.rec: a tree three levels deep under sshd (sshd > bash > make > cc1)" "1300" procs.rec \
	'[.[] | select(.type == "task" and .pid == 1301)][0].ppid'
check_fact "procs.rec: a UTF-8 name and one with ESC and TAB" 2 procs.rec \
	'[.[] | select(.type == "task") | .command | select(test("ï|\u001b"))] | unique | length'
check_fact "procs.rec: as (1310) runs, exits in the third reading (Z), then departs (X)" "R Z X" procs.rec \
	'[.[] | select(.type == "task" and .pid == 1310) | .state] | join(" ")' --accumulate
check_fact "procs.rec: cc1's CPU wait is carried in the third reading" '["cpu"]' procs.rec \
	'[.[] | select(.type == "task" and .pid == 1301 and (.carried | length) > 0)][0].carried | tojson'
check_fact "procs.rec: two trigger events" 2 procs.rec '[.[] | select(.type == "event")] | length'
check_fact "procs.rec: PSI of cpu, memory, io and irq" "cpu io irq memory" procs.rec \
	'[.[] | select(.type == "psi")][0] | [keys[] | select(test("^(cpu|memory|io|irq)$"))] | join(" ")'
dt -r "$FIX/procs.rec" -b | grep -q '^delay accounting off'
tap_ok $? "procs.rec: its last reading has delay accounting off"
check_fact "threads.rec: java's four threads, as TIDs 1500-1503" "1500 1501 1502 1503" threads.rec \
	'[.[] | select(.type == "task" and .pid == 1500) | .tid] | unique | map(tostring) | join(" ")'
check_fact "procs.rec: a container id twice, the system's (orphan, 1700) and one bob's delegation named (1601, identity_uid 1001)" \
	"1601:1001 1700:null" procs.rec \
	'[.[] | select(.type == "task" and .container_id != null) | "\(.pid):\(.identity_uid)"] | unique | join(" ")'
check_fact "cgroups.rec: 14 cgroups with states and pressure" 14 cgroups.rec \
	'[.[] | select(.type == "cgroup" and .tasks != null and .pressure != null) | .cgroup] | unique | length' --group cgroup
check_fact "peaks.rec: two readings made when a trigger fired" 2 peaks.rec '[.[] | select(.type == "event")] | length'
check_fact "peaks.rec: I/O some 2% quiet, the bursts' readings (events aside) 15 to 30%, the bump 8%" "2 8 15 20 25 30" peaks.rec \
	'[.[] | select(.type == "psi") | .io.some.pct | round] | unique | map(tostring) | join(" ")'
check_fact "hostile.rec: mallory's process (1601) is named <img src=x onerror=alert(1)>, its cgroup holds <svg" \
	"true true" hostile.rec \
	'[.[] | select(.type == "task" and .pid == 1601)][0] | [(.command | startswith("<img src=x onerror=alert(1)>")), (.cgroup | contains("<svg onload"))] | map(tostring) | join(" ")'
check_fact "hostile.rec: alice's bash (1200) is in a cgroup named with 240 letters" 240 hostile.rec \
	'[.[] | select(.type == "task" and .pid == 1200)][0] | .cgroup | split("/") | .[3] | rtrimstr(".service") | length'
check_fact "build.rec: four cc1 (one exits in the second reading, one is born in it), three sh of root and alice" \
	"cc1 1310 1311 1312 1313; sh 700 1301 1302" build.rec \
	'[.[] | select(.type == "task" and (.command == "cc1" or .command == "sh"))] | group_by(.command) |
	 map(.[0].command + " " + ([.[].pid] | unique | map(tostring) | join(" "))) | join("; ")'
check_fact "build.rec: cc1plus (1330), whose name holds cc1's" 1330 build.rec \
	'[.[] | select(.type == "task" and .command == "cc1plus") | .pid] | unique | .[0]'
check_fact "build.rec: in its first report postgres (900) waits most of any one process" 900 build.rec \
	'[.[] | select(.type == "task")] | group_by(.time)[0] | max_by(.total_pct) | .pid'
check_fact "why.rec: --why waits of cpu, io and blocked in every reading but the first, none of the other kinds" \
	"blocked cpu io; 7" why.rec \
	'[.[] | select(.type == "task" and .why != null)] | [([.[].why.latency | to_entries[] | select(.value != null and .value.count > 0) | .key] | unique | join(" ")), ([.[].time] | unique | length | tostring)] | join("; ")'
check_fact "stacks.rec: three events, each naming five tasks with their stacks, 1600's frames hostile" \
	"3; 15; true" stacks.rec \
	'[.[] | select(.type == "event")] | [length, ([.[].tasks[] | select((.stacks | length) > 0)] | length),
	 ([.[].tasks[] | select(.pid == 1600) | .stacks[0].frames[-2]] | all(startswith("<script>")))] | map(tostring) | join("; ")'
reports=$(dt -r "$FIX/long.rec" -b --begin @1767225854 --end @1767225857 | grep -c '^delaytop - ')
[ "$reports" -eq 3 ] && [ "$(dt -r "$FIX/long.rec" -b | grep -c '^delaytop - ')" -eq 599 ]
tap_ok $? "long.rec: 599 reports after its first reading; 3 from 00:04:14 to 00:04:17, across the first segment's end" \
	"reports: $reports"
done_testing
