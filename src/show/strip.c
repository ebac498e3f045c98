/* strip.c — strip charts: values as one line of glyphs on a fixed scale. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "strip.h"

/* The glyphs of each set, lowest first: the first stands for 0. */
static const char *const utf8_glyphs[] = {
	"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588",
};
static const char *const ascii_glyphs[] = { "_", ".", "-", "=", "#" };
/* Eighths in ASCII, by density, for shares (strip_share_glyph). */
static const char *const ascii_eighths[] = { "_", ".", ":", "-", "=", "+", "*", "#" };

static const struct {
	const char *const *glyphs;
	int levels;
} sets[] = {
	[STRIP_ASCII] = { .glyphs = ascii_glyphs, .levels = 5 },
	[STRIP_UTF8] = { .glyphs = utf8_glyphs, .levels = 8 },
};

enum strip_glyphs strip_glyphs_for_locale(void)
{
	return MB_CUR_MAX > 1 ? STRIP_UTF8 : STRIP_ASCII;
}

double strip_max(const double *values, size_t n)
{
	double top = 0;

	for (size_t i = 0; i < n; i++)
		if (values[i] > top)
			top = values[i];
	return top;
}

int strip_levels(enum strip_glyphs g)
{
	return sets[g].levels;
}

int strip_level(double v, double max, int levels)
{
	int level;

	if (isnan(v))
		return -1;
	if (v <= 0 || max <= 0)
		return 0;
	if (v >= max)
		return levels - 1;
	/* (0, max) spread over levels 1 .. levels - 1 */
	level = 1 + (int)(v / max * (levels - 1));
	return level < levels ? level : levels - 1;
}

const char *strip_glyph(double v, double max, enum strip_glyphs g)
{
	int level = strip_level(v, max, sets[g].levels);

	return level < 0 ? " " : sets[g].glyphs[level];
}

const char *strip_share_glyph(double v, enum strip_glyphs g)
{
	int level;

	if (isnan(v) || v < 0)
		return " ";
	level = v >= 1 ? 7 : (int)(v * 8);
	if (level > 7)
		level = 7;
	return g == STRIP_UTF8 ? utf8_glyphs[level] : ascii_eighths[level];
}

size_t strip_render(char *out, size_t size, const double *values, size_t n, double max, enum strip_glyphs g)
{
	size_t len = 0;

	if (!size)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const char *glyph = strip_glyph(values[i], max, g);
		size_t gl = strlen(glyph);

		if (len + gl >= size)
			break;
		memcpy(out + len, glyph, gl);
		len += gl;
	}
	out[len] = '\0';
	return len;
}
