#!/bin/bash
# exporter.sh — delaytop --listen on loopback: /metrics passes promtool; the test cgroup's CPU delay
# counter of two spinners sharing one CPU grows by what the kernel counted for them (about 1 s per
# s on a quiet machine); counters never go down; OpenMetrics
# when asked (with # EOF); 404, 405 and 431 for bad requests; a client that holds its connections
# open is bounded per address and does not stop the readings; SIGTERM ends it with status 0.
. "$top_srcdir/tests/lib.sh"

require_root
require_cpus 2
require_cmd curl promtool jq awk
require_taskstats
lock_global # the spinners load CPU 1

require_v2
NAME=delaytop-exp.$$
mkdir "$V2/$NAME" || skip_all "cannot create a cgroup under $V2"
trap 'cleanup; rmdir "$V2/$NAME" 2>/dev/null' EXIT

T=$TMPDIR_TEST

start_workload spin 1; A=$WORKLOAD_PID
start_workload spin 1; B=$WORKLOAD_PID
echo "$A" >"$V2/$NAME/cgroup.procs" && echo "$B" >"$V2/$NAME/cgroup.procs" || skip_all "cannot move tasks into $V2/$NAME"

start_exporter --readings 2 -d 0.5
scrape_reading "$T/m1" "$A" "$B" || cp "$T/exporter.scrape" "$T/m1"
lo1=$SCRAPE_LO hi1=$SCRAPE_HI
grep -q "serving metrics on http://127.0.0.1:$PORT/metrics" "$T/exporter.err"
tap_ok $? "it says where it serves" "$(cat "$T/exporter.err")"
[ ! -s "$T/exporter.out" ]
tap_ok $? "without -b it prints nothing on stdout" "$(head -3 "$T/exporter.out")"
promtool check metrics <"$T/m1" >"$T/lint" 2>&1
tap_ok $? "promtool check metrics passes on /metrics" "$(head -5 "$T/lint")"

# cpu_s FILE: the test cgroup's CPU delay counter.
cpu_s() { awk -v c="delaytop_cgroup_delay_seconds_total{cgroup=\"/$NAME\",kind=\"cpu\"}" '$1 == c { print $2 }' "$1"; }
c1=$(cpu_s "$T/m1")
sleep 3
scrape_reading "$T/m2" "$A" "$B"
c2=$(cpu_s "$T/m2")
# what the kernel counted for the spinners between the two readings: at least from just after
# the first to just before the second, at most from just before the first to just after the second
want=$(marked wait "$hi1" "$SCRAPE_LO" "$A" "$B") want_hi=$(marked wait "$lo1" "$SCRAPE_HI" "$A" "$B")
awk -v a="$c1" -v b="$c2" -v lo="$want" -v hi="$want_hi" \
	'BEGIN { g = (b - a) * 1000; exit !(a != "" && b != "" && lo != "" && g >= lo - 2 && g <= hi + 2) }'
tap_ok $? "two spinners on one CPU in the cgroup: its CPU delay counter grows by their run-queue waits (schedstat)" \
	"counter $c1 -> $c2 s; the kernel: ${want:-?}..${want_hi:-?} ms over $(marked wall "$hi1" "$SCRAPE_LO")..$(marked wall "$lo1" "$SCRAPE_HI") ms"
diag "cgroup counter grew $(awk -v a="$c1" -v b="$c2" 'BEGIN { printf "%.1f", (b - a) * 1000 }') ms; the kernel: $want..$want_hi ms"

# No counter went down between the two scrapes.
down=$(awk 'NR == FNR { if ($1 !~ /^#/) v[$1] = $2; next }
	$1 ~ /_total/ && ($1 in v) && $2 + 0 < v[$1] + 0 { print $1, v[$1], "->", $2 }' "$T/m1" "$T/m2")
[ -z "$down" ] && [ "$(grep -c '_total' "$T/m2")" -gt 10 ]
tap_ok $? "no counter went down between two scrapes" "$down"

hdr=$(curl -s -D - -o "$T/om" -H 'Accept: application/openmetrics-text; version=1.0.0' "$URL" | tr -d '\r' | grep -i '^content-type')
grep -qi 'application/openmetrics-text' <<<"$hdr" && [ "$(tail -1 "$T/om")" = "# EOF" ] &&
	grep -q '^# TYPE delaytop_cgroup_delay_seconds counter$' "$T/om"
tap_ok $? "OpenMetrics when the scraper asks for it" "$hdr; last line: $(tail -1 "$T/om")"

[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/nosuch")" = 404 ]
tap_ok $? "an unknown path is 404"
[ "$(curl -s -o /dev/null -w '%{http_code}' -X POST -d x "$URL")" = 405 ]
tap_ok $? "POST is 405"
[ "$(curl -s -o /dev/null -w '%{http_code}' -H "X-Big: $(head -c 65536 /dev/zero | tr '\0' a)" "$URL")" = 431 ]
tap_ok $? "a 64 KiB header is refused (431)"

# 20 connections from 127.0.0.1 that send half a request and wait: the server takes some, refuses
# the rest, and keeps taking readings; a scrape from another loopback address is answered.
r1=$(curl -s "$URL" | awk '$1 == "delaytop_readings_total" { print $2 }')
python3 - "$PORT" >"$T/slow" 2>&1 <<'PY' &
import socket, sys, time
held = []
for i in range(20):
    try:
        s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2)
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
        held.append(s)
    except OSError as e:
        print("refused", e)
time.sleep(4)
PY
SLOW=$!
track_pid "$SLOW"
sleep 1.5
code=$(curl -s --interface 127.0.0.2 -m 3 -o "$T/m3" -w '%{http_code}' "$URL")
r3=$(awk '$1 == "delaytop_readings_total" { print $2 }' "$T/m3")
[ "$code" = 200 ] && [ -n "$r1" ] && [ -n "$r3" ] && [ "$r3" -gt "$r1" ]
tap_ok $? "with 20 half-open connections from one address, another address is served, and readings went on" \
	"status $code, readings $r1 -> $r3"
wait "$SLOW"

kill -TERM "$EXPORTER_PID"
wait "$EXPORTER_PID"
tap_ok $? "SIGTERM ends the exporter with status 0"

"$DELAYTOP" --listen "127.0.0.1:nope" >/dev/null 2>"$T/bad"
rc=$?
[ "$rc" -eq 2 ] && grep -q "invalid listen address '127.0.0.1:nope'" "$T/bad"
tap_ok $? "a bad --listen value: status 2, named" "status $rc: $(cat "$T/bad")"
# A port another program listens on.
python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(); print(s.getsockname()[1], flush=True); time.sleep(3)' \
	>"$T/held" &
HOLD=$!
track_pid "$HOLD"
for _ in $(seq 30); do [ -s "$T/held" ] && break; sleep 0.1; done
held=$(cat "$T/held")
"$DELAYTOP" --listen "127.0.0.1:$held" -n 1 >/dev/null 2>"$T/busy"
rc=$?
[ -n "$held" ] && [ "$rc" -eq 1 ] && grep -q "cannot listen on 127.0.0.1:$held: Address already in use" "$T/busy"
tap_ok $? "a port that is taken: status 1 and a message" "status $rc: $(cat "$T/busy")"

done_testing
