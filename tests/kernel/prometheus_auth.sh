#!/bin/bash
# prometheus_auth.sh — a real Prometheus server (Debian's package) scrapes delaytop --listen
# --web-config over TLS (the test's own certificate, its ca_file) with basic auth every second:
# the job with the right password is up, the job with a wrong one is down (401), and the job
# over plain HTTP is down. Both servers run on loopback ports of their own and are stopped by
# their pids.
. "$top_srcdir/tests/lib.sh"

require_cmd prometheus curl jq openssl htpasswd python3

T=$TMPDIR_TEST
cd "$T" || exit 1
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout key.pem -out cert.pem \
	-days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 >openssl.log 2>&1 ||
	skip_all "openssl cannot make a certificate: $(tail -1 openssl.log)"
cat >web.yml <<CONF
tls_server_config:
  cert_file: cert.pem
  key_file: key.pem
basic_auth_users:
  prometheus: $(htpasswd -nbBC 10 prometheus 'scrape me' | cut -d: -f2)
CONF

PORT=$(free_port)
PPORT=$(free_port)
# detect_leaks=0: in a sanitizer build, LeakSanitizer's stop of the threads at the exit that the
# cleanup's TERM asks for was seen to spin for ever (a CPU at 88% for 10 minutes)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$DELAYTOP" --listen "127.0.0.1:$PORT" --web-config web.yml -d 0.5 >/dev/null 2>exporter.err 9>&- &
track_pid $!
mkdir data
cat >prometheus.yml <<CONF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: right
    scheme: https
    tls_config:
      ca_file: $T/cert.pem
    basic_auth:
      username: prometheus
      password: scrape me
    static_configs:
      - targets: ["127.0.0.1:$PORT"]
  - job_name: wrong
    scheme: https
    tls_config:
      ca_file: $T/cert.pem
    basic_auth:
      username: prometheus
      password: scrape you
    static_configs:
      - targets: ["127.0.0.1:$PORT"]
  - job_name: plain
    static_configs:
      - targets: ["127.0.0.1:$PORT"]
CONF
prometheus --config.file=prometheus.yml --storage.tsdb.path=data \
	--web.listen-address="127.0.0.1:$PPORT" --log.level=warn >prom.log 2>&1 9>&- &
track_pid $!
API=http://127.0.0.1:$PPORT/api/v1

# up JOB: the job's up, or nothing.
up() { curl -s --data-urlencode "query=up{job=\"$1\"}" "$API/query" | jq -r '.data.result[0].value[1] // empty' 2>/dev/null; }

for _ in $(seq 60); do
	[ "$(up right)" = 1 ] && [ -n "$(up wrong)" ] && [ -n "$(up plain)" ] && break
	sleep 0.5
done
got=$(up right)
[ "$got" = 1 ]
tap_ok $? "Prometheus scrapes over TLS with basic auth: up is 1" "up: ${got:-none}" "$(tail -3 prom.log)" \
	"$(curl -s "$API/targets" | jq -c '.data.activeTargets[] | select(.labels.job == "right") | .lastError')"
got=$(up wrong)
err=$(curl -s "$API/targets" | jq -r '.data.activeTargets[] | select(.labels.job == "wrong") | .lastError')
[ "$got" = 0 ]
tap_ok $? "a wrong password: up is 0" "up: ${got:-none}"
case $err in *401*) true ;; *) false ;; esac
tap_ok $? "and Prometheus says why: 401" "lastError: $err"
got=$(up plain)
[ "$got" = 0 ]
tap_ok $? "plain HTTP to the TLS port: up is 0" "up: ${got:-none}"

done_testing
