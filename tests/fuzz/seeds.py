#!/usr/bin/env python3
# seeds.py — writes the fuzz harnesses' seed corpora under corpus/NAME/ (next to this script, or
# under the directory given): small valid inputs of each parser and a few damaged ones, from which
# libFuzzer mutates. Run again after changing it; the files are kept in the tree.
import os
import struct
import sys

top = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def put(name, seed, data):
    d = os.path.join(top, name)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, seed), "wb") as f:
        f.write(data)


# struct taskstats of each version: the version, then a pattern that gives every field a value.
SIZES = {1: 72, 2: 248, 3: 272, 4: 288, 5: 296, 6: 304, 7: 312, 8: 328, 9: 336, 10: 352, 11: 360,
         12: 376, 13: 416, 14: 432, 15: 560, 16: 560, 17: 688, 18: 704}


def taskstats(version, size=None):
    size = size or SIZES[version]
    body = bytearray()
    for o in range(0, size, 4):
        body += struct.pack("<I", (0x5a000000 ^ (version << 16)) + o)
    body = body[:size]
    struct.pack_into("<H", body, 0, version)
    if size >= 96 and version >= 2:
        body[80:96] = b"worker\0\0\0\0\0\0\0\0\0\0"
    return bytes(body)


for v in SIZES:
    put("tsabi", "v%02d" % v, taskstats(v))
put("tsabi", "v13-short", taskstats(13, 200))
put("tsabi", "v00", taskstats(0, 64))


# A TASKSTATS netlink message: nlmsghdr, genlmsghdr, then the aggregates, each an id and the stats.
def nla(kind, payload):
    a = struct.pack("<HH", 4 + len(payload), kind) + payload
    return a + b"\0" * (-len(a) % 4)


def aggregate(tgid, ident, version):
    return nla(5 if tgid else 4, nla(2 if tgid else 1, struct.pack("<I", ident)) + nla(3, taskstats(version)))


def message(family, seq, *attrs):
    body = struct.pack("<BBH", 2, 1, 0) + b"".join(attrs)
    return struct.pack("<IHHII", 16 + len(body), family, 0, seq, 0) + body


put("tsnl", "reply-pid-v13", message(27, 1, aggregate(0, 4242, 13)))
put("tsnl", "reply-tgid-v17", message(27, 2, aggregate(1, 4242, 17)))
put("tsnl", "exit-v14", message(27, 0, aggregate(0, 4243, 14), aggregate(1, 4242, 14)))
put("tsnl", "datagram-two", message(27, 3, aggregate(0, 7, 16)) + message(27, 4, aggregate(0, 8, 16)))
put("tsnl", "reply-v1", message(27, 5, aggregate(0, 9, 1)))
put("tsnl", "error", struct.pack("<IHHIIi", 36, 2, 0, 6, 0, -3) + b"\0" * 16)

# Pressure files: two readings (cut at a NUL), as the interval shares need.
cpu = "some avg10=1.50 avg60=0.75 avg300=0.20 total=123456\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
cpu2 = cpu.replace("123456", "1123456")
put("psi", "cpu", cpu + "\0" + cpu2)
put("psi", "memory", "some avg10=0.00 avg60=0.01 avg300=0.00 total=99\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=7\n\0"
    "some avg10=0.00 avg60=0.01 avg300=0.00 total=99\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=5000007\n")
put("psi", "some-only", "some avg10=12.00 avg60=3.00 avg300=1.00 total=18446744073709551615\n")
put("psi", "bad", "some avg10=abc avg60=1.00 avg300=1.00 total=5\nfull avg10=nan avg60=2 avg300=3 total=1\n")

# mountinfo, then after a NUL /proc/PID/cgroup.
v2 = "24 1 0:22 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n"
proc = "22 1 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:13 - proc proc rw\n"
v1 = ("30 25 0:26 / /sys/fs/cgroup/systemd rw,nosuid shared:9 - cgroup cgroup rw,xattr,name=systemd\n"
      "31 25 0:27 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid shared:10 - cgroup cgroup rw,cpu,cpuacct\n")
