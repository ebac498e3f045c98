/* strip.h — a strip chart: values in 0..1 as a row of one-column cells, eight block heights
 * where the terminal speaks UTF-8 (U+2581 to U+2588), else ASCII by density; a value below 0
 * (nothing there) is a blank. Pure code. */
#ifndef DELAYTOP_STRIP_H
#define DELAYTOP_STRIP_H

#include <stddef.h>

#define STRIP_LEVELS 8

/* The level (0 to STRIP_LEVELS - 1) of v in 0..1 (clamped); -1 for a value below 0. */
int strip_level(double v);
/* The cell of v: a static string, one column wide. */
const char *strip_cell(double v, int utf8);

struct outbuf;
/* Appends v[0..n) as n cells. */
void strip_render(struct outbuf *o, const double *v, size_t n, int utf8);

#endif
