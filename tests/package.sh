#!/bin/bash
# package.sh — builds the Debian package from a clean export of this checkout's HEAD with
# dpkg-buildpackage -us -uc -b, runs lintian on it (errors fail), and installs it: delaytop
# --version from the installed binary, the capability postinst gives it, the unit, the man page,
# the translation, the Prometheus rules and the Grafana dashboard. A delaytop package that was installed before is left alone: then the .deb
# is unpacked into a directory instead. Run as root by ./quickstart.sh check; prints TAP.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
n=0 failed=0
point() { # STATUS DESCRIPTION [DIAGNOSTIC]
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); [ -n "${3:-}" ] && printf '#   %s\n' "$3"; fi
}
[ "$(id -u)" -eq 0 ] || { echo "1..0 # SKIP needs root (dpkg -i)"; exit 0; }
for c in dpkg-buildpackage lintian git; do
	command -v "$c" >/dev/null || { echo "1..0 # SKIP needs $c"; exit 0; }
done
git -C "$top" rev-parse HEAD >/dev/null 2>&1 || { echo "1..0 # SKIP not a git checkout"; exit 0; }

tmp=$(mktemp -d /tmp/delaytop-package.XXXXXX)
installed_here=0
cleanup() {
	[ "$installed_here" -eq 1 ] && dpkg --purge delaytop >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT

mkdir "$tmp/delaytop"
git -C "$top" archive --format=tar HEAD | tar -x -C "$tmp/delaytop"
(cd "$tmp/delaytop" && DEB_BUILD_OPTIONS="parallel=$(nproc)" dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1
point $? "dpkg-buildpackage -us -uc -b builds from a clean export" "$(tail -5 "$tmp/build.log" | tr '\n' ' ')"
deb=$(ls "$tmp"/delaytop_*.deb 2>/dev/null | head -1)
[ -n "$deb" ]
point $? "a .deb comes out" "$(ls "$tmp")"
lintian --fail-on error "$tmp"/delaytop_*.changes >"$tmp/lintian" 2>&1
point $? "lintian reports no errors" "$(grep -E '^E:' "$tmp/lintian" | head -5 | tr '\n' ' ')"
grep -E '^[WE]:' "$tmp/lintian" | sed 's/^/# /'

if dpkg-query -W -f='${Status}' delaytop 2>/dev/null | grep -q "install ok installed"; then
	echo "# a delaytop package is installed already: unpacking instead of installing"
	dpkg -x "$deb" "$tmp/root"
	root=$tmp/root
	"$root/usr/sbin/delaytop" --version >"$tmp/version" 2>&1
	point $? "the packaged delaytop --version works" "$(cat "$tmp/version")"
else
	dpkg -i "$deb" >"$tmp/install.log" 2>&1
	rc=$?
	[ "$rc" -eq 0 ] && installed_here=1
	point "$rc" "dpkg -i installs it" "$(tail -3 "$tmp/install.log" | tr '\n' ' ')"
	root=
	/usr/sbin/delaytop --version >"$tmp/version" 2>&1 && grep -q "^delaytop " "$tmp/version"
	point $? "the installed delaytop --version works" "$(cat "$tmp/version")"
	if getcap /usr/sbin/delaytop | grep -q cap_net_admin; then
		point 0 "postinst gave the binary CAP_NET_ADMIN"
	else
		grep -q "cannot give /usr/sbin/delaytop CAP_NET_ADMIN" "$tmp/install.log"
		point $? "where the file system has no capabilities, postinst says so" "$(getcap /usr/sbin/delaytop)"
	fi
fi
[ -f "$root/lib/systemd/system/delaytop.service" ] && grep -q "^ExecStart=/usr/sbin/delaytop --listen" "$root/lib/systemd/system/delaytop.service"
point $? "the unit is installed, running /usr/sbin/delaytop"
[ -f "$root/usr/share/man/man8/delaytop.8.gz" ]
point $? "the man page is installed"
[ -f "$root/usr/share/locale/de/LC_MESSAGES/delaytop.mo" ]
point $? "the German translation is installed"
[ -f "$root/usr/share/bash-completion/completions/delaytop" ] && grep -q '^complete -F _delaytop delaytop$' "$root/usr/share/bash-completion/completions/delaytop"
point $? "the bash completion is installed where bash-completion looks"
[ -f "$root/usr/share/delaytop/prometheus/delaytop-rules.yml" ] && [ -f "$root/usr/share/delaytop/grafana/delaytop.json" ]
point $? "the Prometheus rules and the Grafana dashboard are installed in /usr/share/delaytop"

echo "1..$n"
[ "$failed" -eq 0 ]
