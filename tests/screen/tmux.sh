# tmux.sh — helpers for the screen tests. Source it after tests/lib.sh.
#
# Each test gets a private tmux server (socket delaytop-PID), killed on exit. delaytop runs as
# the pane's command through a small wrapper that writes its pid and, when it ends, its exit
# status to files; the pane stays after it ends (remain-on-exit) so its last screen can be read.
# SCREEN holds the last capture; screen_ok reports a test point with that capture as diagnostics.

[ -n "${TMUX_BIN:-}" ] || skip_all "tmux is not installed (TMUX_BIN is empty)"

# The tests read the screen's UTF-8 (the sort marker, box characters) with grep, awk and sed,
# and tmux draws it only for a UTF-8 client: both whatever locale the suite was started in (CI
# may start it with none). delaytop's own locale is set by start_screen.
unset LC_ALL
export LC_CTYPE=C.UTF-8

TMUX_SOCKET=delaytop-$$
TMUX_SOCKET_PATH=""
SCREEN_W=120
SCREEN_H=40
SCREEN=""
SCREEN_PID=""
SCREEN_PID_FILE=$TMPDIR_TEST/screen.pid
SCREEN_STATUS_FILE=$TMPDIR_TEST/screen.status

# tm ARGS...: tmux on this test's own server only. The server outlives the call: it must not keep
# the lock of lock_global (fd 9), or a server left behind would hold up every later test.
tm() {
	env -u TMUX "$TMUX_BIN" -L "$TMUX_SOCKET" -f /dev/null "$@" 9>&-
}

screen_cleanup() {
	tm kill-server >/dev/null 2>&1
	# tmux leaves its socket behind
	[ -n "$TMUX_SOCKET_PATH" ] && [ -S "$TMUX_SOCKET_PATH" ] && rm -f "$TMUX_SOCKET_PATH"
	# kill-server hangs the pane up; make sure our delaytop is gone before the files go
	if [ -n "$SCREEN_PID" ] && kill -0 "$SCREEN_PID" 2>/dev/null; then
		kill -TERM "$SCREEN_PID" 2>/dev/null
		sleep 0.2
		! kill -0 "$SCREEN_PID" 2>/dev/null || kill -KILL "$SCREEN_PID" 2>/dev/null
	fi
	return 0
}
trap 'screen_cleanup; cleanup' EXIT

# abs PATH: PATH made absolute (the pane does not run in our directory).
abs() {
	case $1 in
	/*) echo "$1" ;;
	*) echo "$PWD/$1" ;;
	esac
}
DELAYTOP=$(abs "$DELAYTOP")
WORKLOAD=$(abs "$WORKLOAD")

# bg_start VAR PROGRAM ARGS...: starts PROGRAM in the background, tracked, its pid in VAR.
bg_start() {
	local var=$1
	shift
	"$@" >/dev/null 2>&1 9>&- &
	track_pid "$!"
	printf -v "$var" '%s' "$!"
}

# start_screen [VAR=VALUE | -u VAR ...] [-- DELAYTOP-ARGS...]: delaytop in a new SCREEN_W x
# SCREEN_H session of its own, with LANG=C.UTF-8 unless a VAR=VALUE says otherwise (-u VAR:
# without VAR); kills the previous one. Sets SCREEN_PID; returns 1 when delaytop did not start.
start_screen() {
	local envs=() unsets=()

	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		if [ "$1" = -u ]; then
			unsets+=(-u "$2")
			shift
		else
			envs+=("$1")
		fi
		shift
	done
	[ $# -gt 0 ] && shift
	stop_screen
	rm -f "$SCREEN_PID_FILE" "$SCREEN_STATUS_FILE"
	cat >"$TMPDIR_TEST/run.sh" <<'EOF'
pidf=$1 stf=$2
shift 2
sh -c 'echo $$ >"$0.tmp" && mv "$0.tmp" "$0" && exec "$@"' "$pidf" "$@"
echo $? >"$stf.tmp" && mv "$stf.tmp" "$stf"
EOF
	tm set-option -g remain-on-exit on \; set-option -g status off \; \
		new-session -d -s dt -x "$SCREEN_W" -y "$SCREEN_H" \
		sh "$TMPDIR_TEST/run.sh" "$SCREEN_PID_FILE" "$SCREEN_STATUS_FILE" \
		env -u LC_ALL -u LC_CTYPE -u LC_MESSAGES -u NO_COLOR -u LANGUAGE "${unsets[@]}" LANG=C.UTF-8 "${envs[@]}" \
		"$DELAYTOP" "$@" || return 1
	[ -n "$TMUX_SOCKET_PATH" ] || TMUX_SOCKET_PATH=$(tm display-message -p '#{socket_path}')
	case $TMUX_SOCKET_PATH in
	*/"$TMUX_SOCKET") ;;
	*) TMUX_SOCKET_PATH="" ;;
	esac
	wait_until 5 test -s "$SCREEN_PID_FILE" || return 1
	SCREEN_PID=$(cat "$SCREEN_PID_FILE")
}

