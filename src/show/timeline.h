/* timeline.h — a recording's pressure over its whole length, one point a reading: the system's
 * pressure (the highest interval share of the lines the PSI bars show), whether triggers fired
 * before it; bucketed to a line's width (each bucket the highest pressure of the readings whose
 * intervals reach into it, so that a short stall is not averaged away and a time the recorder
 * did not run stays empty), its trigger events and its peaks found. A peak is the
 * reading of highest pressure (the first of equal ones) in a stretch of consecutive readings at
 * or above TIMELINE_PEAK, stretches parted by a reading below it. Pure code. */
#ifndef DELAYTOP_TIMELINE_H
#define DELAYTOP_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "psi.h"

#define TIMELINE_PEAK 0.10 /* a tenth of the interval stalled: the PSI bar's yellow */

struct timeline_point {
	int64_t t_ns;   /* the reading's wall clock */
	float interval_s; /* the interval it covers, up to t_ns (0: a run's first reading) */
	float pressure; /* 0..1 */
	uint8_t event;  /* triggers fired before it */
	uint8_t peak;   /* the peak of its stretch (timeline_finish) */
};

struct timeline {
	struct timeline_point *p; /* in the file's order (its times ascending) */
	size_t n, cap;
};

/* A reading's pressure, 0..1: the highest share of CPU some, memory and I/O some and full, IRQ
 * full (what the bars show); 0 when none is known (a run's first reading). */
double timeline_pressure(const struct psi_snapshot *psi);

void timeline_add(struct timeline *tl, int64_t t_ns, double interval_s, double pressure, int event);
/* Marks the peaks, once every point is added. */
void timeline_finish(struct timeline *tl);
void timeline_free(struct timeline *tl);

/* The buckets of a line of width cells over the first to the last reading's time: into
 * cells[0..width) each one's highest pressure (-1: no reading's interval reaches into it), into
 * events[] whether a reading in it had events. Returns the bucket of time t (the cursor), or -1 for no point. */
int timeline_buckets(const struct timeline *tl, int width, double *cells, unsigned char *events, int64_t t);

enum timeline_mark { TL_EVENT, TL_PEAK };
/* The first point marked so after time t (dir > 0) or the last before it (dir < 0): its index,
 * or -1 for none. */
long timeline_step(const struct timeline *tl, int64_t t, int dir, enum timeline_mark mark);
/* How many points are marked so. */
size_t timeline_count(const struct timeline *tl, enum timeline_mark mark);

#endif
