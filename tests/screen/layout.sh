# layout.sh — the full screen's structure: the header line, the PSI bars against /proc/pressure,
# the table's titles and sort marker, the footer, colour and NO_COLOR, the marker without UTF-8,
# and a spinner pair's CPU delay in its rows.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/screen/tmux.sh"

require_root
require_taskstats
require_cpus 2
lock_global
diag "got the global lock after ${SECONDS} s"
LOCKED_AT=$SECONDS

ESC=$'\e'
# the first header line; the second starts with the mode and the interval
HEADER_RE='^[0-9]{2}:[0-9]{2}:[0-9]{2} up [0-9:d ]+ +[0-9]+ proc [0-9]+ thr +delayacct (on|OFF|\?) +privileges (full|limited)( |$)'
HEADER2_RE='^(processes|threads)  every [0-9.]+s  '


# ---- the bars /proc/pressure says the screen should have ----
EXPECTED_BARS=()  # "LABEL KIND FILE", in screen order
for res in cpu memory io irq; do
	f=/proc/pressure/$res
	[ -r "$f" ] || continue
	case $res in
	cpu) label=CPU ;;
	memory) label=memory ;;
	io) label=I/O ;;
	irq) label=IRQ ;;
	esac
	if [ "$res" != irq ] && grep -q '^some ' "$f"; then
		EXPECTED_BARS+=("$label some $f")
	fi
	if [ "$res" != cpu ] && grep -q '^full ' "$f"; then
		EXPECTED_BARS+=("$label full $f")
	fi
done
NBARS=${#EXPECTED_BARS[@]}
[ "$NBARS" -gt 0 ] || skip_all "no PSI in /proc/pressure"

# bar_labels: "LABEL KIND" of the screen lines under the header, one a bar.
bar_labels() {
	printf '%s\n' "$SCREEN" | sed -n "$((HEADER_LINES + 1)),$((NBARS + HEADER_LINES))p" | awk '{ print $1, $2 }'
}

expected_labels() {
	local b
	for b in "${EXPECTED_BARS[@]}"; do
		set -- $b
		echo "$1 $2"
	done
}

# ---- the default screen, in colour ----
start_screen -- -d 0.5
tap_ok $? "delaytop starts in a tmux pane (pid ${SCREEN_PID:-none})"
wait_for_screen "$HEADER_RE" 5
screen_ok $? "the first line is the header: time, uptime, proc, thr, delayacct, privileges"
line 2 | grep -q -E "$HEADER2_RE"
screen_ok $? "the second header line starts with the mode and the interval: processes  every 0.5s"
# the bars need two readings for their interval share
wait_for_screen '^CPU +some \[.*\] +[0-9.]+%' 5

hdr=$(header)
now=$(date +%s)
hms=$(printf '%s\n' "$hdr" | grep -o -E '^[0-9]{2}:[0-9]{2}:[0-9]{2}')
scr_s=$(echo "$hms" | awk -F: '{ print $1 * 3600 + $2 * 60 + $3 }')
now_s=$(date -d "@$now" +%H:%M:%S | awk -F: '{ print $1 * 3600 + $2 * 60 + $3 }')
skew=$(( (now_s - scr_s + 86400) % 86400 ))
[ -n "$hms" ] && [ "$skew" -le 5 ]
screen_ok $? "the header's clock ($hms) is the local time of the last reading (within 5 s of now)" \
	"header: $hdr" "now: $(date -d "@$now" +%H:%M:%S)"

printf '%s\n' "$hdr" | grep -q -E '  privileges full  '
screen_ok $? "the header says privileges full for root"

case $(sysctl -n kernel.task_delayacct 2>/dev/null) in
1) want=on ;;
0) want=OFF ;;
*) want='?' ;;
esac
printf '%s\n' "$hdr" | grep -q -F "  delayacct $want  "
screen_ok $? "the header's delayacct state ($want) follows kernel.task_delayacct"

