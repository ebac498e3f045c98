# html_command.sh — command mode with --format html: the page of the run's report, written to -o,
# with the command's own tasks by name: a process that names itself <b>x</b>&" (through
# /proc/self/comm) waits on the CPU and appears as text in the CPU table, no element made of it;
# one named with a right-to-left override (U+202E) appears with U+FFFD in its place, as text
# and CSV show '?' there, so that the browser does not reorder the line;
# the page parses as HTML5 without an error (html5lib, strict), and delaytop exits with the
# command's status.
. "$top_srcdir/tests/lib.sh"

require_taskstats
T=$TMPDIR_TEST
PY=$(html5lib_python)

# the named process spins for 0.6 s beside a second spinner on every CPU, so that it waits
cpus=$(nproc)
"$DELAYTOP" --format html -o "$T/run.html" -- sh -c '
	i=0; while [ $i -lt '"$cpus"' ]; do timeout 0.6 sh -c "while :; do :; done" & i=$((i+1)); done
	sh -c "printf %s \"<b>x</b>&\\\"\" >/proc/self/comm; timeout 0.6 sh -c \"while :; do :; done\"; :" &
	sh -c "printf \"rlo\\342\\200\\256evil\" >/proc/self/comm; timeout 0.6 sh -c \"while :; do :; done\"; :"
	wait; exit 7' 2>"$T/err"
st=$?
[ "$st" -eq 7 ]
tap_ok $? "delaytop exits with the command's status (7)" "status $st: $(head -3 "$T/err")"
grep -q '<table class="list" id="top-tasks-cpu">' "$T/run.html"
tap_ok $? "the page has the CPU table" "$(head -c 300 "$T/run.html")"
grep -q '<td class="comm">&lt;b&gt;x&lt;/b&gt;&amp;&quot;</td>' "$T/run.html" && ! grep -q '<b>x' "$T/run.html"
tap_ok $? "the process named <b>x</b>&\" is text in it" "$(grep -o '<td class="comm">[^/]*' "$T/run.html" | head -5)"
! grep -q $'\xe2\x80\xae' "$T/run.html" && grep -q $'<td class="comm">rlo\xef\xbf\xbdevil</td>' "$T/run.html"
tap_ok $? "the process named with a bidi override (U+202E) shows it as U+FFFD; the page holds no U+202E" \
	"$(grep -o '<td class="comm">[^<]*' "$T/run.html" | head -6)"
if [ -n "$PY" ]; then
	err=$(html5_errors "$PY" "$T/run.html")
	tap_ok $([ -z "$err" ] && echo 0 || echo 1) "the page parses as HTML5 without an error (html5lib, strict)" "$err"
else
	tap_skip "the page parses as HTML5" "needs python3-html5lib"
fi
done_testing
