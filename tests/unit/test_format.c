/* test_format.c — numbers and strings as text: fixed point, cells, JSON and CSV escaping, padding
 * and terminal widths. */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "tap.h"

/* The buffer's text, terminated (without counting the terminator in len). */
static const char *text_of(struct outbuf *o)
{
	out_reserve(o, 0);
	o->data[o->len] = '\0';
	return o->data;
}

static void check_fixed(double v, int decimals, const char *want)
{
	char buf[32], name[128];
	size_t len;

	memset(buf, 'x', sizeof(buf));
	len = fmt_fixed(buf, v, decimals);
	snprintf(name, sizeof(name), "fmt_fixed(%.10g, %d) is \"%s\"", v, decimals, want);
	is_str(buf, want, name);
	if (strlen(buf) != len)
		ok(0, "fmt_fixed(%g, %d) returns the length %zu, not %zu", v, decimals, strlen(buf), len);
}

static void check_cell(double v, int decimals, int width, const char *want)
{
	char buf[32], name[128];
	size_t len;

	len = fmt_cell(buf, v, decimals, width);
	snprintf(name, sizeof(name), "fmt_cell(%.10g, %d decimals, width %d) is \"%s\"", v, decimals, width, want);
	is_str(buf, want, name);
	if (strlen(buf) != len)
		ok(0, "fmt_cell(%g) returns the length %zu, not %zu", v, strlen(buf), len);
}

static void test_fixed(void)
{
	check_fixed(12.345, 1, "12.3");
	check_fixed(2.71828, 2, "2.72");
	check_fixed(1.996, 2, "2.00"); /* rounding carries into the whole part */
	check_fixed(9.96, 1, "10.0");
	check_fixed(0.04, 1, "0.0");
	check_fixed(0.06, 1, "0.1");
	check_fixed(0, 3, "0.000");
	check_fixed(5, 0, "5");
	check_fixed(7.6, 0, "8");
	check_fixed(123456789, 0, "123456789");
	check_fixed(1234567.891, 2, "1234567.89");
	check_fixed(0.000123, 6, "0.000123");
	check_fixed(-3.14159, 3, "-3.142");
	check_fixed(-42, 0, "-42");
	check_fixed(-0.5, 1, "-0.5");
	check_fixed(NAN, 2, "-");
	check_fixed(NAN, 0, "-");
	check_fixed(18446744073709.5, 1, "18446744073709.5");
}

static void test_cell(void)
{
	static const double mantissas[] = { 1, 1.04, 1.5, 2.345, 5.5, 7.77, 9.99, 9.9996, 99.996, 999.96 };
	int bad_width = 0, bad_value = 0;

	check_cell(12.5, 1, 7, "12.5");
	check_cell(0, 1, 7, "0.0");
	check_cell(99999.94, 1, 7, "99999.9");
	check_cell(123456.7, 1, 7, "123457");   /* decimals dropped */
	check_cell(1234567, 1, 7, "1234567");   /* still fits without decimals */
	check_cell(12345678, 1, 7, "12346k");   /* then a suffix */
	check_cell(1234567, 1, 4, "1.2M");
	check_cell(2500000, 1, 5, "2500k");
	check_cell(2500000, 1, 4, "2.5M");
	check_cell(1.5e10, 1, 4, "15G");
	check_cell(NAN, 1, 7, "-");
	check_cell(NAN, 2, 1, "-");
	check_cell(9999.96, 1, 4, "10k"); /* rounding up to 10: no decimal, not the next suffix */

	/* every cell fits its width and says what the value is, within rounding */
	for (int width = 4; width <= 8; width++) {
		for (size_t m = 0; m < sizeof(mantissas) / sizeof(mantissas[0]); m++) {
			for (int e = 0; e <= 11; e++) {
				double v = mantissas[m] * pow(10, e), back;
				char buf[32], *end;
				size_t len = fmt_cell(buf, v, 1, width);

				if ((int)len > width || strlen(buf) != len) {
					if (bad_width++ < 5)
						printf("#   %.6g in %d columns: '%s'\n", v, width, buf);
				}
				back = strtod(buf, &end);
				back *= *end == 'k' ? 1e3 : *end == 'M' ? 1e6 : *end == 'G' ? 1e9 : *end == 'T' ? 1e12 : 1;
				if (fabs(back - v) > 0.055 * v) {
					if (bad_value++ < 5)
						printf("#   %.6g in %d columns: '%s' reads as %.6g\n", v, width, buf, back);
				}
			}
		}
	}
	is_int(bad_width, 0, "fmt_cell: every value from 1 to 1e12 fits widths 4 to 8");
	is_int(bad_value, 0, "fmt_cell: every value from 1 to 1e12 reads back within 5.5% (number x suffix)");
}