put("cgroupfs", "v2", proc + v2 + "\0" + "0::/user.slice/user-0.slice/session-1.scope\n")
put("cgroupfs", "hybrid", proc + v1 + v2.replace("/sys/fs/cgroup ", "/sys/fs/cgroup/unified ") + "\0" +
    "2:cpu,cpuacct:/system.slice\n1:name=systemd:/system.slice/x.service\n0::/system.slice/x.service\n")
put("cgroupfs", "v1", proc + v1 + "\0" + "2:cpu,cpuacct:/a//b/\n1:name=systemd:/init.scope\n")
# Found by the harness: a line that starts with the separator (read before the text).
put("cgroupfs", "fuzzed-dash-start", "->")
put("cgroupfs", "fuzzed-dash-line", "- cgroup2 a b c d\n\0" + "0::/\n")
put("procfs", "fuzzed-cut", "1 (a) ")
put("cgroupfs", "escaped", "40 1 0:50 /sub\\040dir /mnt/my\\040cgroup rw - cgroup2 none rw\n\0" + "0::/sub dir/x\n")

# A stat line (the comm may hold spaces and parentheses), then after a NUL /proc/PID/io or status.
stat = ("4242 (my (odd) name) S 1 4242 4242 0 -1 4194560 100 0 0 0 12 34 0 0 20 0 3 0 98765 "
        "12345678 300 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 17 1 0 0 0 56 0 0 0 0 0 0 0 0 0\n")
io = ("rchar: 1000\nwchar: 2000\nsyscr: 30\nsyscw: 40\nread_bytes: 4096\nwrite_bytes: 8192\n"
      "cancelled_write_bytes: 0\n")
status = "Name:\tx\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t4242\nVmPeak:\t  12345 kB\nVmHWM:\t   2345 kB\n"
put("procfs", "stat-io", stat + "\0" + io)
put("procfs", "stat-status", stat + "\0" + status)
put("procfs", "short-stat", "1 (init) S 0 1 1 0 -1 4194560 100 0 0 0 12 34 0 0 20 0 1 0 5\n\0rchar: 1\n")

# The settings file.
put("rcfile", "all", "# delaytop settings\ndelay=2\nsort=cpu\nreverse=yes\nactive=no\ncolumns=pid,cpu,io,command\n")
put("rcfile", "group", "group=threads\ntree=yes\n  delay = 0.5  \n")
put("rcfile", "bad", "delay=-1\nunknown=3\nsort\n=\nreverse=maybe\n\n#\n")

# Trigger specs.
for i, t in enumerate(["memory some 150ms 1s", "io full 500000us 2s /system.slice//x.service/",
                       "cpu some 0.2s 10s", "irq full 1ms 500ms", "memory some 2s 1s"]):
    put("trigger", "spec%d" % i, t)

# Times.
for i, t in enumerate(["10 minutes ago", "-10m", "1.5h ago", "now", "@1764079500", "2026-11-25 14:05",
                       "2026-11-25T14:05:07", "14:05:30", "09:00", "tomorrow", "25:00"]):
    put("timeparse", "time%02d" % i, t)
# Found by the harness: year 0 overflowed the nanoseconds since the epoch.
put("timeparse", "fuzzed-year0", "00-4-4")

# Process events connector datagrams: netlink header, cn_msg (idx 1, val 1), struct proc_event
# (what, cpu, timestamp, then the kind's ids).
def proc_event(what, *ids, comm=b""):
    ev = struct.pack("<IIQ", what, 0, 123456789) + b"".join(struct.pack("<I", i) for i in ids) + comm
    ev = ev.ljust(40, b"\0")
    cn = struct.pack("<IIIIHH", 1, 1, 7, 0, len(ev), 0) + ev
    msg = struct.pack("<IHHII", 16 + len(cn), 3, 0, 0, 0) + cn
    return msg + b"\0" * (-len(msg) % 4)


put("procevents", "fork", proc_event(0x1, 10, 10, 21, 20))
put("procevents", "exec-exit", proc_event(0x2, 20, 20) + proc_event(0x80000000, 21, 20, 0, 0, 10, 10))
put("procevents", "comm", proc_event(0x200, 21, 20, comm=b"worker-0123456789"))
put("procevents", "ack-uid", proc_event(0x0, 0) + proc_event(0x4, 20, 20, 0, 0))
put("procevents", "cut", proc_event(0x1, 10, 10, 21, 20)[:50])
