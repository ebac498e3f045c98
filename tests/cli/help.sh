# help.sh — the options in --help, the man page and README.md are the same set.
. "$top_srcdir/tests/lib.sh"

man="$top_builddir/man/delaytop.8"
readme="$top_srcdir/README.md"

# Long options as --help lists them.
LC_ALL=C "$DELAYTOP" --help | grep -o -- '--[a-z][a-z-]*' | sort -u >"$TMPDIR_TEST/help"
[ -s "$TMPDIR_TEST/help" ]
tap_ok $? "--help lists long options"

while read -r opt; do
	grep -qF -- "$(echo "$opt" | sed 's/-/\\-/g')" "$man"
	tap_ok $? "the man page documents $opt"
	grep -qF -- "$opt" "$readme"
	tap_ok $? "README.md mentions $opt"
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

# Every format --format takes is in the man page's description of --format and in README.md.
formats=$(LC_ALL=C "$DELAYTOP" --format '?' 2>&1 | sed -n 's/.*(choose from: \(.*\))$/\1/p' | tr -d ',')
[ -n "$formats" ]
tap_ok $? "--format names its formats when refused"
sed -n '/^\.BI \\-\\-format= FORMAT/,/^\.TP/p' "$man" >"$TMPDIR_TEST/format"
# README.md's list of options: "--format text|csv|..." and "`--format` also takes `...`"
readme_formats=" $(tr '\n' ' ' <"$readme" | grep -o -E -- '--format [a-z|]+|`--format` also takes `[a-z]+`' |
	sed -e 's/^--format //' -e 's/.*takes `\(.*\)`/\1/' | tr '|\n' '  ') "
for f in $formats; do
	grep -qw -- "$f" "$TMPDIR_TEST/format"
	tap_ok $? "the man page's --format names the format $f"
	case $readme_formats in *" $f "*) true ;; *) false ;; esac
	tap_ok $? "README.md's options name --format $f" "README.md names: $readme_formats"
done
grep -q '^\.SH "\?HTML REPORT"\?$' "$man"
tap_ok $? "the man page has an HTML REPORT section"

done_testing
