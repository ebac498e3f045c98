#!/bin/bash
# recording_input.sh — recordings are files people share, so -r and -w must not trust them. Made
# by tests/reccraft.py (no root, no kernel): a value out of its field's range (delayacct 2 and
# 123456789, a task's state byte 1) is damage said with its byte, status 1, and JSON stays JSON;
# a slot of 2^22 - 2 (task) or 2^22 - 1 (cgroup), a frame that inflates to 1 GiB and one that
# asks for a 1 TiB window are damage, status 1, in little memory; a file cut short inside an ended
# segment says where (status 1), cut at every third byte and around the segments' ends; a FIFO is
# refused at once; a header alone and a file whose every segment is damaged (with --begin too)
# say "no readings", status 0 for the whole file and 1 for the damaged one (its damage said
# first). -w refuses, and leaves byte for byte as they were, files that are not whole recordings
# (a header then garbage, a segment left open holding garbage or whole blocks then garbage, a
# copy cut short, the magic line then text, a small file that merely begins like a header) and,
# as root, a recording that belongs to another user; it goes on with a good recording, and begins
# again a header cut short as a killed writer leaves it. Without memory for zstd's contexts -w
# and -r fail with a message (status 1), and -w makes no file.
. "$top_srcdir/tests/lib.sh"

require_cmd python3 mkfifo cmp
T=$TMPDIR_TEST
export LC_ALL=C
CRAFT="$top_srcdir/tests/reccraft.py"

# run FILE ARGS...: replays FILE with ARGS (batch), into $T/out and $T/err; sets st, and rss (the
# largest resident size, KiB). Address space is limited to 1.5 GiB unless the build is sanitized
# (whose shadow memory needs more). run.py --cuts FILE CUT OFFSETS...: FILE cut short at each
# offset (into CUT) replayed the same way, in one python for them all; prints how many, then
# "offset:status" for each that did not end with status 1 saying where ("cut short at byte" or
# "damaged at byte").
cat >"$T/run.py" <<'PY'
import os, resource, subprocess, sys
dt = sys.argv[1]
asan = b'asan' in subprocess.run(['ldd', dt], capture_output=True).stdout
def limit():
    if not asan:
        resource.setrlimit(resource.RLIMIT_AS, (1536 << 20, 1536 << 20))
def replay(f, args):
    try:
        p = subprocess.run([dt, '-r', f, '-b'] + args, capture_output=True, preexec_fn=limit, timeout=120)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return 124, b'', b'timed out'
if sys.argv[2] == '--cuts':
    f, cut, offs = sys.argv[3], sys.argv[4], sys.argv[5:]
    d = open(f, 'rb').read()
    bad = []
    for o in offs:
        open(cut, 'wb').write(d[:int(o)])
        st, out, err = replay(cut, [])
        if st != 1 or (b'cut short at byte' not in err and b'damaged at byte' not in err):
            bad.append('%s:%s' % (o, st))
    print(len(offs), ' '.join(bad))
    sys.exit(0)
