# no_proc.sh — without /proc delaytop says that /proc is missing and exits non-zero, in batch
# mode, on the screen and in command mode (which then does not run the command), instead of an
# empty report with status 0. /proc is unmounted in a private mount namespace.
. "$top_srcdir/tests/lib.sh"

require_root
require_cmd unshare umount script timeout

T=$TMPDIR_TEST
export LC_ALL=C

# noproc CMD: runs the shell command CMD with /proc unmounted (in its own mount namespace).
noproc() {
	unshare --mount --propagation private sh -c "umount -l /proc || exit 99; $1"
}

noproc '[ -e /proc/self/stat ] && exit 98; exit 0'
case $? in
99) skip_all "cannot unmount /proc in a private mount namespace" ;;
98) skip_all "/proc is still there after umount in a private mount namespace" ;;
esac

# says_proc "description" STATUS-WANTED: a test point from $st and $T/err.
says_proc() {
	[ "$st" -eq "$2" ] && grep -q "/proc is not mounted" "$T/err"
	tap_ok $? "$1" "expected status $2 and a message that /proc is not mounted" "status $st, stderr: $(head -3 "$T/err")"
}

noproc "exec '$DELAYTOP' -b -n 1 -d 0.1 >'$T/out' 2>'$T/err'"
st=$?
says_proc "batch mode without /proc exits with 1, saying /proc is not mounted" 1
[ ! -s "$T/out" ]
tap_ok $? "batch mode without /proc prints no report" "stdout: $(head -3 "$T/out")"

noproc "exec '$DELAYTOP' --format=json -b -n 1 -d 0.1 >'$T/out' 2>'$T/err'"
st=$?
says_proc "JSON batch mode without /proc exits with 1, saying /proc is not mounted" 1

# The screen, on a terminal that script(1) provides; timeout ends a screen that did start.
TERM=xterm timeout 10 script -qec "unshare --mount --propagation private sh -c \"umount -l /proc && exec '$DELAYTOP' 2>'$T/err'\"; echo \"status \$?\" >'$T/screen.status'" /dev/null </dev/null >"$T/screen.out" 2>&1
st=$(sed -n 's/^status //p' "$T/screen.status" 2>/dev/null)
st=${st:-124}
says_proc "the screen without /proc exits with 1, saying /proc is not mounted" 1

noproc "exec '$DELAYTOP' -- sh -c 'echo x >\"$T/ran\"' >'$T/out' 2>'$T/err'"
st=$?
says_proc "command mode without /proc exits with 125, saying /proc is not mounted" 125
[ ! -e "$T/ran" ]
tap_ok $? "command mode without /proc does not run the command"

done_testing
