# replay.sh — the screen on a recording (-r): two spinners sharing CPU 1 are recorded (-w, six
# readings of 0.5 s after the first); the screen opens paused on the first reading and its
# header says it is a recording (file, host, the reading's time); n and Right step to the next
# reading and N and Left back, to the times the batch replay's JSON gives, and the spinners' CPU
# delay is the one the batch replay's text report prints for that reading; J goes to a time
# typed as @SECONDS and as YYYY-MM-DD HH:MM:SS, names a time it cannot read, and says when it
# is before the start; z plays on its own at the recorded pace and stops at the end, saying so,
# as stepping past either end does; the keys that would read or change the machine (H, d, Space,
# Ctrl-T) say why they do nothing; q quits with status 0.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats
require_cpus 2
require_cmd jq awk date
lock_global # the spinners load CPU 1
enable_delayacct

# ---- the recording ----
NAME=dtr$$
ln -s "$WORKLOAD" "$TMPDIR_TEST/$NAME"
wait_cpu_quiet 1
bg_start SPIN1 "$TMPDIR_TEST/$NAME" spin 1
bg_start SPIN2 "$TMPDIR_TEST/$NAME" spin 1
sleep 0.3
REC=$TMPDIR_TEST/x.rec
T0=$(date +%s)
"$DELAYTOP" -w "$REC" -b -d 0.5 -n 6 >/dev/null 2>"$TMPDIR_TEST/rec.err" 9>&-
status=$?
T1=$(date +%s)
stop_pid "$SPIN1"
stop_pid "$SPIN2"
[ "$status" = 0 ] && [ -s "$REC" ]
tap_ok $? "the recording is made (-w, -b, 6 readings)" "status $status: $(head -3 "$TMPDIR_TEST/rec.err")"

# The readings after the first, as the batch replay gives them: their times (ISO 8601 with
# milliseconds) and each spinner's CPU cell in the text reports.
mapfile -t TIMES < <("$DELAYTOP" -r "$REC" --format json | jq -r 'select(.type == "psi") | .time')
mapfile -t INTERVALS < <("$DELAYTOP" -r "$REC" --format json | jq -r 'select(.type == "psi") | .interval_s')
"$DELAYTOP" -r "$REC" -b >"$TMPDIR_TEST/text" 2>&1
[ "${#TIMES[@]}" -eq 6 ]
tap_ok $? "the batch replay gives 6 readings after the first" "times: ${TIMES[*]}"
[ "${#TIMES[@]}" -ge 6 ] || { done_testing; }

# shown ISO: the time as the header shows it, "YYYY-MM-DD HH:MM:SS.d"
shown() { local t=${1/T/ }; echo "${t:0:21}"; }
# epoch ISO: seconds since the epoch, with the milliseconds
epoch() { date -d "$1" +%s.%3N; }
# text_cpu N PID: the CPU cell of PID in the Nth text report
text_cpu() {
	awk -v n="$1" -v pid="$2" '/^delaytop - / { r++ } r == n && $1 == pid { print $5; exit }' "$TMPDIR_TEST/text"
}
# shown_time: the time in the header's first line
shown_time() { line 1 | sed -n 's/^RECORDING \([0-9-]* [0-9:.]*\)  .*/\1/p'; }
time_is() { [ "$(shown_time)" = "$1" ]; }
footer() { line "$SCREEN_H"; }

# ---- the first screen ----
start_screen -- -r "$REC"
wait_for_screen '^RECORDING ' 5
screen_ok $? "the screen opens on the recording: its header starts with RECORDING"
printf '%s\n' "x.rec, recorded on $(uname -n)" >"$TMPDIR_TEST/origin"
line 1 | grep -q -F -f "$TMPDIR_TEST/origin"
screen_ok $? "the header names the file and the host it was recorded on" "line 1: $(line 1)"
FIRST=$(shown_time)
first_s=$(date -d "${FIRST%.*}" +%s 2>/dev/null)
[ -n "$first_s" ] && [ "$first_s" -ge "$T0" ] && [ "$first_s" -le "$T1" ] &&
	awk -v a="$first_s.${FIRST##*.}" -v b="$(epoch "${TIMES[0]}")" 'BEGIN { exit !(a + 0 < b + 0) }'
