#!/usr/bin/env python3
# reccraft.py — recordings made from nothing (doc/recording.md), good and crafted, for the tests
# of what -r and -w do with files they cannot trust. The frames are zstd frames of raw and RLE
# blocks, which need no compressor. Usage: reccraft.py KIND FILE (KINDS below), or
# reccraft.py KIND FILE SRC (FROM below: made from SRC, a recording delaytop wrote).
import struct
import sys
import zlib

HEAD = ['wall_ns:n', 'interval:n', 'elapsed:n', 'threads:n', 'delayacct:n', 'cgroups:n', 'nprocs:n',
        'nthreads:n', 'psi.when_ns:n']
TASK = ['pid:n', 'tid:n', 'uid:n', 'state:n', 'comm:n', 'nthreads:n', 'last.when_ns:u',
        'last.threads:n', 'last.run_ns:u', 'last.have_run:n']
CGROUP = ['path:n', 'busy:n']
T0 = 1700000000 * 10**9


def varint(v):
    out = bytearray()
    v &= (1 << 64) - 1
    while v >= 0x80:
        out.append(v & 0x7f | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def zigzag(v):
    v &= (1 << 64) - 1
    s = v - (1 << 64) if v >> 63 else v
    return ((s << 1) ^ (s >> 63)) & ((1 << 64) - 1)


def header(host='crafted'):
    lines = ['delaytop recording', 'format 1.0', 'writer reccraft 1', 'host ' + host,
             'started %d' % T0, 'kinds cpu io', 'accts read write',
             'fields head 1 ' + ' '.join(HEAD), 'fields task 1 ' + ' '.join(TASK),
             'fields cgroup 1 ' + ' '.join(CGROUP)]
    text = ('\n'.join(lines) + '\n').encode()
    return text + b'crc %08x\n\n' % zlib.crc32(text)


def pairs(names, values):
    """An object's pairs: values is {name: difference}; a 'u' field's difference in ns."""
    idx = {n.split(':')[0]: (i, n.split(':')[1]) for i, n in enumerate(names)}
    items = sorted((idx[k][0], idx[k][1], v) for k, v in values.items())
    out, prev = bytearray(varint(len(items))), -1
    for i, t, v in items:
        out += varint(i - prev - 1)
        if t == 'u':
            out += varint(zigzag(v // 1000) << 1 if v % 1000 == 0 else zigzag(v) << 1 | 1)
        else:
            out += varint(zigzag(v))
        prev = i
    return bytes(out)


def dbits(x):
    return struct.unpack('<q', struct.pack('<d', x))[0]


def record(kind, head, strings=(), gone=(), tasks=(), gone_cg=(), cgroups=()):
    """kind b'K' or b'S'; tasks and cgroups: [(slot, {field: difference})] in slot order."""
    p = bytearray(pairs(HEAD, head))
    p += varint(len(strings))
    for sid, s in strings:
        p += varint(sid) + varint(len(s)) + s
    for lst, objs, names in ((gone, tasks, TASK), (gone_cg, cgroups, CGROUP)):
        p += varint(len(lst))
        prev = 0
        for slot in lst:
            p += varint(slot - prev)
            prev = slot
        p += varint(len(objs))
        prev = 0
        for slot, fields in objs:
            p += varint(slot - prev) + pairs(names, fields)
            prev = slot
    body = bytes(p)
    return kind + varint(len(body)) + body + struct.pack('<I', zlib.crc32(kind + body))


def frame(data, rle=None, window=0x50):
    """A zstd frame (no content size, no checksum) of raw blocks holding data, or of RLE blocks:
    rle = (byte, total) repeated."""
    out = bytearray(b'\x28\xb5\x2f\xfd') + bytes([0x00, window])
    blocks = []
    if rle:
        left = rle[1]
        while left:
            n = min(left, 1 << 17)
            blocks.append((1, n, bytes([rle[0]])))
            left -= n
    else:
        for i in range(0, len(data), 1 << 16):
            blocks.append((0, len(data[i:i + (1 << 16)]), data[i:i + (1 << 16)]))
        if not blocks:
            blocks.append((0, 0, b''))
    for k, (t, n, body) in enumerate(blocks):
        last = 1 if k == len(blocks) - 1 else 0
        out += struct.pack('<I', last | t << 1 | n << 3)[:3] + body
    return bytes(out)


def segment(frm, first, last, samples, length=None):
    h = b'DTSEG01\n' + struct.pack('<qqQQ', first, last, len(frm) if length is None else length, samples)
    return h + struct.pack('<Q', zlib.crc32(h)) + frm


def reading(i, key, delayacct=1, state=ord('S'), slot=0, cgslot=0):
    """Reading i of a small run: two tasks, one cgroup, a second apart."""
    wall = T0 + i * 10**9
    if key:
        head = {'wall_ns': wall, 'interval': dbits(1.0), 'elapsed': dbits(float(i)), 'delayacct': delayacct,
                'cgroups': 1, 'nprocs': 2, 'nthreads': 2, 'psi.when_ns': 10**12 + i * 10**9}
        strings = [(1, b'crafted'), (2, b'/'), (3, b'worker')]
        tasks = [(slot, {'pid': 100, 'state': state, 'comm': 1, 'nthreads': 1, 'last.when_ns': 10**12 + i * 10**9,
                         'last.threads': 1, 'last.run_ns': i * 10**8, 'last.have_run': 1}),
                 (slot + 1, {'pid': 101, 'state': ord('R'), 'comm': 3, 'nthreads': 1,
                             'last.when_ns': 10**12 + i * 10**9, 'last.threads': 1, 'last.run_ns': i * 10**8,
                             'last.have_run': 1})]
        return record(b'K', head, strings, tasks=tasks, cgroups=[(cgslot, {'path': 2, 'busy': 1})])
    head = {'wall_ns': 10**9, 'elapsed': dbits(float(i)) - dbits(float(i - 1)), 'psi.when_ns': 10**9}
    return record(b'S', head, tasks=[(0, {'last.run_ns': 5 * 10**7})])


def run(segs=2, per=4, **kw):
    """A file of segs segments of per readings each."""
    out = bytearray(header())
    for s in range(segs):
        recs = b''.join(reading(s * per + j, j == 0, **kw) for j in range(per))
        out += segment(frame(recs), T0 + s * per * 10**9, T0 + (s * per + per - 1) * 10**9, per)
    return bytes(out)


def bomb(total):
    """A segment whose frame of RLE blocks of zeros inflates to total bytes."""
    return header() + segment(frame(b'', rle=(0, total)), T0, T0, 1)


def bad_crc(data):
    """Every record's CRC spoiled (each segment's first record is at its frame's first raw block)."""
    d = bytearray(data)
    at = d.index(b'\n\n') + 2
    while at + 48 <= len(d):
        length = struct.unpack('<Q', d[at + 24:at + 32])[0]
        d[at + 48 + 6 + 3 + 1] ^= 0xff  # the first record's length byte: its CRC no longer holds
        at += 48 + length
    return bytes(d)


KINDS = {
    'good': lambda: run(),
    'delayacct2': lambda: run(delayacct=2),
    'delayacct-big': lambda: run(delayacct=123456789),
    'state': lambda: run(state=1),
    'taskslot': lambda: run(segs=1, slot=(1 << 22) - 2),
    'cgslot': lambda: run(segs=1, cgslot=(1 << 22) - 1),
    'bomb': lambda: bomb(1 << 30),
    'window': lambda: header() + segment(frame(b''.join(reading(j, j == 0) for j in range(2)), window=0xf0),
                                         T0, T0 + 10**9, 2),
    'empty': lambda: header(),
    'alldamaged': lambda: bad_crc(run()),
    'magic-text': lambda: b'delaytop recording\n' + b'x' * 100000,
    # a small file that merely begins like a header: not what a killed writer leaves
    'header-like': lambda: b'delaytop recording\nformat 1.0\nnot really\n',
}

# Kinds made from a recording delaytop wrote (SRC), so that -w would go on with it.
def header_of(src):
    return src[:src.index(b'\n\n') + 2]


def frame_of_first(src):
    """The first segment's frame (its header says its length)."""
    at = src.index(b'\n\n') + 2
    length = struct.unpack('<Q', src[at + 24:at + 32])[0]
    return src[at + 48:at + 48 + length]


FROM = {
    # a header, then what is no segment
    'garbage-after': lambda src: header_of(src) + bytes((i * 7 + 3) & 0xff for i in range(100000)),
    # a recording, then a segment left open whose frame is garbage
    'open-garbage': lambda src: src + segment(bytes((i * 13 + 5) & 0xff for i in range(100000)), T0, T0, 0, 0),
    # a recording, then a segment left open whose whole frame is followed by garbage
    'open-then-garbage': lambda src: src + segment(frame_of_first(src), T0, T0, 0, 0) +
    bytes((i * 13 + 5) & 0xff for i in range(100000)),
    # a recording whose last ended segment the file ends inside (a copy cut short)
    'cut': lambda src: src[:-7],
    # the header cut short in the middle of a line, as a writer killed while it wrote it leaves
    'header-cut': lambda src: header_of(src)[:len(header_of(src)) * 2 // 3],
}

if __name__ == '__main__':
    if sys.argv[1] in FROM:
        data = FROM[sys.argv[1]](open(sys.argv[3], 'rb').read())
    else:
        data = KINDS[sys.argv[1]]()
    open(sys.argv[2], 'wb').write(data)
