/* waithist.h — the waits --why measures (latency.h) as Prometheus histograms: a small fixed set of
 * upper bounds (le), each the upper bound of one of latency.h's log2 slots (every second one, from
 * 8 us to 8.4 s, then +Inf), so that folding the slots into them is exact and a wait is never
 * counted under a bound it may pass; per bound the waits that fall in it (the exposition makes
 * them cumulative), and their sum, grown interval by interval. Pure code. */
#ifndef DELAYTOP_WAITHIST_H
#define DELAYTOP_WAITHIST_H

#include <stdint.h>

#include "latency.h"

/* The bounds, +Inf the last. */
#define WAITHIST_BUCKETS 12

/* One kind's waits since the start: per bucket the waits above the bucket before it and up to
 * its own bound; their sum. */
struct waithist {
	uint64_t bucket[WAITHIST_BUCKETS];
	uint64_t sum_ns;
};

/* Bucket b's upper bound as the exposition writes it: "8e-06" ... "8.388608", "+Inf". */
const char *waithist_le(int b);
/* The last of latency.h's slots that bucket b holds (its bound is that slot's). */
int waithist_last_slot(int b);

/* Adds one interval's histogram of a kind: each slot's waits to the bucket whose bound is the
 * first at or above the slot's, and their sum. */
void waithist_add(struct waithist *w, const struct lat_hist *h);

/* The cumulative counts: out[b] the waits up to bucket b's bound; out[WAITHIST_BUCKETS - 1]
 * (+Inf) all of them, the histogram's count. */
void waithist_cumulative(const struct waithist *w, uint64_t out[WAITHIST_BUCKETS]);

#endif
