#!/bin/bash
# record_damage.sh — a recording survives what happens to files. A writer killed with SIGKILL at
# random moments, five times over, leaves a file that replays without complaint, holds every
# reading the killed run printed, and that the next -w appends to without losing a byte of what
# was there. Cut at 30 places (some inside the header) and with a byte flipped at 30 places,
# the replay never crashes: a cut header is refused with a message; a cut file shows the readings
# before the cut, and a cut inside a segment says where (status 1); a flipped byte is said
# ("damaged ... byte N", status 1), and every reading shown
# is the intact one, readings in the other segments included. A full disk (a small tmpfs) stops
# delaytop with a message naming the file and the full disk, and the file replays; with -b the
# reports go on without the recording and the run ends with status 1. A file of
# another kind and one of a newer major format are refused by -r and by -w, which leaves them
# as they were.
. "$top_srcdir/tests/lib.sh"

require_root
require_cmd python3 mount umount cmp
require_taskstats

T=$TMPDIR_TEST
MNT=""
trap 'cleanup_mnt; cleanup' EXIT
cleanup_mnt() {
	[ -n "$MNT" ] && mountpoint -q "$MNT" && umount "$MNT"
	[ -n "$MNT" ] && rmdir "$MNT" 2>/dev/null
	return 0
}

# The reports of a text replay, by their first line ("delaytop - TIME ..."), for the checks.
cat >"$T/check.py" <<'PY'
import os, random, re, struct, subprocess, sys

def reports(text):
    """Reports of a text output, in order: (time, text)."""
    out, cur = [], None
    for line in text.splitlines(keepends=True):
        if line.startswith(b'delaytop - '):
            cur = [line.split()[2], line]
            out.append(cur)
        elif cur is not None:
            cur[1] += line
    return [(t, r) for t, r in out]

def segments(data):
    """The segments of a recording: (offset, end, first_ns, last_ns), and the header's length."""
    h = data.index(b'\n\n') + 2
    segs, at = [], h
    while at + 48 <= len(data):
        if data[at:at + 8] != b'DTSEG01\n':
            break
        first, last, length, samples = struct.unpack('<qqQQ', data[at + 8:at + 40])
        end = at + 48 + length if length else len(data)
        segs.append((at, end, first, last))
        at = end
    return h, segs

def in_segment(t, seg):
    """Whether a report's time (ISO, ms) is within a segment's readings."""
    import datetime
    ns = int(datetime.datetime.fromisoformat(t.decode()).timestamp() * 1000) * 1000000
    return seg[2] - 2000000 <= ns <= seg[3] + 2000000

def replay(dt, path):
    p = subprocess.run([dt, '-r', path, '-b'], capture_output=True, timeout=60)
    return p.returncode, p.stdout, p.stderr

def kill_check(prev, new, live):
    """A killed run: what was replayed before is a prefix of the new replay; every report the
    run printed is in it, the same; at most one more (recorded, not yet printed)."""
    prev, new, live = (open(f, 'rb').read() for f in (prev, new, live))
    bad = []
    if not new.startswith(prev):
        bad.append('the readings of the runs before are no longer the same')
    added = reports(new[len(prev):])
    byt = dict(added)
    lr = reports(live)
    for i, (t, r) in enumerate(lr):
        last = i == len(lr) - 1
        if t not in byt:
            if not (last and not r.endswith(b'\n')):
                bad.append('the printed reading of %s is not in the recording' % t.decode())
        elif byt[t] != r and not (last and byt[t].startswith(r)):
            bad.append('the reading of %s differs from the printed one' % t.decode())
    if not len(lr) - 1 <= len(added) <= len(lr) + 1:
        bad.append('%d readings recorded, %d printed' % (len(added), len(lr)))
    print('; '.join(bad) if bad else 'ok', len(added), len(lr))

