# output.sh — output that cannot be written is an error, not a silent success: batch mode with
# stdout closed, the screen with stdin or stdout closed, --help and --version to a full device or
# a closed stdout. Closed stdin or stderr do not hurt batch mode; a wait between readings that
# fails ends it with a message and status 1. Needs /dev/full.
. "$top_srcdir/tests/lib.sh"

[ -c /dev/full ] || skip_all "needs /dev/full"
T=$TMPDIR_TEST
export LC_ALL=C

# fails_with "description" WORD CMD...: CMD (run with its own redirections by the caller) gave a
# status other than 0 and a message containing WORD; reads $st and $T/err.
fails_with() {
	local desc=$1 word=$2
	[ "$st" -ne 0 ] && grep -qi -- "$word" "$T/err"
	tap_ok $? "$desc" "expected a non-zero status and a message with '$word'" "status $st, stderr: $(head -3 "$T/err")"
}

# ---- batch mode ----
"$DELAYTOP" -b -n 1 -d 0.1 >&- 2>"$T/err"
st=$?
fails_with "batch mode with stdout closed fails, saying standard output is closed" "standard output is closed"
[ "$st" -eq 1 ]
tap_ok $? "batch mode with stdout closed exits with status 1" "status $st"

"$DELAYTOP" -b -n 1 -d 0.1 <&- 2>&- >"$T/out"
st=$?
[ "$st" -eq 0 ] && grep -q '^PSI' "$T/out"
tap_ok $? "batch mode with stdin and stderr closed prints its report and exits with 0" \
	"status $st, stdout: $(head -3 "$T/out")"

# The wait between readings fails (tests/failcall.so makes ppoll fail with ENOMEM): not a silent end.
FAILCALL=$(cd "${top_builddir:-.}" && pwd)/tests/failcall.so
if [ -f "$FAILCALL" ]; then
	# -d 1: a loop whose reading took longer than the interval does not wait at all (a loaded
	# machine, at -d 0.1), and would never call ppoll
	LD_PRELOAD=$FAILCALL FAILCALL_PPOLL=12 ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$DELAYTOP" -b -n 2 -d 1 >"$T/out" 2>"$T/err"
	st=$?
	[ "$st" -eq 1 ] && grep -q "^delaytop: cannot wait for the next reading: Cannot allocate memory$" "$T/err"
	tap_ok $? "batch mode whose wait fails (ENOMEM) exits with status 1, saying why" \
		"status $st, stderr: $(head -3 "$T/err")"
else
	tap_skip "batch mode whose wait fails exits with status 1" "tests/failcall.so is not built (make check builds it)"
fi

"$DELAYTOP" -b -n 1 -d 0.1 --format=json <&- >"$T/out" 2>"$T/err"
st=$?
[ "$st" -eq 0 ] && grep -q '"type":"psi"' "$T/out"
tap_ok $? "batch mode with stdin closed prints JSON and exits with 0" "status $st, stderr: $(head -2 "$T/err")"

# ---- the screen: it refuses before it opens anything ----
"$DELAYTOP" >&- 2>"$T/err"
st=$?
fails_with "the screen with stdout closed fails, saying standard output is closed" "standard output is closed"
"$DELAYTOP" <&- 2>"$T/err"
st=$?
fails_with "the screen with stdin closed fails, saying standard input is closed" "standard input is closed"

# ---- --help and --version ----
for opt in --help --version; do
	"$DELAYTOP" $opt >/dev/full 2>"$T/err"
	st=$?
	fails_with "$opt to a full device fails, naming the error" "No space left on device"
	"$DELAYTOP" $opt >&- 2>"$T/err"
	st=$?
	fails_with "$opt with stdout closed fails" "standard output"
	"$DELAYTOP" $opt >"$T/out" 2>"$T/err"
	st=$?
	[ "$st" -eq 0 ] && [ -s "$T/out" ] && [ ! -s "$T/err" ]
	tap_ok $? "$opt to a file still exits with 0, stderr empty" "status $st, stderr: $(head -2 "$T/err")"
done

done_testing