nproc_scr=$(printf '%s\n' "$hdr" | sed -n -E 's/.* ([0-9]+) proc ([0-9]+) thr .*/\1/p')
nthr_scr=$(printf '%s\n' "$hdr" | sed -n -E 's/.* ([0-9]+) proc ([0-9]+) thr .*/\2/p')
nproc_sys=$(ls -d /proc/[0-9]* | wc -l)
[ -n "$nproc_scr" ] && [ -n "$nthr_scr" ] && [ "$nthr_scr" -ge "$nproc_scr" ] &&
	within "$nproc_scr" $((nproc_sys / 2)) $((nproc_sys * 2))
screen_ok $? "the header counts processes ($nproc_scr; /proc has $nproc_sys) and at least as many threads ($nthr_scr)"

# ---- PSI bars ----
got=$(bar_labels)
want=$(expected_labels)
[ "$got" = "$want" ]
screen_ok $? "the PSI bars under the header are those /proc/pressure has: $(echo $want | tr '\n' ',')" \
	"expected:" $want "got:" $got

if [ -r /proc/pressure/irq ]; then
	screen_has '^IRQ +full \['
	screen_ok $? "an IRQ full bar, as /proc/pressure/irq exists"
else
	! screen_has '^IRQ '
	screen_ok $? "no IRQ bar, as /proc/pressure/irq is absent"
fi

# The kernel's averages beside each bar: avg300 moves slowly, so it must match the file.
bad=""
for b in "${EXPECTED_BARS[@]}"; do
	set -- $b
	scr=$(printf '%s\n' "$SCREEN" | grep -m1 -E "^$1 +$2 \[" | sed -n -E 's/.*avg300 +([0-9.]+).*/\1/p')
	sys=$(sed -n -E "s/^$2 .*avg300=([0-9.]+).*/\1/p" "$3")
	within "$scr" "$(echo "$sys" | awk '{ print $1 - 1 }')" "$(echo "$sys" | awk '{ print $1 + 1 }')" ||
		bad="$bad [$1 $2: screen ${scr:-none}, $3 $sys]"
done
[ -z "$bad" ]
screen_ok $? "each bar's avg300 matches /proc/pressure (within 1.0)" "mismatches:$bad"

# ---- the table ----
title_at=$((NBARS + HEADER_LINES + 1))
title=$(line "$title_at")
printf '%s\n' "$title" | sed 's/[▼▲]//g' | awk '{
	want = "PID USER S CPU% CPU IO TOTAL COMMAND"; n = split(want, w, " "); j = 1
	for (i = 1; i <= NF && j <= n; i++) if ($i == w[j]) j++
	exit !(j > n && $1 == "PID" && $NF == "COMMAND")
}'
screen_ok $? "line $title_at, under the bars, is the table title with PID USER S CPU% CPU IO ... TOTAL COMMAND in order" \
	"title: $title"

[ "$(marked_title)" = TOTAL ] && [ "$(title_line | grep -o -E '▼|▲' | wc -l)" -eq 1 ]
screen_ok $? "one sort marker, on TOTAL, at the start" "marked: $(marked_title)"

title_line | grep -q '▼TOTAL'
screen_ok $? "the marker on TOTAL points down (largest first)"

footer=$(line "$SCREEN_H")
printf '%s\n' "$footer" | grep -q -E '^h help +q quit'
screen_ok $? "the last line is the footer naming h (help) and q (quit)" "footer: $footer"

rows_text=$(table_rows)
[ "$(printf '%s\n' "$rows_text" | grep -c .)" -eq $((SCREEN_H - NBARS - HEADER_LINES - 2)) ]
screen_ok $? "the table fills the lines between the title and the footer ($((SCREEN_H - NBARS - HEADER_LINES - 2)) rows)"

