/* reclat.c — the waits of --why as a record's last section: see reclat.h and doc/recording.md. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "recformat.h"
#include "reclat.h"
#include "xalloc.h"

void rec_lat_clear(struct rec_lat *l)
{
	memset(&l->why, 0, sizeof(l->why));
	l->reason[0] = '\0';
	for (size_t i = 0; i < l->n; i++)
		if (l->e[i].slot < l->capat)
			l->at[l->e[i].slot] = 0;
	l->n = 0;
	l->nh = 0;
}

void rec_lat_free(struct rec_lat *l)
{
	free(l->e);
	free(l->h);
	free(l->at);
	free(l->w);
	memset(l, 0, sizeof(*l));
}

void rec_lat_set_header(struct rec_lat *l, const struct why_header *wh)
{
	l->why = *wh;
	str_copy(l->reason, sizeof(l->reason), wh->reason ? wh->reason : "");
	l->why.reason = l->reason[0] ? l->reason : NULL;
}

/* A new entry for slot with room for nk histograms; returns it. */
static struct rec_lat_entry *entry_new(struct rec_lat *l, uint32_t slot, int nk)
{
	struct rec_lat_entry *e;

	l->e = xgrow(l->e, &l->cap, l->n + 1, sizeof(*l->e));
	l->h = xgrow(l->h, &l->caph, l->nh + (size_t)nk + 1, sizeof(*l->h));
	e = &l->e[l->n++];
	memset(e, 0, sizeof(*e));
	e->slot = slot;
	e->first = l->nh;
	return e;
}

static int kinds_in(lat_mask m)
{
	return __builtin_popcount(m);
}

void rec_lat_add(struct rec_lat *l, uint32_t slot, const struct lat_waits *w)
{
	struct rec_lat_entry *e = entry_new(l, slot, kinds_in(w->kinds));

	e->kinds = w->kinds;
	e->unavail = w->unavail;
	memcpy(&l->h[l->nh], w->h, (size_t)kinds_in(w->kinds) * sizeof(*l->h));
	l->nh += (size_t)kinds_in(w->kinds);
}

static int by_slot(const void *a, const void *b)
{
	uint32_t x = ((const struct rec_lat_entry *)a)->slot, y = ((const struct rec_lat_entry *)b)->slot;

	return x < y ? -1 : x > y;
}

/* One histogram: its sum and longest wait, then its slots with waits as (gap, count) pairs. */
static void put_hist(struct outbuf *o, const struct lat_hist *h)
{
	int n = 0, prev = -1;

	rec_put_uint(o, h->total_ns);
	rec_put_uint(o, h->max_ns);
	for (int i = 0; i < LAT_SLOTS; i++)
		n += h->slot[i] != 0;
	rec_put_uint(o, (uint64_t)n);
	for (int i = 0; i < LAT_SLOTS; i++)
		if (h->slot[i]) {
			rec_put_uint(o, (uint64_t)(i - prev - 1));
			rec_put_uint(o, h->slot[i]);
			prev = i;
		}
}

void rec_lat_put(struct outbuf *o, struct rec_lat *l)
{
	size_t len = strlen(l->reason);
	uint32_t prev = 0;

	if (l->why.state == WHY_OFF)
		return;
	if (l->n) /* qsort takes no NULL, even for nothing */
		qsort(l->e, l->n, sizeof(*l->e), by_slot);
	for (size_t i = 0, kept = 0; i < l->n; i++) { /* a slot once: a reader refuses it twice */
		if (!kept || l->e[i].slot != l->e[kept - 1].slot)
			l->e[kept++] = l->e[i];
		if (i == l->n - 1)
			l->n = kept;
	}
	rec_put_uint(o, (uint64_t)l->why.state);
	rec_put_uint(o, l->why.attached);
	rec_put_uint(o, l->why.measured);
	rec_put_uint(o, l->why.not_fitted);
	rec_put_uint(o, l->why.not_fitted_total);
	rec_put_uint(o, len);
	out_mem(o, l->reason, len);
	rec_put_uint(o, l->n);
	for (size_t i = 0; i < l->n; i++) {
		const struct rec_lat_entry *e = &l->e[i];

		rec_put_uint(o, e->slot - prev);
		prev = e->slot;
		rec_put_uint(o, e->kinds);
		rec_put_uint(o, e->unavail);
		for (int k = 0; k < kinds_in(e->kinds); k++)
			put_hist(o, &l->h[e->first + (size_t)k]);
	}
}

/* ---- reading ---- */

struct lat_cursor {
	const uint8_t *p, *end;
	int bad;
};

static uint64_t get(struct lat_cursor *c)
{
	uint64_t v = 0;

	if (!c->bad && rec_get_uint(&c->p, c->end, &v) < 0)
		c->bad = 1;
	return c->bad ? 0 : v;
}

