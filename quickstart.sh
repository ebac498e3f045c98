#!/bin/sh
# quickstart.sh — one command to set up a Debian 12 machine for delaytop and then run it or test it.
#
#   ./quickstart.sh run [OPTION]...   install what is missing, build in build/, start delaytop
#   ./quickstart.sh check             the same set-up, then the whole test suite: make check,
#                                     the sanitizer build (ASan+UBSan), make distcheck and the
#                                     Debian package (built, linted, installed, removed)
#
# Safe to run again: it installs only missing packages and rebuilds only what changed. Needs root
# (apt-get, and the tests read taskstats and flip kernel.task_delayacct, putting it back).
# A test that reports SKIP fails the check, because CI must run everything; set
# DELAYTOP_ALLOW_SKIP=1 to accept skips on a machine that lacks something.
set -eu

cd "$(dirname "$0")"
top=$(pwd)
jobs=$(nproc 2>/dev/null || echo 2)

# What building and running needs (run), and what only the tests need (check); the reasons
# are in README.md.
PACKAGES="build-essential autoconf automake autopoint gettext pkg-config
libncurses-dev libnl-genl-3-dev libproc2-dev libzstd-dev libmicrohttpd-dev libyaml-dev libcrypt-dev
libbpf-dev clang bpftool libdw-dev"
TEST_PACKAGES="systemd tmux groff-base jq python3 util-linux mount bsdutils procps locales libcap2-bin
prometheus prometheus-alertmanager curl bash-completion debhelper dh-autoreconf lintian libclang-rt-14-dev libbpf-tools
openssl apache2-utils chromium python3-html5lib"
# Test packages whose service the package enables: the tests run their own.
SERVICE_PACKAGES="prometheus prometheus-alertmanager"

started=$(date +%s)

# A line of progress, with the minutes and seconds since the start (where a check's time goes).
say() {
	t=$(($(date +%s) - started))
	printf 'quickstart: [%d:%02d] %s\n' $((t / 60)) $((t % 60)) "$*"
}

need_root() {
	if [ "$(id -u)" -ne 0 ]; then
		say "run this as root: it installs packages and the tests need CAP_NET_ADMIN"
		exit 1
	fi
}

# Installs the missing ones of the packages named in $1.
install_packages() {
	missing=""
	for p in $1; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		installed_now=1
		say "installing:$missing"
		apt-get update -qq
		# The tests start their own Prometheus and Alertmanager on ports of their own: no
		# package's service is started by this install (policy-rc.d refuses, for this install
		# only), nor at the next boot (those installed now are disabled again).
		no_services=0
		if [ ! -e /usr/sbin/policy-rc.d ]; then
			printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d && no_services=1
		fi
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing || {
			[ "$no_services" -eq 0 ] || rm -f /usr/sbin/policy-rc.d
			exit 1
		}
		[ "$no_services" -eq 0 ] || rm -f /usr/sbin/policy-rc.d
		for p in $SERVICE_PACKAGES; do
			case " $missing " in
			*" $p "*) systemctl disable --quiet "$p.service" >/dev/null 2>&1 || true ;;
			esac
		done
	fi
}

# The German translation test needs a German UTF-8 locale.
ensure_locale() {
	if ! locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$'; then
		say "generating the de_DE.UTF-8 locale"
		sed -i 's/^# *\(de_DE\.UTF-8 UTF-8\)/\1/' /etc/locale.gen
		grep -q '^de_DE\.UTF-8 UTF-8' /etc/locale.gen || echo 'de_DE.UTF-8 UTF-8' >>/etc/locale.gen
		locale-gen >/dev/null
	fi
}

# A build directory per configuration; the source tree itself stays unconfigured.
configure_in() {
	dir=$1
	shift
	if [ -f "$top/config.status" ]; then
		say "the source tree was configured in place; cleaning it so that build directories work"
		make -C "$top" distclean >/dev/null
	fi
	mkdir -p "$dir"
	if [ ! -f "$dir/config.status" ]; then
		(cd "$dir" && "$top/configure" "$@")
	fi
}

build() {
	need_root
	install_packages "$PACKAGES"
	if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt Makefile.in ]; then
		./autogen.sh
	fi
	configure_in "$top/build" --enable-werror
	make -C "$top/build" -j"$jobs"
}

# Fails when a test suite reported SKIP, listing the tests and their reasons.
no_skips() {
	for log in "$1"/test-suite.log "$1"/test-suite-screen.log; do
		[ -f "$log" ] || continue
		skipped=$(grep -c '^SKIP: ' "$log" || true)
		if [ "$skipped" -gt 0 ] && [ "${DELAYTOP_ALLOW_SKIP:-0}" != 1 ]; then
			say "$skipped test(s) skipped in $log; the whole suite must run here:"
			grep -A1 '^SKIP: ' "$log" | sed 's/^/  /'
			return 1
		fi
	done
}

check() {
	need_root
	installed_now=0
	install_packages "$PACKAGES $TEST_PACKAGES"
	ensure_locale
	# a build/ configured by "run" before the test tools came did not find them (clang, ...)
	if [ "$installed_now" -eq 1 ] && [ -f "$top/build/config.status" ]; then
		say "test tools installed since build/ was configured: configuring it again"
		(cd "$top/build" && ./config.status --recheck >/dev/null && ./config.status >/dev/null)
	fi
	build
	say "make check"
	make -C "$top/build" -j"$jobs" check || { cat "$top/build/test-suite.log"; exit 1; }
	no_skips "$top/build"
	say "sanitizer build: unit, command-line, kernel and then screen tests under ASan and UBSan"
	# the fuzz harnesses ran in the make check above; here clang would only build them again
	configure_in "$top/build-sanitize" --enable-werror --enable-sanitizers --disable-fuzz-check
	make -C "$top/build-sanitize" -j"$jobs"
	make -C "$top/build-sanitize" -j"$jobs" check-sanitizer || {
		cat "$top/build-sanitize/test-suite.log" "$top/build-sanitize/test-suite-screen.log" 2>/dev/null
		exit 1
	}
	no_skips "$top/build-sanitize"
	say "make distcheck"
	make -C "$top/build" -j"$jobs" distcheck
	say "the Debian package: build, lintian, install, remove"
	rc=0
	"$top/tests/package.sh" >"$top/build/package.log" 2>&1 || rc=$?
	cat "$top/build/package.log"
	[ "$rc" -eq 0 ] || exit 1
	if grep -q '# SKIP' "$top/build/package.log" && [ "${DELAYTOP_ALLOW_SKIP:-0}" != 1 ]; then
		say "the package test was skipped; the whole suite must run here"
		exit 1
	fi
	say "all tests passed"
}

case "${1:-}" in
run)
	shift
	build
	exec "$top/build/src/delaytop" "$@"
	;;
check)
	check
	;;
*)
	echo "usage: $0 run [DELAYTOP OPTION]... | check" >&2
	exit 2
	;;
esac
