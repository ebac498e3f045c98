/* format.c — numbers and strings as text. */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <wchar.h>

#include "format.h"
#include "xalloc.h"

static const double pow10_table[] = { 1, 10, 100, 1000, 10000, 100000, 1000000 };

/* Digits of u, most significant first; returns the length. Two digits per division. */
static size_t put_uint(char *buf, uint64_t u)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
				    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
				    "8081828384858687888990919293949596979899";
	char tmp[24];
	char *p = tmp + sizeof(tmp);
	size_t len;

	while (u >= 100) {
		unsigned d = (unsigned)(u % 100) * 2;

		u /= 100;
		*--p = pairs[d + 1];
		*--p = pairs[d];
	}
	if (u >= 10) {
		*--p = pairs[u * 2 + 1];
		*--p = pairs[u * 2];
	} else {
		*--p = (char)('0' + u);
	}
	len = (size_t)(tmp + sizeof(tmp) - p);
	memcpy(buf, p, len);
	return len;
}

size_t fmt_fixed(char *buf, double v, int decimals)
{
	uint64_t scaled, whole, frac;
	size_t len = 0;
	double scale;

	if (isnan(v)) {
		buf[0] = '-';
		buf[1] = '\0';
		return 1;
	}
	if (decimals < 0)
		decimals = 0;
	if (decimals > 6)
		decimals = 6;
	if (v == 0) { /* the most common value of all */
		memcpy(buf, "0.000000", (size_t)(decimals ? decimals + 2 : 1));
		buf[decimals ? decimals + 2 : 1] = '\0';
		return (size_t)(decimals ? decimals + 2 : 1);
	}
	scale = pow10_table[decimals];
	if (v < 0) {
		buf[len++] = '-';
		v = -v;
	}
	if (v * scale >= 1e18) { /* beyond fixed point: rare, let printf do it */
		len += (size_t)snprintf(buf + len, 32 - len, "%.*e", decimals, v);
		return len;
	}
	scaled = (uint64_t)(v * scale + 0.5); /* v is not negative here */
	whole = scaled / (uint64_t)scale;
	frac = scaled % (uint64_t)scale;
	len += put_uint(buf + len, whole);
	if (decimals > 0) {
		buf[len++] = '.';
		for (int d = decimals - 1; d >= 0; d--) {
			buf[len + (size_t)d] = (char)('0' + frac % 10);
			frac /= 10;
		}
		len += (size_t)decimals;
	}
	buf[len] = '\0';
	return len;
}

size_t fmt_cell(char *buf, double v, int decimals, int width)
{
	static const char suffix[] = "kMGTP";
	size_t len;

	if (isnan(v))
		return fmt_fixed(buf, v, 0);
	len = fmt_fixed(buf, v, decimals);
	if ((int)len <= width)
		return len;
	len = fmt_fixed(buf, v, 0);
	for (int i = 0; (int)len > width && i < 5; i++) {
		v /= 1000;
		len = fmt_fixed(buf, v, 1);
		if (len > 3 + (size_t)(v < 0) || (int)len + 1 > width) /* a decimal only after one digit */
			len = fmt_fixed(buf, v, 0);
		buf[len++] = suffix[i];
		buf[len] = '\0';
	}
	return len;
}

size_t fmt_json_number(char *buf, double v)
{
	if (!isfinite(v)) {
		memcpy(buf, "null", 5);
		return 4;
	}
	return fmt_fixed(buf, v, 3);
}

void out_reserve(struct outbuf *o, size_t more)
{
	if (o->len + more + 1 > o->cap)
		o->data = xgrow(o->data, &o->cap, o->len + more + 1, 1);
}

void out_mem(struct outbuf *o, const char *s, size_t n)
{
	out_reserve(o, n);
	if (n) /* s may be NULL when n is 0 (an empty buffer's data) */
		memcpy(o->data + o->len, s, n);
	o->len += n;
}

void out_str(struct outbuf *o, const char *s)
{
	out_mem(o, s, strlen(s));
}

void out_char(struct outbuf *o, char c)
{
	out_reserve(o, 1);
	o->data[o->len++] = c;
}

void out_spaces(struct outbuf *o, int n)
{
	if (n <= 0)
		return;
	out_reserve(o, (size_t)n);
	memset(o->data + o->len, ' ', (size_t)n);
	o->len += (size_t)n;
}