# stop_screen: ends the session's server (and the delaytop in it) if there is one.
stop_screen() {
	if tm has-session -t dt 2>/dev/null; then
		tm kill-server 2>/dev/null
	fi
	if [ -n "$SCREEN_PID" ]; then
		wait_until 3 pid_gone "$SCREEN_PID"
		SCREEN_PID=""
	fi
}

pid_gone() {
	! kill -0 "$1" 2>/dev/null || [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = Z ]
}

# capture [capture-pane options]: the pane's text into SCREEN.
capture() {
	SCREEN=$(tm capture-pane -p -t dt "$@" 2>&1)
}

# screen_has ERE: whether the last capture matches.
screen_has() {
	printf '%s\n' "$SCREEN" | grep -E -q -e "$1"
}

# wait_for_screen ERE SECONDS [capture-pane options]: captures until the screen matches ERE;
# SCREEN holds the capture. (When the pane's program has ended, tmux scrolls its last lines up to
# write "Pane is dead": capture with -S - to see them.) The three waits poll as wait_until does.
wait_for_screen() {
	local re=$1 seconds=$2
	shift 2
	wait_until "$seconds" captured_has "$re" "$@"
}
captured_has() {
	local re=$1
	shift
	capture "$@"
	screen_has "$re"
}

# wait_for_screen_not ERE SECONDS: captures until the screen no longer matches ERE.
wait_for_screen_not() {
	wait_until "$2" captured_lacks "$1"
}
captured_lacks() {
	capture
	! screen_has "$1"
}

# wait_for_screen_fn FUNCTION SECONDS: captures until FUNCTION (which reads SCREEN) succeeds.
wait_for_screen_fn() {
	wait_until "$2" captured "$1"
}
captured() {
	capture
	"$1"
}

# keys KEY...: send-keys to the pane (tmux key names: Escape, Enter, C-u...).
keys() {
	tm send-keys -t dt "$@"
}

# type_text TEXT: sends TEXT literally.
type_text() {
	tm send-keys -t dt -l -- "$1"
}

# screen_ok STATUS "description" [extra diagnostic...]: a test point; on failure the extra
# lines and the last capture go out as diagnostics.
screen_ok() {
	local status=$1 desc=$2 lines=() line
	shift 2
	lines=("$@" "screen (${SCREEN_W}x${SCREEN_H}):")
	while IFS= read -r line; do
		lines+=("|$line")
	done <<<"$SCREEN"
	tap_ok "$status" "$desc" "${lines[@]}"
}

# screen_check "description" COMMAND...: screen_ok from the command's status.
screen_check() {
	local desc=$1
	shift
	"$@"
	screen_ok $? "$desc" "failed: $*"
}

# line N: line N (1-based) of the last capture.
line() {
	printf '%s\n' "$SCREEN" | sed -n "${1}p"
}

