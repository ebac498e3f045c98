/* waithist.c — the waits of --why as Prometheus histograms (see waithist.h). */
#include "config.h"

#include "waithist.h"

/* The buckets: the last slot of each, and its bound in seconds, as Go's strconv writes a float
 * (shortest form, an exponent below 1e-4), which is how Prometheus's own clients write le. A
 * slot's bound is 2^(slot + 1) us (latency.h). */
static const struct {
	int slot;
	const char *le;
} buckets[WAITHIST_BUCKETS] = {
	{ 2, "8e-06" },	     { 4, "3.2e-05" },	  { 6, "0.000128" },  { 8, "0.000512" },
	{ 10, "0.002048" },  { 12, "0.008192" },  { 14, "0.032768" }, { 16, "0.131072" },
	{ 18, "0.524288" },  { 20, "2.097152" },  { 22, "8.388608" }, { LAT_SLOTS - 1, "+Inf" },
};

const char *waithist_le(int b)
{
	return b >= 0 && b < WAITHIST_BUCKETS ? buckets[b].le : "?";
}

int waithist_last_slot(int b)
{
	return b >= 0 && b < WAITHIST_BUCKETS ? buckets[b].slot : -1;
}

void waithist_add(struct waithist *w, const struct lat_hist *h)
{
	int b = 0;

	for (int s = 0; s < LAT_SLOTS; s++) {
		while (s > buckets[b].slot)
			b++;
		w->bucket[b] += h->slot[s];
	}
	w->sum_ns += h->total_ns;
}

void waithist_cumulative(const struct waithist *w, uint64_t out[WAITHIST_BUCKETS])
{
	uint64_t run = 0;

	for (int b = 0; b < WAITHIST_BUCKETS; b++) {
		run += w->bucket[b];
		out[b] = run;
	}
}
