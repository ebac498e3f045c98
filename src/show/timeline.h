/* timeline.h — a recording's pressure over its whole length, one point a reading: the system's
 * pressure (the highest interval share of the lines the PSI bars show), whether triggers fired
 * before it; bucketed to a line's width (each bucket the highest pressure of the readings whose
 * intervals reach into it, so that a short stall is not averaged away and a time the recorder
 * did not run stays empty), its trigger events and its peaks found. Each point keeps the
 * pressure of every resource too, so that a line can show one (its focus: a steady CPU pressure
 * would hide memory and I/O peaks under the highest of all). A peak is the
 * reading of highest pressure (the first of equal ones) in a stretch of consecutive readings at
 * or above TIMELINE_PEAK, stretches parted by a reading below it. Pure code. */
#ifndef DELAYTOP_TIMELINE_H
#define DELAYTOP_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "psi.h"

#define TIMELINE_PEAK 0.10 /* a tenth of the interval stalled: the PSI bar's yellow */

/* What a line of the timeline shows: the highest pressure of all (TL_ALL), or one resource's
 * (TL_ALL + 1 + a psi_resource_id). */
enum timeline_focus { TL_ALL, TL_FOCUS_COUNT = PSI_COUNT + 1 };

struct timeline_point {
	int64_t t_ns;   /* the reading's wall clock */
	float interval_s; /* the interval it covers, up to t_ns (0: a run's first reading) */
	float pressure[TL_FOCUS_COUNT]; /* 0..1, by focus */
	uint8_t event;  /* triggers fired before it */
	uint8_t peak;   /* bit f: the peak of its stretch in focus f (timeline_finish) */
};
_Static_assert(TL_FOCUS_COUNT <= 8, "a focus that the peak bits do not hold");

struct timeline {
	struct timeline_point *p; /* in the file's order (its times ascending) */
	size_t n, cap;
};

/* A reading's pressure in focus f, 0..1: the highest share of the lines the bars show (CPU some,
 * memory and I/O some and full, IRQ full), of all resources or of f's; 0 when none is known (a
 * run's first reading). */
double timeline_pressure(const struct psi_snapshot *psi, enum timeline_focus f);

/* Adds a reading with its pressure in every focus (timeline_pressure's). */
void timeline_add(struct timeline *tl, int64_t t_ns, double interval_s, const double pressure[TL_FOCUS_COUNT],
		  int event);
/* The same with psi's pressures. */
void timeline_add_psi(struct timeline *tl, int64_t t_ns, double interval_s, const struct psi_snapshot *psi,
		      int event);
/* Marks the peaks, once every point is added. */
void timeline_finish(struct timeline *tl);
void timeline_free(struct timeline *tl);

/* The buckets of a line of width cells over the first to the last reading's time: into
 * cells[0..width) each one's highest pressure in focus f (-1: no reading's interval reaches into
 * it), into events[] whether a reading in it had events. Returns the bucket of time t (the
 * cursor), or -1 for no point. */
int timeline_buckets(const struct timeline *tl, enum timeline_focus f, int width, double *cells,
		     unsigned char *events, int64_t t);

enum timeline_mark { TL_EVENT, TL_PEAK };
/* The first point marked so (a peak: in focus f) after time t (dir > 0) or the last before it
 * (dir < 0): its index, or -1 for none. */
long timeline_step(const struct timeline *tl, enum timeline_focus f, int64_t t, int dir, enum timeline_mark mark);
/* How many points are marked so. */
size_t timeline_count(const struct timeline *tl, enum timeline_focus f, enum timeline_mark mark);

/* The resource a focus shows (a psi_resource_id), or -1 for TL_ALL. */
int timeline_focus_resource(enum timeline_focus f);

#endif
