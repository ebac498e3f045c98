/* listing.c — filtering and sorting a snapshot's rows: flat, as the cgroup tree or the process
 * tree, or summed per command name (rollup.c). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
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

/* Appends row i and, unless it is folded (a cgroup), its children in their sorted order. */
static void emit(struct listing *l, const struct row *rows, long i, const struct listing_spec *spec)
{
	int folded = rows[i].cg && is_folded(spec, rows[i].cgroup) && l->first[i] >= 0;

	l->rows[l->n] = &rows[i];
	l->folded[l->n++] = (uint8_t)folded;
	if (folded)
		return;
	for (long c = l->first[i]; c >= 0; c = l->next[c])
		emit(l, rows, c, spec);
}

/* A tree of rows (each with its parent's index in parent), siblings in the sort order. */
static void build_tree(struct listing *l, const struct row *rows, size_t n, const struct listing_spec *spec)
{
	size_t nsorted = 0;
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

/* ---- the process tree ---- */

struct pid_index {
	uint32_t pid, idx;
};

static int by_pid(const void *a, const void *b)
{
	uint32_t x = ((const struct pid_index *)a)->pid, y = ((const struct pid_index *)b)->pid;

	return x < y ? -1 : x > y;
}

/* How deep row i is, or -1 when its ancestors loop (pids reused within the tree). */
static int depth_of(const struct row *rows, size_t n, size_t i)
{
	int d = 0;

	for (long at = rows[i].parent; at >= 0; at = rows[at].parent)
		if ((size_t)++d > n)
			return -1;
	return d;
}

/* Links each row to its parent's: the row of its parent pid that did not end before the interval
 * (a departed one's pid may be another process's now). A link that closes a loop is cut. */
static void link_parents(struct listing *l, struct row *rows, size_t n)
{
	size_t m = 0;

	l->bypid = xgrow(l->bypid, &l->capbypid, n + 1, sizeof(*l->bypid));
	for (size_t i = 0; i < n; i++)
		if (!rows[i].departed)
			l->bypid[m++] = (struct pid_index){ rows[i].pid, (uint32_t)i };
	qsort(l->bypid, m, sizeof(*l->bypid), by_pid);
	for (size_t i = 0; i < n; i++) {
		struct pid_index key = { rows[i].ppid, 0 }, *hit;

		rows[i].parent = -1;
		if (rows[i].departed || !rows[i].ppid || rows[i].ppid == rows[i].pid)
			continue;
		hit = bsearch(&key, l->bypid, m, sizeof(*l->bypid), by_pid);
		if (hit)
			rows[i].parent = hit->idx;
	}
	for (size_t i = 0; i < n; i++)
		if (depth_of(rows, n, i) < 0)
			rows[i].parent = -1;
	for (size_t i = 0; i < n; i++)
		rows[i].depth = depth_of(rows, n, i);
}

/* Each row's numbers become its subtree's: from the deepest rows up, each adds what it has (its
 * own and, by then, its descendants') to its parent. */
static void sum_subtrees(struct listing *l, struct row *rows, size_t n)
{
	int deepest = 0;
	uint8_t *parent = xcalloc(n + 1, 1); /* has children in the tree */

	l->sums = xgrow(l->sums, &l->capsums, n + 1, sizeof(*l->sums));
	for (size_t i = 0; i < n; i++) {
		if (rows[i].acc)
			l->sums[i] = *rows[i].acc;
		else
			memset(&l->sums[i], 0, sizeof(l->sums[i]));
		rows[i].acc = &l->sums[i];
		if (rows[i].depth > deepest)
			deepest = rows[i].depth;
	}
	for (int d = deepest; d > 0; d--)
		for (size_t i = 0; i < n; i++) {
			long p = rows[i].parent;

			if (rows[i].depth != d || p < 0)
				continue;
			if (!rows[i].fresh)
				rates_add(&rows[p].r, &rows[i].r);
			totals_add(&l->sums[p], &l->sums[i]);
			rows[p].nthreads += rows[i].nthreads;
			parent[p] = 1;
		}
	for (size_t i = 0; i < n; i++)
		if (parent[i])
			rates_finish_sum(&rows[i].r);
	free(parent);
}

/* Process rows as a tree of parents and children, on copies of the rows. */
static void build_process_tree(struct listing *l, const struct snapshot *snap,
			       const struct listing_spec *spec)
{
	size_t n = snap->nrows;

	l->copies = xgrow(l->copies, &l->capcopies, n + 1, sizeof(*l->copies));
	memcpy(l->copies, snap->rows, n * sizeof(*l->copies));
	link_parents(l, l->copies, n);
	if (spec->display.tree_sums)
		sum_subtrees(l, l->copies, n);
	build_tree(l, l->copies, n, spec);
}

/* The task rows that pass the filter, summed per command name. */
static void build_commands(struct listing *l, const struct snapshot *snap, const struct listing_spec *spec)
{
	size_t m = 0, n;

	l->sorted = xgrow(l->sorted, &l->capsorted, snap->nrows + 1, sizeof(*l->sorted));
	for (size_t i = 0; i < snap->nrows; i++)
		if (filter_match(&spec->filter, &snap->rows[i], &spec->display))
			l->sorted[m++] = &snap->rows[i];
	n = rollup_build(&l->commands, l->sorted, m);
	for (size_t i = 0; i < n; i++) {
		l->folded[i] = 0;
		l->rows[i] = &l->commands.rows[i];
	}
	l->n = n;
	order_sort_in(&l->sort, l->rows, l->n, spec->sort_col, spec->reverse, &spec->display);
}

const char *listing_rows_text(const struct display *d)
{
	if (d->cgroups)
		return _("cgroups");
	if (d->commands)
		return d->threads ? _("threads summed by command") : _("processes summed by command");
	if (d->threads)
		return _("threads");
	if (d->tree)
		return d->tree_sums ? _("processes as a tree, subtrees summed") : _("processes as a tree");
	return _("processes");
}

int listing_cgroups_flat(const struct snapshot *snap)
{
	for (size_t i = 0; i < snap->nrows; i++) {
		const char *c = snap->rows[i].cgroup;

		if (c && !(c[0] == '/' && c[1] == '\0'))
			return 0;
	}
	return 1;
}

int listing_hierarchy_note(const struct snapshot *snap, const struct display *d, int flat_too, struct outbuf *o)
{
	if (!snap->cgroup_mount || !(d->cgroups || (flat_too && snap->cgroup_hybrid && d->flat_cgroups)))
		return 0;
	if (snap->cgroup_hybrid)
		out_printf(o, F_(N_("cgroup v2 at %s (v1 controllers not followed)")), snap->cgroup_mount);
	else
		out_printf(o, F_(N_("cgroup %s at %s")), snap->cgroup_v2 ? "v2" : "v1", snap->cgroup_mount);
	return 1;
}

void listing_build(struct listing *l, const struct snapshot *snap, const struct listing_spec *spec)
{
	size_t nrows = !snap ? 0 : spec->display.cgroups ? snap->ncgroup_rows : snap->nrows;

	l->rows = xgrow(l->rows, &l->cap, nrows + 1, sizeof(*l->rows));
	l->folded = xgrow(l->folded, &l->capfolded, nrows + 1, sizeof(*l->folded));
	l->n = 0;
	if (snap && spec->display.cgroups) {
		build_tree(l, snap->cgroup_rows, snap->ncgroup_rows, spec);
		return;
	}
	if (snap && spec->display.commands) {
		build_commands(l, snap, spec);
		return;
	}
	if (snap && spec->display.tree && !spec->display.threads) {
		build_process_tree(l, snap, spec);
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
	free(l->copies);
	free(l->sums);
	free(l->bypid);
	rollup_free(&l->commands);
	order_buf_free(&l->sort);
	memset(l, 0, sizeof(*l));
}

int listing_uses_column(const struct listing_spec *spec, int id)
{
	return spec->sort_col == id || column_shown(&spec->display, id);
}

unsigned listing_wants(const struct listing_spec *spec)
{
	unsigned wants = 0;

	if (column_acct_shown(&spec->display) || column_acct(spec->sort_col) >= 0)
		wants |= WANT_ACCT;
	if (spec->display.metric == METRIC_MAX || listing_uses_column(spec, COL_MAX_AT))
		wants |= WANT_PEAKS;
	return wants;
}

int listing_reads_totals(const struct listing_spec *spec)
{
	return spec->display.accumulate || listing_uses_column(spec, COL_MAX_AT);
}
