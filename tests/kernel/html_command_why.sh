# html_command_why.sh — command mode's HTML page with --why on the real kernel: a shell that runs
# sleep 1, then dd writing 100 blocks of 64 KiB with O_DIRECT to a file on a disk, gets a flame
# graph of its off-CPU stacks per state, each rooted at the command line: in S, do_nanosleep for
# at least the 1 s asked and at most the run's wall time (the page's own fact), and a total that
# holds the sleep and the shell's wait for it; in D, the direct write's io_schedule (or its kernel
# stack said lost); the JSON report of the same command (a second run) has S stacks adding up to
# the S graph's time within 10% (a stack left out of the graph would be 1 s of its 2). The page
# parses as HTML5. Without --why, and where --why cannot run (DELAYTOP_BTF naming no file): one
# sentence, no graph.
. "$top_srcdir/tests/lib.sh"

require_root
require_cmd jq dd python3
require_taskstats
T=$TMPDIR_TEST
# --why's programs run at every context switch of the machine: beside an exit storm or a timing
# test they slow what that test measures; require_why takes the global lock
require_why --loose
DIR=$(disk_dir)
[ -n "$DIR" ] || skip_all "no writable directory on a disk for O_DIRECT writes"
FS=$(mktemp "$DIR/delaytop-htmlwhy.XXXXXX")
EXTRA_DIRS="$EXTRA_DIRS $FS"
CMD='sleep 1; dd if=/dev/zero of="$0" bs=64k count=100 oflag=direct 2>/dev/null'

# flames FILE: a line per flame graph ("F STATE MS"), then per bar ("B STATE MS NAME": its
# tooltip's first line, unescaped), and the wall time ("W MS")
flames() {
	python3 - "$1" <<'PYEOF'
import html, re, sys
page = open(sys.argv[1], encoding='utf-8').read()
m = re.search(r'<th>Wall time</th><td>([0-9.]+) s</td>', page)
if m:
    print('W', float(m.group(1)) * 1000)
for fig in re.finditer(r'<figure class="flame" id="flame-state-(\w)" data-ms="([0-9.]+)"[^>]*>(.*?)</figure>', page, re.S):
    st, ms, body = fig.groups()
    if '<svg class="flame"' not in body:
        continue
    print('F', st, ms)
    for b in re.finditer(r'<title>([^\n<]*)\n[^<]*</title><rect [^>]*data-ms="([0-9.]+)"', body):
        print('B', st, b.group(2), html.unescape(b.group(1)))
PYEOF
}

"$DELAYTOP" --why --format html -o "$T/run.html" -- sh -c "$CMD" "$FS" 2>"$T/run.err"
rc=$?
flames "$T/run.html" >"$T/run.flames"
figs=$(awk '$1 == "F" { printf "%s ", $2 }' "$T/run.flames")
[ "$rc" = 0 ] && grep -q '^F S ' "$T/run.flames" && grep -q '^F D ' "$T/run.flames"
tap_ok $? "--why --format html -- COMMAND: exit 0, a flame graph for S and one for D" \
	"rc $rc, graphs of: ${figs:-none}; stderr: $(head -2 "$T/run.err" | tr '\n' ' ')"
roots=$(awk '$1 == "B" && $4 == "sh" && $5 == "-c" && $6 == "sleep" { n++ } END { print n + 0 }' "$T/run.flames")
[ "$roots" -ge 2 ] && [ "$roots" = "$(grep -c '^F ' "$T/run.flames")" ]
tap_ok $? "each graph's root is the command line ($roots)" "$(grep '^B' "$T/run.flames" | head -2)"

wall=$(awk '$1 == "W" { print $2 }' "$T/run.flames")
sleep_ms=$(awk '$1 == "B" && $2 == "S" && $4 ~ /^do_nanosleep\+/ { print $3; exit }' "$T/run.flames")
within "$sleep_ms" 999 "${wall:-0}"
tap_ok $? "S names do_nanosleep for the sleep: $sleep_ms ms, at least the 1 s asked and at most the run's $wall ms" \
	"$(grep '^B S' "$T/run.flames" | head -12)"
s_ms=$(awk '$1 == "F" && $2 == "S" { print $3 }' "$T/run.flames")
within "$s_ms" 1999 "$(awk -v w="${wall:-0}" 'BEGIN { print 2 * w }')"
tap_ok $? "S's graph holds the sleep and the shell's wait for it: $s_ms ms (2 s to twice the wall time)" \
	"$(grep '^F' "$T/run.flames")"
d=$(awk '$1 == "B" && $2 == "D" && ($4 ~ /^io_schedule/ || $4 == "[kernel") { print $4; exit }' "$T/run.flames")
[ -n "$d" ]
tap_ok $? "D names the direct write's io_schedule (${d:-none})" "$(grep '^B D' "$T/run.flames" | head -14)"

"$DELAYTOP" --why --format json -o "$T/run.json" -- sh -c "$CMD" "$FS" 2>/dev/null
j=$(jq '[.why.stacks[] | select(.state == "S") | .ms] | add // 0 | . * 1000 | round / 1000' "$T/run.json" 2>/dev/null)
lo=$(awk -v s="${s_ms:-0}" 'BEGIN { print s * 0.9 }')
hi=$(awk -v s="${s_ms:-0}" 'BEGIN { print s * 1.1 }')
within "$j" "$lo" "$hi"
tap_ok $? "the JSON report of the same command: its S stacks add up to the S graph's time within 10% ($j and $s_ms ms)" \
	"$(jq -c '[.why.stacks[] | [.state, .ms]]' "$T/run.json" 2>/dev/null | head -c 300)"

PY=$(html5lib_python)
if [ -n "$PY" ]; then
	err=$(html5_errors "$PY" "$T/run.html")
	tap_ok $([ -z "$err" ] && echo 0 || echo 1) "the page parses as HTML5 without an error (html5lib, strict)" "$err"
else
	tap_skip "the page parses as HTML5" "needs python3-html5lib"
fi

# without --why; where --why cannot run
"$DELAYTOP" --format html -o "$T/plain.html" -- true 2>/dev/null
grep -q '<p class="none" id="stacks-none">This run took no off-CPU stacks: run the command with --why' "$T/plain.html" &&
	! grep -q '<figure class="flame"' "$T/plain.html"
tap_ok $? "without --why: one sentence saying how to get stacks, no graph" \
	"$(grep -o '<section id="stacks">.*' "$T/plain.html" | head -c 300)"
DELAYTOP_BTF=/nonexistent "$DELAYTOP" --why --format html -o "$T/off.html" -- sleep 0.2 2>"$T/off.err"
grep -q '<p class="none" id="stacks-none">--why could not run here' "$T/off.html" &&
	! grep -q '<figure class="flame"' "$T/off.html" && [ "$(grep -c -- '--why' "$T/off.err")" = 1 ]
tap_ok $? "where --why cannot run (no BTF): one sentence on the page, one on stderr, no graph" \
	"$(grep -o '<section id="stacks">.*' "$T/off.html" | head -c 300); stderr: $(head -2 "$T/off.err")"
done_testing
