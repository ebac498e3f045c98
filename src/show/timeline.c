/* timeline.c — a recording's pressure over its length (timeline.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "timeline.h"
#include "xalloc.h"

static double share_of(const struct psi_line *l)
{
	return l->present && !isnan(l->pct) ? l->pct / 100.0 : 0.0;
}

int timeline_focus_resource(enum timeline_focus f)
{
	return f == TL_ALL ? -1 : (int)f - 1;
}

double timeline_pressure(const struct psi_snapshot *psi, enum timeline_focus f)
{
	int only = timeline_focus_resource(f);
	double most = 0;

	for (int r = 0; r < PSI_COUNT; r++) {
		const struct psi_resource *res = &psi->res[r];

		if (!res->present || (only >= 0 && r != only))
			continue;
		if (r != PSI_IRQ)
			most = fmax(most, share_of(&res->some));
		if (r != PSI_CPU) /* system-level CPU full is always 0 */
			most = fmax(most, share_of(&res->full));
	}
	return fmin(most, 1.0);
}

void timeline_add(struct timeline *tl, int64_t t_ns, double interval_s, const double pressure[TL_FOCUS_COUNT],
		  int event)
{
	struct timeline_point *p;

	tl->p = xgrow(tl->p, &tl->cap, tl->n + 1, sizeof(*tl->p));
	p = &tl->p[tl->n++];
	memset(p, 0, sizeof(*p));
	p->t_ns = t_ns;
	p->interval_s = interval_s > 0 && isfinite(interval_s) ? (float)interval_s : 0;
	for (int f = 0; f < TL_FOCUS_COUNT; f++)
		p->pressure[f] = (float)fmax(0, fmin(1, pressure[f]));
	p->event = !!event;
}

void timeline_add_psi(struct timeline *tl, int64_t t_ns, double interval_s, const struct psi_snapshot *psi,
		      int event)
{
	double pressure[TL_FOCUS_COUNT];

	for (int f = 0; f < TL_FOCUS_COUNT; f++)
		pressure[f] = timeline_pressure(psi, (enum timeline_focus)f);
	timeline_add(tl, t_ns, interval_s, pressure, event);
}

/* Marks the peaks of focus f: bit f of each point's peak. */
static void mark_peaks(struct timeline *tl, int f)
{
	uint8_t bit = (uint8_t)(1u << f);
	size_t best = 0;
	int in = 0;

	for (size_t i = 0; i < tl->n; i++) {
		tl->p[i].peak &= (uint8_t)~bit;
		if (tl->p[i].pressure[f] < TIMELINE_PEAK) {
			in = 0;
			continue;
		}
		if (!in || tl->p[i].pressure[f] > tl->p[best].pressure[f]) {
			if (in)
				tl->p[best].peak &= (uint8_t)~bit;
			best = i;
			tl->p[i].peak |= bit;
		}
		in = 1;
	}
}

void timeline_finish(struct timeline *tl)
{
	for (int f = 0; f < TL_FOCUS_COUNT; f++)
		mark_peaks(tl, f);
}

void timeline_free(struct timeline *tl)
{
	free(tl->p);
	memset(tl, 0, sizeof(*tl));
}

/* The bucket of time t among width over first..last. */
static int bucket_of(int64_t t, int64_t first, int64_t last, int width)
{
	double span = (double)(last - first) + 1;
	int b;

	if (t <= first)
		return 0;
	if (t >= last)
		return width - 1;
	b = (int)((double)(t - first) / span * width);
	return b < width ? b : width - 1;
}

int timeline_buckets(const struct timeline *tl, enum timeline_focus f, int width, double *cells,
		     unsigned char *events, int64_t t)
{
	int64_t first, last;

	for (int i = 0; i < width; i++) {
		cells[i] = -1;
		events[i] = 0;
	}
	if (!tl->n || width <= 0)
		return -1;
	first = tl->p[0].t_ns;
	last = tl->p[tl->n - 1].t_ns;
	for (size_t i = 0; i < tl->n; i++) {
		const struct timeline_point *p = &tl->p[i];
		int b = bucket_of(p->t_ns, first, last, width);
		/* the interval it covers, from just after the reading before (from the first reading's
		 * time at most: a recording's interval may be anything) */
		double span = (double)p->interval_s * 1e9;
		int from = span < 1 ? b
			   : span >= (double)(p->t_ns - first) ? 0
			   : bucket_of(p->t_ns - (int64_t)span + 1, first, last, width);

		for (int j = from; j <= b; j++)
			cells[j] = fmax(cells[j], p->pressure[f]);
		events[b] |= p->event;
	}
	return bucket_of(t, first, last, width);
}

static int marked(const struct timeline_point *p, enum timeline_focus f, enum timeline_mark mark)
{
	return mark == TL_EVENT ? p->event : (p->peak >> f) & 1;
}

/* The first point after t: its index (n when none). */
static size_t after(const struct timeline *tl, int64_t t)
{
	size_t lo = 0, hi = tl->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tl->p[mid].t_ns <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

long timeline_step(const struct timeline *tl, enum timeline_focus f, int64_t t, int dir, enum timeline_mark mark)
{
	size_t i = after(tl, t);

	if (dir > 0) {
		for (; i < tl->n; i++)
			if (marked(&tl->p[i], f, mark))
				return (long)i;
		return -1;
	}
	while (i > 0) { /* before t: skip the points at t */
		i--;
		if (tl->p[i].t_ns < t && marked(&tl->p[i], f, mark))
			return (long)i;
	}
	return -1;
}

size_t timeline_count(const struct timeline *tl, enum timeline_focus f, enum timeline_mark mark)
{
	size_t n = 0;

	for (size_t i = 0; i < tl->n; i++)
		n += (size_t)marked(&tl->p[i], f, mark);
	return n;
}