# ---- colours ----
# sgr_colours TEXT: the colour parameters (30-38, 40-48, 90-107) of every SGR sequence in TEXT.
sgr_colours() {
	printf '%s\n' "$1" | grep -o -E "$ESC\\[[0-9;]*m" | tr -d "${ESC}[m" | tr ';' '\n' |
		grep -x -E '3[0-8]|4[0-8]|9[0-7]|10[0-7]'
}

# bar_colour_problems: for each bar line of an escaped capture, whether its cells carry the
# colour of its level: green below 10%, yellow from 10%, red from 40%.
bar_colour_problems() {
	local plain=$1 escaped=$2 i pl el pct want got
	for ((i = HEADER_LINES + 1; i <= NBARS + HEADER_LINES; i++)); do
		pl=$(printf '%s\n' "$plain" | sed -n "${i}p")
		el=$(printf '%s\n' "$escaped" | sed -n "${i}p")
		pct=$(printf '%s\n' "$pl" | sed -n -E 's/.*\] +([^ 0-9]+ +)?([0-9.]+)%.*/\2/p')
		[ -n "$pct" ] || { echo "line $i: no percentage"; continue; }
		want=$(awk -v p="$pct" 'function c(x) { return x >= 40 ? 31 : x >= 10 ? 33 : 32 }
			BEGIN { print c(p); if (c(p - 0.05) != c(p)) print c(p - 0.05); if (c(p + 0.05) != c(p)) print c(p + 0.05) }')
		# the SGR sequences right after the bar's opening bracket
		got=$(printf '%s\n' "$el" | grep -o -E "(some|full) \\[($ESC\\[[0-9;]*m)+" | grep -o -E "$ESC\\[[0-9;]*m" |
			tr -d "${ESC}[m" | tr ';' '\n' | grep -x -E '3[0-7]' | tail -1)
		[ -n "$got" ] && printf '%s\n' "$want" | grep -q -x -e "$got" ||
			echo "line $i ($pct%): colour ${got:-none}, expected $(echo $want)"
	done
}

# One escaped capture; its text without the escapes is the same frame.
capture -e
escaped=$SCREEN
plain=$(printf '%s\n' "$escaped" | sed "s/$ESC\[[0-9;]*m//g")
SCREEN=$escaped
problems=$(bar_colour_problems "$plain" "$escaped")
[ -z "$problems" ]
screen_ok $? "with colour, each bar's cells carry its level's colour (green <10%, yellow <40%, red)" "$problems"

color_plain=$plain

# ---- NO_COLOR ----
start_screen NO_COLOR=1 -- -d 0.5
wait_for_screen '^CPU +some \[.*\] +([^ 0-9]+ +)?[0-9.]+%' 6
screen_ok $? "with NO_COLOR=1 the screen comes up with its bars"
capture -e
colours=$(sgr_colours "$SCREEN")
[ -z "$colours" ]
screen_ok $? "with NO_COLOR=1 no colour SGR codes (3x/4x/9x) are sent" "colour codes seen: $(echo $colours)"
capture
nc_plain=$SCREEN
line 1 | grep -q -E "$HEADER_RE" && line 2 | grep -q -E "$HEADER2_RE" &&
	[ "$(bar_labels)" = "$(expected_labels)" ] &&
	[ "$(title_line)" = "$(printf '%s\n' "$color_plain" | grep -m1 -E '^ *[▼▲]?PID')" ] &&
	[ "$(line "$SCREEN_H")" = "$(printf '%s\n' "$color_plain" | sed -n "${SCREEN_H}p")" ]
screen_ok $? "with NO_COLOR=1 the screen has the same header, bars, title and footer text"

# Without colour the fill says the level: '-' below 10%, '=' from 10%, '#' from 40%, as long
# as the share. (The shown share is rounded: near a threshold either level is right.)
fill_problems() {
	local i l pct inner
	for ((i = HEADER_LINES + 1; i <= NBARS + HEADER_LINES; i++)); do
		l=$(line "$i")
		pct=$(printf '%s\n' "$l" | sed -n -E 's/.*\] +([^ 0-9]+ +)?([0-9.]+)%.*/\2/p')
		inner=$(printf '%s\n' "$l" | sed -n -E 's/^[^[]*\[([^]]*)\].*/\1/p')
		[ -n "$pct" ] && [ -n "$inner" ] || { echo "line $i: no bar"; continue; }
		awk -v p="$pct" -v s="$inner" -v n="$i" 'function level(x) { return x >= 40 ? "#" : x >= 10 ? "=" : "-" }
		BEGIN {
			w = length(s); c = substr(s, 1, 1)
			if (c != " " && c != level(p) && c != level(p - 0.05) && c != level(p + 0.05)) {
				print "line " n ": fill \"" c "\" for " p "%"; exit
			}
			k = 0; while (k < w && substr(s, k + 1, 1) == c && c != " ") k++
			if (substr(s, k + 1) ~ /[^ ]/) { print "line " n ": stray cells after the fill: [" s "]"; exit }
			want = p / 100 * w; if (want > w) want = w
			if (k < want - 1 || k > want + 1) print "line " n ": " k " of " w " cells filled for " p "%"
		}'
	done
}
problems=$(fill_problems)
[ -z "$problems" ]
screen_ok $? "without colour each bar is filled with -, = or # by level, as long as its share" "$problems"

# ---- no UTF-8: the marker is a letter ----
start_screen LANG=C -- -d 0.5
wait_for_screen '^ +PID ' 5
title_line | grep -q -E ' vTOTAL ' && ! title_line | grep -q -E '▼|▲'
screen_ok $? "in the C locale the sort marker on TOTAL is a v"

# ---- a spinner pair on CPU 1: each waits for it (about half the time on a quiet machine) ----
# Readings are taken with Space, each between two marks of the spinners (just before the key,
# and once the header's clock shows it): the second reading's cells are what the kernel counted
# between the two, as a share of the time between them, both bracketed by the marks.
bg_start spin1 "$WORKLOAD" spin 1
bg_start spin2 "$WORKLOAD" spin 1
start_screen -- -d 3600 -p "$spin1,$spin2"
wait_for_screen '^ +PID ' 5
clock() { line 1 | awk '{ print $1 }'; }
# read_now NAME: Space, marking the spinners before it (NAME0) and before the capture that shows
# the reading (NAME1, taken before each capture until one does)
read_now() {
	local was i
	capture
	was=$(clock)
	mark "${1}0" "$spin1" "$spin2"
	keys Space
	for ((i = 0; i < 250; i++)); do
		mark "${1}1" "$spin1" "$spin2"
		capture
		[ -n "$(clock)" ] && [ "$(clock)" != "$was" ] && [ -n "$(cell "$spin2" CPU)" ] && return 0
		sleep 0.02
	done
	return 1
}
sleep 1.1 # the header's clock has seconds: a reading in the next one
read_now A
sleep 2
read_now B
for pid in "$spin1" "$spin2"; do
	got=$(cell "$pid" CPU)
	range=$(awk -v lo="$(marked wait A1 B0 "$pid")" -v hi="$(marked wait A0 B1 "$pid")" \
		-v short="$(marked wall A1 B0)" -v long="$(marked wall A0 B1)" \
		'BEGIN { if (lo != "" && hi != "" && short > 0) printf "%.1f %.1f", lo / long * 100 - 0.1, hi / short * 100 + 0.1 }')
	read -r lo hi <<<"$range"
	within "$got" "${lo:-1}" "${hi:-0}" && within "$got" 1 200
	screen_ok $? "the row of spinner $pid (one of two on CPU 1) shows CPU delay ${got:-none}%, what the kernel counted ($lo..$hi%)" \
		"row: $(row_of "$pid")"
done

diag "ran for $((SECONDS - LOCKED_AT)) s under the lock"
done_testing
