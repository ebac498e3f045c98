/* test_htmlescape.c — html.c: what a task controls becomes text in a page, never markup, and the
 * page stays valid UTF-8 without the characters an HTML parser refuses. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "tap.h"

/* s as html_text writes it (the caller frees). */
static char *esc(const char *s)
{
	struct outbuf o = { 0 };

	html_text(&o, s);
	out_char(&o, '\0');
	return o.data;
}

static void check(const char *in, const char *want, const char *what)
{
	char *got = esc(in);

	is_str(got, want, what);
	free(got);
}

int main(void)
{
	struct outbuf o = { 0 };

	check("plain name", "plain name", "plain text stays as it is");
	check("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;", "markup becomes text");
	check("<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;", "an img element becomes text");
	check("a&b", "a&amp;b", "& is escaped");
	check("&amp;", "&amp;amp;", "a character reference is escaped, not kept");
	check("\"'", "&quot;&#39;", "both quotes are escaped (attribute values)");
	check("x\xffy", "x\xef\xbf\xbdy", "a byte that is not UTF-8 becomes U+FFFD");
	check("\xc3", "\xef\xbf\xbd", "a sequence cut short becomes U+FFFD");
	check("\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd", "an overlong form becomes U+FFFD for each byte");
	check("\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "a surrogate becomes U+FFFD for each byte");
	check("na\xc3\xafve-\xc3\xbc\xe2\x9c\x93", "na\xc3\xafve-\xc3\xbc\xe2\x9c\x93", "UTF-8 names stay");
	check("a\x1b[31m", "a\xef\xbf\xbd[31m", "a control character becomes U+FFFD");
	check("t\tn\n", "t\tn\n", "tab and newline stay");
	check("\xc2\x9b", "\xef\xbf\xbd", "a C1 control becomes U+FFFD");
	check("\xef\xbf\xbe", "\xef\xbf\xbd", "a noncharacter becomes U+FFFD");
	check("ab\xe2\x80\xae" "cd", "ab\xef\xbf\xbd" "cd", "a bidi override (U+202E) becomes U+FFFD, as in text");
	check("\xe2\x81\xa6x\xe2\x81\xa9", "\xef\xbf\xbdx\xef\xbf\xbd", "bidi isolates (U+2066, U+2069) become U+FFFD");
	check("a\xe2\x80\x8b" "b", "a\xef\xbf\xbd" "b", "a zero-width space (U+200B) becomes U+FFFD");
	check("", "", "an empty string is empty");
	html_text(&o, NULL);
	is_int(o.len, 0, "NULL writes nothing");
	html_text_n(&o, "<ab>", 2);
	out_char(&o, '\0');
	is_str(o.data, "&lt;a", "html_text_n stops after n bytes");
	o.len = 0;
	html_text_n(&o, "\xc3\xaf", 1);
	out_char(&o, '\0');
	is_str(o.data, "\xef\xbf\xbd", "a character cut by n becomes U+FFFD, not half a character");
	out_free(&o);
	return tap_done();
}
