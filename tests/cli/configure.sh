# configure.sh — configure stops with the Debian package to install when a library is missing, and
# says which to install for the optional fuzz harnesses.
. "$top_srcdir/tests/lib.sh"

require_cmd pkg-config tar
[ -x "$top_srcdir/configure" ] || skip_all "no configure script in $top_srcdir"

# A source tree configured in place refuses builds elsewhere: then configure a copy of it.
srcdir=$top_srcdir
if [ -f "$srcdir/config.status" ]; then
	srcdir=$TMPDIR_TEST/src
	mkdir -p "$srcdir"
	tar -C "$top_srcdir" --exclude=./.git --exclude=./build --exclude=./build-sanitize -cf - . | tar -C "$srcdir" -xf -
	rm -f "$srcdir/config.status"
fi

# A pkg-config directory that holds only the .pc files of the named modules (and what they need).
pc_dir() {
	local dir=$TMPDIR_TEST/pc.$1 m
	shift
	mkdir -p "$dir"
	for m in "$@"; do
		cp "$(pkg-config --variable=pcfiledir "$m")/$m.pc" "$dir/"
	done
	echo "$dir"
}

# missing DESCRIPTION PACKAGE PC-DIR: configure fails and names PACKAGE.
missing() {
	local out=$TMPDIR_TEST/configure.$2 build=$TMPDIR_TEST/build.$2
	mkdir -p "$build"
	(cd "$build" && PKG_CONFIG_LIBDIR=$3 "$srcdir/configure" >"$out" 2>&1)
	local status=$?
	[ "$status" -ne 0 ] && grep -q "apt-get install $2" "$out"
	tap_ok $? "without $1, configure stops and names the package $2" "status $status; last line: $(tail -1 "$out")"
}

missing ncursesw libncurses-dev "$TMPDIR_TEST/empty"
missing libnl-genl-3.0 libnl-genl-3-dev "$(pc_dir nl ncursesw tinfo)"
missing libproc2 libproc2-dev "$(pc_dir proc ncursesw tinfo libnl-3.0 libnl-genl-3.0)"
missing libzstd libzstd-dev "$(pc_dir zstd ncursesw tinfo libnl-3.0 libnl-genl-3.0 libproc2)"

# The fuzz harnesses are optional: configure's summary says whether they are built, and when the
# compiler cannot link libFuzzer, which package to install.
if command -v clang >/dev/null; then
	grep -q "^FUZZ_SUMMARY='yes" "$top_builddir/config.log"
	tap_ok $? "with clang installed, this build has the fuzz harnesses" "$(grep '^FUZZ_SUMMARY=' "$top_builddir/config.log")"
fi
mkdir -p "$TMPDIR_TEST/build.nofuzz"
(cd "$TMPDIR_TEST/build.nofuzz" && FUZZ_CC=/bin/false "$srcdir/configure" >"$TMPDIR_TEST/configure.nofuzz" 2>&1)
grep -q '^  fuzz harnesses: *no (/bin/false cannot link .*apt-get install libclang-rt-14-dev)$' "$TMPDIR_TEST/configure.nofuzz"
tap_ok $? "with a compiler that cannot link libFuzzer, the summary says no and names libclang-rt-14-dev" \
	"$(grep 'fuzz harnesses' "$TMPDIR_TEST/configure.nofuzz")"

# --web-config's libraries are optional: without libyaml's and libcrypt's .pc files, configure
# goes on and its summary says no, naming the package; --with-yaml stops, naming it.
pcs=$TMPDIR_TEST/pc.noyaml
mkdir -p "$pcs"
for d in $(pkg-config --variable pc_path pkg-config | tr : ' '); do
	for f in "$d"/*.pc; do
		case ${f##*/} in yaml-0.1.pc | libcrypt.pc | libxcrypt.pc) ;; *) [ -e "$f" ] && ln -sf "$f" "$pcs/" ;; esac
	done
