/* listing.c — filtering and sorting a snapshot's rows. */
#include "config.h"

#include <stdlib.h>

#include "listing.h"
#include "order.h"
#include "xalloc.h"

void listing_build(struct listing *l, const struct snapshot *snap, const struct listing_spec *spec)
{
	size_t nrows = snap ? snap->nrows : 0;

	l->rows = xgrow(l->rows, &l->cap, nrows + 1, sizeof(*l->rows));
	l->n = 0;
	for (size_t i = 0; i < nrows; i++)
		if (filter_match(&spec->filter, &snap->rows[i], &spec->display))
			l->rows[l->n++] = &snap->rows[i];
	order_sort(l->rows, l->n, spec->sort_col, spec->reverse, &spec->display);
}

void listing_free(struct listing *l)
{
	free(l->rows);
	l->rows = NULL;
	l->n = l->cap = 0;
}
