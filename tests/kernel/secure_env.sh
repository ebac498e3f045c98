# secure_env.sh — a copy of delaytop raised with cap_net_admin by setcap (as the README suggests)
# and run by an unprivileged user ignores DELAYTOP_LOCALEDIR: a crafted catalog whose translations
# are printf formats is not used, the English text is printed. Nor does its screen
# load a terminfo entry from TERMINFO or $HOME/.terminfo, nor a settings file from
# XDG_CONFIG_HOME. The same commands from the same user
# without the capability use the crafted files, which shows that they work, except for a
# translation that would read other arguments than its msgid ("%p %p %p" for "%s"): every run
# refuses that one. Nor does its --exit-buffer pass net.core.rmem_max, as root's does: the
# buffers are kernel memory that nobody reclaims while the process sleeps.
. "$top_srcdir/tests/lib.sh"

require_taskstats
require_cmd setcap getcap setpriv msgfmt script tic infocmp timeout pkill
locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$' || skip_all "needs the de_DE.UTF-8 locale (Debian: locales, locale-gen)"
id nobody >/dev/null 2>&1 || skip_all "needs the user nobody"
# The screen draws after its first reading, which a test loading the CPUs or forking 10,000
# processes at the same time (departed.sh) can hold up for many seconds.
lock_global

# Everything the unprivileged user runs or reads lives under the test's directory (mktemp -d
# makes it 0700).
chmod 755 "$TMPDIR_TEST"
mkdir -p "$TMPDIR_TEST/locale/de/LC_MESSAGES"
cat >"$TMPDIR_TEST/crafted.po" <<'EOF'
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"

msgid "Usage: %s [OPTION]... [-- COMMAND [ARG]...]\n"
msgstr "CRAFTED-USAGE %s\n"

msgid "option '%s' needs a value"
msgstr "CRAFTED-OPTION %p %p %p"
EOF
# Without -c: msgfmt would rightly refuse the mismatched formats.
msgfmt -o "$TMPDIR_TEST/locale/de/LC_MESSAGES/delaytop.mo" "$TMPDIR_TEST/crafted.po" 2>"$TMPDIR_TEST/msgfmt.err" ||
	skip_all "msgfmt cannot build the crafted catalog: $(head -1 "$TMPDIR_TEST/msgfmt.err")"
chmod -R a+rX "$TMPDIR_TEST/locale"

plain="$TMPDIR_TEST/plain-delaytop"
raised="$TMPDIR_TEST/raised-delaytop"
cp "$DELAYTOP" "$plain" && cp "$DELAYTOP" "$raised" && chmod 755 "$plain" "$raised"
setcap cap_net_admin+ep "$raised" 2>"$TMPDIR_TEST/setcap.err" ||
	skip_all "setcap fails on $TMPDIR_TEST: $(head -1 "$TMPDIR_TEST/setcap.err")"
getcap "$raised" | grep -q 'cap_net_admin[=+]e\?p' ||
	skip_all "the capability did not stick on $TMPDIR_TEST (no extended attributes?): $(getcap "$raised")"

# nobody ARG...: runs a command as the user nobody.
nobody() {
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$@"
}

# as_nobody PROGRAM ARG...: runs it as nobody under a German locale with the crafted catalog.
as_nobody() {
	nobody env LANGUAGE=de LC_ALL=de_DE.UTF-8 DELAYTOP_LOCALEDIR="$TMPDIR_TEST/locale" "$@"
}

# The control: without the capability the run is not secure and the catalog is used.
as_nobody "$plain" --help >"$TMPDIR_TEST/plain.help" 2>&1
grep -q '^CRAFTED-USAGE delaytop$' "$TMPDIR_TEST/plain.help"
tap_ok $? "control: without the capability, --help uses the catalog from DELAYTOP_LOCALEDIR" \
	"$(head -2 "$TMPDIR_TEST/plain.help")"
# Nor is a translation whose conversions differ from the msgid's used as a format, in any run.
as_nobody "$plain" -d >"$TMPDIR_TEST/plain.err" 2>&1
grep -q "^delaytop: option '-d' needs a value$" "$TMPDIR_TEST/plain.err" &&
	! grep -q -e CRAFTED -e 0x "$TMPDIR_TEST/plain.err"
tap_ok $? "without the capability, a translation reading '%p %p %p' for '%s' falls back to the English format" \
	"$(cat "$TMPDIR_TEST/plain.err")"

# The capability is really raised for nobody: taskstats answers, so the privileges are full.
nobody env LC_ALL=C "$raised" -b -n 1 -d 0.1 -p 1 >"$TMPDIR_TEST/raised.out" 2>&1
grep -q 'privileges full' "$TMPDIR_TEST/raised.out"
tap_ok $? "the setcap'd copy run by nobody has CAP_NET_ADMIN (full privileges)" "$(head -2 "$TMPDIR_TEST/raised.out")"

