#!/bin/bash
# systemd.sh — the unit systemd/delaytop.service: systemd-analyze verify passes on it (pointed at
# this build's binary; the man page is not installed, so it is not looked for), it runs delaytop
# as the exporter with CAP_NET_ADMIN as the only capability, and systemd-analyze security rates
# its exposure "OK" or better.
. "$top_srcdir/tests/lib.sh"

require_cmd systemd-analyze
unit=$top_builddir/systemd/delaytop.service
[ -f "$unit" ] || skip_all "no $unit: configure found no systemd unit directory (--with-systemdsystemunitdir)"
bin=$(cd "$(dirname "$DELAYTOP")" && pwd)/$(basename "$DELAYTOP")
sed "s|^ExecStart=[^ ]*delaytop |ExecStart=$bin |" "$unit" >"$TMPDIR_TEST/delaytop.service"

systemd-analyze verify --man=no "$TMPDIR_TEST/delaytop.service" >"$TMPDIR_TEST/verify" 2>&1
tap_ok $? "systemd-analyze verify passes" "$(cat "$TMPDIR_TEST/verify")"
grep -q '^ExecStart=.*delaytop --listen 127.0.0.1:' "$unit"
tap_ok $? "the unit runs the exporter on loopback" "$(grep ExecStart= "$unit")"
grep -q '^AmbientCapabilities=CAP_NET_ADMIN$' "$unit" && grep -q '^CapabilityBoundingSet=CAP_NET_ADMIN$' "$unit" &&
	grep -q '^DynamicUser=yes$' "$unit"
tap_ok $? "a dynamic user with CAP_NET_ADMIN alone"
level=$(systemd-analyze security --offline=yes "$TMPDIR_TEST/delaytop.service" 2>/dev/null |
	sed -n 's/.*Overall exposure level for delaytop.service: \([0-9.]*\) \([A-Z]*\).*/\1 \2/p')
case ${level#* } in OK | SAFE) true ;; *) false ;; esac
tap_ok $? "systemd-analyze security: exposure OK or better" "got: ${level:-nothing}"

# The unit's commented way to serve other machines (--web-config through LoadCredential=):
# verified, and rated OK or better too.
sed -n 's/^#   \(LoadCredential=.*\)/\1/p; s/^#   \(ExecStart=.*\)/\1/p' "$unit" >"$TMPDIR_TEST/web.lines"
grep -q -- '--web-config %d/web.yml' "$TMPDIR_TEST/web.lines" && [ "$(grep -c '^LoadCredential=' "$TMPDIR_TEST/web.lines")" -eq 3 ]
tap_ok $? "the unit's comments show --web-config with LoadCredential=" "$(cat "$TMPDIR_TEST/web.lines")"
mkdir -p "$TMPDIR_TEST/web"
sed "s|^ExecStart=[^ ]*delaytop |ExecStart=$bin |" "$unit" | awk -v lines="$TMPDIR_TEST/web.lines" -v bin="$bin" '
	/^ExecStart=/ { while ((getline l <lines) > 0) { sub(/^ExecStart=[^ ]*delaytop /, "ExecStart=" bin " ", l); print l }; next }
	{ print }' >"$TMPDIR_TEST/web/delaytop.service"
systemd-analyze verify --man=no "$TMPDIR_TEST/web/delaytop.service" >"$TMPDIR_TEST/verify.web" 2>&1
tap_ok $? "systemd-analyze verify passes with the web config's lines" "$(cat "$TMPDIR_TEST/verify.web")" \
	"$(grep -e ExecStart -e LoadCredential "$TMPDIR_TEST/web/delaytop.service")"
level=$(systemd-analyze security --offline=yes "$TMPDIR_TEST/web/delaytop.service" 2>/dev/null |
	sed -n 's/.*Overall exposure level for delaytop.service: \([0-9.]*\) \([A-Z]*\).*/\1 \2/p')
case ${level#* } in OK | SAFE) true ;; *) false ;; esac
tap_ok $? "systemd-analyze security with the web config's lines: exposure OK or better" "got: ${level:-nothing}"

done_testing
