# delayacct_unknown.sh — an empty kernel.task_delayacct file is "unknown", not "off": no warning
# that it is 0, "unknown" in the text header, null in JSON; an unknown reading between two at 0
# does not warn again. The sysctl file is covered by an empty file in a private mount namespace;
# the real switch is not touched.
. "$top_srcdir/tests/lib.sh"

require_root
require_cmd unshare mount

T=$TMPDIR_TEST
export LC_ALL=C
: >"$T/empty"

# with_empty CMD: runs the shell command CMD with the sysctl file reading empty.
with_empty() {
	unshare --mount --propagation private sh -c \
		"mount --bind '$T/empty' /proc/sys/kernel/task_delayacct || exit 99; $1"
}

with_empty "exec '$DELAYTOP' -b -n 1 -d 0.1 >'$T/text' 2>'$T/text.err'"
st=$?
[ "$st" -eq 99 ] && skip_all "cannot bind-mount over /proc/sys/kernel/task_delayacct"
[ "$st" -eq 0 ] && grep -q "delay accounting unknown" "$T/text"
tap_ok $? "an empty task_delayacct shows as 'delay accounting unknown'" \
	"status $st, header: $(grep -m1 'delay accounting' "$T/text")"
! grep -q "task_delayacct is 0" "$T/text.err"
tap_ok $? "... without the warning that it is 0" "stderr: $(head -2 "$T/text.err")"

with_empty "exec '$DELAYTOP' -b -n 1 -d 0.1 --format=json >'$T/json' 2>/dev/null"
got=$(grep -m1 -o '"delayacct":[a-z"]*' "$T/json")
[ "$got" = '"delayacct":null' ]
tap_ok $? "an empty task_delayacct is null in JSON" "expected \"delayacct\":null, got '$got'"

# The exporter reads the switch at every reading: 0, then unreadable for a few readings, then 0
# again is one warning (a reading that cannot read the switch says nothing new).
printf '0\n' >"$T/flip"
port=$(free_port)
unshare --mount --propagation private sh -c "mount --bind '$T/flip' /proc/sys/kernel/task_delayacct || exit 99
	exec timeout 3 '$DELAYTOP' --listen 127.0.0.1:$port -d 0.2 >/dev/null 2>'$T/listen.err'" &
lpid=$!
sleep 1
: >"$T/flip"
sleep 1
printf '0\n' >"$T/flip"
wait "$lpid"
st=$?
n=$(grep -c 'task_delayacct is 0' "$T/listen.err")
[ "$st" != 99 ] && [ "$n" = 1 ]
tap_ok $? "--listen: the switch at 0, unreadable, then 0 again is warned once" \
	"status $st, $n warnings: $(tr '\n' '|' <"$T/listen.err")"

done_testing
