/* listing.c — filtering and sorting a snapshot's rows, flat or as the cgroup tree. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "listing.h"
#include "order.h"
#include "xalloc.h"

static int is_folded(const struct listing_spec *spec, const char *path)
{
	for (size_t i = 0; i < spec->nfolded; i++)
		if (path && strcmp(spec->folded[i], path) == 0)
			return 1;
	return 0;
}

/* Marks the rows that pass the filter and their ancestors. */
static void mark_shown(struct listing *l, const struct row *rows, size_t n, const struct listing_spec *spec)
{
	memset(l->shown, 0, n);
	for (size_t i = 0; i < n; i++) {
		if (!filter_match(&spec->filter, &rows[i], &spec->display))
			continue;
		for (long at = (long)i; at >= 0 && !l->shown[at]; at = rows[at].parent)
			l->shown[at] = 1;
	}
}

/* Appends row i and, unless it is folded, its children in their sorted order. */
static void emit(struct listing *l, const struct row *rows, long i, const struct listing_spec *spec)
{
	int folded = is_folded(spec, rows[i].cgroup) && l->first[i] >= 0;

	l->rows[l->n] = &rows[i];
	l->folded[l->n++] = (uint8_t)folded;
	if (folded)
		return;
	for (long c = l->first[i]; c >= 0; c = l->next[c])
		emit(l, rows, c, spec);
}

/* The cgroup view: the tree, siblings in the sort order. */
static void build_tree(struct listing *l, const struct snapshot *snap, const struct listing_spec *spec)
{
	const struct row *rows = snap->cgroup_rows;
	size_t n = snap->ncgroup_rows, nsorted = 0;
	long *last;

	l->sorted = xgrow(l->sorted, &l->capsorted, n + 1, sizeof(*l->sorted));
	if (n + 1 > l->capnodes) {
		l->capnodes = n + 1;
		l->first = xrealloc(l->first, l->capnodes * sizeof(*l->first));
		l->next = xrealloc(l->next, l->capnodes * sizeof(*l->next));
		l->shown = xrealloc(l->shown, l->capnodes);
	}
	mark_shown(l, rows, n, spec);
	for (size_t i = 0; i < n; i++)
		if (l->shown[i])
			l->sorted[nsorted++] = &rows[i];
	order_sort_in(&l->sort, l->sorted, nsorted, spec->sort_col, spec->reverse, &spec->display);
	/* children lists in the sorted order: append each row to its parent's list */
	last = xmalloc((n + 1) * sizeof(*last));
	for (size_t i = 0; i < n; i++)
		l->first[i] = l->next[i] = last[i] = -1;
	for (size_t k = 0; k < nsorted; k++) {
		long i = (long)(l->sorted[k] - rows), p = rows[i].parent;

		if (p < 0)
			continue;
		if (last[p] < 0)
			l->first[p] = i;
		else
			l->next[last[p]] = i;
		last[p] = i;
	}
	free(last);
	for (size_t k = 0; k < nsorted; k++) {
		long i = (long)(l->sorted[k] - rows);

		if (rows[i].parent < 0 || !l->shown[rows[i].parent])
			emit(l, rows, i, spec); /* a root of what is shown */
	}
}

void listing_build(struct listing *l, const struct snapshot *snap, const struct listing_spec *spec)
{
	size_t nrows = !snap ? 0 : spec->display.cgroups ? snap->ncgroup_rows : snap->nrows;

	l->rows = xgrow(l->rows, &l->cap, nrows + 1, sizeof(*l->rows));
	l->folded = xgrow(l->folded, &l->capfolded, nrows + 1, sizeof(*l->folded));
	l->n = 0;
	if (snap && spec->display.cgroups) {
		build_tree(l, snap, spec);
		return;
	}
	for (size_t i = 0; i < nrows; i++)
		if (filter_match(&spec->filter, &snap->rows[i], &spec->display)) {
			l->folded[l->n] = 0;
			l->rows[l->n++] = &snap->rows[i];
		}
	order_sort_in(&l->sort, l->rows, l->n, spec->sort_col, spec->reverse, &spec->display);
}

void listing_free(struct listing *l)
{
	free(l->rows);
	free(l->folded);
	free(l->sorted);
	free(l->first);
	free(l->next);
	free(l->shown);
	order_buf_free(&l->sort);
	memset(l, 0, sizeof(*l));
}

unsigned listing_wants(const struct listing_spec *spec)
{
	int sort = spec->sort_col;
	unsigned wants = 0;

	if (column_acct_shown(&spec->display) || (sort >= COL_ACCT && sort < COL_ACCT + AF_COUNT))
		wants |= WANT_ACCT;
	if (spec->display.metric == METRIC_MAX || column_shown(&spec->display, COL_MAX_AT) || sort == COL_MAX_AT)
		wants |= WANT_PEAKS;
	return wants;
}
