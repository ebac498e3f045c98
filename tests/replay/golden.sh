# golden.sh — every printer's output from the fixture recordings, as an ordinary user: text, CSV,
# JSON and OpenMetrics, in thread, process and cgroup rows, with --accumulate, --columns, --tree,
# a sort, a user and a time range (tests/fixtures/golden/cases), each compared byte for byte with
# its golden file; once more in the C locale, where the text report is the same but for the mark
# of a cut path. tests/fixtures/regen.sh writes the golden files again.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/replay/fixture.sh"

GOLDEN=$top_srcdir/tests/fixtures/golden
while read -r name file args; do
	case $name in '#'* | '') continue ;; esac
	# shellcheck disable=SC2086 # the arguments are words
	dt -r "$FIX/$file" $args >"$TMPDIR_TEST/out" 2>"$TMPDIR_TEST/err" </dev/null
	st=$?
	[ "$st" -eq 0 ] && [ ! -s "$TMPDIR_TEST/err" ] && cmp -s "$GOLDEN/$name" "$TMPDIR_TEST/out"
	tap_ok $? "-r $file $args: as $name" "status $st, stderr: $(head -2 "$TMPDIR_TEST/err")" \
		"$(diff -u "$GOLDEN/$name" "$TMPDIR_TEST/out" | head -20)"
done <"$GOLDEN/cases"

# In C: the same report, but for the mark of a cut path, '<' for '…' (names go out as their bytes).
LC_ALL=C dt -r "$FIX/procs.rec" -b >"$TMPDIR_TEST/c.txt" 2>&1
sed 's/…/</g' "$GOLDEN/procs.txt" >"$TMPDIR_TEST/c.want"
cmp -s "$TMPDIR_TEST/c.want" "$TMPDIR_TEST/c.txt" && ! cmp -s "$GOLDEN/procs.txt" "$TMPDIR_TEST/c.txt"
tap_ok $? "LC_ALL=C: the text report as procs.txt, with '<' for '…'" "$(diff "$TMPDIR_TEST/c.want" "$TMPDIR_TEST/c.txt" | head -10)"
done_testing
