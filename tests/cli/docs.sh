# docs.sh — the documents a newcomer reads hold together: README.md is a front door (at most 200
# lines, the quick start's two commands near the top), every page it and the other documents link
# to exists, so does every bench file they name, and tests/README.md names every test the Makefile
# runs.
. "$top_srcdir/tests/lib.sh"

cd "$top_srcdir" || exit 1

lines=$(wc -l <README.md)
[ "$lines" -le 200 ]
tap_ok $? "README.md is at most 200 lines" "it has $lines"

at=$(grep -n -F './quickstart.sh check' README.md | head -1 | cut -d: -f1)
grep -q -F './quickstart.sh run' README.md && [ -n "$at" ] && [ "$at" -le 60 ]
tap_ok $? "README.md's quick start (./quickstart.sh run and check) is within its first 60 lines" "check at line ${at:-none}"

# Links: [text](target) and the bare paths in backquotes that name a document of the tree.
for doc in README.md HACKING.md tests/README.md doc/*.md src/README.md bench/README.md; do
	[ -f "$doc" ] || continue
	dir=$(dirname "$doc")
	missing=""
	for target in $(grep -o -E '\]\([^)#]+' "$doc" | sed 's/^](//' | grep -v -E '^[a-z]+:'); do
		[ -e "$dir/$target" ] || missing="$missing $target"
	done
	[ -z "$missing" ]
	tap_ok $? "every page $doc links to exists" "missing:$missing"
done
for page in doc/fleet.md doc/cost.md doc/recording.md doc/report.md tests/README.md HACKING.md src/README.md; do
	grep -q -F "$page" README.md
	tap_ok $? "README.md links to $page"
done

# Every bench the documents name is in the tree, a release tarball's too (make distcheck runs this).
missing=""
for f in $( (grep -o -h -E 'bench/[A-Za-z0-9_]+\.(sh|c)' README.md bench/README.md doc/*.md
	grep -o -E '`[A-Za-z0-9_]+\.(sh|c)`' bench/README.md | tr -d '`' | sed 's|^|bench/|') | sort -u); do
	[ -f "$f" ] || missing="$missing $f"
done
[ -z "$missing" ]
tap_ok $? "every bench file the documents name exists" "missing:$missing"

# tests/README.md names every test of Makefile.am's lists.
missing=""
for t in $(sed -n -E '/^(UNIT_TESTS|CLI_TESTS|REPLAY_TESTS|KERNEL_TESTS|NO_PROC_TESTS|SCREEN_TESTS) =/,/^$/p' Makefile.am |
	grep -o -E 'tests/(unit|cli|replay|kernel|screen)/[A-Za-z0-9_]+(\.sh)?'); do
	grep -q -F "\`$t\`" tests/README.md || missing="$missing $t"
done
[ -z "$missing" ]
tap_ok $? "tests/README.md names every test of Makefile.am" "missing:$missing"

done_testing
