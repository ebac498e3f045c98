/* lathist.h — the text of a row's waits as --why measured them, for the screen's detail view:
 * each kind's count, percentiles and longest wait, and its log2 histogram as one bar per slot
 * (its range and its count), from the first slot with waits to the last; a kind not measured for
 * the row says "unavailable", never a histogram of zeros. Unicode blocks or ASCII, as the strip
 * charts (strip.h). Pure code: the lines go to a caller's function. */
#ifndef DELAYTOP_LATHIST_H
#define DELAYTOP_LATHIST_H

#include "latency.h"
#include "strip.h"

/* Takes one line of text (display text, not cut); heading: a title rather than a value. */
typedef void lathist_emit_fn(void *ctx, int heading, const char *text);

/* The lines of a row's waits w (NULL: it did not wait) under the snapshot's header wh: a heading,
 * then per kind a summary line and its slots' bars of at most bar_width cells. */
void lathist_lines(const struct why_header *wh, const struct lat_waits *w, enum strip_glyphs g, int bar_width,
                   lathist_emit_fn *emit, void *ctx);

/* A kind's title for people (translated): the delay kind's, or "Blocked". */
const char *lathist_kind_title(int kind);

/* A slot's bound, ms, as a short text ("512us", "1.02ms", "16.8s", "inf") into buf (>= 16 bytes). */
const char *lathist_bound_text(double ms, char *buf);

#endif
