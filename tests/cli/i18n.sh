# i18n.sh — the German translation is complete, matches the template, and is used: under a
# German locale --help and the batch header print German.
. "$top_srcdir/tests/lib.sh"

po="$top_srcdir/po/de.po"
pot="$top_srcdir/po/delaytop.pot"
require_cmd msgfmt msgcmp xgettext

msgfmt -c --statistics -o "$TMPDIR_TEST/de.mo" "$po" 2>"$TMPDIR_TEST/stats"
tap_ok $? "msgfmt -c accepts po/de.po" "$(cat "$TMPDIR_TEST/stats")"
! grep -q -e "untranslated" -e "fuzzy" "$TMPDIR_TEST/stats"
tap_ok $? "po/de.po translates every message" "$(cat "$TMPDIR_TEST/stats")"

# Every source file with a translatable string is in po/POTFILES.in, or its strings never reach
# the template (src/show/listing.c's once did not).
missing=""
for f in "$top_srcdir"/src/*/*.c; do
	rel=${f#"$top_srcdir"/}
	grep -q -E '\b(N_|_|F_)\("' "$f" && ! grep -q -x -F "$rel" "$top_srcdir/po/POTFILES.in" && missing="$missing $rel"
done
[ -z "$missing" ]
tap_ok $? "every source file with a translatable string is in po/POTFILES.in" "missing:$missing"

# The template must be what the sources say now: the same msgids.
(cd "$top_srcdir" && xgettext --keyword=_ --keyword=N_ --from-code=UTF-8 --add-comments=TRANSLATORS: \
	-o "$TMPDIR_TEST/fresh.pot" --files-from=po/POTFILES.in) 2>"$TMPDIR_TEST/xgettext.err"
tap_ok $? "xgettext reads the sources" "$(cat "$TMPDIR_TEST/xgettext.err")"
msgcmp --use-untranslated "$TMPDIR_TEST/fresh.pot" "$pot" 2>"$TMPDIR_TEST/cmp1" &&
	msgcmp --use-untranslated "$pot" "$TMPDIR_TEST/fresh.pot" 2>"$TMPDIR_TEST/cmp2"
tap_ok $? "po/delaytop.pot has exactly the strings of the sources (make -C po update-po)" \
	"$(head -5 "$TMPDIR_TEST/cmp1" "$TMPDIR_TEST/cmp2" 2>/dev/null)"
msgcmp "$po" "$pot" 2>"$TMPDIR_TEST/cmp3"
tap_ok $? "po/de.po covers the template" "$(head -5 "$TMPDIR_TEST/cmp3")"

# A translation used as a printf format goes through F_() (src/i18n.h), which falls back to the
# English text when a catalog's conversions differ: a crafted catalog must never choose what
# printf reads. Lists every call of a printf-like function whose format is a bare _().
python3 - "$top_srcdir"/src/*/*.c >"$TMPDIR_TEST/bare" 2>&1 <<'PY'
import re, sys
fmt_arg = {"printf": 0, "fprintf": 1, "snprintf": 2, "out_printf": 1, "fail": 2, "optvalue_fail": 2, "say": 1}
call = re.compile(r"\b(" + "|".join(fmt_arg) + r")\s*\(")
def args(text, start):
    depth, cur, out, i, quote = 0, "", [], start, None
    while i < len(text):
        c = text[i]
        if quote:
            cur += c
            if c == "\\":
                cur += text[i + 1]; i += 1
            elif c == quote:
                quote = None
        elif c in "\"'":
            quote = c; cur += c
        elif c in "([{":
            depth += 1; cur += c
        elif c in ")]}":
            if depth == 0:
                out.append(cur.strip()); return out
            depth -= 1; cur += c
        elif c == "," and depth == 0:
            out.append(cur.strip()); cur = ""
        else:
            cur += c
        i += 1
    return out
for path in sys.argv[1:]:
    text = open(path, encoding="utf-8").read()
    for m in call.finditer(text):
        a = args(text, m.end())
        n = fmt_arg[m.group(1)]
        if len(a) > n and re.match(r"_\s*\(", a[n]):
            print("%s:%d: %s" % (path, text.count("\n", 0, m.start()) + 1, a[n][:60]))
PY
[ $? -eq 0 ] && [ ! -s "$TMPDIR_TEST/bare" ]
tap_ok $? "every translated printf format in src/ is checked by F_()" "$(head -5 "$TMPDIR_TEST/bare")"

locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$' || skip_all "needs the de_DE.UTF-8 locale (Debian: locales, locale-gen)"
mkdir -p "$TMPDIR_TEST/locale/de/LC_MESSAGES"
cp "$TMPDIR_TEST/de.mo" "$TMPDIR_TEST/locale/de/LC_MESSAGES/delaytop.mo"
german() {
	LANGUAGE=de LC_ALL=de_DE.UTF-8 DELAYTOP_LOCALEDIR="$TMPDIR_TEST/locale" "$@"
}

german "$DELAYTOP" --help >"$TMPDIR_TEST/help.de"
LC_ALL=C "$DELAYTOP" --help >"$TMPDIR_TEST/help.en"
grep -q "^Aufruf:" "$TMPDIR_TEST/help.de"
tap_ok $? "--help under a German locale prints German" "$(head -3 "$TMPDIR_TEST/help.de")"
! cmp -s "$TMPDIR_TEST/help.de" "$TMPDIR_TEST/help.en"
tap_ok $? "the German --help differs from the English one"
awk 'length($0) > 79 { bad = 1 } END { exit bad }' "$TMPDIR_TEST/help.de"
tap_ok $? "no line of the German --help is wider than 79 columns"
grep -q -- "--iterations" "$TMPDIR_TEST/help.de"
tap_ok $? "option names stay untranslated"

german "$DELAYTOP" -b -d nan 2>"$TMPDIR_TEST/err.de"
status=$?
[ "$status" -eq 2 ] && grep -q "nan" "$TMPDIR_TEST/err.de" && ! grep -q "invalid delay" "$TMPDIR_TEST/err.de"
tap_ok $? "option errors are German and still name the value" "$(cat "$TMPDIR_TEST/err.de")"

done_testing
