# manpage.sh — delaytop(8) formats without a single groff warning and carries the version.
. "$top_srcdir/tests/lib.sh"

man="$top_builddir/man/delaytop.8"
[ -n "${GROFF:-}" ] || skip_all "needs groff (Debian package groff-base)"

"$GROFF" -ww -z -man "$man" >"$TMPDIR_TEST/warnings" 2>&1
status=$?
tap_ok "$status" "groff -ww accepts the man page"
[ ! -s "$TMPDIR_TEST/warnings" ]
tap_ok $? "groff -ww prints no warnings" "$(head -5 "$TMPDIR_TEST/warnings")"

grep -q "^\\.TH DELAYTOP 8 .*\"delaytop ${PACKAGE_VERSION}\"" "$man"
tap_ok $? "the man page carries version ${PACKAGE_VERSION}"

for section in NAME SYNOPSIS DESCRIPTION OPTIONS PRIVILEGES "DELAY ACCOUNTING" "EXIT STATUS" "SEE ALSO"; do
	grep -q "^\\.SH \"\\?$section\"\\?\$" "$man"
	tap_ok $? "the man page has a $section section"
done

# --web-config's section names the keys it takes (what a user copies from node_exporter's file).
sed -n '/^\.SS WHO MAY SCRAPE/,/^\.S[HS]/p' "$man" >"$TMPDIR_TEST/scrape"
for key in tls_server_config cert_file key_file basic_auth_users; do
	grep -q "$key" "$TMPDIR_TEST/scrape"
	tap_ok $? "WHO MAY SCRAPE names $key"
done

done_testing
