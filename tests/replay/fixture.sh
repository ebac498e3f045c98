# fixture.sh — helpers for the tests that need no root: they replay the fixture recordings that
# tests/fixgen writes (tests/fixtures/README.md) and run as an ordinary user. Source it after
# tests/lib.sh (and after tests/screen/tmux.sh for a screen test).
#
# As root, delaytop, the generator and tmux run as nobody (uid and gid 65534, no groups) through
# setpriv, with this test's directory given to that user and HOME in it; as anyone else they run
# as they are. The time zone is UTC and the locale C.UTF-8, so that times and names read the same
# on every machine.

export TZ=UTC LC_ALL=C.UTF-8
FIXGEN=${FIXGEN:-${top_builddir:-.}/tests/fixgen}
FIX=$TMPDIR_TEST/fix
AS_USER=()
if [ "$(id -u)" -eq 0 ]; then
	command -v setpriv >/dev/null 2>&1 || skip_all "needs setpriv to run as an ordinary user when run as root"
	AS_USER=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
	chown 65534:65534 "$TMPDIR_TEST"
fi
export HOME=$TMPDIR_TEST/home

# as_user COMMAND...: COMMAND as an ordinary user (nobody, when the tests run as root).
as_user() {
	"${AS_USER[@]}" "$@"
}

[ -x "$FIXGEN" ] || skip_all "the fixture generator $FIXGEN is not built"
as_user mkdir -p "$FIX" "$HOME" "$TMPDIR_TEST/bin" || skip_all "cannot make $FIX as the test's user"
# A build under a directory that user cannot enter (a home of mode 0750): the programs are copied.
if ! as_user test -x "$DELAYTOP" || ! as_user test -x "$FIXGEN"; then
	cp "$DELAYTOP" "$FIXGEN" "$TMPDIR_TEST/bin/" && chmod 0755 "$TMPDIR_TEST/bin/"* ||
		{ echo "Bail out! cannot copy the programs for the test's user"; exit 1; }
	DELAYTOP=$TMPDIR_TEST/bin/${DELAYTOP##*/}
	FIXGEN=$TMPDIR_TEST/bin/${FIXGEN##*/}
fi
# The fixtures, made into $FIX by the generator, as the user that reads them.
as_user "$FIXGEN" "$FIX" || { echo "Bail out! $FIXGEN $FIX failed"; exit 1; }

# dt ARGS...: delaytop as the test's user.
dt() {
	as_user "$DELAYTOP" "$@"
}

# When tmux.sh was sourced: its server and every client run as the test's user, their socket in
# this test's directory, and the screen in UTC.
if declare -F tm >/dev/null; then
	export TMUX_TMPDIR=$TMPDIR_TEST/tmux
	as_user mkdir -p "$TMUX_TMPDIR"
	tm() {
		env -u TMUX "${AS_USER[@]}" "$TMUX_BIN" -L "$TMUX_SOCKET" -f /dev/null "$@" 9>&-
	}
fi

# open_replay [VAR=VALUE ...] -- DELAYTOP-ARGS...: start_screen, then waits for the recording's
# first screen and for the screen to take keys: under load a key sent just as it starts can be
# lost, so h (the help) is sent until the help shows, and x (no action) takes it away again.
open_replay() {
	local try
	start_screen "$@" || return 1
	wait_for_screen '^RECORDING ' 5 || return 1
	for try in 1 2 3; do
		keys h
		wait_for_screen '^delaytop help' 1 && break
	done
	keys x
	wait_for_screen_not '^delaytop help' 3 && wait_for_screen '^RECORDING ' 3
}

# at_time HH:MM:SS: waits until the header shows the reading of that time (the fixtures' readings
# are whole seconds apart, the first at 00:00:00: n moves one on). A key's effect is read after
# it: a screen that still shows the reading before may already match what is waited for.
at_time() { wait_for_screen "^RECORDING 2026-01-01 $1\\.0( |\$)" 3; }

# rows_are "ID ID ... ": waits until the table's rows are these, in this order.
ids() { row_ids | tr '\n' ' '; }
want_rows=""
rows_ok() { [ "$(ids)" = "$want_rows" ]; }
rows_are() { want_rows=$1; wait_for_screen_fn rows_ok 3; }
