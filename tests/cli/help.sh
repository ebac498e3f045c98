# help.sh — the options in --help and the man page are the same set (README.md is a front door
# and names only a few: the man page is where every option is; tests/unit/test_rcfile checks the
# settings file's, tests/cli/completion.sh the completion's).
. "$top_srcdir/tests/lib.sh"

man="$top_builddir/man/delaytop.8"

# Long options as --help lists them.
LC_ALL=C "$DELAYTOP" --help | grep -o -- '--[a-z][a-z-]*' | sort -u >"$TMPDIR_TEST/help"
[ -s "$TMPDIR_TEST/help" ]
tap_ok $? "--help lists long options"

while read -r opt; do
	grep -qF -- "$(echo "$opt" | sed 's/-/\\-/g')" "$man"
	tap_ok $? "the man page documents $opt"
done <"$TMPDIR_TEST/help"

# Options the man page documents (".BR \-x ", " \-\-name" lines in OPTIONS) must be in --help.
sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$man" | grep -o '\\-\\-[a-z]\([a-z]\|\\-\)*' | sed 's/\\//g' | sort -u >"$TMPDIR_TEST/man"
while read -r opt; do
	grep -qx -- "$opt" "$TMPDIR_TEST/help"
	tap_ok $? "--help lists $opt from the man page"
done <"$TMPDIR_TEST/man"

# Every sort key --help names is in the man page's description of --sort.
keys=$(LC_ALL=C "$DELAYTOP" --help | sed -n '/sort by KEY (default total), one of:/,/^  *--reverse/p' | sed '1d;$d' | tr -d ' ' | tr '\n' ',')
[ -n "$keys" ]
tap_ok $? "--help lists the sort keys"
sed -n '/^\.BR \\-s ", " \\-\\-sort/,/^\.TP/p' "$man" >"$TMPDIR_TEST/sort"
for k in $(echo "$keys" | tr ',' ' '); do
	grep -qw -- "$k" "$TMPDIR_TEST/sort"
	tap_ok $? "the man page's --sort names key $k"
done

# Every format --format takes is in the man page's description of --format.
formats=$(LC_ALL=C "$DELAYTOP" --format '?' 2>&1 | sed -n 's/.*(choose from: \(.*\))$/\1/p' | tr -d ',')
[ -n "$formats" ]
tap_ok $? "--format names its formats when refused"
sed -n '/^\.BI \\-\\-format= FORMAT/,/^\.TP/p' "$man" >"$TMPDIR_TEST/format"
for f in $formats; do
	grep -qw -- "$f" "$TMPDIR_TEST/format"
	tap_ok $? "the man page's --format names the format $f"
done
grep -q '^\.SH "\?HTML REPORT"\?$' "$man"
tap_ok $? "the man page has an HTML REPORT section"

done_testing
