#!/bin/bash
# whykey.sh — y switches --why on the screen at run time: started without it, two spinners sharing
# CPU 1 show '-' under CPU p99; after y a number (and the header says "why on", the detail view
# draws the run-queue histogram, the eBPF programs are loaded); after y again '-' once more and
# the programs are gone. W keeps it (why=yes, why=no). As nobody, or without BTF, y shows the
# sampler's sentence on the status line and the screen goes on; in a replay, y says it cannot.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats
require_cpus 2
require_cmd jq setpriv
SCREEN_H=70 # the detail view's histograms come below its charts

require_why # and the global lock, which the spinners below want too

CFG=$TMPDIR_TEST/cfg # no settings file of the machine's: the screen starts without --why
FILE=$CFG/delaytop/delaytoprc

enable_delayacct
wait_cpu_quiet 1
start_workload spin 1; A=$WORKLOAD_PID
start_workload spin 1; B=$WORKLOAD_PID
sleep 0.3

# p99_is ID PATTERN: the CPU p99 cell of ID's row matches PATTERN (an ERE, whole)
p99_is() {
	local c
	c=$(cell "$1" p99) && [[ $c =~ ^($2)$ ]]
}
both_dash() { p99_is "$A" - && p99_is "$B" - && ! header | grep -q 'why on'; }
both_number() { p99_is "$A" '[0-9.]+' && p99_is "$B" '[0-9.]+' && header | grep -q 'why on'; }
# bpf_progs: the eBPF programs the screen's delaytop holds open
bpf_progs() {
	ls -l "/proc/$SCREEN_PID/fd" 2>/dev/null | grep -c 'anon_inode:bpf-prog'
}
message() { printf '%s\n' "$SCREEN" | tail -1; }

start_screen XDG_CONFIG_HOME="$CFG" -- -d 1 -p "$A,$B" --columns pid,cpu,cpu_p99,command
wait_for_screen_fn both_dash 8
screen_ok $? "without --why: '-' under CPU p99 for both spinners, no 'why on' in the header" \
	"A: '$(cell "$A" p99)' B: '$(cell "$B" p99)'" "header: $(header)"
[ "$(bpf_progs)" = 0 ]
tap_ok $? "no eBPF program is loaded" "$(bpf_progs) loaded"

# ---- y: on ----
keys y
wait_for_screen '--why on' 2
screen_ok $? "y says --why is on from the next reading" "message: $(message)"
wait_for_screen_fn both_number 8
screen_ok $? "within a few readings a number under CPU p99 for both, and 'why on' in the header" \
	"A: '$(cell "$A" p99)' B: '$(cell "$B" p99)'" "header: $(header)"
n=$(bpf_progs)
[ "$n" -gt 0 ]
tap_ok $? "the eBPF programs are loaded ($n)" "got $n"

# the detail view: the CPU line's count, and its bars' counts adding up to it
hist_ok() {
	read -r n sum bars <<<"$(printf '%s\n' "$SCREEN" | awk '
		/^CPU +waits [0-9]+ / { n = $3; inside = 1; next }
		inside && /^ +[0-9.]+(us|ms|s)-[0-9.a-z]+ +\|.*\| [0-9]+$/ { sum += $NF; bars++; next }
		inside { inside = 0 }
		END { printf "%s %d %d\n", n, sum, bars }')"
	[ -n "$n" ] && [ "$n" -gt 0 ] && [ "$sum" = "$n" ] && [ "$bars" -ge 1 ]
}
keys i
wait_for_screen_fn hist_ok 6
screen_ok $? "the detail view draws the CPU histogram, its bars adding up to its waits"
keys Escape

keys W
wait_for_screen "settings written to $FILE" 5
grep -qx 'why=yes' "$FILE" 2>/dev/null
tap_ok $? "W while it is on writes why=yes" "$(cat "$FILE" 2>&1)"

# ---- y: off ----
keys y
wait_for_screen '--why off' 2
screen_ok $? "y again says --why is off from the next reading" "message: $(message)"
wait_for_screen_fn both_dash 8
screen_ok $? "'-' under CPU p99 again, and no 'why on' in the header" \
	"A: '$(cell "$A" p99)' B: '$(cell "$B" p99)'" "header: $(header)"
[ "$(bpf_progs)" = 0 ]
tap_ok $? "the eBPF programs are unloaded" "$(bpf_progs) still loaded"
keys W
wait_for_screen "settings written to $FILE" 5
grep -qx 'why=no' "$FILE" 2>/dev/null
tap_ok $? "W while it is off writes why=no" "$(cat "$FILE" 2>&1)"
quit_ok "the screen ends with status 0"

# ---- where it cannot load: the sampler's sentence, the screen goes on ----
# refused NAME SENTENCE [VAR=VALUE...]: y on a screen (started as DELAYTOP) that cannot load
refused() {
	local name=$1 sentence=$2 rows_ok
	shift 2
	start_screen XDG_CONFIG_HOME="$CFG" "$@" -- -d 0.5 -p "$A,$B" --columns pid,cpu,cpu_p99,command
	wait_for_screen_fn both_dash 8
	screen_ok $? "$name: the screen comes up with '-' under CPU p99"
	keys y
	wait_for_screen_fn refusal_said 6
	screen_ok $? "$name: y shows the reason on the status line ($sentence)" "message: $(message)"
	sleep 1.5 # more readings: the screen goes on, --why back off
	capture
	rows_ok=0
	both_dash && [ -n "$(row_of "$A")" ] && [ -n "$(row_of "$B")" ] && [ -z "$(screen_status)" ] || rows_ok=1
	screen_ok $rows_ok "$name: the rows stay, '-' under CPU p99, no 'why on', the screen runs on" "header: $(header)"
	quit_ok "$name: the screen ends with status 0"
}
refusal_said() { message | grep -q -- "$REFUSAL"; }

setup_nobody
cat >"$TMPDIR_TEST/nobody.sh" <<EOF
#!/bin/sh
exec ${NOBODY[*]} "$DT" "\$@"
EOF
chmod 0755 "$TMPDIR_TEST/nobody.sh"
REAL=$DELAYTOP
DELAYTOP=$TMPDIR_TEST/nobody.sh
REFUSAL="CAP_BPF and CAP_PERFMON"
refused unprivileged "$REFUSAL"
DELAYTOP=$REAL
REFUSAL="BTF, and /nonexistent/vmlinux"
refused no-btf "$REFUSAL" DELAYTOP_BTF=/nonexistent/vmlinux

# ---- a replay shows what was recorded ----
REC=$TMPDIR_TEST/r.rec
"$DELAYTOP" -w "$REC" -b -d 0.3 -n 2 -p "$A" >/dev/null 2>"$TMPDIR_TEST/rec.err" 9>&-
start_screen XDG_CONFIG_HOME="$CFG" -- -r "$REC"
wait_for_screen 'PID' 5
keys y
wait_for_screen 'recording shows what was recorded: --why cannot' 3
screen_ok $? "in a replay y says a recording shows what was recorded" "message: $(message)"
quit_ok "the replay ends with status 0"

stop_pid "$A"
stop_pid "$B"
done_testing
