/* listing.h — the rows a front end shows: a snapshot's rows that pass the filter, in the sort
 * order. The one place where the screen and the batch printers select, filter and sort. Pure code. */
#ifndef DELAYTOP_LISTING_H
#define DELAYTOP_LISTING_H

#include <stddef.h>

#include "columns.h"
#include "filter.h"
#include "model.h"

/* How to choose and order rows. */
struct listing_spec {
	struct filter filter;
	struct display display;
	int sort_col; /* a column_id */
	int reverse;
};

struct listing {
	const struct row **rows; /* into the snapshot: live until its sampler's next tick */
	size_t n, cap;
};

/* Fills l with the rows of snap (NULL: none) that pass spec's filter, sorted. */
void listing_build(struct listing *l, const struct snapshot *snap, const struct listing_spec *spec);
void listing_free(struct listing *l);

#endif
