/* departed.c — the exited tasks kept for their totals. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "departed.h"
#include "xalloc.h"

void departed_init(struct departed_set *set, int keep)
{
	topn_init(&set->top, keep ? DEPARTED_MAX : 0);
	set->others = NULL;
}

static void departed_free(struct departed *d)
{
	if (d) {
		free(d->cmdline);
		free(d->cgroup);
	}
	free(d);
}

void departed_clear(struct departed_set *set)
{
	for (size_t i = 0; i < set->top.len; i++)
		departed_free(set->top.item[i]);
	topn_free(&set->top);
	departed_free(set->others);
	set->others = NULL;
}

void departed_add(struct departed_set *set, struct departed *d)
{
	struct departed *out = topn_offer(&set->top, d, totals_waited(&d->acc));

	if (!out)
		return;
	if (!set->others)
		set->others = xcalloc(1, sizeof(*set->others));
	totals_add(&set->others->acc, &out->acc);
	departed_free(out);
}

size_t departed_count(const struct departed_set *set)
{
	return set->top.len + (set->others != NULL);
}

int departed_next(const struct departed_set *set, size_t *pos, const struct departed **out)
{
	if (*pos < set->top.len) {
		*out = set->top.item[(*pos)++];
		return 1;
	}
	if (*pos == set->top.len && set->others) {
		(*pos)++;
		*out = set->others;
		return 1;
	}
	return 0;
}
