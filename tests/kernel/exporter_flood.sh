#!/bin/bash
# exporter_flood.sh — delaytop --listen keeps answering scrapes through connection floods on
# loopback: a burst of 400 connections (from 40 addresses) that each send half a request line and
# close at once, then 500 connections from the same 40 addresses that send a byte every 8 s (or
# every 2 s, under the idle timeout), reconnecting when dropped. During each attack and right
# after it, every scrape (curl, 2 s at most) succeeds; the dead connections of the burst are gone
# within seconds; no trickling connection is held much past the whole-request deadline (10 s).
. "$top_srcdir/tests/lib.sh"

require_cmd curl python3 ss awk
lock_global # the floods load both CPUs

T=$TMPDIR_TEST

if ! start_exporter -d 0.5; then
	grep -q "needs libmicrohttpd" "$T/exporter.err" && skip_all "$(head -1 "$T/exporter.err")"
	tap_ok 1 "the exporter starts and answers" "$(head -3 "$T/exporter.err")"
	done_testing
	exit
fi

# The attacker: MODE SECONDS; prints one line of facts when done.
cat >"$T/flood.py" <<'PY'
import resource, select, socket, sys, threading, time
port, mode, seconds = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
end = time.monotonic() + seconds
addr = lambda i: "127.0.0.%d" % (2 + i % 40)

def connect(i):
    s = socket.socket()
    s.settimeout(1)
    s.bind((addr(i), 0))
    s.connect(("127.0.0.1", port))
    return s

def burst(part, n):  # half a request line, then close, at once
    for i in range(part, 400, n):
        try:
            s = connect(i)
            s.send(b"GET /metr")
            s.close()
        except OSError:
            pass

if mode == "half":
    threads = [threading.Thread(target=burst, args=(k, 8)) for k in range(8)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    print("burst sent")
    sys.exit(0)

# slow: 500 connections, half send a byte every 8 s, half every 2 s; a dropped one reconnects
conns = {}  # socket -> (index, connected at, last byte at)
again = []  # (when, index): reconnect a dropped one a second later
longest = 0.0
drops = 0
def open_one(i):
    try:
        s = connect(i)
        s.setblocking(False)
        now = time.monotonic()
        conns[s] = (i, now, now)
    except OSError:
        pass
for i in range(500):
    open_one(i)
while time.monotonic() < end:
    r, _, _ = select.select(list(conns), [], [], 0.2)
    now = time.monotonic()
    for s in r:
        try:
            data = s.recv(4096)
        except OSError:
            data = b""
        if not data:  # the server dropped it
            i, since, _ = conns.pop(s)
            longest = max(longest, now - since)
            drops += 1
            s.close()
            again.append((now + 1, i))
    while again and again[0][0] <= now:
        open_one(again.pop(0)[1])
    for s, (i, since, last) in list(conns.items()):
        if now - last >= (8 if i % 2 else 2):
            try:
                s.send(b"G" if since == last else b"X")
            except OSError:
                pass
            conns[s] = (i, since, now)
for s, (i, since, last) in conns.items():
    longest = max(longest, time.monotonic() - since)
    s.close()
print("drops %d longest %.1f" % (drops, longest))
PY

# scrape_during PID SECONDS_AFTER: scrapes every 0.3 s while PID runs and SECONDS_AFTER more;
# prints "scrapes failures max_latency".
scrape_during() {
	local pid=$1 after=$2 n=0 bad=0 max=0 t code until
	until=""
	while :; do
		if [ -z "$until" ] && ! kill -0 "$pid" 2>/dev/null; then
			until=$(($(date +%s) + after))
		fi
		[ -n "$until" ] && [ "$(date +%s)" -ge "$until" ] && break
		read -r code t < <(curl -s -m 2 -o /dev/null -w '%{http_code} %{time_total}\n' "$URL")
		n=$((n + 1))
		[ "$code" = 200 ] || bad=$((bad + 1))
		max=$(awk -v a="$max" -v b="$t" 'BEGIN { print (b + 0 > a + 0) ? b : a }')
		sleep 0.3
	done
	echo "$n $bad $max"
}

timeout 30 python3 "$T/flood.py" "$PORT" half 0 >"$T/half" 2>&1 &
A=$!
track_pid "$A"
read -r n bad max < <(scrape_during "$A" 4)
wait "$A"
diag "burst: $n scrapes, $bad failed, slowest $max s"
[ "$n" -ge 5 ] && [ "$bad" -eq 0 ]
tap_ok $? "through a burst of 400 half requests, every scrape succeeds" \
	"$n scrapes, $bad failed, slowest $max s; attacker: $(cat "$T/half")"
held=$(ss -Htan state close-wait "( sport = :$PORT )" | wc -l)
queued=$(ss -Hltn "( sport = :$PORT )" | awk '{ print $2 }')
[ "$held" -le 2 ] && [ "${queued:-0}" -le 2 ]
tap_ok $? "4 s after the burst, its dead connections are gone" "$held in CLOSE-WAIT, $queued in the listen queue"

# 18 s: longer than the 14 s a connection may be held, so that one held without a deadline fails
# the check below (the attacker counts the age of those still open at its end).
timeout 60 python3 "$T/flood.py" "$PORT" slow 18 >"$T/slow" 2>&1 &
S=$!
track_pid "$S"
read -r n bad max < <(scrape_during "$S" 3)
wait "$S"
diag "500 slow connections: $n scrapes, $bad failed, slowest $max s; attacker: $(cat "$T/slow")"
[ "$n" -ge 20 ] && [ "$bad" -eq 0 ]
tap_ok $? "through 500 slow connections from 40 addresses, every scrape succeeds" \
	"$n scrapes, $bad failed, slowest $max s"
longest=$(awk '{ print $4 }' "$T/slow")
within "$longest" 0 14
tap_ok $? "a connection that trickles a byte now and then is dropped within the deadline" "$(cat "$T/slow")"

kill -0 "$EXPORTER_PID" 2>/dev/null
tap_ok $? "the exporter is still running"
done_testing
