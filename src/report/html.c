/* html.c — text made safe for an HTML page: escapes for markup and quotes, replacement
 * characters for what is not valid UTF-8, what an HTML parser refuses, and the format controls
 * that reorder or hide text (U+202E), which the text and CSV outputs replace too. */
#include "config.h"

#include <string.h>

#include "html.h"

/* U+FFFD, REPLACEMENT CHARACTER, in UTF-8. */
#define REPLACEMENT "\xef\xbf\xbd"

/* The character reference of a character that HTML gives meaning to, or NULL. */
static const char *reference(char c)
{
	switch (c) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	case '\'': return "&#39;";
	default: return NULL;
	}
}

/* Whether code point cp is written as it is: an HTML parser takes it as text without a parse
 * error (not a control character, tab, newline and carriage return aside, not a noncharacter),
 * and it is not a format control (format_control: a bidi override such as U+202E would reorder
 * the page's line in the browser, as it would a terminal's). */
static int html_allowed(uint32_t cp)
{
	if (cp < 0x20)
		return cp == '\t' || cp == '\n' || cp == '\r';
	if (cp >= 0x7f && cp <= 0x9f)
		return 0;
	if (cp >= 0xfdd0 && cp <= 0xfdef)
		return 0;
	if (format_control(cp))
		return 0;
	return (cp & 0xfffe) != 0xfffe;
}

void html_text_n(struct outbuf *o, const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i]) {
		const char *ref = reference(s[i]);
		uint32_t cp;
		int len;

		if (ref) {
			out_str(o, ref);
			i++;
			continue;
		}
		len = utf8_decode(s + i, &cp);
		if (len < 0 || (size_t)len > n - i || !html_allowed(cp)) {
			out_str(o, REPLACEMENT);
			i += len > 0 && (size_t)len <= n - i ? (size_t)len : 1;
			continue;
		}
		out_mem(o, s + i, (size_t)len);
		i += (size_t)len;
	}
}

void html_text(struct outbuf *o, const char *s)
{
	html_text_n(o, s, s ? strlen(s) : 0);
}

void html_wrap(struct outbuf *o, const char *before, const char *text, const char *after)
{
	out_str(o, before);
	html_text(o, text);
	out_str(o, after);
}