static void test_json_number(void)
{
	char buf[64];
	size_t len;

	len = fmt_json_number(buf, 1.5);
	ok(strcmp(buf, "1.500") == 0 && len == 5, "fmt_json_number(1.5) is 1.500 (got '%s')", buf);
	fmt_json_number(buf, 0.12345);
	is_str(buf, "0.123", "fmt_json_number keeps 3 decimals");
	fmt_json_number(buf, -2);
	is_str(buf, "-2.000", "fmt_json_number of a negative");
	len = fmt_json_number(buf, NAN);
	ok(strcmp(buf, "null") == 0 && len == 4, "fmt_json_number(NAN) is null (got '%s')", buf);
	fmt_json_number(buf, INFINITY);
	is_str(buf, "null", "fmt_json_number(inf) is null");
	fmt_json_number(buf, -INFINITY);
	is_str(buf, "null", "fmt_json_number(-inf) is null");
	fmt_json_number(buf, 1e20);
	{
		char *end;
		double back = strtod(buf, &end);

		ok(*end == '\0' && strchr(buf, ' ') == NULL && fabs(back - 1e20) < 1e17,
		   "fmt_json_number(1e20) is one number in JSON syntax (got '%s')", buf);
	}
}

static void check_json(const char *in, const char *want, const char *name)
{
	struct outbuf o = { 0 };

	out_json_string(&o, in);
	is_str(text_of(&o), want, name);
	out_free(&o);
}

