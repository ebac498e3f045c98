/* htmllat.c — the --why waits of the HTML report's heat maps (see htmllat.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "htmllat.h"
#include "xalloc.h"

/* Adds count waits to the cell (bucket, slot), keeping the cells in order: a new bucket is
 * normally the last, so the search from the end is short. */
static void cells_add(struct hl_cells *s, uint32_t bucket, int slot, uint32_t count)
{
	uint32_t i = s->n;

	while (i > 0 && (s->c[i - 1].bucket > bucket || (s->c[i - 1].bucket == bucket && s->c[i - 1].slot >= slot)))
		i--;
	if (i < s->n && s->c[i].bucket == bucket && s->c[i].slot == slot) {
		s->c[i].count += count;
		return;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap;

		s->c = xgrow(s->c, &cap, s->n + 1, sizeof(*s->c));
		s->cap = (uint32_t)cap;
	}
	memmove(&s->c[i + 1], &s->c[i], (s->n - i) * sizeof(*s->c));
	s->c[i] = (struct hl_cell){ (uint16_t)bucket, (uint8_t)slot, count };
	s->n++;
}

void htmllat_add(struct hr_lat **lat, int kind, uint32_t bucket, const struct lat_hist *hist)
{
	struct hl_cells *s;

	if (kind < 0 || kind >= LAT_KINDS || !hist->count)
		return;
	if (!*lat)
		*lat = xcalloc(1, sizeof(**lat));
	s = &(*lat)->k[kind];
	for (int i = 0; i < LAT_SLOTS; i++)
		if (hist->slot[i])
			cells_add(s, bucket, i, hist->slot[i]);
	s->count += hist->count;
	s->total_ns += hist->total_ns;
}

static int cell_cmp(const void *a, const void *b)
{
	const struct hl_cell *x = a, *y = b;

	if (x->bucket != y->bucket)
		return x->bucket < y->bucket ? -1 : 1;
	return (x->slot > y->slot) - (x->slot < y->slot);
}

void htmllat_halve(struct hr_lat *lat)
{
	if (!lat)
		return;
	for (int k = 0; k < LAT_KINDS; k++) {
		struct hl_cells *s = &lat->k[k];
		uint32_t out = 0;

		for (uint32_t i = 0; i < s->n; i++)
			s->c[i].bucket /= 2;
		if (s->n) /* qsort takes no NULL, even for nothing */
			qsort(s->c, s->n, sizeof(*s->c), cell_cmp);
		for (uint32_t i = 0; i < s->n; i++) {
			if (out && s->c[out - 1].bucket == s->c[i].bucket && s->c[out - 1].slot == s->c[i].slot)
				s->c[out - 1].count += s->c[i].count;
			else
				s->c[out++] = s->c[i];
		}
		s->n = out;
	}
}

void htmllat_free(struct hr_lat *lat)
{
	if (!lat)
		return;
	for (int k = 0; k < LAT_KINDS; k++)
		free(lat->k[k].c);
	free(lat);
}

int htmllat_slots(const struct hr_lat *lat, int kind, int *first, int *last)
{
	const struct hl_cells *s;

	if (!lat || kind < 0 || kind >= LAT_KINDS || !lat->k[kind].n)
		return 0;
	s = &lat->k[kind];
	*first = LAT_SLOTS;
	*last = -1;
	for (uint32_t i = 0; i < s->n; i++) {
		if (s->c[i].slot < *first)
			*first = s->c[i].slot;
		if (s->c[i].slot > *last)
			*last = s->c[i].slot;
	}
	return 1;
}
