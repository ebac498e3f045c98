# hardening.sh — the binary carries the hardening configure chose: a position-independent
# executable, full RELRO (read-only relocations, bound at start), the stack protector and
# fortified libc calls.
. "$top_srcdir/tests/lib.sh"

require_cmd readelf nm
[ -f "$top_builddir/Makefile" ] || skip_all "no Makefile in $top_builddir"
flags=$(sed -n 's/^HARDEN_[A-Z]*FLAGS = //p' "$top_builddir/Makefile" | tr '\n' ' ')
[ -n "${flags// /}" ] || skip_all "configured with --disable-hardening (or the compiler took no hardening flag)"
diag "hardening flags: $flags"

# has FLAG: configure chose FLAG.
has() {
	case " $flags " in *" $1 "*) return 0 ;; esac
	return 1
}

readelf -hW "$DELAYTOP" >"$TMPDIR_TEST/header"
readelf -dW "$DELAYTOP" >"$TMPDIR_TEST/dynamic"
readelf -lW "$DELAYTOP" >"$TMPDIR_TEST/segments"
nm -D "$DELAYTOP" >"$TMPDIR_TEST/symbols"

if has -pie; then
	grep -q 'Type: *DYN' "$TMPDIR_TEST/header"
	tap_ok $? "-pie: delaytop is a position-independent executable" "$(grep 'Type:' "$TMPDIR_TEST/header")"
fi
if has -Wl,-z,relro; then
	grep -q 'GNU_RELRO' "$TMPDIR_TEST/segments"
	tap_ok $? "-z relro: delaytop has a GNU_RELRO segment"
fi
if has -Wl,-z,now; then
	grep -q 'BIND_NOW' "$TMPDIR_TEST/dynamic"
	tap_ok $? "-z now: delaytop binds every symbol at start (BIND_NOW)" "$(grep FLAGS "$TMPDIR_TEST/dynamic")"
fi
if has -fstack-protector-strong; then
	grep -q ' U __stack_chk_fail' "$TMPDIR_TEST/symbols"
	tap_ok $? "-fstack-protector-strong: delaytop calls __stack_chk_fail"
fi
if has -D_FORTIFY_SOURCE=2; then
	grep -q ' U __[a-z]*printf_chk' "$TMPDIR_TEST/symbols"
	tap_ok $? "_FORTIFY_SOURCE=2: delaytop calls the fortified printf family" \
		"$(grep -c '_chk' "$TMPDIR_TEST/symbols") fortified symbols"
fi

done_testing
