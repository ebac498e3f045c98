#!/bin/bash
# formats.sh — the batch formats are machine-readable: every JSON line parses, each report starts
# with its psi line, and task lines carry every field of the spec; CSV has one header and the same
# column count on every row, even for a command name with a comma and a quote; text has no escape
# characters even when a command name contains one; the nice value is ps(1)'s, live and replayed;
# `delaytop -b | head -1` ends quietly.
. "$top_srcdir/tests/lib.sh"

require_root
require_cmd python3 timeout flock jq renice ps
require_taskstats
lock_global
enable_delayacct


# Command names come from the name exec'd: symlinks to the workload give awkward ones.
COMMA='a,b"c'
ESCN=$'esc\e[31mred'
ln -s "$WORKLOAD" "$TMPDIR_TEST/$COMMA"
ln -s "$WORKLOAD" "$TMPDIR_TEST/$ESCN"
WORKLOAD="$TMPDIR_TEST/$COMMA" start_workload sleep 60; PC=$WORKLOAD_PID
WORKLOAD="$TMPDIR_TEST/$ESCN" start_workload sleep 60; PE=$WORKLOAD_PID
wait_until 5 comm_is "$PC" "$COMMA" || skip_all "could not name a process '$COMMA'"
wait_until 5 comm_is "$PE" "$ESCN" || skip_all "could not name a process with an escape character"

# ---- JSON ----
"$DELAYTOP" -b -n 2 -d 0.5 --format json >"$TMPDIR_TEST/all.json" 2>"$TMPDIR_TEST/err"
rc=$?
"$DELAYTOP" -b -H -n 1 -d 0.5 --format json -p "$PC" >"$TMPDIR_TEST/thr.json" 2>>"$TMPDIR_TEST/err"
rc2=$?
[ "$rc" -eq 0 ] && [ "$rc2" -eq 0 ]
tap_ok $? "delaytop --format json exits 0 (process and thread mode)" "got $rc and $rc2: $(head -2 "$TMPDIR_TEST/err" | tr '\n' ' ')"

