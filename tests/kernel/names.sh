#!/bin/bash
# names.sh — task names are display text in every batch format: a process named with U+009B (the
# 8-bit CSI, as UTF-8 \xc2\x9b) or with a byte that is not UTF-8 (\xff, a lone \x9b) shows '?'
# in text and CSV, under a UTF-8 locale and under LC_ALL=C, and stays valid JSON with the C1
# control escaped and the bad byte as U+FFFD; no output holds a control character or bad byte.
. "$top_srcdir/tests/lib.sh"

require_root
require_cmd python3
require_taskstats

# Command names come from the name exec'd: symlinks to the workload give the names.
C1N=$'c1\xc2\x9b2J'
FFN=$'ff\xffx'
LONE=$'lone\x9b2J'
for n in "$C1N" "$FFN" "$LONE"; do
	ln -s "$WORKLOAD" "$TMPDIR_TEST/$n"
done
WORKLOAD="$TMPDIR_TEST/$C1N" start_workload sleep 60; P1=$WORKLOAD_PID
WORKLOAD="$TMPDIR_TEST/$FFN" start_workload sleep 60; P2=$WORKLOAD_PID
WORKLOAD="$TMPDIR_TEST/$LONE" start_workload sleep 60; P3=$WORKLOAD_PID
wait_until 5 comm_is "$P1" "$C1N" || skip_all "could not name a process with U+009B"
wait_until 5 comm_is "$P2" "$FFN" || skip_all "could not name a process with a \\xff byte"
PIDS=$P1,$P2,$P3

# inert FILE: "OK", or what in FILE is not inert display text (strict UTF-8 with no control
# character but the line feed: no C0, DEL or C1).
inert() {
	python3 - "$1" <<'PY'
import re, sys
data = open(sys.argv[1], 'rb').read()
try:
    text = data.decode('utf-8', errors='strict')
except UnicodeDecodeError as e:
    print('not UTF-8: %s' % e)
    sys.exit()
bad = sorted({'U+%04X' % ord(c) for c in text if c != '\n' and (ord(c) < 0x20 or 0x7f <= ord(c) <= 0x9f)})
print('control characters: ' + ', '.join(bad) if bad else 'OK' if data else 'no output')
PY
}

# ---- text and CSV, in a UTF-8 locale and under LC_ALL=C ----
for loc in C.UTF-8 C; do
	for fmt in text csv; do
		out=$TMPDIR_TEST/$fmt.$loc
		LC_ALL=$loc "$DELAYTOP" -b -n 1 -d 0.2 --format "$fmt" -p "$PIDS" >"$out" 2>"$TMPDIR_TEST/err"
		rc=$?
		tap_ok "$rc" "LC_ALL=$loc --format $fmt exits 0" "got $rc: $(head -2 "$TMPDIR_TEST/err" | tr '\n' ' ')"
		res=$(inert "$out")
		[ "$res" = OK ]
		tap_ok $? "LC_ALL=$loc --format $fmt: no control character or bad byte in the output" "$res" \
			"output: $(od -c "$out" | head -20)"
		for want in "$P1:c1?2J" "$P2:ff?x" "$P3:lone?2J"; do
			pid=${want%%:*} name=${want#*:}
			grep -E "(^| |,)$pid[ ,]" "$out" | grep -qF -- "$name"
			tap_ok $? "LC_ALL=$loc --format $fmt: the row of $pid shows its name as $name" \
				"rows: $(grep -E "(^| |,)$pid[ ,]" "$out" | od -c | head -8)"
		done
	done
done

# ---- JSON: valid, the C1 control escaped, bad bytes as U+FFFD ----
for loc in C.UTF-8 C; do
	out=$TMPDIR_TEST/json.$loc
	LC_ALL=$loc "$DELAYTOP" -b -n 1 -d 0.2 --format json -p "$PIDS" >"$out" 2>"$TMPDIR_TEST/err"
	res=$(inert "$out")
	[ "$res" = OK ]
	tap_ok $? "LC_ALL=$loc --format json: no raw control character or bad byte" "$res"
	res=$(python3 - "$out" "$P1" "$P2" "$P3" <<'PY'
import json, sys
path, p1, p2, p3 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
want = {p1: 'c1\x9b2J', p2: 'ff\ufffdx', p3: 'lone\ufffd2J'}
got = {}
for line in open(path, encoding='utf-8'):
    o = json.loads(line)
    if o.get('type') == 'task' and o.get('pid') in want:
        got[o['pid']] = o.get("command")
bad = ['%d: %r, not %r' % (p, got.get(p), w) for p, w in want.items() if got.get(p) != w]
print('; '.join(bad) if bad else 'OK')
PY
)
	[ "$res" = OK ]
	tap_ok $? "LC_ALL=$loc --format json: comm is c1\\u009b2J, ff\\ufffdx and lone\\ufffd2J" "$res"
done

done_testing
