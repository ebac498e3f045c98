#!/bin/bash
# exporter_auth.sh — delaytop --listen --web-config: over TLS with a certificate the test makes
# (curl --cacert verifies it, and plain HTTP to the port gets no metrics), basic auth with a
# bcrypt hash htpasswd makes: no, wrong and right credentials get 401, 401 and 200, an unknown
# user 401, each 401 asking for Basic; users without TLS over plain HTTP alike; bad files refused
# at the start with status 2 naming the file, the line and the reason, within a second (a FIFO, a
# directory, 100,000 nested [, a bcrypt cost of 31, a YAML tag delaytop does not know among them);
# an empty file taken with one warning; and the warning on stderr when a non-loopback address
# serves anyone, not when basic auth guards it.
. "$top_srcdir/tests/lib.sh"

require_cmd curl openssl htpasswd python3

T=$TMPDIR_TEST
cd "$T" || exit 1
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout key.pem -out cert.pem \
	-days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 >openssl.log 2>&1 ||
	skip_all "openssl cannot make a certificate: $(tail -1 openssl.log)"
HASH=$(htpasswd -nbBC 10 alice 'open sesame' | cut -d: -f2)
cat >web.yml <<CONF
tls_server_config:
  cert_file: cert.pem
  key_file: key.pem
basic_auth_users:
  alice: $HASH
CONF
printf 'basic_auth_users:\n  alice: %s\n' "$HASH" >users.yml
printf 'tls_server_config:\n  cert_file: %s/cert.pem\n  key_file: key.pem\n' "$T" >tls.yml

# serve ADDR CONFIG [NAME]: delaytop --listen ADDR (--web-config CONFIG unless empty) in the
# background, its stderr in NAME.err; waits (5 s at most) until it says where it serves.
serve() {
	local name=${3:-serve} i
	"$DELAYTOP" --listen "$1" ${2:+--web-config "$2"} -d 0.5 >/dev/null 2>"$name.err" 9>&- &
	SERVE_PID=$!
	track_pid "$SERVE_PID"
	for ((i = 0; i < 50; i++)); do
		grep -q 'serving metrics' "$name.err" && return 0
		sleep 0.1
	done
	return 1
}

# status URL CURL-ARGS...: the HTTP status curl gets (000: none).
status() {
	local url=$1
	shift
	curl -s -m 5 -o /dev/null -w '%{http_code}' "$@" "$url"
}

PORT=$(free_port)
URL=https://127.0.0.1:$PORT/metrics
serve "127.0.0.1:$PORT" web.yml tls
tap_ok $? "it starts with TLS and basic auth" "$(cat tls.err)"
grep -q "serving metrics on https://127.0.0.1:$PORT/metrics" tls.err
tap_ok $? "it says it serves https" "$(cat tls.err)"
for ((i = 0; i < 50; i++)); do # the first reading
	[ "$(status "$URL" --cacert cert.pem -u 'alice:open sesame')" = 200 ] && break
	sleep 0.1
done

got=$(status "$URL" --cacert cert.pem)
[ "$got" = 401 ]
tap_ok $? "no credentials: 401" "got $got"
curl -s -m 5 -D headers -o /dev/null --cacert cert.pem "$URL"
grep -qi '^WWW-Authenticate: Basic realm="delaytop"' headers
tap_ok $? "the 401 asks for basic auth (WWW-Authenticate: Basic realm=...)" "$(cat headers)"
got=$(status "$URL" --cacert cert.pem -u 'alice:open sesamE')
[ "$got" = 401 ]
tap_ok $? "a wrong password: 401" "got $got"
got=$(status "$URL" --cacert cert.pem -u 'bob:open sesame')
[ "$got" = 401 ]
tap_ok $? "an unknown user with alice's password: 401" "got $got"
got=$(status "$URL" --cacert cert.pem -u 'alice:open sesame')
[ "$got" = 200 ]
tap_ok $? "the right user and password: 200" "got $got"
curl -s -m 5 --cacert cert.pem -u 'alice:open sesame' -o body "$URL"
grep -q '^delaytop_readings_total ' body
tap_ok $? "and the body is the metrics" "$(head -3 body)"
got=$(status "https://127.0.0.1:$PORT/" --cacert cert.pem)
[ "$got" = 401 ]
tap_ok $? "the index asks for credentials too" "got $got"
curl -s -m 5 -o /dev/null -u 'alice:open sesame' "$URL"
rc=$?
[ "$rc" -ne 0 ]
tap_ok $? "without --cacert curl refuses the test's own certificate (it is the one served)" "curl status $rc"
got=$(status "http://127.0.0.1:$PORT/metrics" -u 'alice:open sesame')
[ "$got" != 200 ]
tap_ok $? "plain HTTP to the TLS port gets no metrics" "got $got"
# (the warning that kernel.task_delayacct is 0 depends on the machine, not on the address)
! grep -q 'warning: .*\(not a loopback address\|asks for neither\)' tls.err
tap_ok $? "no warning about who may scrape, on loopback with TLS and users" "$(cat tls.err)"
stop_pid "$SERVE_PID"

