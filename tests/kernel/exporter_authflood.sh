#!/bin/bash
# exporter_authflood.sh — delaytop --listen --web-config lets a right user in through a flood of
# wrong passwords from other addresses, also when it has not passed before (a new Prometheus
# replica, a restarted exporter): 32 clients send wrong passwords as fast as the answers come
# (bcrypt cost 10), first from 8 addresses (127.0.0.2 to 127.0.0.9, 4 clients each), then from 32
# new ones (127.0.0.10 to 127.0.0.41); during each, from 127.0.0.1, ten users ask each once and
# for the first time with their right passwords: at least 9 of them get in, each answered within
# 3 s. The wrong passwords get 401, not the metrics, and the exporter keeps running. With one
# budget of bcrypt time for every address, 0 of 10 got in.
. "$top_srcdir/tests/lib.sh"

require_cmd curl python3 htpasswd
lock_global # the flood loads both CPUs

T=$TMPDIR_TEST
cd "$T" || exit 1
TRIES=10
{
	echo "basic_auth_users:"
	for ((k = 0; k < 2 * TRIES; k++)); do
		htpasswd -nbBC 10 "scraper$k" "right-$k" | sed 's/^\([^:]*\):/  \1: /'
	done
	htpasswd -nbBC 10 alice "alice's own" | sed 's/^\([^:]*\):/  \1: /'
	htpasswd -nbBC 10 ready "first reading" | sed 's/^\([^:]*\):/  \1: /'
} >users.yml

PORT=$(free_port)
URL=http://127.0.0.1:$PORT/metrics
"$DELAYTOP" --listen "127.0.0.1:$PORT" --web-config users.yml -d 0.5 >/dev/null 2>exporter.err 9>&- &
EXPORTER_PID=$!
track_pid "$EXPORTER_PID"
for ((i = 0; i < 100; i++)); do # the first reading, through a user of its own
	[ "$(curl -s -m 2 -o /dev/null -w '%{http_code}' -u 'ready:first reading' "$URL")" = 200 ] && break
	sleep 0.1
done
[ "$i" -lt 100 ]
tap_ok $? "the exporter starts with basic auth and serves the right user" "$(cat exporter.err)"

# The flood: CLIENTS threads on ADDRESSES loopback addresses from 127.0.0.FIRST, each sending alice
# with wrong passwords on a kept-alive connection until the file STOP exists, for SECONDS at most;
# prints the answers' counts.
cat >flood.py <<'PY'
import base64, http.client, os, sys, threading, time
port, clients, addresses, first, seconds = (int(a) for a in sys.argv[1:6])
stop = sys.argv[6]
end = time.monotonic() + seconds
counts = {}
lock = threading.Lock()

def flood(i):
    addr = "127.0.0.%d" % (first + i % addresses)
    c, n = None, 0
    while time.monotonic() < end and not os.path.exists(stop):
        n += 1
        auth = base64.b64encode(b"alice:wrong %d %d" % (i, n)).decode()
        try:
            if c is None:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=(addr, 0))
            c.request("GET", "/metrics", headers={"Authorization": "Basic " + auth})
            r = c.getresponse()
            r.read()
            status = r.status
            if r.getheader("Connection", "").lower() == "close":
                c.close()
                c = None
        except (OSError, http.client.HTTPException):
            status = "error"
            if c is not None:
                c.close()
            c = None
            time.sleep(0.01)
        with lock:
            counts[status] = counts.get(status, 0) + 1

threads = [threading.Thread(target=flood, args=(i,)) for i in range(clients)]
[t.start() for t in threads]
[t.join() for t in threads]
print(" ".join("%s:%d" % (k, v) for k, v in sorted(counts.items(), key=str)))
PY

# flood_and_scrape ADDRESSES FIRST WARM USER0: the flood from ADDRESSES addresses from
# 127.0.0.FIRST; after WARM s, users USER0 to USER0+TRIES-1 ask once each, half a second apart,
# and the flood stops once the last has its answer (or after WARM + 2 s per user at most).
# Prints "passed slowest codes..."; the flood's counts go to flood-FIRST.out.
flood_and_scrape() {
	local addresses=$1 first=$2 warm=$3 user0=$4 pid passed=0 slowest=0 codes="" code t k
	timeout 120 python3 flood.py "$PORT" 32 "$addresses" "$first" $((warm + TRIES * 2)) "stop-$first" \
		>"flood-$first.out" 2>&1 9>&- &
	pid=$!
	track_pid "$pid"
	sleep "$warm"
	for ((k = user0; k < user0 + TRIES; k++)); do
		read -r code t < <(curl -s -m 5 -o /dev/null -w '%{http_code} %{time_total}\n' -u "scraper$k:right-$k" "$URL")
		codes="$codes $code"
		[ "$code" = 200 ] && passed=$((passed + 1))
		slowest=$(awk -v a="$slowest" -v b="$t" 'BEGIN { print (b + 0 > a + 0) ? b : a }')
		sleep 0.5
	done
	: >"stop-$first"
	wait "$pid"
	echo "$passed $slowest$codes"
}

for phase in "8 2 3 0" "32 10 5 $TRIES"; do
	set -- $phase
	read -r passed slowest codes < <(flood_and_scrape "$@")
	flood=$(cat "flood-$2.out")
	diag "32 clients on $1 addresses: $passed of $TRIES right users got in (codes: $codes), the slowest answer in $slowest s; flood: $flood"
	[ "$passed" -ge $((TRIES - 1)) ]
	tap_ok $? "through 32 clients on $1 addresses sending wrong passwords, $((TRIES - 1)) of $TRIES right users not seen before get in" \
		"$passed got in (codes: $codes); flood: $flood"
	within "$slowest" 0 3
	tap_ok $? "each is answered within 3 s" "the slowest took $slowest s"
	grep -q '^401:[0-9]' "flood-$2.out" && ! grep -q '^200:\| 200:' "flood-$2.out"
	tap_ok $? "the flood's wrong passwords get 401, never the metrics" "$flood"
done
kill -0 "$EXPORTER_PID" 2>/dev/null
tap_ok $? "the exporter is still running"
done_testing