screen_ok $? "it shows the first reading: taken during the recording ($FIRST), before the batch replay's first (${TIMES[0]})"
line 1 | grep -q -E '^RECORDING [0-9:. -]+  PAUSED 1x  ' && header | grep -q -E '  processes  a first reading: no rates  '
screen_ok $? "the first reading is shown paused (PAUSED 1x after its time), as one without rates" "header: $(header)"

# ---- n, Right, N, Left ----
keys /
type_text "$NAME"
keys Enter
ours() { [ "$(row_ids | sort -n)" = "$(printf '%s\n' "$SPIN1" "$SPIN2" | sort -n)" ]; }
wait_for_screen_fn ours 3
screen_ok $? "/ $NAME leaves the two spinners' rows" "rows: $(row_ids | tr '\n' ' ')"

# wait_time SHOWN SECONDS: captures until the header shows the time SHOWN
WANT_TIME=""
at_want_time() { time_is "$WANT_TIME"; }
wait_time() {
	WANT_TIME=$1
	wait_for_screen_fn at_want_time "$2"
}

cells_are() { [ "$(cell "$SPIN1" CPU)" = "$want1" ] && [ "$(cell "$SPIN2" CPU)" = "$want2" ]; }

# step KEY N: KEY shows reading N (1-based, after the first), with the spinners' CPU cells of
# the batch replay's Nth text report (whatever they are: on a busy machine a spinner may have
# waited all of an interval, its wait counted in a later one, or more than it can have: "-")
step() {
	local key=$1 n=$2 want got1 got2
	want=$(shown "${TIMES[$((n - 1))]}")
	want1=$(text_cpu "$n" "$SPIN1") want2=$(text_cpu "$n" "$SPIN2")
	keys "$key"
	wait_time "$want" 3
	screen_ok $? "$key shows reading $n: the header's time is $want" "shown: $(shown_time)"
	# the header and the table are drawn one after the other: a capture may fall between them
	wait_for_screen_fn cells_are 2
	got1=$(cell "$SPIN1" CPU) got2=$(cell "$SPIN2" CPU)
	[ -n "$want1" ] && [ -n "$want2" ] && [ "$got1" = "$want1" ] && [ "$got2" = "$want2" ]
	screen_ok $? "$key: the spinners' CPU delay is the batch replay's for reading $n ($want1, $want2)" \
		"on the screen: $got1, $got2"
}
step n 1
# the reading's own interval: 0.5 s, or more after a first reading slowed by a busy machine
iv=$(header | sed -n 's/.*  processes  interval \([0-9.]*\)s  .*/\1/p')
awk -v a="$iv" -v b="${INTERVALS[0]}" 'BEGIN { d = a - b; exit !(a != "" && d < 0.006 && -d < 0.006) }'
screen_ok $? "a reading with rates: the header gives its interval (${INTERVALS[0]} s, the batch replay's)" "header: $(header)"
step Right 2
step N 1
keys Left
wait_time "$FIRST" 3
screen_ok $? "Left goes back to the first reading ($FIRST)" "shown: $(shown_time)"
keys N
wait_for_screen 'this is the first reading: the recording starts here' 3
time_is "$FIRST"
screen_ok $? "N on the first reading says the recording starts there, and stays" "footer: $(footer)"

# ---- J: a time typed in ----
keys J
printf '%s\n' "Go to (YYYY-MM-DD HH:MM[:SS], HH:MM[:SS], @SECONDS, 10m ago): ${FIRST%.*}_" >"$TMPDIR_TEST/prompt"
wait_for_screen '^Go to ' 3
footer | grep -q -F -f "$TMPDIR_TEST/prompt"
screen_ok $? "J opens the time prompt with the time shown (${FIRST%.*})" "footer: $(footer)"
# just before reading 4: the first reading at or after it is reading 4
at=$(awk -v t="$(epoch "${TIMES[3]}")" 'BEGIN { printf "%.3f", t - 0.002 }')
keys C-u
type_text "@$at"
keys Enter
wait_time "$(shown "${TIMES[3]}")" 3
screen_ok $? "J @$at goes to reading 4 ($(shown "${TIMES[3]}"))" "shown: $(shown_time); footer: $(footer)"
# a whole second, as people type it: the first reading at or after it
sec=$(date -d "${TIMES[2]}" '+%Y-%m-%d %H:%M:%S')
sec_s=$(date -d "$sec" +%s)
want=""
for t in "${TIMES[@]}"; do
	if awk -v a="$(epoch "$t")" -v b="$sec_s" 'BEGIN { exit !(a + 0 >= b + 0) }'; then
		want=$(shown "$t")
		break
	fi
