# report_output.sh — command mode's report that cannot be written: delaytop exits with 125 (not
# the command's status) and says the command ran and with what status; a report to a file that
# fills up leaves neither a truncated report nor its temporary file behind; a bad -o or a closed
# stderr fail before the command runs. A report file that is replaced keeps its mode; a new one
# gets 0666 less the umask; /dev/stdout is written directly.
. "$top_srcdir/tests/lib.sh"

require_taskstats
require_cmd unshare mount
[ -c /dev/full ] || skip_all "needs /dev/full"

T=$TMPDIR_TEST
export LC_ALL=C

# ran_cmd: the command of these runs leaves a mark, so that a test can tell whether it ran.
ran_cmd() {
	echo "echo x >'$T/ran'; exit 3"
}

# ---- a device that cannot take the report ----
"$DELAYTOP" -o /dev/full -- sh -c "$(ran_cmd)" 2>"$T/err"
st=$?
[ "$st" -eq 125 ]
tap_ok $? "-o /dev/full exits with status 125" "status $st, stderr: $(head -3 "$T/err")"
grep -q "cannot write the report to '/dev/full': No space left on device" "$T/err" &&
	grep -q "the command ran and exited with status 3" "$T/err"
tap_ok $? "the message names /dev/full, the error, and says the command ran with status 3" "stderr: $(head -3 "$T/err")"
[ -e "$T/ran" ]
tap_ok $? "the command ran"
rm -f "$T/ran"

"$DELAYTOP" -- sh -c 'exit 4' 2>/dev/full
st=$?
[ "$st" -eq 125 ]
tap_ok $? "a text report to stderr on a full device exits with 125" "status $st"

# ---- a file system that fills up: no truncated report, no temporary file ----
# A private mount namespace with an 8 KiB tmpfs (two pages) that the old report and a filler fill.
mkdir -p "$T/small"
unshare --mount --propagation private sh -c '
	mount -t tmpfs -o size=8k tmpfs "$1" || exit 99
	echo old report >"$1/report"
	head -c 4096 /dev/zero >"$1/fill" # the last page
	"$2" -o "$1/report" -- sh -c "exit 3" 2>"$3/err"
	echo $? >"$3/status"
	ls -A "$1" >"$3/ls"
	cat "$1/report" >"$3/report" 2>/dev/null' sh "$T/small" "$DELAYTOP" "$T"
[ "$(cat "$T/status" 2>/dev/null)" = 99 ] && skip_all "cannot mount a tmpfs in a private mount namespace"
st=$(cat "$T/status")
[ "$st" -eq 125 ]
tap_ok $? "a report that does not fit exits with status 125" "status $st, stderr: $(head -3 "$T/err")"
grep -q "No space left on device" "$T/err" && grep -q "exited with status 3" "$T/err"
tap_ok $? "the message says no space is left and that the command exited with status 3" "stderr: $(head -3 "$T/err")"
[ "$(cat "$T/report")" = "old report" ]
tap_ok $? "the report file is not truncated: it still holds what it held before" \
	"report now: $(head -c 200 "$T/report")"
[ "$(tr '\n' ' ' <"$T/ls")" = "fill report " ]
tap_ok $? "the temporary file is removed" "files left: $(tr '\n' ' ' <"$T/ls")"

# ---- a bad -o or a closed stderr: fails before the command runs ----
"$DELAYTOP" -o "$T/no/such/dir/report" -- sh -c "$(ran_cmd)" 2>"$T/err"
st=$?
[ "$st" -eq 125 ] && [ ! -e "$T/ran" ] && grep -q "$T/no/such/dir/report" "$T/err"
tap_ok $? "-o in a missing directory exits with 125 naming the file, without running the command" \
	"status $st, ran: $([ -e "$T/ran" ] && echo yes || echo no), stderr: $(head -3 "$T/err")"
rm -f "$T/ran"
# a read-only file system: root may write anywhere else
mkdir -p "$T/ro"
unshare --mount --propagation private sh -c '
	mount -t tmpfs -o size=64k,ro tmpfs "$1" || exit 99
	"$2" -o "$1/report" -- sh -c "$4" 2>"$3/err"' sh "$T/ro" "$DELAYTOP" "$T" "$(ran_cmd)"
st=$?
[ "$st" -eq 125 ] && [ ! -e "$T/ran" ] && grep -q "Read-only file system" "$T/err"
tap_ok $? "-o on a read-only file system exits with 125 saying so, without running the command" \
	"status $st, ran: $([ -e "$T/ran" ] && echo yes || echo no), stderr: $(head -2 "$T/err")"
rm -f "$T/ran"

"$DELAYTOP" -- sh -c "$(ran_cmd)" 2>&-
st=$?
[ "$st" -eq 125 ] && [ ! -e "$T/ran" ]
tap_ok $? "a report to a closed stderr exits with 125 without running the command" "status $st"
rm -f "$T/ran"
"$DELAYTOP" --format=json -o "$T/closed.json" -- sh -c 'exit 3' 2>&-
st=$?
[ "$st" -eq 3 ] && grep -q '"status":3' "$T/closed.json"
tap_ok $? "with -o FILE a closed stderr does not matter" "status $st, file: $(head -c 200 "$T/closed.json")"
"$DELAYTOP" -o /dev/null -- sh -c '[ -e /proc/self/fd/1 ] && exit 5; exit 6' >&- 2>/dev/null
st=$?
[ "$st" -eq 6 ]
tap_ok $? "the command gets stdout closed, as delaytop got it" "status $st (5: it was open)"

# ---- what the report file is ----
(umask 027 && "$DELAYTOP" -o "$T/new.txt" -- true 2>/dev/null)
mode=$(stat -c %a "$T/new.txt" 2>/dev/null)
[ "$mode" = 640 ]
tap_ok $? "a new report file gets 0666 less the umask (027: 640)" "mode $mode"
echo old >"$T/old.txt"
chmod 604 "$T/old.txt"
"$DELAYTOP" -o "$T/old.txt" -- sh -c 'exit 2' 2>/dev/null
st=$?
mode=$(stat -c %a "$T/old.txt")
[ "$st" -eq 2 ] && [ "$mode" = 604 ] && grep -q "exited with status 2" "$T/old.txt"
tap_ok $? "a report that replaces a file keeps its mode (604)" "status $st, mode $mode"
"$DELAYTOP" --format=json -o /dev/stdout -- sh -c 'exit 2' >>"$T/old.txt" 2>/dev/null
grep -q "exited with status 2" "$T/old.txt" && grep -q '"status":2' "$T/old.txt"
tap_ok $? "-o /dev/stdout writes to stdout directly (appending to what the shell opened)" \
	"file: $(head -c 300 "$T/old.txt")"
ls -A "$T" | grep -q '^\.' 
[ $? -ne 0 ]
tap_ok $? "no temporary files are left in the report's directory" "files: $(ls -A "$T" | tr '\n' ' ')"

done_testing