void out_printf(struct outbuf *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	out_reserve(o, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(o->data + o->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	o->len += (size_t)n;
}

void out_field(struct outbuf *o, const char *s, size_t len, int width, int right)
{
	size_t w = (size_t)(width > 0 ? width : 0);
	size_t fit = len < w ? len : w;
	size_t pad = w - fit;
	char *d;

	out_reserve(o, w + 16);
	d = o->data + o->len;
	/* Cells are narrow: lay down a run of spaces in 16-byte stores, then the text over it. */
	for (size_t i = 0; i < w; i += 16)
		memcpy(d + i, "                ", 16);
	memcpy(d + (right ? pad : 0), s, fit);
	o->len += w;
}

/* Decodes one UTF-8 character at s, which is not at its end: returns its length (1 to 4) with
 * the code point in *cp, or -1 when the byte at s starts no valid sequence (a stray continuation
 * byte, an overlong form, a surrogate, a code point beyond U+10FFFF or a sequence cut short).
 * By hand, so that the answer does not depend on the locale. */
int utf8_decode(const char *s, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t c = u[0], min;
	int n;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, c &= 0x1f, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, c &= 0x0f, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, c &= 0x07, min = 0x10000;
	else
		return -1;
	for (int i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80) /* also stops at the terminating NUL */
			return -1;
		c = c << 6 | (u[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return -1;
	*cp = c;
	return n;
}

/* Unicode's format controls (general category Cf) and the line and paragraph separators: they
 * print nothing but reorder or hide what follows (U+202E turns "gpj.exe" into "exe.jpg"), so a
 * name holding one is shown with it replaced, as a control character is. */
static const struct {
	uint32_t first, last;
} format_controls[] = {
	{ 0x00ad, 0x00ad },   { 0x0600, 0x0605 },   { 0x061c, 0x061c },   { 0x06dd, 0x06dd },
	{ 0x070f, 0x070f },   { 0x0890, 0x0891 },   { 0x08e2, 0x08e2 },   { 0x180e, 0x180e },
	{ 0x200b, 0x200f },   { 0x2028, 0x202e },   { 0x2060, 0x2064 },   { 0x2066, 0x206f },
	{ 0xfeff, 0xfeff },   { 0xfff9, 0xfffb },   { 0x110bd, 0x110bd }, { 0x110cd, 0x110cd },
	{ 0x13430, 0x1343f }, { 0x1bca0, 0x1bca3 }, { 0x1d173, 0x1d17a }, { 0xe0001, 0xe0001 },
	{ 0xe0020, 0xe007f },
};

int format_control(uint32_t cp)
{
	for (size_t i = 0; i < sizeof(format_controls) / sizeof(format_controls[0]); i++)
		if (cp >= format_controls[i].first && cp <= format_controls[i].last)
			return 1;
	return 0;
}

/* One character of display text at s (not at its end): sets *len to its bytes and returns its
 * columns, or -1 when it is shown as TEXT_REPLACEMENT: a control character (C0, DEL, C1), a
 * format control (format_control) or a byte that is not part of valid UTF-8 (then *len is 1: one
 * replacement per bad byte). */
static int display_char(const char *s, int *len)
{
	unsigned char c = (unsigned char)*s;
	uint32_t cp;
	int w;

	*len = 1;
	if (c < 0x80) /* ASCII, nearly every cell: no decoding */
		return c < 0x20 || c == 0x7f ? -1 : 1;
	w = utf8_decode(s, &cp);
	if (w < 0)
		return -1;
	*len = w;
	if (cp < 0xa0 || format_control(cp)) /* C1: U+0080 to U+009F, such as U+009B, the 8-bit CSI */
		return -1;
	w = wcwidth((wchar_t)cp);
	return w < 0 ? 1 : w; /* a locale that does not know it: one column, as a terminal guesses */
}

/* The length of s when it is plain printable ASCII, else -1. */
static ssize_t plain_ascii(const char *s)
{
	const char *p = s;

	for (; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
			return -1;
	return p - s;
}

/* Appends the display text of the first bytes of s: every control character and bad byte as
 * TEXT_REPLACEMENT, everything else as it is. */
static void out_display(struct outbuf *o, const char *s, size_t bytes)
{
	for (size_t i = 0; i < bytes && s[i];) {
		int len;

		if (display_char(s + i, &len) < 0)
			out_char(o, TEXT_REPLACEMENT);
		else
			out_mem(o, s + i, (size_t)len);
		i += (size_t)len;
	}
}

void out_text(struct outbuf *o, const char *s)
{
	out_display(o, s, strlen(s));
}

void out_padded(struct outbuf *o, const char *s, int width, int right)
{
	ssize_t plain = plain_ascii(s);
	size_t fit;
	int used;

	if (plain >= 0) { /* nearly every cell: one pass, nothing to decode or replace */
		out_field(o, s, (size_t)plain, width, right);
		return;
	}
	fit = text_fit(s, width);
	used = text_width_n(s, fit);

	if (right)
		out_spaces(o, width - used);
	out_display(o, s, fit);
	if (!right)
		out_spaces(o, width - used);
}

static void out_json_escape(struct outbuf *o, unsigned c)
{
	switch (c) {
	case '"': out_str(o, "\\\""); break;
	case '\\': out_str(o, "\\\\"); break;
	case '\n': out_str(o, "\\n"); break;
	case '\t': out_str(o, "\\t"); break;
	case '\r': out_str(o, "\\r"); break;
	default:
		if (c > 0xffff) /* a surrogate pair, as JSON writes a character beyond the BMP */
			out_printf(o, "\\u%04x\\u%04x", 0xd800 + ((c - 0x10000) >> 10), 0xdc00 + ((c - 0x10000) & 0x3ff));
		else
			out_printf(o, "\\u%04x", c);
		break;
	}
}

void out_json_string(struct outbuf *o, const char *s)
{
	out_char(o, '"');
	while (*s) {
		unsigned char c = (unsigned char)*s;
		uint32_t cp;
		int n;

		if (c < 0x20 || c == '"' || c == '\\' || c == 0x7f) {
			out_json_escape(o, c);
			s++;
			continue;
		}
		if (c < 0x80) {
			out_char(o, (char)c);
			s++;
			continue;
		}
		n = utf8_decode(s, &cp);
		if (n < 0) {
			out_str(o, "\\ufffd"); /* not UTF-8: one U+FFFD per bad byte, and valid JSON */
			s++;
			continue;
		}
		if (cp < 0xa0 || format_control(cp)) /* escaped like C0, so that no reader's terminal acts on it */
			out_json_escape(o, cp);
		else
			out_mem(o, s, (size_t)n);
		s += n;
	}
	out_char(o, '"');
}

/* Control characters and bad bytes become TEXT_REPLACEMENT, as in text: a CSV file viewed in a
 * terminal stays inert, and no field needs quoting for a line break. */
void out_csv_field(struct outbuf *o, const char *s)
{
	const char *p = s;

	while (*p && *p != ',' && *p != '"' && (unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f)
		p++;
	if (!*p) { /* the common case: nothing to quote or replace */
		out_mem(o, s, (size_t)(p - s));
		return;
	}
	if (!strpbrk(p, ",\"")) {
		out_text(o, s);
		return;
	}
	out_char(o, '"');
	for (; *s; s++) {
		p = s + strcspn(s, "\"");
		out_display(o, s, (size_t)(p - s));
		if (!*p)
			break;
		out_str(o, "\"\"");
		s = p;
	}
	out_char(o, '"');
}

void out_spill(struct outbuf *o)
{
	if (!o->spill || o->len < OUT_SPILL_BYTES)
		return;
	if (fwrite(o->data, 1, o->len, o->spill) != o->len)
		o->spill_err = 1;
	o->len = 0;
}

int out_flush(struct outbuf *o, FILE *f)
{
	int rc = o->spill_err ? -1 : 0;

	if (o->len && fwrite(o->data, 1, o->len, f) != o->len)
		rc = -1;
	if (fflush(f) != 0)
		rc = -1;
	o->len = 0;
	o->spill_err = 0;
	return rc;
}

void out_free(struct outbuf *o)
{
	free(o->data);
	o->data = NULL;
	o->len = o->cap = 0;
}

/* The columns of the character at s, its bytes in *len: a replacement takes one. */
static int char_width(const char *s, int *len)
{
	int w = display_char(s, len);

	return w < 0 ? 1 : w;
}

int text_width_n(const char *s, size_t bytes)
{
	int width = 0;

	for (size_t i = 0; i < bytes && s[i];) {
		int len;

		width += char_width(s + i, &len);
		i += (size_t)len;
	}
	return width;
}

const char *text_shown(const char *s, char *buf)
{
	text_clean(buf, SHOWN_SIZE, s);
	return buf;
}

int text_width(const char *s)
{
	return text_width_n(s, strlen(s));
}

size_t text_fit(const char *s, int width)
{
	size_t i = 0;
	int used = 0;

	while (s[i]) {
		int len;
		int w = char_width(s + i, &len);

		if (used + w > width)
			break;
		used += w;
		i += (size_t)len;
	}
	return i;
}

void str_copy(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

size_t text_clean(char *dst, size_t size, const char *src)
{
	size_t len = 0, keep = 0; /* keep: where to cut, leaving room for "..." */

	for (int n; *src; src += n) {
		int bad = display_char(src, &n) < 0;
		size_t add = bad ? 1 : (size_t)n;

		if (len + add > size - 1) {
			memcpy(dst + keep, "...", 4);
			return keep + 3;
		}
		if (bad)
			dst[len] = TEXT_REPLACEMENT;
		else
			memcpy(dst + len, src, add);
		len += add;
		if (len + 3 <= size - 1)
			keep = len;
	}
	dst[len] = '\0';
	return len;
}