# The header has two lines on a screen of 7 lines or more: the system's state, then the view's.
HEADER_LINES=2

# header: the header's lines of the last capture joined into one, two spaces apart.
header() {
	printf '%s\n' "$SCREEN" | sed -n "1,${HEADER_LINES}p" | awk 'NR > 1 { printf "  " } { printf "%s", $0 } END { print "" }'
}

# title_line: the table's title line of the last capture (starts with spaces and PID or TID).
title_line() {
	printf '%s\n' "$SCREEN" | grep -m1 -E '^ *[▼▲v^]?(PID|TID)[▼▲v^]? '
}

# ascii_title: the title line with the sort marker as one byte, so byte offsets are columns.
ascii_title() {
	title_line | sed 's/▼/v/; s/▲/^/'
}

# marked_title: the title that carries the sort marker, without it.
marked_title() {
	title_line | tr ' ' '\n' | grep -E '▼|▲' | sed 's/[▼▲]//'
}

# table_rows: the table's rows of the last capture (lines after the title that start with a pid).
table_rows() {
	printf '%s\n' "$SCREEN" | awk 'seen && /^ *[0-9]+ / { print } /^ *[▼▲v^]?(PID|TID)[▼▲v^]? / { seen = 1 }'
}

# row_of ID: the table row whose first column is ID.
row_of() {
	table_rows | awk -v id="$1" '$1 == id { print; exit }'
}

# selected_id: the first column of the row in reverse video (the selection), from a fresh
# capture with escapes; SCREEN is left holding a plain capture.
selected_id() {
	local sgr=$'\e\\[[0-9;]*m' rev=$'\e\\[([0-9;]*;)?7m'
	capture -e
	printf '%s\n' "$SCREEN" | grep -E "^($sgr)*$rev($sgr)* *[0-9]+ " | sed -E "s/^($sgr)+ *([0-9]+) .*/\\2/" | head -1
	capture
}

# row_ids: the first column of the table rows, one a line, in screen order.
row_ids() {
	table_rows | awk '{ print $1 }'
}

# cell ID TITLE: the text of the cell under the right-aligned title TITLE in the row of ID.
cell() {
	local t r
	t=$(ascii_title)
	r=$(row_of "$1")
	[ -n "$r" ] || return 1
	awk -v t="$t" -v r="$r" -v name="$2" 'BEGIN {
		n = split(t, f, " "); pos = 0; end = 0
		for (i = 1; i <= n; i++) {
			pos = index(substr(t, end + 1), f[i]) + end
			end = pos + length(f[i]) - 1
			g = f[i]; gsub(/^[v^]|[v^]$/, "", g)
			if (g == name) { start = end - 7; if (start < 0) start = 0; s = substr(r, start + 1, end - start); gsub(/ /, "", s); print s; exit }
		}
		exit 1
	}'
}

# command_column: the 0-based screen column where the title COMMAND starts.
command_column() {
	ascii_title | awk '{ i = index($0, "COMMAND"); if (!i) exit 1; print i - 1 }'
}

# proc_cpu_ticks PID: utime + stime of PID in clock ticks.
proc_cpu_ticks() {
	awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"
}

# screen_status: the exit status delaytop left, empty while it runs.
screen_status() {
	cat "$SCREEN_STATUS_FILE" 2>/dev/null
}

# wait_status [SECONDS]: waits (10 s at most) until the pane's wrapper has written delaytop's exit
# status, which it does only after delaytop is gone: its pid gone does not mean the status is
# there yet. Returns 1 when it is not.
wait_status() {
	wait_until "${1:-10}" test -s "$SCREEN_STATUS_FILE"
}

# quit_ok "description": q, then a test point that the screen ended with status 0.
quit_ok() {
	keys q
	wait_status
	[ "$(screen_status)" = 0 ]
	tap_ok $? "$1" "status: $(screen_status)"
}