st, out, err = replay(sys.argv[2], sys.argv[3:])
tmp = os.environ['T']
open(tmp + '/out', 'wb').write(out)
open(tmp + '/err', 'wb').write(err)
print(st, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
run() {
	python3 "$T/run.py" "$DELAYTOP" "$@" >"$T/run"
	read -r st rss <"$T/run"
}
export T

craft() {
	python3 "$CRAFT" "$@" || skip_all "reccraft.py failed ($*)"
}

json_ok() {
	python3 -c 'import json, sys
for line in open(sys.argv[1]):
    json.loads(line)' "$1" 2>/dev/null
}

reports() {
	grep -c '^delaytop - ' "$T/out"
}

# ---- a good crafted file: the checks below can fail for the right reason only ----
craft good "$T/good.rec"
run "$T/good.rec" --format json
[ "$st" = 0 ] && [ ! -s "$T/err" ] && json_ok "$T/out" && grep -q '"delayacct":"on"' "$T/out" &&
	grep -q '"command":"worker"' "$T/out"
tap_ok $? "a good crafted recording replays as JSON, status 0" "status $st: $(head -2 "$T/err")"

# ---- values out of range ----
for kind in delayacct2:delayacct delayacct-big:delayacct state:state; do
	craft "${kind%%:*}" "$T/v.rec"
	run "$T/v.rec" --format json
	[ "$st" = 1 ] && grep -q "damaged in the segment at byte [0-9]*.*${kind#*:} out of range" "$T/err" && json_ok "$T/out"
	tap_ok $? "${kind%%:*}: status 1, '${kind#*:} out of range' with its segment's byte; the JSON is JSON" \
		"status $st: $(head -2 "$T/err")" "stdout: $(head -c 300 "$T/out")"
done

# ---- memory from a small file ----
for kind in taskslot cgslot bomb window; do
	craft "$kind" "$T/m.rec"
	run "$T/m.rec"
	[ "$st" = 1 ] && grep -q "damaged.*byte [0-9]" "$T/err" && [ "$rss" -lt 262144 ]
	tap_ok $? "$kind ($(wc -c <"$T/m.rec") bytes): status 1, damage said, under 256 MiB resident" \
		"status $st, $rss KiB: $(head -2 "$T/err")"
	diag "$kind: $rss KiB resident"
done

# ---- a file cut short ----
python3 - "$T/good.rec" >"$T/cuts" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
at = d.index(b'\n\n') + 2
ends = set()
while at + 48 <= len(d):
    at += 48 + struct.unpack('<Q', d[at + 24:at + 32])[0]
    ends.add(at)
first = d.index(b'\n\n') + 2
near = set(o + k for o in ends | {first} for k in (-2, -1, 1, 2, 47, 48, 49))
print(' '.join(str(o) for o in range(first + 1, len(d)) if o not in ends and (o % 3 == 0 or o in near)))
PY
n=0 bad=""
read -r n bad < <(python3 "$T/run.py" "$DELAYTOP" --cuts "$T/good.rec" "$T/cut.rec" $(cat "$T/cuts"))
[ -z "$bad" ] && [ "$n" -gt 100 ]
tap_ok $? "cut at each of $n places inside a segment: status 1 and where it is said" "failed at (offset:status): $bad"
off=$(($(wc -c <"$T/good.rec") - 20))
head -c "$off" "$T/good.rec" >"$T/cut.rec"
run "$T/cut.rec"
[ "$st" = 1 ] && grep -q "cut short at byte $off, in the segment at byte [0-9]*" "$T/err" && [ "$(reports)" -ge 4 ]
tap_ok $? "cut inside the last segment: the first segment's readings, then 'cut short at byte $off'" \
	"status $st, $(reports) readings: $(head -2 "$T/err")"

# ---- not a regular file ----
mkfifo "$T/fifo"
SECONDS=0
run "$T/fifo"
[ "$st" = 1 ] && grep -q "$T/fifo: not a regular file" "$T/err" && [ "$SECONDS" -lt 30 ]
tap_ok $? "-r FIFO: refused at once (status 1, 'not a regular file', the file named)" "status $st: $(head -2 "$T/err")"

# ---- no readings ----
craft empty "$T/empty.rec"
run "$T/empty.rec"
[ "$st" = 0 ] && [ ! -s "$T/out" ] && grep -q "$T/empty.rec: the recording has no readings" "$T/err"
tap_ok $? "a header alone (a whole file): status 0, 'the recording has no readings'" "status $st: $(head -2 "$T/err")"
craft alldamaged "$T/dmg.rec"
for begin in "" "--begin @1700000005"; do
	run "$T/dmg.rec" $begin
	[ "$st" = 1 ] && grep -q "damaged in the segment at byte" "$T/err" && grep -q "has no readings" "$T/err" &&
		[ "$(grep -n damaged "$T/err" | head -1 | cut -d: -f1)" -lt "$(grep -n 'no readings' "$T/err" | cut -d: -f1)" ]
	tap_ok $? "every segment damaged${begin:+ ($begin)}: the damage, then 'no readings', status 1" \
		"status $st: $(head -3 "$T/err")"
done

# ---- -w: files that are not whole recordings are left alone ----
"$DELAYTOP" -w "$T/src.rec" -b -n 2 -d 0.1 </dev/null >/dev/null 2>"$T/w.err"
if [ -s "$T/src.rec" ] && "$DELAYTOP" -r "$T/src.rec" -b >/dev/null 2>&1; then
	for kind in garbage-after open-garbage open-then-garbage cut magic-text header-like; do
		craft "$kind" "$T/w.rec" "$T/src.rec"
		cp "$T/w.rec" "$T/w.orig"
		"$DELAYTOP" -w "$T/w.rec" -b -n 1 -d 0.1 </dev/null >/dev/null 2>"$T/err"
		st=$?
		[ "$st" = 1 ] && grep -q "cannot record to $T/w.rec" "$T/err" && cmp -s "$T/w.rec" "$T/w.orig" &&
			{ [ "$kind" != header-like ] || grep -q "not a delaytop recording" "$T/err"; }
		tap_ok $? "-w on $kind: refused (status 1, the file named), the file byte for byte as it was" \
			"status $st: $(grep -v warning "$T/err" | head -2)"
	done
	# zstd's contexts cannot be made (tests/failcall.so: as when memory runs out): an error, not a
	# crash, and no file made
	FAILCALL=$(cd "${top_builddir:-.}" && pwd)/tests/failcall.so
	if [ -f "$FAILCALL" ]; then
		nomem() {
			LD_PRELOAD=$FAILCALL FAILCALL_ZSTD=1 ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
				"$DELAYTOP" "$@" </dev/null >/dev/null 2>"$T/err"
		}
		nomem -w "$T/nomem.rec" -b -n 1 -d 0.1
		st=$?
		[ "$st" = 1 ] && grep -q "cannot record to $T/nomem.rec: Cannot allocate memory" "$T/err" && [ ! -e "$T/nomem.rec" ]
		tap_ok $? "-w without memory for zstd: status 1, 'Cannot allocate memory', the file named, none made" \
			"status $st: $(grep -v warning "$T/err" | head -2)"
		nomem -r "$T/src.rec" -b
		st=$?
		[ "$st" = 1 ] && grep -q "$T/src.rec: Cannot allocate memory" "$T/err"
		tap_ok $? "-r without memory for zstd: status 1, 'Cannot allocate memory', the file named" \
			"status $st: $(head -2 "$T/err")"
	else
		tap_skip "-w without memory for zstd" "tests/failcall.so is not built (make check builds it)"
		tap_skip "-r without memory for zstd" "tests/failcall.so is not built (make check builds it)"
	fi
	# what a writer killed while it wrote the header leaves is begun again
	craft header-cut "$T/hc.rec" "$T/src.rec"
	"$DELAYTOP" -w "$T/hc.rec" -b -n 1 -d 0.1 </dev/null >/dev/null 2>"$T/err"
	st=$?
	"$DELAYTOP" -r "$T/hc.rec" -b >"$T/out" 2>"$T/err2"
	st2=$?
	[ "$st" = 0 ] && [ "$st2" = 0 ] && [ "$(reports)" = 1 ]
	tap_ok $? "-w on a header cut short (a writer killed while it wrote it): begun again, 1 reading shown" \
		"status $st/$st2, $(reports) readings: $(grep -v warning "$T/err" "$T/err2" | head -2)"
	cp "$T/src.rec" "$T/more.rec"
	"$DELAYTOP" -w "$T/more.rec" -b -n 1 -d 0.1 </dev/null >/dev/null 2>"$T/err"
	st=$?
	"$DELAYTOP" -r "$T/more.rec" -b >"$T/out" 2>"$T/err2"
	st2=$?
	[ "$st" = 0 ] && [ "$st2" = 0 ] && [ "$(reports)" = 3 ] && cmp -s "$T/src.rec" <(head -c "$(wc -c <"$T/src.rec")" "$T/more.rec")
	tap_ok $? "-w on a good recording goes on with it (3 readings shown, the first bytes kept)" \
		"status $st/$st2, $(reports) readings: $(grep -v warning "$T/err" "$T/err2" | head -2)"
	if [ "$(id -u)" = 0 ]; then
		cp "$T/src.rec" "$T/theirs.rec"
		chown 65534 "$T/theirs.rec"
		cp -p "$T/theirs.rec" "$T/theirs.orig"
		"$DELAYTOP" -w "$T/theirs.rec" -b -n 1 -d 0.1 </dev/null >/dev/null 2>"$T/err"
		st=$?
		owner=$(stat -c %U "$T/theirs.rec")
		[ "$st" = 1 ] && grep -q "cannot record to $T/theirs.rec: it belongs to $owner" "$T/err" &&
			cmp -s "$T/theirs.rec" "$T/theirs.orig"
		tap_ok $? "-w on a recording of uid 65534 ($owner), as root: refused, the owner named, the file kept" \
			"status $st: $(grep -v warning "$T/err" | head -2)"
	else
		tap_skip "-w on another user's recording" "needs root to make a file of another user"
	fi
else
	for kind in garbage-after open-garbage open-then-garbage cut magic-text header-like nomem-w nomem-r header-cut good owner; do
		tap_skip "-w: $kind" "delaytop -w cannot record here: $(head -1 "$T/w.err")"
	done
fi
done_testing
