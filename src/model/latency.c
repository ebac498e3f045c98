/* latency.c — the distribution of waits: slots, sums, percentiles (see latency.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "latency.h"
#include "xalloc.h"

const char *lat_kind_key(int kind)
{
	if (kind >= 0 && kind < DK_COUNT)
		return delay_kinds[kind].key;
	return kind == LAT_BLOCKED ? "blocked" : "?";
}

int lat_kind_find(const char *key)
{
	for (int k = 0; k < LAT_KINDS; k++)
		if (strcmp(lat_kind_key(k), key) == 0)
			return k;
	return -1;
}

/* floor(log2(us)), 0 under 2 us, at most the last slot: as why.bpf.c's slot_of(). */
int lat_slot_of(uint64_t ns)
{
	uint64_t us = ns / 1000;
	int s = 0;

	while (us > 1 && s < LAT_SLOTS - 1) {
		us >>= 1;
		s++;
	}
	return s;
}

double lat_slot_le_ms(int slot)
{
	if (slot >= LAT_SLOTS - 1)
		return INFINITY;
	return ldexp(1.0, slot + 1) / 1000.0;
}

double lat_slot_lower_ms(int slot)
{
	return slot <= 0 ? 0 : ldexp(1.0, slot) / 1000.0;
}

void lat_add(struct lat_hist *sum, const struct lat_hist *h)
{
	sum->count += h->count;
	sum->total_ns += h->total_ns;
	if (h->max_ns > sum->max_ns)
		sum->max_ns = h->max_ns;
	for (int i = 0; i < LAT_SLOTS; i++)
		sum->slot[i] += h->slot[i];
}

/* The q-quantile: its rank is q times the count of waits; the slot that holds that rank is found
 * by counting up from the shortest, and inside the slot the value is interpolated linearly
 * between the slot's bounds, as if its waits were spread evenly over it (rank just past the
 * waits of lower slots: the lower bound; rank of the slot's last wait: the upper bound). The
 * highest slot that has waits ends at the longest wait measured rather than at its bound, the
 * last slot having none; so no percentile passes the real longest wait, and a higher q never
 * gives a lower value. */
double lat_percentile_ms(const struct lat_hist *h, double q)
{
	double rank, before = 0, max_ms;
	int top = -1;

	if (!h || !h->count)
		return NAN;
	max_ms = (double)h->max_ns / 1e6;
	for (int i = LAT_SLOTS; i-- > 0 && top < 0;)
		if (h->slot[i])
			top = i;
	if (top < 0)
		return NAN; /* a count without slots: not made by the kernel's maps */
	rank = q * (double)h->count;
	for (int i = 0; i <= top; i++) {
		double in = h->slot[i], lo, hi, frac;

		if (!in)
			continue;
		if (before + in < rank && i < top) {
			before += in;
			continue;
		}
		lo = lat_slot_lower_ms(i);
		hi = i == top ? fmin(lat_slot_le_ms(i), max_ms) : lat_slot_le_ms(i);
		if (hi < lo)
			hi = lo;
		frac = (rank - before) / in;
		frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
		return fmin(lo + (hi - lo) * frac, max_ms);
	}
	return max_ms;
}

const struct lat_hist *lat_waits_get(const struct lat_waits *w, int kind)
{
	int at = 0;

	if (!w || kind < 0 || kind >= LAT_KINDS || !(w->kinds & (1u << kind)))
		return NULL;
	for (int k = 0; k < kind; k++)
		at += (w->kinds >> k) & 1;
	return &w->h[at];
}

lat_mask lat_row_kinds(const struct why_header *wh, const struct lat_waits *w)
{
	if (wh->state != WHY_ON)
		return 0;
	return (lat_mask)(wh->measured & ~(w ? w->unavail : 0));
}

void lat_waits_add(struct lat_hist sum[LAT_KINDS], lat_mask *kinds, const struct lat_waits *w)
{
	int at = 0;

	if (!w)
		return;
	for (int k = 0; k < LAT_KINDS; k++)
		if (w->kinds & (1u << k))
			lat_add(&sum[k], &w->h[at++]);
	*kinds |= w->kinds;
}

void lat_compact(struct lat_hist set[LAT_KINDS], lat_mask kinds)
{
	int to = 0;

	for (int k = 0; k < LAT_KINDS; k++)
		if (kinds & (1u << k)) {
			if (to != k)
				set[to] = set[k];
			to++;
		}
}

struct lat_entry *lat_batch_push(struct lat_batch *b, uint32_t tid, uint32_t tgid, uint32_t kind)
{
	struct lat_entry *e;

	b->e = xgrow(b->e, &b->cap, b->n + 1, sizeof(*b->e));
	e = &b->e[b->n++];
	memset(e, 0, sizeof(*e));
	e->tid = tid;
	e->tgid = tgid;
	e->kind = kind;
	return e;
}

void lat_batch_free(struct lat_batch *b)
{
	free(b->e);
	memset(b, 0, sizeof(*b));
}
