#!/usr/bin/env python3
# recseeds.py — the seeds of the recording harnesses: corpus/recording/ (files) and
# corpus/recrecord/ (a segment's records, decompressed), made by tests/reccraft.py and from a
# recording delaytop wrote (REAL: e.g. `delaytop -w real.rec -b -p 1 -n 3 -d 0.1`; its frames are
# decompressed with the zstd command), and from one written with --why (WHY: e.g. `delaytop --why -w
# why.rec -b -n 3 -d 0.3`), whose records end in the waits' section (format 1.3), and tests/fixgen's
# stacks.rec (STACKS), whose event readings end in the stacks' section (1.4). Usage:
# recseeds.py [REAL [WHY [STACKS]]]
import os
import struct
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..'))
import reccraft  # noqa: E402


def records_of(frame):
    """The data of a frame of raw blocks (reccraft's)."""
    pos, out = 6, bytearray()
    while pos + 3 <= len(frame):
        bh = frame[pos] | frame[pos + 1] << 8 | frame[pos + 2] << 16
        n = bh >> 3
        out += frame[pos + 3:pos + 3 + n]
        pos += 3 + n
        if bh & 1:
            break
    return bytes(out)


def segments(data):
    at = data.index(b'\n\n') + 2
    while at + 48 <= len(data):
        length = struct.unpack('<Q', data[at + 24:at + 32])[0]
        yield at, data[at + 48:at + 48 + length]
        at += 48 + length


def open_last(data):
    """The file as a writer killed in its last segment leaves it: length 0, 0 readings."""
    at = list(segments(data))[-1][0]
    h = bytearray(data[at:at + 40])
    h[24:40] = bytes(16)
    h[16:24] = h[8:16]
    import zlib
    return data[:at] + bytes(h) + struct.pack('<Q', zlib.crc32(bytes(h))) + data[at + 48:]


def write(kind, name, data):
    d = os.path.join(here, 'corpus', kind)
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, name), 'wb').write(data)


good = reccraft.run()
write('recording', 'crafted-good', good)
write('recording', 'crafted-cut', good[:-20])
write('recording', 'crafted-open', open_last(good))
write('recording', 'crafted-delayacct2', reccraft.run(delayacct=2))
write('recording', 'crafted-sparse-slots', reccraft.run(segs=1, slot=300, cgslot=40))
write('recording', 'crafted-empty', reccraft.header())
write('recrecord', 'crafted-good', records_of(list(segments(good))[0][1]))
write('recrecord', 'crafted-sparse', records_of(list(segments(reccraft.run(segs=1, slot=300)))[0][1]))
if len(sys.argv) > 1:
    real = open(sys.argv[1], 'rb').read()
    write('recording', 'real', real)
    write('recording', 'real-open', open_last(real))
    frame = list(segments(real))[0][1]
    p = subprocess.run(['zstd', '-d', '-c'], input=frame, capture_output=True)
    write('recrecord', 'real', p.stdout)
if len(sys.argv) > 2:
    why = open(sys.argv[2], 'rb').read()
    write('recording', 'why-real', why)
    frame = list(segments(why))[0][1]
    p = subprocess.run(['zstd', '-d', '-c'], input=frame, capture_output=True)
    write('recrecord', 'why-real', p.stdout)
if len(sys.argv) > 3:
    stacks = open(sys.argv[3], 'rb').read()
    write('recording', 'stacks-fixture', stacks)
    frame = list(segments(stacks))[0][1]
    p = subprocess.run(['zstd', '-d', '-c'], input=frame, capture_output=True)
    write('recrecord', 'stacks-fixture', p.stdout)