static lat_mask map_kinds(uint64_t bits, const int *kind_map)
{
	lat_mask m = 0;

	for (int b = 0; b < 16; b++)
		if ((bits >> b) & 1 && kind_map[b] >= 0)
			m |= (lat_mask)(1u << kind_map[b]);
	return m;
}

static void get_hist(struct lat_cursor *c, struct lat_hist *h)
{
	uint64_t n;
	int at = -1;

	memset(h, 0, sizeof(*h));
	h->total_ns = get(c);
	h->max_ns = get(c);
	n = get(c);
	if (n > LAT_SLOTS)
		c->bad = 1;
	for (uint64_t i = 0; i < n && !c->bad; i++) {
		uint64_t gap = get(c), count = get(c);

		if (gap >= LAT_SLOTS || at + 1 + (int)gap >= LAT_SLOTS || !count || count > UINT32_MAX) {
			c->bad = 1;
			return;
		}
		at += 1 + (int)gap;
		h->slot[at] = (uint32_t)count;
		h->count += count;
	}
}

/* One task's entry: its kinds (the file's), then a histogram for each, kept in our kind order. */
static void get_entry(struct rec_lat *l, struct lat_cursor *c, uint32_t slot, const int *kind_map)
{
	uint64_t kinds = get(c), unavail = get(c);
	struct lat_hist set[LAT_KINDS];
	lat_mask ours = 0;
	struct rec_lat_entry *e;

	if (kinds >> 16 || unavail >> 16) {
		c->bad = 1;
		return;
	}
	for (int b = 0; b < 16 && !c->bad; b++) {
		struct lat_hist h;

		if (!((kinds >> b) & 1))
			continue;
		get_hist(c, &h);
		if (kind_map[b] < 0 || kind_map[b] >= LAT_KINDS || (ours & (1u << kind_map[b])))
			continue; /* a kind this reader does not know */
		set[kind_map[b]] = h;
		ours |= (lat_mask)(1u << kind_map[b]);
	}
	if (c->bad)
		return;
	lat_compact(set, ours);
	e = entry_new(l, slot, kinds_in(ours));
	e->kinds = ours;
	e->unavail = map_kinds(unavail, kind_map);
	memcpy(&l->h[l->nh], set, (size_t)kinds_in(ours) * sizeof(*l->h));
	l->nh += (size_t)kinds_in(ours);
}

int rec_lat_get(struct rec_lat *l, const uint8_t **p, const uint8_t *end, const int *kind_map,
                size_t max_slots)
{
	struct lat_cursor c = {*p, end, 0};
	uint64_t state, len, n, slot = 0;

	rec_lat_clear(l);
	state = get(&c);
	if (state != WHY_ON && state != WHY_UNAVAILABLE)
		c.bad = 1;
	l->why.state = (enum why_state)state;
	l->why.attached = map_kinds(get(&c), kind_map);
	l->why.measured = map_kinds(get(&c), kind_map);
	l->why.not_fitted = get(&c);
	l->why.not_fitted_total = get(&c);
	len = get(&c);
	if (c.bad || len > (uint64_t)(c.end - c.p)) {
		rec_lat_clear(l);
		return -1;
	}
	{
		size_t keep = len < sizeof(l->reason) ? (size_t)len : sizeof(l->reason) - 1;

		memcpy(l->reason, c.p, keep);
		l->reason[keep] = '\0';
	}
	for (char *s = l->reason; *s; s++)
		if ((unsigned char)*s < ' ')
			*s = ' ';
	l->why.reason = l->reason[0] ? l->reason : NULL;
	c.p += len;
	n = get(&c);
	if (n > (uint64_t)(c.end - c.p))
		c.bad = 1;
	for (uint64_t i = 0; i < n && !c.bad; i++) {
		uint64_t gap = get(&c);

		slot += gap;
		if ((i && !gap) || gap >= max_slots || slot >= max_slots) /* ascending, bounded */
			c.bad = 1;
		else
			get_entry(l, &c, (uint32_t)slot, kind_map);
	}
	if (c.bad) {
		rec_lat_clear(l);
		return -1;
	}
	if (slot + 1 > l->capat) {
		size_t old = l->capat;

		l->at = xgrow(l->at, &l->capat, slot + 1, sizeof(*l->at));
		memset(l->at + old, 0, (l->capat - old) * sizeof(*l->at));
	}
	l->w = xgrow(l->w, &l->capw, l->n ? l->n : 1, sizeof(*l->w));
	for (size_t i = 0; i < l->n; i++)
		l->at[l->e[i].slot] = (uint32_t)i + 1;
	*p = c.p;
	return 0;
}

const struct lat_waits *rec_lat_of(struct rec_lat *l, size_t slot)
{
	size_t i;

	if (slot >= l->capat || !l->at[slot])
		return NULL;
	i = l->at[slot] - 1;
	l->w[i] = (struct lat_waits){
	        .kinds = l->e[i].kinds, .unavail = l->e[i].unavail, .h = &l->h[l->e[i].first]};
	return &l->w[i];
}