static void test_json_string(void)
{
	check_json("plain", "\"plain\"", "a plain string is quoted");
	check_json("", "\"\"", "an empty string");
	check_json("a\"b\\c", "\"a\\\"b\\\\c\"", "quote and backslash are escaped");
	check_json("l1\nl2\tt\rr", "\"l1\\nl2\\tt\\rr\"", "newline, tab, CR escaped");
	check_json("\x01\x1f\x08", "\"\\u0001\\u001f\\u0008\"", "other control characters become \\u00XX");
	check_json("caf\xc3\xa9 \xe4\xb8\xad", "\"caf\xc3\xa9 \xe4\xb8\xad\"", "valid UTF-8 passes through");
	check_json("\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"", "a 4-byte character (U+1F600) passes through");
	check_json("a\xff" "b", "\"a\\ufffdb\"", "an invalid byte becomes \\ufffd");
	check_json("a\xc3", "\"a\\ufffd\"", "a character cut at the end becomes \\ufffd");
	check_json("\xe4\xb8x", "\"\\ufffd\\ufffdx\"", "a truncated sequence: each stray byte becomes \\ufffd");
	check_json("\xc0\xaf", "\"\\ufffd\\ufffd\"", "an overlong encoding is not UTF-8");
	check_json("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"", "a UTF-16 surrogate is not UTF-8");
	check_json("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"",
		   "a code point above U+10FFFF is not UTF-8 (JSON must stay valid)");
	check_json("\xf8\x88\x80\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"",
		   "a 5-byte sequence is not UTF-8");
}

static void check_csv(const char *in, const char *want, const char *name)
{
	struct outbuf o = { 0 };

	out_csv_field(&o, in);
	is_str(text_of(&o), want, name);
	out_free(&o);
}

static void test_csv(void)
{
	check_csv("plain", "plain", "csv: a plain field is not quoted");
	check_csv("", "", "csv: an empty field");
	check_csv("with space", "with space", "csv: spaces alone need no quotes");
	check_csv("a,b", "\"a,b\"", "csv: a comma is quoted");
	check_csv("say \"hi\"", "\"say \"\"hi\"\"\"", "csv: quotes are doubled inside quotes");
	check_csv("two\nlines", "two?lines", "csv: a newline becomes '?', as in text");
	check_csv("cr\r", "cr?", "csv: a CR becomes '?'");
	check_csv("esc\033[31mred", "esc?[31mred", "csv: an escape character becomes '?'");
	check_csv("a,\033\177", "\"a,??\"", "csv: quoted and replaced together");
}

/* Display text: what each kind of control character and bad byte becomes in a text cell, in CSV,
 * in a cleaned message and in JSON, and the columns it takes. wide: the width needs a UTF-8
 * locale (CJK, emoji); everything else must come out the same under LC_ALL=C. */
static const struct display_case {
	const char *in, *text, *json;
	int width, wide;
	const char *what;
} display_cases[] = {
	{ "a\x01" "b", "a?b", "a\\u0001b", 3, 0, "a C0 control" },
	{ "a\x7f", "a?", "a\\u007f", 2, 0, "DEL" },
	{ "\xc2\x9b" "2J", "?2J", "\\u009b2J", 3, 0, "U+009B (the 8-bit CSI, UTF-8 encoded)" },
	{ "\xc2\x80x\xc2\x9f", "?x?", "\\u0080x\\u009f", 3, 0, "the first and last C1 controls" },
	{ "\x9b" "2J", "?2J", "\\ufffd2J", 3, 0, "a lone \\x9b byte" },
	{ "a\xff" "b", "a?b", "a\\ufffdb", 3, 0, "\\xff" },
	{ "\xc0\xaf", "??", "\\ufffd\\ufffd", 2, 0, "an overlong '/' (\\xc0\\xaf)" },
	{ "\xed\xa0\x80", "???", "\\ufffd\\ufffd\\ufffd", 3, 0, "a surrogate (\\xed\\xa0\\x80)" },
	{ "\xe2\x82", "??", "\\ufffd\\ufffd", 2, 0, "a truncated sequence at the end (\\xe2\\x82)" },
	{ "\xe2\x82x", "??x", "\\ufffd\\ufffdx", 3, 0, "a truncated sequence before ASCII" },
	{ "\xf4\x90\x80\x80", "????", "\\ufffd\\ufffd\\ufffd\\ufffd", 4, 0, "a code point above U+10FFFF" },
	{ "gpj\xe2\x80\xae" "exe", "gpj?exe", "gpj\\u202eexe", 7, 0, "U+202E (right-to-left override)" },
	{ "a\xe2\x81\xa6" "b\xe2\x81\xa9", "a?b?", "a\\u2066b\\u2069", 4, 0, "U+2066 and U+2069 (bidi isolates)" },
	{ "\xe2\x80\x8ex\xe2\x80\x8f", "?x?", "\\u200ex\\u200f", 3, 0, "U+200E and U+200F (bidi marks)" },
	{ "a\xe2\x80\x8b" "b\xef\xbb\xbf", "a?b?", "a\\u200bb\\ufeff", 4, 0, "U+200B and U+FEFF (zero width)" },
	{ "a\xe2\x80\xa8" "b", "a?b", "a\\u2028b", 3, 0, "U+2028 (line separator)" },
	{ "t\xf3\xa0\x80\x81", "t?", "t\\udb40\\udc01", 2, 0, "U+E0001 (a tag: JSON's surrogate pair)" },
	{ "\xc2\xa0", "\xc2\xa0", "\xc2\xa0", 1, 0, "U+00A0, the first character after C1, stays" },
	{ "\xc3\xa9t\xc3\xa9", "\xc3\xa9t\xc3\xa9", "\xc3\xa9t\xc3\xa9", 3, 0, "\"\xc3\xa9t\xc3\xa9\" stays" },
	{ "\xe4\xb8\xad\xe6\x96\x87", "\xe4\xb8\xad\xe6\x96\x87", "\xe4\xb8\xad\xe6\x96\x87", 4, 1,
	  "CJK stays, 2 columns each" },
	{ "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80", 2, 1, "a 4-byte emoji stays" },
};

static void test_display(const char *locale)
{
	for (size_t i = 0; i < sizeof(display_cases) / sizeof(display_cases[0]); i++) {
		const struct display_case *c = &display_cases[i];
		struct outbuf o = { 0 };
		char want[64], clean[64];

		if (c->wide && strcmp(locale, "C") == 0)
			continue;
		snprintf(want, sizeof(want), "%s  ", c->text);
		out_padded(&o, c->in, c->width + 2, 0);
		ok(strcmp(text_of(&o), want) == 0, "%s, text cell: %s is \"%s\" and 2 spaces (got \"%s\")", locale,
		   c->what, c->text, text_of(&o));
		o.len = 0;
		out_csv_field(&o, c->in);
		ok(strcmp(text_of(&o), c->text) == 0, "%s, CSV: %s is \"%s\" (got \"%s\")", locale, c->what, c->text,
		   text_of(&o));
		o.len = 0;
		snprintf(want, sizeof(want), "\"%s\"", c->json);
		out_json_string(&o, c->in);
		ok(strcmp(text_of(&o), want) == 0, "%s, JSON: %s is %s (got %s)", locale, c->what, want, text_of(&o));
		text_clean(clean, sizeof(clean), c->in);
		ok(strcmp(clean, c->text) == 0, "%s, text_clean: %s is \"%s\" (got \"%s\")", locale, c->what,
		   c->text, clean);
		ok(text_width(c->in) == c->width && (int)text_fit(c->in, c->width) == (int)strlen(c->in),
		   "%s, width: %s takes %d columns and fits in them whole (got %d)", locale, c->what, c->width,
		   text_width(c->in));
		out_free(&o);
	}
}

static void test_clean(void)
{
	char buf[8];

	is_int((int)text_clean(buf, sizeof(buf), "abcdefg"), 7, "text_clean: 7 bytes fit in 8 whole");
	is_str(buf, "abcdefg", "text_clean: nothing cut when it fits");
	is_int((int)text_clean(buf, sizeof(buf), "abcdefgh"), 7, "text_clean: 8 bytes are cut to 7");
	is_str(buf, "abcd...", "text_clean: a cut value ends in \"...\"");
	text_clean(buf, sizeof(buf), "\xe4\xb8\xad\xe6\x96\x87\xe5\xad\x97");
	is_str(buf, "\xe4\xb8\xad...", "text_clean: the cut is between characters, never inside one");
	text_clean(buf, sizeof(buf), "\033[31mred");
	is_str(buf, "?[31...", "text_clean: an escape is replaced before the cut");
	text_clean(buf, 4, "abcd");
	is_str(buf, "...", "text_clean: in 4 bytes only the ellipsis is left");
}

static void check_padded(const char *in, int width, int right, const char *want, const char *name)
{
	struct outbuf o = { 0 };

	out_padded(&o, in, width, right);
	is_str(text_of(&o), want, name);
	out_free(&o);
}

static void test_padded(void)
{
	struct outbuf o = { 0 };

	check_padded("abc", 5, 0, "abc  ", "padded: left-aligned, filled with spaces");
	check_padded("abc", 5, 1, "  abc", "padded: right-aligned");
	check_padded("abcdefgh", 5, 0, "abcde", "padded: cut to the width");
	check_padded("abcdefgh", 5, 1, "abcde", "padded: cut to the width, right-aligned");
	check_padded("abc", 0, 0, "", "padded: width 0 writes nothing");
	check_padded("a\tb\x1b[31m", 6, 0, "a?b?[3", "padded: control characters become '?'");
	check_padded("\x7f" "del", 4, 0, "?del", "padded: DEL becomes '?'");
	check_padded("\xe4\xb8\xad\xe6\x96\x87\xe5\xad\x97", 5, 0, "\xe4\xb8\xad\xe6\x96\x87 ",
		     "padded: two CJK characters fill 4 of 5 columns, the third is not split");
	check_padded("\xe4\xb8\xad\xe6\x96\x87\xe5\xad\x97", 5, 1, " \xe4\xb8\xad\xe6\x96\x87",
		     "padded: CJK right-aligned");
	check_padded("caf\xc3\xa9", 6, 0, "caf\xc3\xa9  ", "padded: an accented letter is one column");

	out_mem(&o, "X\x01", 2);
	out_padded(&o, "ok", 3, 0);
	ok(o.len == 5 && memcmp(o.data, "X\x01ok ", 5) == 0,
	   "padded: earlier bytes of the buffer are left alone (only the new text is cleaned)");
	out_free(&o);
}

static void test_width(void)
{
	is_int(text_width("abc"), 3, "text_width of ASCII");
	is_int(text_width(""), 0, "text_width of empty");
	is_int(text_width("caf\xc3\xa9"), 4, "text_width: a 2-byte letter is 1 column");
	is_int(text_width("\xe4\xb8\xad\xe6\x96\x87"), 4, "text_width: CJK characters are 2 columns each");
	is_int(text_width("e\xcc\x81"), 1, "text_width: a combining accent takes no column");
	is_int(text_width("a\xff" "b"), 3, "text_width: an invalid byte counts 1");
	is_int(text_width("a\tb"), 3, "text_width: a control character counts 1");
	is_int(text_width_n("\xe4\xb8\xad\xe6\x96\x87", 3), 2, "text_width_n: the first 3 bytes are one CJK character");
	is_int(text_width_n("abcdef", 2), 2, "text_width_n counts only the given bytes");

	is_int(text_fit("abcdef", 4), 4, "text_fit: 4 ASCII columns are 4 bytes");
	is_int(text_fit("abc", 10), 3, "text_fit: a short string fits whole");
	is_int(text_fit("\xe4\xb8\xad\xe6\x96\x87", 3), 3, "text_fit: 3 columns hold one CJK character (3 bytes)");
	is_int(text_fit("\xe4\xb8\xad\xe6\x96\x87", 1), 0, "text_fit: 1 column cannot hold half a CJK character");
	is_int(text_fit("a\xe4\xb8\xad", 2), 1, "text_fit: a CJK character that would straddle the edge is left out");
	is_int(text_fit("caf\xc3\xa9!", 4), 5, "text_fit: a 2-byte letter is kept whole");
	is_int(text_fit("caf\xc3\xa9!", 3), 3, "text_fit: the cut is before the 2-byte letter, not inside it");
	is_int(text_fit("e\xcc\x81x", 1), 3, "text_fit: a combining accent stays with its letter");
	is_int(text_fit("", 5), 0, "text_fit of empty");
}

static void test_str_copy(void)
{
	char buf[8];

	memset(buf, 'z', sizeof(buf));
	str_copy(buf, 4, "hello");
	ok(strcmp(buf, "hel") == 0 && buf[4] == 'z', "str_copy cuts to size-1 and writes no further (got '%s')", buf);
	str_copy(buf, sizeof(buf), "hello");
	is_str(buf, "hello", "str_copy of a string that fits");
	str_copy(buf, 6, "hello");
	is_str(buf, "hello", "str_copy with exactly enough room");
	str_copy(buf, 1, "hello");
	is_str(buf, "", "str_copy with room for the terminator only");
}

static void test_outbuf(void)
{
	struct outbuf o = { 0 };
	char big[5000];
	FILE *f;
	char back[64] = "";

	memset(big, 'q', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	out_printf(&o, "%d-%s", 42, "x");
	out_str(&o, big);
	out_spaces(&o, 3);
	out_spaces(&o, -2);
	out_char(&o, '!');
	ok(o.len == 4 + 4999 + 3 + 1 && memcmp(o.data, "42-x", 4) == 0 && memcmp(o.data + 4 + 4999, "   !", 4) == 0,
	   "out_printf, out_str of 4999 bytes, out_spaces (negative ignored), out_char append in order");
	o.len = 0;
	out_str(&o, "flushed");
	f = tmpfile();
	if (f) {
		ok(out_flush(&o, f) == 0 && o.len == 0, "out_flush writes and empties the buffer");
		rewind(f);
		if (!fgets(back, sizeof(back), f))
			back[0] = '\0';
		is_str(back, "flushed", "out_flush wrote the text");
		fclose(f);
	}
	f = fopen("/dev/null", "r");
	if (f) {
		out_str(&o, "cannot");
		ok(out_flush(&o, f) == -1 && o.len == 0, "out_flush to a stream that cannot be written returns -1");
		fclose(f);
	}
	out_free(&o);
	ok(o.data == NULL && o.len == 0 && o.cap == 0, "out_free empties the buffer");
}

/* A long report spilled line by line: the same bytes, in a buffer that stays small. */
static void test_spill(void)
{
	struct outbuf o = { 0 };
	FILE *f = tmpfile(), *ro = fopen("/dev/null", "r");
	long size = -1;
	size_t lines = 20000, most = 0;
	char line[64];
	int same = 1;

	if (!f || !ro) {
		ok(0, "tmpfile and /dev/null opened");
		return;
	}
	o.spill = f;
	for (size_t i = 0; i < lines; i++) {
		out_printf(&o, "%zu some text of a row\n", i);
		out_spill(&o);
		if (o.cap > most)
			most = o.cap;
	}
	o.spill = NULL;
	ok(out_flush(&o, f) == 0, "out_flush after spills succeeds");
	ok(most < 2 * OUT_SPILL_BYTES + 64, "spilling keeps the buffer under twice OUT_SPILL_BYTES (%zu)", most);
	size = ftell(f);
	rewind(f);
	for (size_t i = 0; i < lines && same; i++) {
		char want[64];

		snprintf(want, sizeof(want), "%zu some text of a row\n", i);
		same = fgets(line, sizeof(line), f) && strcmp(line, want) == 0;
	}
	ok(same && size > 20 * (long)lines, "every line came out, in order, once (%ld bytes)", size);
	o.spill = ro; /* a spill that fails is said by out_flush */
	for (size_t i = 0; i < lines; i++) {
		out_str(&o, "a line that cannot be written\n");
		out_spill(&o);
	}
	o.spill = NULL;
	ok(out_flush(&o, f) == -1, "out_flush returns -1 when a spill failed");
	ok(out_flush(&o, f) == 0, "and the failure is said once");
	out_free(&o);
	fclose(f);
	fclose(ro);
}

int main(void)
{
	if (!setlocale(LC_ALL, "C.UTF-8"))
		printf("# the C.UTF-8 locale is missing: UTF-8 tests will fail\n");
	test_fixed();
	test_cell();
	test_json_number();
	test_json_string();
	test_csv();
	test_padded();
	test_width();
	test_display("C.UTF-8");
	test_clean();
	test_str_copy();
	test_outbuf();
	test_spill();
	setlocale(LC_ALL, "C");
	test_display("C");
	return tap_done();
}