# Users without TLS, over plain HTTP.
PORT=$(free_port)
serve "127.0.0.1:$PORT" users.yml users
for ((i = 0; i < 50; i++)); do
	[ "$(status "http://127.0.0.1:$PORT/metrics" -u 'alice:open sesame')" = 200 ] && break
	sleep 0.1
done
codes="$(status "http://127.0.0.1:$PORT/metrics") $(status "http://127.0.0.1:$PORT/metrics" -u alice:x) $(status "http://127.0.0.1:$PORT/metrics" -u 'alice:open sesame')"
[ "$codes" = "401 401 200" ]
tap_ok $? "basic auth without TLS: none, wrong, right get 401 401 200" "got $codes"
stop_pid "$SERVE_PID"

# The warning: a non-loopback address without basic auth, with TLS alone too; not with users.
for c in "none::1" "tls.yml:tls.yml:1" "users.yml:users.yml:0"; do
	name=${c%%:*} conf=${c#*:}
	want=${conf##*:} conf=${conf%:*}
	for _ in 1 2 3; do # free_port asks loopback: another test may hold the port on another address
		PORT=$(free_port)
		serve "0.0.0.0:$PORT" "$conf" "any-$name"
		started=$?
		stop_pid "$SERVE_PID"
		grep -q 'Address already in use' "any-$name.err" || break
	done
	grep -q "warning: 0.0.0.0:$PORT is not a loopback address .*anyone who can reach the port can read every process name" "any-$name.err"
	warned=$((!$?))
	[ "$started" -eq 0 ] && [ "$warned" -eq "$want" ]
	tap_ok $? "--listen 0.0.0.0 with ${conf:-no web config}: $([ "$want" = 1 ] && echo "warns" || echo "no warning")" \
		"$(cat "any-$name.err")"
done

# Bad files: status 2, the file, the line and the reason, before anything is served.
PORT=$(free_port)
while IFS='|' read -r name line reason text; do
	printf '%b' "$text" >"$name.yml"
	"$DELAYTOP" --listen "127.0.0.1:$PORT" --web-config "$name.yml" -n 1 >/dev/null 2>"$name.err"
	rc=$?
	[ "$rc" -eq 2 ] && grep -q "^delaytop: $name.yml:$line: .*$reason" "$name.err"
	tap_ok $? "a bad file ($name) is refused with status 2 at line $line: $reason" "status $rc: $(cat "$name.err")"
done <<CASES
bad_yaml|3|not valid YAML|tls_server_config:\n  cert_file: cert.pem\n key_file: key.pem\n
unknown_key|2|unknown key 'basic_auth_user'|# a typo\nbasic_auth_user:\n  alice: $HASH\n
toolkit_key|4|'cipher_suites' is not supported|tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\n  cipher_suites: [TLS_AES_128_GCM_SHA256]\n
client_certs|4|client_auth_type may only be NoClientCert|tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\n  client_auth_type: RequireAndVerifyClientCert\n
missing_cert|2|cert_file './nothere.pem': No such file|tls_server_config:\n  cert_file: nothere.pem\n  key_file: key.pem\n
missing_key|3|key_file './gone.pem': No such file|tls_server_config:\n  cert_file: cert.pem\n  key_file: gone.pem\n
no_key|1|key_file is missing|tls_server_config:\n  cert_file: cert.pem\n
not_bcrypt|2|the hash of user 'alice' is not bcrypt|basic_auth_users:\n  alice: \$6\$salt\$IxDD3jeSOb5eB1CX5LBsqZFVkJdido3OUILO5Ifz5iwMuTS4XMS130MTSuDDl3aCI6WouIL9AjRbLCelDCy.g.\n
plain_password|2|the hash of user 'alice' is not bcrypt|basic_auth_users:\n  alice: open sesame\n
no_users|1|basic_auth_users has no users|basic_auth_users: {}\n
CASES
# Files that stalled or weakened the start: each refused with status 2 within a second (3 s
# allowed, for a loaded machine), naming the file, the line and the reason. Before, 100,000 '['
# took 42 to 97 s, a FIFO as key_file held the start for ever (timeout 20 here), a directory was
# an "Input/output error", a cost of 31 and any tag were taken.
mkfifo key.fifo
mkdir certdir
python3 -c 'import sys; sys.stdout.write("[" * 100000)' >deep.yml
printf 'tls_server_config:\n  cert_file: cert.pem\n  key_file: key.fifo\n' >fifo_key.yml
printf 'tls_server_config:\n  cert_file: certdir\n  key_file: key.pem\n' >dir_cert.yml
printf 'basic_auth_users:\n  alice: %s\n' "\$2y\$31\$${HASH#\$2y\$10\$}" >cost31.yml
printf 'basic_auth_users:\n  alice: !!python/object %s\n' "$HASH" >python_tag.yml
printf '# a tag of its own\nbasic_auth_users: !users\n  alice: %s\n' "$HASH" >local_tag.yml
times=""
while IFS='|' read -r file where reason; do
	start=$(date +%s.%N)
	timeout 20 "$DELAYTOP" --listen "127.0.0.1:$PORT" --web-config "$file" -n 1 >/dev/null 2>"$file.err"
	rc=$?
	took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
	times="$times $file ${took}s"
	[ "$rc" -eq 2 ] && grep -q "^delaytop: $where: .*$reason" "$file.err" && within "$took" 0 3
	tap_ok $? "$file is refused with status 2 within a second, at $where: $reason" \
		"status $rc after $took s: $(head -c 300 "$file.err")"
done <<CASES
deep.yml|deep.yml:1|sequences and mappings nested deeper than 32 levels
fifo_key.yml|fifo_key.yml:3|key_file './key.fifo': not a regular file but a FIFO
dir_cert.yml|dir_cert.yml:2|cert_file './certdir': not a regular file but a directory
certdir|certdir|not a regular file but a directory
cost31.yml|cost31.yml:2|the hash of user 'alice' has cost 31: delaytop takes 4 to 14
python_tag.yml|python_tag.yml:2|the YAML tag '!!python/object' is not one delaytop knows
local_tag.yml|local_tag.yml:2|the YAML tag '!users' is not one delaytop knows
CASES
diag "refusal times:$times"

# An empty file starts, as without --web-config, with one warning that it asks for neither.
: >empty.yml
PORT=$(free_port)
serve "127.0.0.1:$PORT" empty.yml empty
started=$?
for ((i = 0; i < 20; i++)); do
	grep -q 'asks for neither TLS nor basic auth' empty.err && break
	sleep 0.1
done
warned=$(grep -c "^delaytop: warning: empty.yml asks for neither TLS nor basic auth" empty.err)
got=$(status "http://127.0.0.1:$PORT/metrics")
stop_pid "$SERVE_PID"
[ "$started" -eq 0 ] && [ "$warned" -eq 1 ]
tap_ok $? "an empty file starts, with one warning that it asks for neither TLS nor basic auth" "$(cat empty.err)"
[ "$got" = 200 ] || [ "$got" = 503 ]
tap_ok $? "and serves without credentials, as without --web-config" "got $got"
! grep -q 'asks for neither' tls.err users.err
tap_ok $? "no such warning with TLS or users" "$(cat tls.err users.err)"

PORT=$(free_port)
"$DELAYTOP" --listen "127.0.0.1:$PORT" --web-config nothere.yml -n 1 >/dev/null 2>missing.err
rc=$?
[ "$rc" -eq 2 ] && grep -q '^delaytop: nothere.yml: No such file or directory' missing.err
tap_ok $? "a missing file is refused with status 2, naming it" "status $rc: $(cat missing.err)"
"$DELAYTOP" -b -n 1 --web-config web.yml >/dev/null 2>alone.err
rc=$?
[ "$rc" -eq 2 ] && grep -q -- '--web-config is for --listen' alone.err
tap_ok $? "--web-config without --listen is refused" "status $rc: $(cat alone.err)"

done_testing
