#!/bin/bash
# stacks.sh — off-CPU stacks in a recording (format 1.4), replayed from the fixtures: stacks.rec's
# events carry the stacks of the tasks they name (decoded: states, times, counts, frames innermost
# first, markup and a byte that is not UTF-8 in a frame as recorded); its task records have
# "stacks": null (a reading keeps the stacks of its events' tasks only); the text events give
# each named task's top stack in the state of the stall; why.rec, recorded
# without stacks, has no "stacks" at all; and a copy of stacks.rec whose stack section is damaged
# under a good checksum (a frame naming no name) is refused with a message, status 1, the
# readings before it still printed.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/replay/fixture.sh"

require_cmd jq python3 zstd
T=$TMPDIR_TEST
dt -r "$FIX/stacks.rec" --format json >"$T/stacks.json" 2>"$T/stacks.err"
tap_ok $? "stacks.rec replays, status 0" "$(head -3 "$T/stacks.err")"

got=$(jq -r 'select(.type == "event") | "\(.trigger): " + ([.tasks[] | "\(.pid)/\(.stacks | length)"] | join(" "))' "$T/stacks.json")
want="io some 150ms 1s: 1301/2 480/2 1320/2 1300/3 1600/3
cpu some 200ms 2s: 1301/2 480/2 1320/2 1500/2 1600/3
io full 100ms 2s: 1301/2 480/2 1320/2 1300/3 1600/3"
[ "$got" = "$want" ]
tap_ok $? "each event's five tasks carry their stacks (pid/how many)" "want: $want" "got: $got"

got=$(jq -r 'select(.type == "event" and .trigger == "io some 150ms 1s") | .tasks[] | select(.pid == 480) | .stacks[]
	| "\(.state) \(.ms) \(.count) \(.frames[0]) \(.frames[-2]) \(.frames[-1]) \(.frames | length)"' "$T/stacks.json")
want="R 69.615 33 preempt_schedule_irq+0x5c spin+0x9 main+0x30 4
D 27.776 8 io_schedule+0x46 wait_on_fsync+0x5e main+0x9c 13"
[ "$got" = "$want" ]
tap_ok $? "postgres (480) at the first event: R then D in fsync, ms, counts and frames innermost first" \
	"want: $want" "got: $got"

got=$(jq -r 'select(.type == "event") | .tasks[] | select(.pid == 1600) | .stacks[0].frames[3:] | join(" ")' "$T/stacks.json" |
	sort -u | od -c | head -3)
jq -r 'select(.type == "event") | .tasks[] | select(.pid == 1600) | .stacks[0].frames[3:] | join(" ")' "$T/stacks.json" |
	sort -u | grep -qx '<script>alert(4)</script>+0x10 main�&amp;"+0x20'
tap_ok $? "1600's frames as recorded: markup kept, the byte not UTF-8 as U+FFFD in JSON" "got: $got"

dt -r "$FIX/stacks.rec" -b >"$T/stacks.txt" 2>&1
got=$(grep -A8 "^event .*'io some 150ms 1s'" "$T/stacks.txt" | grep '^  stack of 480: ')
n=$(grep -c '^  stack of ' "$T/stacks.txt")
[ "$got" = "  stack of 480: D 27.8 ms io_schedule+0x46 < folio_wait_bit_common+0x13d < folio_wait_writeback+0x2b < __filemap_fdatawait_range+0x8b < file_write_and_wait_range+0x9a < ext4_sync_file+0x8c < do_fsync+0x38 < __x64_sys_fsync+0x13 < do_syscall_64+0x82 < entry_SYSCALL_64_after_hwframe+0x76 < sync_one+0x0d < wait_on_fsync+0x5e < main+0x9c" ] &&
	[ "$n" = 15 ]
tap_ok $? "text: each event's tasks with the top stack of the stall's state (480's D in fsync at the I/O event)" \
	"got: $got" "stack lines: $n"
got=$(jq -s -r '[.[] | select(.type == "task") | .why | if has("stacks") then (.stacks | tostring) else "absent" end] | unique | join(" ")' \
	"$T/stacks.json")
[ "$got" = null ]
tap_ok $? "stacks.rec's task records: \"stacks\": null (only the events' tasks keep theirs)" "got: $got"
got=$(jq -r 'select(.type == "psi") | .why.stacks_not_fitted_total' "$T/stacks.json" | tr '\n' ' ')
[ "$got" = "3 4 6 7 9 " ]
tap_ok $? "the header's stacks_not_fitted_total as recorded (2 more each reading; the events' readings print no report)" "got: $got"

dt -r "$FIX/why.rec" --format json >"$T/why.json" 2>"$T/why.err"
got=$(jq -s -r '[.[] | select(.type == "task" and .why != null) | .why | has("stacks")] | unique | map(tostring) | join(" ")' "$T/why.json")
[ "$got" = false ] && ! grep -q stacks_not_fitted "$T/why.json"
tap_ok $? "why.rec, recorded without stacks: no \"stacks\" (jq's .why.stacks is null), no stacks_not_fitted_total" "got: $got"

# damage FILE OUT: FILE with the last byte of its fourth record's payload (a frame's index into
# the names, in a reading made when a trigger fired) made 0x7f, the record's CRC, the frame and
# the segment header made again, so that only the stacks' section is wrong.
python3 - "$FIX/stacks.rec" "$T/damaged.rec" <<'EOF' || skip_all "cannot rewrite the recording"
import struct, subprocess, sys, zlib
data = open(sys.argv[1], "rb").read()
head = data.index(b"\n\n") + 2
seg = data[head:head + 48]
assert seg[:8] == b"DTSEG01\n"
first, last, flen, count = struct.unpack("<qqQQ", seg[8:40])
frame = data[head + 48:head + 48 + flen] if flen else data[head + 48:]
recs = subprocess.run(["zstd", "-d", "-c", "-q"], input=frame, capture_output=True, check=True).stdout
def varint(b, i):
    v = s = 0
    while True:
        c = b[i]; i += 1; v |= (c & 0x7f) << s; s += 7
        if c < 0x80:
            return v, i
out, i, n = bytearray(), 0, 0
while i < len(recs):
    t = recs[i]; ln, j = varint(recs, i + 1)
    payload = bytearray(recs[j:j + ln])
    if n == 3:
        payload[-1] = 0x7f
    crc = zlib.crc32(bytes([t]) + payload)
    out += recs[i:j] + payload + struct.pack("<I", crc)
    i = j + ln + 4; n += 1
newframe = subprocess.run(["zstd", "-c", "-q"], input=bytes(out), capture_output=True, check=True).stdout
h = bytearray(seg)
h[24:32] = struct.pack("<Q", len(newframe))
h[32:40] = struct.pack("<Q", count if flen else n)
h[40:48] = struct.pack("<Q", zlib.crc32(bytes(h[:40])))
open(sys.argv[2], "wb").write(data[:head] + bytes(h) + newframe + data[head + 48 + len(frame):])
EOF
chmod 0644 "$T/damaged.rec"
dt -r "$T/damaged.rec" --format json >"$T/damaged.json" 2>"$T/damaged.err"
st=$?
reports=$(grep -c '"type":"psi"' "$T/damaged.json")
[ "$st" = 1 ] && grep -q "malformed record: its off-CPU stacks" "$T/damaged.err" && [ "$reports" = 2 ]
tap_ok $? "a damaged stack section is refused: status 1, said, the two reports before it printed" \
	"status $st; stderr: $(head -3 "$T/damaged.err"); reports: $reports"
done_testing