# json_check FILE MODE REPORTS: prints one "name<TAB>problem or OK" line per aspect.
json_check() {
	python3 - "$@" <<'PY'
import json, os, re, sys
path, mode, reports = sys.argv[1], sys.argv[2], int(sys.argv[3])
lines = open(path, encoding='utf-8', errors='strict').read().split('\n')
if lines and lines[-1] == '':
    lines.pop()
objs, bad = [], []
for i, l in enumerate(lines, 1):
    try:
        objs.append(json.loads(l))
    except Exception as e:
        bad.append('line %d: %s: %r' % (i, e, l[:80]))
print('parse\t' + ('; '.join(bad[:3]) if bad or not lines else 'OK' if lines else 'no output'))

# psi first: a psi line opens each report; the task lines after it share its time.
prob, psis, cur = [], 0, None
for i, o in enumerate(objs, 1):
    if o.get('type') == 'psi':
        psis += 1
        cur = o.get('time')
    elif o.get('type') == 'task':
        if cur is None or o.get('time') != cur:
            prob.append('task line %d (time %s) not after the psi line of its report (%s)' % (i, o.get('time'), cur))
    else:
        prob.append('line %d has type %r' % (i, o.get('type')))
if psis != reports:
    prob.append('expected %d psi lines, got %d' % (reports, psis))
print('order\t' + ('; '.join(prob[:3]) or 'OK'))

prob = []
irq_file = os.path.exists('/proc/pressure/irq')
for o in (o for o in objs if o.get('type') == 'psi'):
    for r in ('cpu', 'memory', 'io'):
        v = o.get(r)
        if not (isinstance(v, dict) and isinstance(v.get('some'), dict) and 'full' in v
                and all(isinstance(v['some'].get(k), (int, float)) for k in ('avg10', 'avg60', 'avg300', 'pct'))):
            prob.append('%s: %r' % (r, v))
    if 'irq' not in o:
        prob.append('no irq key')
    elif irq_file and not isinstance(o['irq'], dict):
        prob.append('irq should be an object (/proc/pressure/irq exists): %r' % o['irq'])
    elif not irq_file and o['irq'] is not None:
        prob.append('irq should be null (/proc/pressure/irq is absent): %r' % o['irq'])
print('psi\t' + ('; '.join(prob[:3]) or 'OK'))

iso = re.compile(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d$')
num = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
kinds = ('cpu', 'io', 'swapin', 'reclaim', 'thrashing', 'compact', 'wpcopy', 'irq')
metrics = ('pct', 'avg_ms', 'per_s', 'max_ms')
prob, ntask = [], 0
for o in (o for o in objs if o.get('type') == 'task'):
    ntask += 1
    p = []
    if not (isinstance(o.get('time'), str) and iso.match(o['time'])): p.append('time %r' % o.get('time'))
    if not (num(o.get('interval_s')) and o['interval_s'] > 0): p.append('interval_s %r' % o.get('interval_s'))
    if not (isinstance(o.get('pid'), int) and o['pid'] > 0): p.append('pid %r' % o.get('pid'))
    if mode == 'process' and ('tid' not in o or o['tid'] is not None): p.append('tid %r (want null)' % o.get('tid', 'missing'))
    if mode == 'thread' and not (isinstance(o.get('tid'), int) and o['tid'] > 0): p.append('tid %r (want a number)' % o.get('tid'))
    if not isinstance(o.get('user'), str) or not o['user']: p.append('user %r' % o.get('user'))
    if not (isinstance(o.get('state'), str) and len(o['state']) == 1): p.append('state %r' % o.get('state'))
    if not isinstance(o.get('command'), str): p.append('command %r' % o.get('command'))
    if not isinstance(o.get('partial'), bool): p.append('partial %r' % o.get('partial', 'missing'))
    if not (isinstance(o.get('carried'), list) and set(o['carried']) <= set(kinds)): p.append('carried %r' % o.get('carried', 'missing'))
    d = o.get('delay')
    if not isinstance(d, dict):
        p.append('delay %r' % d)
    else:
        for k in kinds:
            if not isinstance(d.get(k), dict):
                p.append('delay.%s missing' % k)
                continue
            for m in metrics:
                if m not in d[k]: p.append('delay.%s.%s missing' % (k, m))
                elif not (d[k][m] is None or num(d[k][m])): p.append('delay.%s.%s=%r' % (k, m, d[k][m]))
    if p:
        prob.append('pid %s: %s' % (o.get('pid'), ', '.join(p[:4])))
if ntask == 0:
    prob.append('no task lines')
print('task\t' + ('; '.join(prob[:3]) or 'OK') + '\t%d task lines' % ntask)
PY
}

# r_ok KEY "description": a test point from R[KEY], which is OK or the problem found.
r_ok() {
	[ "${R[$1]:-}" = OK ]
	tap_ok $? "$2" "${R[$1]:-no result}"
}

declare -A R
while IFS=$'\t' read -r k v extra; do R[$k]=$v; diag "json process mode: $k: $v $extra"; done < <(json_check "$TMPDIR_TEST/all.json" process 2)
r_ok parse "every --format json line parses as JSON"
r_ok order "each of the 2 reports starts with its psi line, then its task lines"
r_ok psi "psi lines carry cpu/memory/io, and irq null exactly when /proc/pressure/irq is absent"
r_ok task "process-mode task lines have type, ISO 8601 time with offset, interval_s, pid, tid null, user, state, command, partial, carried, delay.KIND.METRIC"

R=()
while IFS=$'\t' read -r k v extra; do R[$k]=$v; done < <(json_check "$TMPDIR_TEST/thr.json" thread 1)
[ "${R[parse]:-}" = OK ] && [ "${R[task]:-}" = OK ]
tap_ok $? "thread-mode (-H) task lines parse and carry a numeric tid" "parse: ${R[parse]:-?}; task: ${R[task]:-?}"

# task_fields FILE PID FIELD...: the repr() of each field of PID's first task line, one line.
task_fields() {
	python3 -c '
import json, sys
for l in open(sys.argv[1]):
    try: o = json.loads(l)
    except Exception: continue
    if o.get("type") == "task" and o.get("pid") == int(sys.argv[2]):
        print(" ".join(repr(o.get(f)) for f in sys.argv[3:])); break
' "$@"
}

# libproc2 may show a control character in a process name as '?'; either way the line parsed.
got=$(task_fields "$TMPDIR_TEST/all.json" "$PE" command)
[[ "$got" =~ ^\'esc(\\x1b|\?)\[31mred\'$ ]]
tap_ok $? "JSON has a valid line for a task named with an escape character" \
	"expected command 'esc\\x1b[31mred' or 'esc?[31mred', got ${got:-no row for pid $PE}"

# libproc2 builds a kernel thread's command line from its name: "[kthreadd]", never "[(null)]".
got=$(task_fields "$TMPDIR_TEST/all.json" 2 command cmdline)
comm2=$(cat /proc/2/comm)
[ "$got" = "'$comm2' '[$comm2]'" ]
tap_ok $? "a kernel thread's cmdline is its name in brackets" "expected '$comm2' '[$comm2]' for pid 2, got ${got:-no row}"

# ---- CSV ----
"$DELAYTOP" -b -n 2 -d 0.5 --format csv >"$TMPDIR_TEST/all.csv" 2>"$TMPDIR_TEST/err"
rc=$?
tap_ok "$rc" "delaytop --format csv exits 0" "got $rc: $(head -2 "$TMPDIR_TEST/err" | tr '\n' ' ')"
csv=$(python3 - "$TMPDIR_TEST/all.csv" "$PC" "$COMMA" "$PE" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8', errors='replace')))
if not rows:
    print('header\tno output'); print('columns\tno output'); print('comma\tno output'); sys.exit()
h = rows[0]
headers = [i for i, r in enumerate(rows) if r and r[0] == 'time']
print('header\t' + ('OK' if headers == [0] and 'command' in h and 'cpu_pct' in h
                    else 'header rows at %s, first row %r' % (headers, h[:5])))
off = [(i + 1, len(r)) for i, r in enumerate(rows) if len(r) != len(h)]
print('columns\t' + ('OK' if not off and len(rows) > 2 else
                     '%d rows, header has %d columns; rows off: %s' % (len(rows), len(h), off[:3])))
ci, pi = (h.index('command'), h.index('pid')) if 'command' in h and 'pid' in h else (None, None)
mine = [r for r in rows[1:] if pi is not None and len(r) == len(h) and r[pi] == sys.argv[2]]
print('comma\t' + ('OK' if len(mine) == 2 and all(r[ci] == sys.argv[3] for r in mine) else
                   'rows for pid %s: %r' % (sys.argv[2], [r[ci] if ci is not None else r for r in mine])))
esc = [r for r in rows[1:] if pi is not None and len(r) == len(h) and r[pi] == sys.argv[4]]
print('escape\t' + ('OK' if len(esc) == 2 and all('\x1b' not in f for r in esc for f in r) and esc[0][ci] == 'esc?[31mred'
                    else 'rows for pid %s: %r' % (sys.argv[4], [r[ci] if ci is not None else r for r in esc])))
PY
)
R=()
while IFS=$'\t' read -r k v; do R[$k]=$v; done <<<"$csv"
r_ok header "CSV has exactly one header row, first"
r_ok columns "CSV rows all have the header's column count (read with a CSV parser)"
r_ok comma "CSV keeps a command name with a comma and a quote ($COMMA) as one field"
r_ok escape "CSV shows an escape character in a command name as '?', as text does"

# ---- text ----
"$DELAYTOP" -b -n 1 -d 0.5 >"$TMPDIR_TEST/all.txt" 2>"$TMPDIR_TEST/err"
rc=$?
tap_ok "$rc" "delaytop -b (text) exits 0" "got $rc: $(head -2 "$TMPDIR_TEST/err" | tr '\n' ' ')"
nesc=$(LC_ALL=C grep -c $'\x1b' "$TMPDIR_TEST/all.txt")
row=$(LC_ALL=C grep -E "^ *$PE " "$TMPDIR_TEST/all.txt" | LC_ALL=C cat -v)
[ "$nesc" -eq 0 ] && [ -n "$row" ]
tap_ok $? "text output has no escape characters, even for a task named with one" \
	"expected 0 lines with \\x1b and a row for pid $PE; got $nesc lines; row: ${row:-none}"

# ---- --columns ----
# text: those columns in that order, the command last; the values are the rows' own
"$DELAYTOP" -b -n 1 -d 0.5 -p "$PC" --columns io,pid,command,user >"$TMPDIR_TEST/cols.txt" 2>"$TMPDIR_TEST/err"
rc=$?
# words: a line's words, one space apart (xargs would take the name's quote for its own)
words() { tr -s ' ' | sed 's/^ //; s/ $//'; }
title=$(grep -m1 -E '^ *IO ' "$TMPDIR_TEST/cols.txt" | words)
row=$(LC_ALL=C grep -E "^ *[-0-9.]+ +$PC " "$TMPDIR_TEST/cols.txt" | words)
[ "$rc" -eq 0 ] && [ "$title" = "IO PID USER COMMAND" ] && [ "$(echo "$row" | cut -d' ' -f2-4)" = "$PC root $COMMA" ]
tap_ok $? "--columns io,pid,command,user: text has the titles IO PID USER COMMAND and the row $PC root $COMMA" 	"exit $rc; title: '$title'; row: '$row'; $(head -2 "$TMPDIR_TEST/err" | tr '\n' ' ')"
# CSV and JSON keep every field
"$DELAYTOP" -b -n 1 -d 0.5 -p "$PC" --format csv --columns io >"$TMPDIR_TEST/cols.csv" 2>>"$TMPDIR_TEST/err"
"$DELAYTOP" -b -n 1 -d 0.5 -p "$PC" --format csv >"$TMPDIR_TEST/all1.csv" 2>>"$TMPDIR_TEST/err"
[ -n "$(head -1 "$TMPDIR_TEST/cols.csv")" ] && [ "$(head -1 "$TMPDIR_TEST/cols.csv")" = "$(head -1 "$TMPDIR_TEST/all1.csv")" ]
tap_ok $? "--columns io leaves CSV with every field (the same header as without)" 	"with: $(head -1 "$TMPDIR_TEST/cols.csv"); without: $(head -1 "$TMPDIR_TEST/all1.csv")"

# ---- the nice value, against ps(1), live and through a recording ----
renice -n 7 -p "$PC" >/dev/null
want=$(ps -o ni= -p "$PC" | tr -d ' ')
"$DELAYTOP" -b -n 1 -d 0.3 -p "$PC" --format json -w "$TMPDIR_TEST/nice.rec" >"$TMPDIR_TEST/nice.json" 2>>"$TMPDIR_TEST/err"
"$DELAYTOP" -b -n 1 -d 0.3 -p "$PC" --format csv >"$TMPDIR_TEST/nice.csv" 2>>"$TMPDIR_TEST/err"
"$DELAYTOP" -r "$TMPDIR_TEST/nice.rec" -b --format json >"$TMPDIR_TEST/nice-r.json" 2>>"$TMPDIR_TEST/err"
got=$(jq -r "select(.type == \"task\" and .pid == $PC) | .nice" "$TMPDIR_TEST/nice.json")
csv=$(python3 -c 'import csv, sys; r = list(csv.DictReader(open(sys.argv[1]))); print(" ".join(x["nice"] for x in r if x["pid"] == sys.argv[2]))' \
	"$TMPDIR_TEST/nice.csv" "$PC")
rep=$(jq -r "select(.type == \"task\" and .pid == $PC) | .nice" "$TMPDIR_TEST/nice-r.json")
[ "$want" = 7 ] && [ "$got" = "$want" ] && [ "$csv" = "$want" ] && [ "$rep" = "$want" ]
tap_ok $? "after renice -n 7: nice is ps's $want in JSON, CSV and the recording's replay" \
	"ps '$want', JSON '$got', CSV '$csv', replay '$rep'"

# ---- head -1 ----
t0=$(date +%s%N)
timeout 10 "$DELAYTOP" -b 2>"$TMPDIR_TEST/head.err" | head -1 >"$TMPDIR_TEST/head.out"
st=${PIPESTATUS[0]}
t1=$(date +%s%N)
ms=$(((t1 - t0) / 1000000))
[ "$st" -eq 0 ] && [ "$ms" -lt 5000 ] && [ ! -s "$TMPDIR_TEST/head.err" ] && grep -q '^delaytop' "$TMPDIR_TEST/head.out"
tap_ok $? "delaytop -b | head -1 ends quietly: exit 0, nothing on stderr, within 5 s" \
	"exit $st (124 = timed out), ${ms} ms, stderr: '$(head -2 "$TMPDIR_TEST/head.err" | tr '\n' ' ')', line: '$(cat "$TMPDIR_TEST/head.out")'"
diag "head -1 took ${ms} ms"

stop_pid "$PC"
stop_pid "$PE"
done_testing