done
mkdir -p "$TMPDIR_TEST/build.noyaml" "$TMPDIR_TEST/build.withyaml"
(cd "$TMPDIR_TEST/build.noyaml" && PKG_CONFIG_LIBDIR=$pcs FUZZ_CC=no "$srcdir/configure" >"$TMPDIR_TEST/configure.noyaml" 2>&1)
status=$?
[ "$status" -eq 0 ] && grep -q '^  web config (--web-config): *no (libyaml not found; apt-get install libyaml-dev)$' "$TMPDIR_TEST/configure.noyaml"
tap_ok $? "without libyaml, configure goes on and its summary names libyaml-dev" \
	"status $status: $(grep -e 'web config' -e error "$TMPDIR_TEST/configure.noyaml")"
(cd "$TMPDIR_TEST/build.withyaml" && PKG_CONFIG_LIBDIR=$pcs FUZZ_CC=no "$srcdir/configure" --with-yaml >"$TMPDIR_TEST/configure.withyaml" 2>&1)
status=$?
[ "$status" -ne 0 ] && grep -q 'apt-get install libyaml-dev' "$TMPDIR_TEST/configure.withyaml"
tap_ok $? "--with-yaml without libyaml stops and names libyaml-dev" "status $status; last line: $(tail -1 "$TMPDIR_TEST/configure.withyaml")"
grep -q "^TLS_SUMMARY='yes" "$top_builddir/config.log"
tap_ok $? "this build's libmicrohttpd serves TLS (Debian's is built with GnuTLS), as configure asked it" \
	"$(grep -e '^TLS_SUMMARY' "$top_builddir/config.log")"

# The eBPF side of --why is optional: found, this build has it; without bpftool configure goes on
# and its summary names the package; --enable-bpf stops and names it; --disable-bpf says so.
if command -v clang >/dev/null && pkg-config --exists libbpf && { command -v bpftool || [ -x /usr/sbin/bpftool ]; } >/dev/null; then
	grep -q "^BPF_SUMMARY='yes" "$top_builddir/config.log"
	tap_ok $? "with libbpf, clang and bpftool installed, this build has the eBPF side" "$(grep '^BPF_SUMMARY=' "$top_builddir/config.log")"
fi
mkdir -p "$TMPDIR_TEST/build.nobpf" "$TMPDIR_TEST/build.needbpf" "$TMPDIR_TEST/build.offbpf"
(cd "$TMPDIR_TEST/build.nobpf" && BPFTOOL=/nonexistent/bpftool FUZZ_CC=no "$srcdir/configure" >"$TMPDIR_TEST/configure.nobpf" 2>&1)
status=$?
[ "$status" -eq 0 ] && grep -q '^  eBPF (--why): *no (missing .*apt-get install bpftool)$' "$TMPDIR_TEST/configure.nobpf"
tap_ok $? "without a bpftool, configure goes on and its summary names the package bpftool" \
	"status $status: $(grep -e 'eBPF' -e error "$TMPDIR_TEST/configure.nobpf")"
(cd "$TMPDIR_TEST/build.needbpf" && BPFTOOL=/nonexistent/bpftool FUZZ_CC=no "$srcdir/configure" --enable-bpf >"$TMPDIR_TEST/configure.needbpf" 2>&1)
status=$?
[ "$status" -ne 0 ] && grep -q 'apt-get install bpftool' "$TMPDIR_TEST/configure.needbpf"
tap_ok $? "--enable-bpf without a bpftool stops and names the package" "status $status; last line: $(tail -1 "$TMPDIR_TEST/configure.needbpf")"
(cd "$TMPDIR_TEST/build.offbpf" && FUZZ_CC=no "$srcdir/configure" --disable-bpf >"$TMPDIR_TEST/configure.offbpf" 2>&1)
status=$?
[ "$status" -eq 0 ] && grep -q '^  eBPF (--why): *no (--disable-bpf)$' "$TMPDIR_TEST/configure.offbpf"
tap_ok $? "--disable-bpf: the summary says the eBPF side is left out" "status $status: $(grep eBPF "$TMPDIR_TEST/configure.offbpf")"

done_testing
