/* strip.c — a strip chart's cells (strip.h). */
#include "config.h"

#include <math.h>

#include "format.h"
#include "strip.h"

/* Level 0 is a quiet reading, drawn low but visible, unlike a blank (no reading). */
static const char *const utf8_cells[STRIP_LEVELS] = {
	"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588",
};
static const char *const ascii_cells[STRIP_LEVELS] = { "_", ".", ":", "-", "=", "+", "*", "#" };

int strip_level(double v)
{
	int level;

	if (isnan(v) || v < 0)
		return -1;
	if (v >= 1)
		return STRIP_LEVELS - 1;
	level = (int)(v * STRIP_LEVELS);
	return level < STRIP_LEVELS ? level : STRIP_LEVELS - 1;
}

const char *strip_cell(double v, int utf8)
{
	int level = strip_level(v);

	if (level < 0)
		return " ";
	return utf8 ? utf8_cells[level] : ascii_cells[level];
}

void strip_render(struct outbuf *o, const double *v, size_t n, int utf8)
{
	for (size_t i = 0; i < n; i++)
		out_str(o, strip_cell(v[i], utf8));
}