done
keys J C-u
type_text "$sec"
keys Enter
wait_time "$want" 3
screen_ok $? "J $sec goes to the first reading at or after it ($want)" "shown: $(shown_time); footer: $(footer)"
before=$(shown_time)
keys J C-u
type_text "25:99"
keys Enter
wait_for_screen "'25:99' is not a time" 3
screen_ok $? "J 25:99 is refused with a message naming '25:99'" "footer: $(footer)"
time_is "$before"
screen_ok $? "... and the time shown stays $before" "shown: $(shown_time)"
keys J C-u
type_text "@1000"
keys Enter
wait_time "$FIRST" 3 && wait_for_screen 'the recording starts at .*: its first reading' 3
screen_ok $? "J to a time before the recording shows its first reading and says so" \
	"shown: $(shown_time); footer: $(footer)"

# ---- keys that would read or change the machine ----
expect_say() { # KEY ERE: KEY says ERE on the message line
	keys "$1"
	wait_for_screen "$2" 3
	screen_ok $? "$1 says why it does nothing in a replay" "footer: $(footer)"
}
DA=$(sysctl -n kernel.task_delayacct)
expect_say H 'a recording shows the rows it was made with: threads only when made with -H'
expect_say d "a recording's interval is the one it was made with"
expect_say Space 'a recording takes no readings'
expect_say C-t "a recording shows what was read: Ctrl-T would switch this machine's kernel.task_delayacct"
[ "$(sysctl -n kernel.task_delayacct)" = "$DA" ] && ! footer | grep -q '\[y/N\]' && time_is "$FIRST"
screen_ok $? "... and asks nothing, leaves kernel.task_delayacct at $DA and the reading shown"

# ---- z plays, to the end ----
keys z
wait_for_screen '^RECORDING [0-9:. -]+  PLAYING 1x  ' 3
screen_ok $? "z plays: the header says PLAYING 1x" "line 1: $(line 1)"
wait_time "$(shown "${TIMES[1]}")" 4
screen_ok $? "play shows the readings on its own (reading 2 within about 1 s)" "shown: $(shown_time)"
wait_time "$(shown "${TIMES[5]}")" 5 && wait_for_screen 'the end of the recording: play stopped' 3 &&
	line 1 | grep -q -E '^RECORDING [0-9:. -]+  PAUSED 1x  '
screen_ok $? "play stops at the last reading ($(shown "${TIMES[5]}")), paused, and says so" \
	"shown: $(shown_time); line 1: $(line 1); footer: $(footer)"
keys n
wait_for_screen 'this is the last reading: the recording ends here' 3
time_is "$(shown "${TIMES[5]}")"
screen_ok $? "n on the last reading says the recording ends there, and stays" "footer: $(footer)"

quit_ok "q ends the replay with status 0"

# -w with the screen: the screen's readings are recorded as it takes them, and replay.
start_screen -- -w "$TMPDIR_TEST/screen.rec" -d 0.5
wait_for_screen '^ +PID .*TOTAL' 5
# three readings shown (three times in the header's clock, which has seconds): the first and two
# with rates, each recorded as it was taken; then a while more, as before
CLOCKS=""
three_shown() {
	local c
	c=$(line 1 | awk '{ print $1 }')
	case " $CLOCKS " in
	*" $c "*) ;;
	*) CLOCKS="$CLOCKS $c" ;;
	esac
	[ "$(echo $CLOCKS | wc -w)" -ge 3 ]
}
wait_for_screen_fn three_shown 10
screen_ok $? "the live screen with -w shows readings (three times:$CLOCKS)"
sleep 2
quit_ok "the live screen with -w ends with status 0"
n=$("$DELAYTOP" -r "$TMPDIR_TEST/screen.rec" --format json 2>/dev/null | jq -r 'select(.type == "psi") | .time' | wc -l)
[ "$n" -ge 2 ]
tap_ok $? "what the screen read is recorded: its readings replay (at least 2 with rates)" "readings: $n"
done_testing
