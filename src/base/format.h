/* format.h — turning numbers and strings into text: fixed-width cells, JSON and CSV escaping,
 * terminal display widths. Pure code, and fast: batch mode formats every row every interval. */
#ifndef DELAYTOP_FORMAT_H
#define DELAYTOP_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Writes v with the given decimals ("12.5"), "-" for NAN. Returns the length. buf holds >= 32. */
size_t fmt_fixed(char *buf, double v, int decimals);

/* Writes v into at most width characters: with decimals when they fit, then without, then
 * scaled with a k, M or G suffix. NAN gives "-". Returns the length. buf holds >= 32. */
size_t fmt_cell(char *buf, double v, int decimals, int width);

/* Writes v for JSON: up to 3 decimals, "null" for NAN or infinity. Returns the length. */
size_t fmt_json_number(char *buf, double v);

/* A growable output buffer, so that a report is written with few fwrite()s. With spill set, a
 * writer that calls out_spill() at the end of each line has the buffer written to spill whenever
 * it holds OUT_SPILL_BYTES: a report of 100,000 rows then needs no buffer of its size. */
struct outbuf {
	char *data;
	size_t len, cap;
	FILE *spill;   /* where out_spill() writes; NULL: keep everything until out_flush() */
	int spill_err; /* a spill failed: out_flush() says so */
};

#define OUT_SPILL_BYTES 65536

void out_reserve(struct outbuf *o, size_t more);
void out_mem(struct outbuf *o, const char *s, size_t n);
void out_str(struct outbuf *o, const char *s);
void out_char(struct outbuf *o, char c);
void out_spaces(struct outbuf *o, int n);
void out_printf(struct outbuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* What a control character (C0, DEL, C1) or a byte that is not valid UTF-8 becomes in display
 * text (text cells, CSV, the screen, messages that echo a user's value): one per character or bad
 * byte, so that a task name or a value cannot move the cursor or start an escape sequence.
 * Decided by hand, the same under every locale. */
#define TEXT_REPLACEMENT '?'

/* The length (2 to 4) of the UTF-8 sequence of one character from U+0080 at s, its code point in
 * *cp; -1 when the bytes there are not one (a stray byte, an overlong form, a surrogate, beyond
 * U+10FFFF, cut short). Independent of the locale. */
int utf8_decode(const char *s, uint32_t *cp);
/* Whether a code point from U+00A0 is a format control that prints nothing but reorders or hides
 * what follows (U+202E, the bidi isolates, zero-width characters, U+2028...): shown as a control
 * character is. */
int format_control(uint32_t cp);

/* s as display text, whole: control characters and bad bytes become TEXT_REPLACEMENT. */
void out_text(struct outbuf *o, const char *s);
/* s padded with spaces to width columns (right-aligned when right is set), cut to fit; control
 * characters and bad bytes become TEXT_REPLACEMENT. */
void out_padded(struct outbuf *o, const char *s, int width, int right);
/* s, len bytes of printable ASCII (a formatted number), padded to width: the fast path of
 * out_padded for text known to be plain. */
void out_field(struct outbuf *o, const char *s, size_t len, int width, int right);
/* s as a JSON string, quotes included; control characters (C0, DEL, C1) are escaped as \u00XX,
 * each byte that is not valid UTF-8 becomes \ufffd. */
void out_json_string(struct outbuf *o, const char *s);
/* s as a CSV field: quoted when it holds a comma or quote; control characters (CR and LF too)
 * and bad bytes become TEXT_REPLACEMENT. */
void out_csv_field(struct outbuf *o, const char *s);
/* Writes the buffer to f and empties it; returns 0, or -1 when the write failed (EPIPE). */
/* At the end of a line: writes the buffer to o->spill when it holds OUT_SPILL_BYTES or more. */
void out_spill(struct outbuf *o);
int out_flush(struct outbuf *o, FILE *f);
void out_free(struct outbuf *o);

/* Copies src into dst of size bytes, cut to fit and always terminated. */
void str_copy(char *dst, size_t size, const char *src);

/* s cleaned for a message or a line of the screen: into dst of size (at least 4) bytes, control
 * characters and bad bytes replaced as in out_padded, cut at a character with "..." when it does
 * not fit; always terminated. Returns the length. */
size_t text_clean(char *dst, size_t size, const char *src);

/* The room a message gives a value a user gave; longer values are cut with "...". */
#define SHOWN_SIZE 64

/* s as a message may repeat it (text_clean), into buf of SHOWN_SIZE bytes, which it returns. */
const char *text_shown(const char *s, char *buf);

/* How many terminal columns s takes as display text (UTF-8; a control character or a bad byte
 * counts 1, as its replacement). */
int text_width(const char *s);
/* The same for the first bytes of s. */
int text_width_n(const char *s, size_t bytes);
/* The number of bytes of s that fit in width columns without splitting a character. */
size_t text_fit(const char *s, int width);

#endif
