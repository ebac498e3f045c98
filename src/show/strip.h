/* strip.h — strip charts: a run of values drawn as one line of characters, each character one
 * value, its height the value's share of a fixed scale (0 to max, never rescaled to the values
 * shown). Unicode blocks where the terminal speaks UTF-8, ASCII otherwise. Pure code. */
#ifndef DELAYTOP_STRIP_H
#define DELAYTOP_STRIP_H

#include <stddef.h>

/* The glyph sets: the Unicode one ("▁▂▃▄▅▆▇█") and the ASCII one ("_.-=#"). The first glyph
 * of each stands for 0; a value above 0 takes one of the others, never the first, so that the
 * least wait shows. A value not known (NAN) is a space. */
enum strip_glyphs { STRIP_ASCII, STRIP_UTF8 };

/* The glyph set for the locale: UTF-8 when a character may take more than one byte. */
enum strip_glyphs strip_glyphs_for_locale(void);

/* The level of value v on the scale 0..max among a set of levels glyphs (0 .. levels - 1):
 * 0 for v <= 0, levels - 1 for v >= max, else at least 1; -1 for NAN. */
int strip_level(double v, double max, int levels);

/* The highest of values[0..n), the scale a chart of them needs: 0 when none is above 0 (a NAN,
 * a value not known, is passed over). */
double strip_max(const double *values, size_t n);

/* How many glyphs a set has. */
int strip_levels(enum strip_glyphs g);

/* The glyph of one value on the scale 0..max (a static string, one column): a space for NAN. */
const char *strip_glyph(double v, double max, enum strip_glyphs g);

/* A share's cell, as a recording's timeline draws it: v in 0..1 (clamped) in eighths, floor(v * 8)
 * (so a quiet 2% is the lowest cell, like 0), the 8 blocks in UTF-8 or "_.:-=+*#" in ASCII; a
 * blank for a value below 0 (nothing read there) or NAN. A static string, one column. */
const char *strip_share_glyph(double v, enum strip_glyphs g);

/* Writes values[0..n) (the oldest first) as n characters into out (size bytes, terminated; a
 * UTF-8 glyph takes 3 bytes), cut to what fits. Returns the bytes written. */
size_t strip_render(char *out, size_t size, const double *values, size_t n, double max, enum strip_glyphs g);

#endif