# exit_rcvbufs PID [FAMILY NAME]: the receive buffers (ss's rb, bytes) of PID's netlink sockets of
# a family (16, genl: the exit listeners and the query socket; 11, connector: the process
# events), one a line: its sockets' inodes, their port ids in /proc/net/netlink, their lines in ss.
exit_rcvbufs() {
	local inodes ports port family=${2:-16} name=${3:-genl}
	inodes=" $(ls -l "/proc/$1/fd" 2>/dev/null | sed -n 's/.*socket:\[\([0-9]*\)\]$/\1/p' | tr '\n' ' ') "
	ports=$(awk -v inodes="$inodes" -v f="$family" '$2 == f && index(inodes, " " $10 " ") { print $3 }' /proc/net/netlink)
	ss -f netlink -a -m 2>/dev/null | tr '\n' ' ' | sed 's/UNCONN/\n&/g' >"$TMPDIR_TEST/ss.out"
	for port in $ports; do
		[ "$port" -gt 2147483647 ] && port=$((port - 4294967296))
		# (a port that is the pid, as the first socket of a process gets, shows as COMM/PID)
		sed -n "s/.* $name:\([^ /]*\/\)\{0,1\}$port .*skmem:(r[0-9]*,rb\([0-9]*\),.*/\2/p" "$TMPDIR_TEST/ss.out"
	done
}
# buffers_of WHO PROGRAM: the exit sockets' buffers of a 2-reading run with --exit-buffer 1G.
buffers_of() {
	local pid
	if [ "$1" = nobody ]; then # not through nobody(): $! must be delaytop itself
		setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
			"$2" -b -n 2 -d 2 --exit-buffer 1G >/dev/null 2>&1 &
	else
		"$2" -b -n 2 -d 2 --exit-buffer 1G >/dev/null 2>&1 &
	fi
	pid=$!
	wait_first_reading "$pid" # its exit sockets are open and sized by then
	exit_rcvbufs "$pid" | sort -n | tr '\n' ' ' | sed 's/ $//'
	echo "|$(exit_rcvbufs "$pid" 11 connector | sort -u | tr '\n' ' ' | sed 's/ $//')"
	wait "$pid"
}
rmem_max=$(cat /proc/sys/net/core/rmem_max)
# The control: root's run passes rmem_max (the kernel doubles what it grants).
IFS='|' read -r root_bufs root_conn <<<"$(buffers_of root "$plain" | tr -d '\n')"
[ -n "$root_bufs" ] && [ "${root_bufs##* }" -gt $((2 * rmem_max)) ] 2>/dev/null
tap_ok $? "control: root's --exit-buffer 1G passes net.core.rmem_max ($rmem_max)" "buffers: $root_bufs"
IFS='|' read -r raised_bufs raised_conn <<<"$(buffers_of nobody "$raised" | tr -d '\n')"
biggest=${raised_bufs##* }
# The query socket's own 1 MiB (2 MiB granted) is delaytop's choice, not the user's: the bound is
# the larger of the two.
bound=$((2 * rmem_max > 2 * 1048576 ? 2 * rmem_max : 2 * 1048576))
[ -n "$raised_bufs" ] && [ "$biggest" -le "$bound" ] 2>/dev/null
tap_ok $? "the setcap'd copy run by nobody keeps --exit-buffer 1G within net.core.rmem_max ($rmem_max)" \
	"buffers: $raised_bufs"
# The process events' socket asks for 8 MiB: root's passes rmem_max where it is below 8 MiB (the
# control), the setcap'd copy's stays within it.
if [ "$rmem_max" -lt $((8 << 20)) ]; then
	[ -n "$root_conn" ] && [ "$root_conn" -gt $((2 * rmem_max)) ] 2>/dev/null
	tap_ok $? "control: root's process events socket passes net.core.rmem_max ($rmem_max)" "buffer: '$root_conn'"
	[ -n "$raised_conn" ] && [ "$raised_conn" -le $((2 * rmem_max)) ] 2>/dev/null
	tap_ok $? "the setcap'd copy run by nobody keeps its process events socket within net.core.rmem_max ($rmem_max)" \
		"buffer: '$raised_conn'"
else
	tap_skip "the process events socket stays within net.core.rmem_max" "rmem_max ($rmem_max) is above the 8 MiB asked for"
	tap_skip "control: root's process events socket passes net.core.rmem_max" "rmem_max is above 8 MiB"
fi

as_nobody "$raised" --help >"$TMPDIR_TEST/raised.help" 2>&1
grep -q '^Usage: delaytop ' "$TMPDIR_TEST/raised.help" && ! grep -q CRAFTED "$TMPDIR_TEST/raised.help"
tap_ok $? "with the capability, --help ignores DELAYTOP_LOCALEDIR and prints English" \
	"$(head -2 "$TMPDIR_TEST/raised.help")"
as_nobody "$raised" -d >"$TMPDIR_TEST/raised.err" 2>&1
status=$?
[ "$status" -eq 2 ] && grep -q "^delaytop: option '-d' needs a value$" "$TMPDIR_TEST/raised.err" &&
	! grep -q -e CRAFTED -e 0x "$TMPDIR_TEST/raised.err"
tap_ok $? "with the capability, an option error is the English text, without addresses" \
	"exit status $status: $(cat "$TMPDIR_TEST/raised.err")"

# A settings file that XDG_CONFIG_HOME names: the plain copy reads it, the raised one looks only
# in nobody's home from the user database (where there is none).
mkdir -p "$TMPDIR_TEST/xdg/delaytop"
printf 'sort=pid\n' >"$TMPDIR_TEST/xdg/delaytop/delaytoprc"
chmod -R a+rX "$TMPDIR_TEST/xdg"
for copy in plain raised; do
	nobody env LC_ALL=C XDG_CONFIG_HOME="$TMPDIR_TEST/xdg" "$TMPDIR_TEST/$copy-delaytop" -b -n 1 -d 0.1 -p 1 \
		>"$TMPDIR_TEST/$copy.settings" 2>&1
done
grep -q '^delaytop - .*sorted by pid$' "$TMPDIR_TEST/plain.settings"
tap_ok $? "control: without the capability, the settings file XDG_CONFIG_HOME names is read" \
	"$(head -3 "$TMPDIR_TEST/plain.settings")"
grep -q '^delaytop - .*sorted by total$' "$TMPDIR_TEST/raised.settings"
tap_ok $? "with the capability, XDG_CONFIG_HOME is ignored: the sort stays total" \
	"$(head -3 "$TMPDIR_TEST/raised.settings")"

# A terminal type only the user's files know, a copy of xterm that says its name on start-up.
mkdir -p "$TMPDIR_TEST/terminfo" "$TMPDIR_TEST/home/.terminfo"
infocmp -x xterm 2>/dev/null | sed -e 's/^xterm|[^,]*,/craftedterm|a copy of xterm,/' \
	-e 's/smcup=[^,]*,/smcup=CRAFTED-TERMINFO\\E[?1049h,/' >"$TMPDIR_TEST/crafted.ti"
tic -x -o "$TMPDIR_TEST/terminfo" "$TMPDIR_TEST/crafted.ti" 2>/dev/null &&
	tic -x -o "$TMPDIR_TEST/home/.terminfo" "$TMPDIR_TEST/crafted.ti" 2>/dev/null ||
	skip_all "tic cannot compile a copy of xterm's terminfo entry"
chmod -R a+rX "$TMPDIR_TEST/terminfo" "$TMPDIR_TEST/home"

# screen_as_nobody OUT PROGRAM VAR=VALUE: starts the screen in a pseudo-terminal as nobody, with
# TERM=craftedterm and the variable given, and stops it once it has drawn or refused (the first
# reading can take seconds on a loaded machine), after 40 s at most.
screen_as_nobody() {
	local pid
	# detect_leaks=0 (a sanitizer build): a TERM that lands on LeakSanitizer's helper while
	# delaytop exits (pkill below) leaves delaytop spinning, waiting for it.
	# --foreground: delaytop stays in the terminal's foreground process group. Without it, timeout
	# moves it to a group of its own, and unless the shell that script starts (SHELL, or sh when
	# it is unset, as in CI) is replaced by timeout, the screen's first tcsetattr stops it (SIGTTOU).
	nobody env TERM=craftedterm "$3" ASAN_OPTIONS=detect_leaks=0 timeout -s INT 45 \
		script -qec "timeout --foreground -s TERM 40 $2 -d 0.1" /dev/null >"$1" 2>&1 </dev/null 9>&- &
	pid=$!
	for _ in $(seq 400); do
		grep -q -e 'CRAFTED-TERMINFO' -e 'cannot use the terminal type' "$1" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	sleep 0.3 # the rest of what it writes at once
	# What the screen was doing, for a failure's message.
	ps -o pid=,stat=,wchan:24=,etime=,args= -C "${2##*/}" >"$1.ps" 2>&1
	pkill -TERM -f "timeout --foreground -s TERM 40 $2" 2>/dev/null
	wait "$pid" 2>/dev/null
	pkill -KILL -f "^$2 -d 0.1" 2>/dev/null # nothing of it may outlive the test
	return 0
}
for how in "TERMINFO=$TMPDIR_TEST/terminfo" "HOME=$TMPDIR_TEST/home"; do
	screen_as_nobody "$TMPDIR_TEST/plain.screen" "$plain" "$how"
	grep -q CRAFTED-TERMINFO "$TMPDIR_TEST/plain.screen"
	tap_ok $? "control: without the capability, the screen loads the terminal type from ${how%%=*}" \
		"$(head -c 300 "$TMPDIR_TEST/plain.screen" | cat -v; cat "$TMPDIR_TEST/plain.screen.ps")"
	screen_as_nobody "$TMPDIR_TEST/raised.screen" "$raised" "$how"
	grep -q "cannot use the terminal type 'craftedterm'" "$TMPDIR_TEST/raised.screen" &&
		! grep -q CRAFTED-TERMINFO "$TMPDIR_TEST/raised.screen"
	tap_ok $? "with the capability, the screen ignores ${how%%=*} and refuses the unknown terminal type" \
		"$(head -c 300 "$TMPDIR_TEST/raised.screen" | cat -v)"
done

done_testing