def fuzz(dt, path, tmp, seed):
    data = open(path, 'rb').read()
    hlen, segs = segments(data)
    rc, full, err = replay(dt, path)
    fullr = reports(full)
    fails = {k: [] for k in ('crash', 'header', 'cut', 'lost', 'said', 'intact', 'skipped', 'block')}
    notes = {'harmless': 0, 'damaged': 0}
    rnd = random.Random(seed)
    # cuts: 10 inside the header, 20 spread over the data, segment boundaries among them
    cuts = sorted(set([0, 1, 5, 18, 19, 20, hlen // 2, hlen - 2, hlen - 1, hlen] +
                      [s[0] for s in segs] + [s[0] + 20 for s in segs] +
                      [hlen + (len(data) - hlen) * i // 20 for i in range(1, 20)] + [len(data) - 1]))
    prev_n = 0
    for off in cuts:
        f = os.path.join(tmp, 'cut')
        open(f, 'wb').write(data[:off])
        rc, out, err = replay(dt, f)
        if rc not in (0, 1):
            fails['crash'].append('cut at %d: status %d' % (off, rc))
            continue
        if off < hlen:
            if rc != 1 or out or b'cannot read the recording' not in err or \
               not (b'cut short' in err or b'empty' in err or b'not a delaytop recording' in err):
                fails['header'].append('cut at %d: status %d, %r' % (off, rc, err[:200]))
            continue
        got = reports(out)
        whole = sum(1 for t, r in fullr if any(s[1] <= off and in_segment(t, s) for s in segs))
        if not full.startswith(out) or got != fullr[:len(got)] or len(got) < prev_n or len(got) < whole:
            fails['cut'].append('cut at %d: %d readings (%d before, %d in whole segments), prefix %s, %r' %
                                (off, len(got), prev_n, whole, full.startswith(out), err[:200]))
        # every segment of the file was ended: a cut inside one lost readings, and says so
        if any(s[0] < off < s[1] for s in segs) and \
           (rc != 1 or not re.search(rb'(cut short|damaged) at byte [0-9]+', err)):
            fails['lost'].append('cut at %d: status %d, %r' % (off, rc, err[:200]))
        prev_n = len(got)
    # flips: 30 random bytes of the data, and in each segment's header its magic and its length
    flips = sorted(set([rnd.randrange(hlen, len(data)) for _ in range(30)] +
                       [s[0] for s in segs] + [s[0] + 26 for s in segs]))
    fullby = dict(fullr)
    for off in flips:
        f = os.path.join(tmp, 'flip')
        d = bytearray(data)
        d[off] ^= rnd.randrange(1, 256)
        open(f, 'wb').write(d)
        rc, out, err = replay(dt, f)
        if rc not in (0, 1):
            fails['crash'].append('flip at %d: status %d' % (off, rc))
            continue
        if rc == 0 and out == full and not err:
            notes['harmless'] += 1
            continue
        notes['damaged'] += 1
        if rc != 1 or not re.search(rb'damaged.*byte [0-9]+', err):
            fails['said'].append('flip at %d: status %d, stderr %r' % (off, rc, err[:200]))
        got = reports(out)
        times = [t for t, r in got]
        if any(fullby.get(t) != r for t, r in got) or times != sorted(set(times)):
            fails['intact'].append('flip at %d: a reading shown differs from the intact one' % off)
        hit = [s for s in segs if s[0] <= off < s[1]]
        missing = [t for t, r in fullr if t not in dict(got) and
                   any(in_segment(t, s) for s in segs if s not in hit)]
        if missing:
            fails['skipped'].append('flip at %d (segment %s): %d readings of other segments missing, first %s' %
                                    (off, hit[0][0] if hit else '?', len(missing), missing[0].decode()))
    # a block's size grown past the segment's end: zstd waits for more, which a segment whose
    # header was ended will not get: damage, at that block's header
    for seg in segs:
        frame = seg[0] + 48
        if seg[1] - frame < 16:
            continue
        fhd = data[frame + 4]
        single = fhd >> 5 & 1
        pos = frame + 5 + (0 if single else 1) + [0, 1, 2, 4][fhd & 3] + \
            ([0, 2, 4, 8][fhd >> 6] if fhd >> 6 else single)
        bh = data[pos] | data[pos + 1] << 8 | data[pos + 2] << 16
        pos += 3 + (1 if (bh >> 1 & 3) == 1 else bh >> 3) # the second block
        if pos + 3 > seg[1]:
            continue
        bh = data[pos] | data[pos + 1] << 8 | data[pos + 2] << 16
        bh = (bh & 7) | (((bh >> 3) + (seg[1] - pos)) << 3)
        d = bytearray(data)
        d[pos:pos + 3] = bytes([bh & 255, bh >> 8 & 255, bh >> 16 & 255])
        f = os.path.join(tmp, 'block')
        open(f, 'wb').write(d)
        rc, out, err = replay(dt, f)
        if rc != 1 or not re.search(rb'damaged at byte %d\b' % pos, err):
            fails['block'].append('segment at %d, block at %d: status %d, %r' % (seg[0], pos, rc, err[:200]))
        got = reports(out)
        if any(fullby.get(t) != r for t, r in got):
            fails['intact'].append('block at %d: a reading shown differs from the intact one' % pos)
    print('cuts %d flips %d segments %d harmless %d damaged %d' %
          (len(cuts), len(flips), len(segs), notes['harmless'], notes['damaged']))
    for k, v in fails.items():
        print(k, len(v), ' | '.join(v[:3]))

if __name__ == '__main__':
    if sys.argv[1] == 'kill':
        kill_check(*sys.argv[2:5])
    else:
        fuzz(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
PY

# ---- killed writers ----
# printed FILE N: whether FILE has N reports or more.
printed() { [ "$(reports_in "$1")" -ge "$2" ]; }
F=$T/kill.rec
: >"$T/rep.0"
for i in 1 2 3 4 5; do
	"$DELAYTOP" -w "$F" -b -d 0.1 >"$T/live.$i" 2>"$T/err.$i" 9>&- &
	pid=$!
	track_pid "$pid"
	# three reports printed (a slow build takes a while to its first), then a moment in 0-1.5 s
	wait_until 20 printed "$T/live.$i" 3
	sleep "$(awk -v r="$RANDOM" 'BEGIN { printf "%.2f", r / 32768 * 1.5 }')"
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	"$DELAYTOP" -r "$F" -b >"$T/rep.$i" 2>"$T/rerr.$i"
	rc=$?
	read -r verdict added printed < <(python3 "$T/check.py" kill "$T/rep.$((i - 1))" "$T/rep.$i" "$T/live.$i")
	[ "$rc" = 0 ] && [ ! -s "$T/rerr.$i" ] && [ "$verdict" = ok ] && [ "$printed" -ge 3 ]
	tap_ok $? "killed writer $i: the file replays (status 0), the runs before intact, every printed reading recorded" \
		"replay status $rc: $(head -2 "$T/rerr.$i")" "check: $verdict $added recorded, $printed printed" \
		"writer's stderr: $(head -2 "$T/err.$i")"
done
"$DELAYTOP" -w "$F" -b -d 0.1 -n 5 >"$T/live.6" 2>"$T/err.6"
rc=$?
"$DELAYTOP" -r "$F" -b >"$T/rep.6" 2>"$T/rerr.6"
rc2=$?
read -r verdict added printed < <(python3 "$T/check.py" kill "$T/rep.5" "$T/rep.6" "$T/live.6")
[ "$rc" = 0 ] && [ "$rc2" = 0 ] && [ "$verdict" = ok ] && [ "$added" = 5 ] && cmp -s <(tail -c +$(($(wc -c <"$T/rep.5") + 1)) "$T/rep.6") "$T/live.6"
tap_ok $? "a run after the kills appends its 5 readings, exactly as it printed them" \
	"status $rc/$rc2; $verdict; $added recorded; $(head -2 "$T/err.6" "$T/rerr.6")"
diag "the file: $(wc -c <"$F") bytes, $(grep -c '^delaytop - ' "$T/rep.6") readings replayed"

# ---- cuts and flipped bytes ----
mkdir "$T/fuzz"
python3 "$T/check.py" fuzz "$DELAYTOP" "$F" "$T/fuzz" "$RANDOM" >"$T/fuzz.out" 2>&1
diag "$(head -1 "$T/fuzz.out")"
result() { awk -v k="$1" '$1 == k { print $2 }' "$T/fuzz.out"; }
detail() { awk -v k="$1" '$1 == k { $1 = $2 = ""; print }' "$T/fuzz.out"; }
[ "$(result crash)" = 0 ]
tap_ok $? "cuts and flipped bytes: the replay never crashes (status 0 or 1)" "$(detail crash)" "$(tail -3 "$T/fuzz.out")"
[ "$(result header)" = 0 ]
tap_ok $? "a cut header: status 1, nothing shown, and a message (cut short, empty, not a recording)" "$(detail header)"
[ "$(result cut)" = 0 ]
tap_ok $? "a cut file: the readings before the cut, as intact, every whole segment's" "$(detail cut)"
[ "$(result lost)" = 0 ]
tap_ok $? "a cut inside a segment that was ended: status 1 and where ('cut short at byte N')" "$(detail lost)"
[ "$(result said)" = 0 ]
tap_ok $? "a flipped byte that changes anything: status 1 and 'damaged ... byte N' on stderr" "$(detail said)"
[ "$(result intact)" = 0 ]
tap_ok $? "a flipped byte: every reading shown is the intact one" "$(detail intact)"
[ "$(result skipped)" = 0 ]
tap_ok $? "a flipped byte: the damage is passed, the readings of the other segments are shown" "$(detail skipped)"
[ "$(result block)" = 0 ]
tap_ok $? "a block's size grown past its segment's end: status 1, 'damaged at byte' that block" "$(detail block)"

# ---- a full disk ----
MNT=$(mktemp -d /tmp/delaytop-full.XXXXXX)
# The room is made from what two readings of this machine take (its tasks decide): the disk
# holds three times that, and is filled but for one and a half times that and 8 KiB, so that
# the first readings fit and the recording reaches the end in a few seconds.
"$DELAYTOP" -w "$T/probe.rec" -d 0.1 -n 1 </dev/null >/dev/null 2>&1
probe=$(stat -c %s "$T/probe.rec" 2>/dev/null || echo 65536)
size_k=$((probe * 3 / 1024 + 64))
filler_k=$(((size_k - probe * 3 / 2 / 1024 - 8) / 4 * 4))
if mount -t tmpfs -o size=${size_k}k delaytop-test "$MNT" 2>"$T/mount.err"; then
	dd if=/dev/zero of="$MNT/filler" bs=1k count="$filler_k" status=none
	timeout 50 "$DELAYTOP" -w "$MNT/rec" -d 0.1 </dev/null >"$T/full.out" 2>"$T/full.err"
	rc=$?
	[ "$rc" = 1 ] && grep -q "$MNT/rec" "$T/full.err" && grep -q -i -e "no space" -e "disk is full" "$T/full.err"
	tap_ok $? "a full disk: delaytop stops (status 1) with a message naming the file and the full disk" \
		"status $rc (124: still running after 50 s); stderr: $(head -3 "$T/full.err")"
	"$DELAYTOP" -r "$MNT/rec" -b >"$T/full.rep" 2>"$T/full.rerr"
	rc=$?
	[ "$rc" = 0 ] && [ ! -s "$T/full.rerr" ] && [ "$(grep -c '^delaytop - ' "$T/full.rep")" -ge 3 ]
	tap_ok $? "the file of the full disk replays: status 0, its readings" \
		"status $rc; $(grep -c '^delaytop - ' "$T/full.rep") readings; $(head -2 "$T/full.rerr")"
	diag "full disk: $(wc -c <"$MNT/rec") bytes recorded, $(grep -c '^delaytop - ' "$T/full.rep") readings; said: $(head -1 "$T/full.err")"
	rm -f "$MNT/filler"
	"$DELAYTOP" -w "$MNT/rec" -d 0.1 -n 3 </dev/null >/dev/null 2>"$T/full2.err"
	rc=$?
	"$DELAYTOP" -r "$MNT/rec" -b >"$T/full2.rep" 2>/dev/null
	[ "$rc" = 0 ] && [ "$(head -c "$(wc -c <"$T/full.rep")" "$T/full2.rep" | cmp -s - "$T/full.rep" && echo same)" = same ] &&
		[ "$(grep -c '^delaytop - ' "$T/full2.rep")" = $(($(grep -c '^delaytop - ' "$T/full.rep") + 3)) ]
	tap_ok $? "once there is room, -w appends to it: the readings before, then 3 more" \
		"status $rc: $(head -2 "$T/full2.err"); $(grep -c '^delaytop - ' "$T/full2.rep") readings"
	# -b -w: the reports go on after the recording stopped, and the run ends with status 1 (a
	# stop signal ends it, which alone gives 0)
	rm -f "$MNT/rec"
	dd if=/dev/zero of="$MNT/filler" bs=1k count="$filler_k" status=none
	"$DELAYTOP" -b -w "$MNT/brec" -d 0.1 </dev/null >"$T/bfull.out" 2>"$T/bfull.err" &
	bpid=$!
	track_pid "$bpid"
	wait_until 50 grep -q "stopped" "$T/bfull.err" # the disk fills
	before=$(reports_in "$T/bfull.out")
	wait_until 10 printed "$T/bfull.out" $((before + 1))
	kill -TERM "$bpid"
	wait "$bpid"
	rc=$?
	after=$(grep -c '^delaytop - ' "$T/bfull.out")
	[ "$rc" = 1 ] && grep -q "$MNT/brec" "$T/bfull.err" && grep -q -i -e "no space" -e "disk is full" "$T/bfull.err" &&
		[ "$after" -gt "$before" ]
	tap_ok $? "-b -w on a full disk: the recording stops with a message, the reports go on, and the run ends with status 1" \
		"status $rc; reports $before when it stopped, $after at the end; stderr: $(head -3 "$T/bfull.err")"
else
	tap_skip "a full disk: delaytop stops with a message" "cannot mount a tmpfs: $(head -1 "$T/mount.err")"
	tap_skip "the file of the full disk replays" "no tmpfs"
	tap_skip "once there is room, -w appends to it" "no tmpfs"
	tap_skip "-b -w on a full disk ends with status 1" "no tmpfs"
fi

# ---- files that are not ours to read or to write ----
cp /etc/passwd "$T/passwd"
"$DELAYTOP" -r "$T/passwd" -b >"$T/o" 2>"$T/e"
rc=$?
[ "$rc" = 1 ] && [ ! -s "$T/o" ] && grep -q "not a delaytop recording" "$T/e" && grep -q "$T/passwd" "$T/e"
tap_ok $? "-r on a copy of /etc/passwd: status 1, 'not a delaytop recording', the file named" "status $rc: $(cat "$T/e")"
"$DELAYTOP" -w "$T/passwd" -d 0.1 -n 1 </dev/null >"$T/o" 2>"$T/e"
rc=$?
[ "$rc" = 1 ] && grep -q "$T/passwd" "$T/e" && cmp -s /etc/passwd "$T/passwd"
tap_ok $? "-w on it: status 1, a message naming it, and the file left as it was" "status $rc: $(cat "$T/e")"

python3 - "$F" "$T/newer.rec" <<'PY'
import re, sys
d = open(sys.argv[1], 'rb').read()
assert re.search(rb'\nformat 1\.[0-9]+\n', d[:200])
open(sys.argv[2], 'wb').write(re.sub(rb'\nformat 1\.[0-9]+\n', b'\nformat 2.0\n', d, count=1))
PY
cp "$T/newer.rec" "$T/newer.orig"
"$DELAYTOP" -r "$T/newer.rec" -b >"$T/o" 2>"$T/e"
rc=$?
[ "$rc" = 1 ] && [ ! -s "$T/o" ] && grep -q "2\.0" "$T/e" && grep -q "1\.0" "$T/e"
tap_ok $? "-r on a recording of format 2.0: status 1, a message naming 2.0 and ours (1.0)" "status $rc: $(cat "$T/e")"
"$DELAYTOP" -w "$T/newer.rec" -d 0.1 -n 1 </dev/null >"$T/o" 2>"$T/e"
rc=$?
[ "$rc" = 1 ] && grep -q "2\.0" "$T/e" && cmp -s "$T/newer.rec" "$T/newer.orig"
tap_ok $? "-w on it: status 1, the versions said, and the file left as it was" "status $rc: $(cat "$T/e")"
done_testing
