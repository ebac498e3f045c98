/* cgtree.c — the cgroup view's rows. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cgpath.h"
#include "cgtree.h"
#include "xalloc.h"

/* The paths of the tree while it is built: borrowed ones, and parents made up for tasks whose
 * cgroup appeared after the walk. */
struct pathset {
	const char **p;
	size_t n, cap;
	char **made;
	size_t nmade, capmade;
};

static void pathset_add(struct pathset *s, const char *path)
{
	s->p = xgrow(s->p, &s->cap, s->n + 1, sizeof(*s->p));
	s->p[s->n++] = path;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The index of path among the sorted paths, or -1. */
static long find(const char *const *p, size_t n, const char *path)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(p[mid], path);

		if (c == 0)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* The parent path of path into buf ("/a/b" -> "/a", "/a" -> "/"). */
static void parent_of(const char *path, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');
	size_t len = slash && slash != path ? (size_t)(slash - path) : 1;

	if (len >= size)
		len = size - 1;
	memcpy(buf, path, len);
	buf[len] = '\0';
}

/* Adds a task's cgroup and every ancestor below the root that the walk did not see. */
static void add_task_path(struct pathset *s, const char *path, const char *root, const struct cgroup_facts *facts,
			  size_t nfacts)
{
	char buf[CGROUP_PATH_MAX], up[CGROUP_PATH_MAX];

	for (const char *p = path; strcmp(p, root) != 0;) {
		size_t lo = 0, hi = nfacts;
		int found = 0;

		while (lo < hi && !found) { /* facts are sorted: a binary search */
			size_t mid = (lo + hi) / 2;
			int c = strcmp(facts[mid].path, p);

			found = c == 0;
			if (c < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (found)
			return; /* it and its ancestors are there */
		if (p == path) {
			pathset_add(s, p);
		} else {
			s->made = xgrow(s->made, &s->capmade, s->nmade + 1, sizeof(*s->made));
			s->made[s->nmade] = xstrdup(p);
			pathset_add(s, s->made[s->nmade++]);
		}
		parent_of(p, up, sizeof(up));
		if (strlen(up) < strlen(root))
			return;
		memcpy(buf, up, strlen(up) + 1);
		p = buf;
	}
}

/* ---- sums ---- */

/* A cgroup whose tasks did not wait, or that has none, waited 0, not an unknown time: where the
 * root of the tree knows a number (some task had it), the cgroup's is 0 rather than NAN. */
static void zero_where_known(struct task_rates *r, const struct task_rates *root)
{
	for (int k = 0; k < DK_COUNT; k++) {
		if (!isnan(r->kind[k].pct) || isnan(root->kind[k].pct))
			continue; /* some task gave it, or none could */
		r->kind[k].pct = 0;
		if (!isnan(root->kind[k].per_s))
			r->kind[k].per_s = 0;
	}
	if (isnan(r->run_pct) && !isnan(root->run_pct))
		r->run_pct = 0;
	if (isnan(r->total_pct) && !isnan(root->total_pct))
		r->total_pct = 0;
}

static void add_node(struct cgroup_node *sum, const struct cgroup_node *n)
{
	sum->tasks += n->tasks;
	sum->procs += n->procs;
	for (int s = 0; s < CG_STATES; s++)
		sum->states[s] += n->states[s];
	sum->states_have |= n->states_have;
	totals_add(&sum->acc, &n->acc);
}

/* Adds a task row to its node: its interval rates (a first reading has none; a departed task
 * only its totals), whether it is alive, and its threads' states. */
static void add_task(struct cgroup_node *node, struct row *nrow, const struct row *r, int states_from_tasks)
{
	if (r->acc)
		totals_add(&node->acc, r->acc);
	if (!r->fresh && !r->departed)
		rates_add(&nrow->r, &r->r);
	if (r->exited || r->departed)
		return;
	node->tasks += r->nthreads ? r->nthreads : 1;
	node->procs++;
	if (states_from_tasks && r->have_states) {
		for (int s = 0; s < CG_STATES; s++)
			node->states[s] += r->states[s];
		node->states_have |= (kind_mask)((1u << CG_STATES) - 1) & ~(kind_mask)(1u << CG_IOWAIT);
	}
}

/* ---- building ---- */

static void init_node(struct cgtree *t, size_t i, const char *path, const struct cgroup_facts *facts,
		      size_t nfacts, int states_from_tasks)
{
	struct cgroup_node *n = &t->nodes[i];
	struct row *r = &t->rows[i];
	long f = -1;
	const char *slash = strrchr(path, '/');

	memset(n, 0, sizeof(*n));
	for (size_t lo = 0, hi = nfacts; lo < hi;) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(facts[mid].path, path);

		if (c == 0) {
			f = (long)mid;
			break;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	n->facts = f >= 0 ? &facts[f] : NULL;
	n->path = path;
	n->name = slash && slash[1] ? slash + 1 : path;
	if (n->facts && n->facts->have_states && !states_from_tasks) {
		memcpy(n->states, n->facts->states, sizeof(n->states));
		n->states_have = (kind_mask)((1u << CG_STATES) - 1);
	}
	memset(r, 0, sizeof(*r));
	rates_unavailable(&r->r);
	r->state = '?';
	r->user = "-";
	r->comm = n->name;
	r->cgroup = path;
	r->cg = n;
	r->acc = &n->acc;
	r->identity_uid = n->facts ? n->facts->identity_uid : 0;
}

/* The task rows in an order of their own, not of the table they came from, so that the sums of
 * rates (floats, whose sums depend on their order) come out the same from a live reading and
 * from its recording. */
static int by_identity(const void *a, const void *b)
{
	const struct row *x = *(const struct row *const *)a, *y = *(const struct row *const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	if (x->departed != y->departed)
		return x->departed < y->departed ? -1 : 1;
	return strcmp(x->comm ? x->comm : "", y->comm ? y->comm : "");
}

static void sum_order(struct cgtree *tree, const struct row *rows, size_t nrows)
{
	tree->order = xgrow(tree->order, &tree->caporder, nrows ? nrows : 1, sizeof(*tree->order));
	for (size_t i = 0; i < nrows; i++)
		tree->order[i] = &rows[i];
	qsort(tree->order, nrows, sizeof(*tree->order), by_identity);
}

size_t cgtree_build(struct cgtree *tree, const struct cgroup_facts *facts, size_t nfacts, const struct row *rows,
		    size_t nrows, int states_from_tasks)
{
	struct pathset s = { 0 };
	const char *root;
	size_t n = 0;
	int any_states = 0;

	tree->n = 0;
	if (nfacts == 0)
		return 0;
	root = facts[0].path;
	for (size_t i = 0; i < nfacts; i++)
		pathset_add(&s, facts[i].path);
	for (size_t i = 0; i < nrows; i++)
		if (rows[i].cgroup && cgpath_within(rows[i].cgroup, root))
			add_task_path(&s, rows[i].cgroup, root, facts, nfacts);
	qsort(s.p, s.n, sizeof(*s.p), by_path);
	for (size_t i = 0; i < s.n; i++) /* unique */
		if (n == 0 || strcmp(s.p[n - 1], s.p[i]) != 0)
			s.p[n++] = s.p[i];
	tree->nodes = xgrow(tree->nodes, &tree->cap, n, sizeof(*tree->nodes));
	tree->rows = xgrow(tree->rows, &tree->caprows, n, sizeof(*tree->rows));
	for (size_t i = 0; i < n; i++) {
		char parent[CGROUP_PATH_MAX];

		init_node(tree, i, s.p[i], facts, nfacts, states_from_tasks);
		parent_of(s.p[i], parent, sizeof(parent));
		tree->nodes[i].parent = i == 0 ? -1 : find(s.p, n, parent);
		if (i > 0 && tree->nodes[i].parent < 0)
			tree->nodes[i].parent = 0; /* cannot happen: every path's ancestors were added */
		tree->nodes[i].depth = i == 0 ? 0 : tree->nodes[tree->nodes[i].parent].depth + 1;
		tree->rows[i].depth = tree->nodes[i].depth;
		tree->rows[i].parent = tree->nodes[i].parent;
	}
	sum_order(tree, rows, nrows);
	for (size_t k = 0; k < nrows; k++) {
		const struct row *r = tree->order[k];
		long at = r->cgroup && cgpath_within(r->cgroup, root) ? find(s.p, n, r->cgroup) : -1;

		if (at < 0)
			continue;
		add_task(&tree->nodes[at], &tree->rows[at], r, states_from_tasks);
		if (!tree->nodes[at].facts && !r->departed && r->identity_uid)
			tree->rows[at].identity_uid = r->identity_uid; /* not walked: its tasks tell */
	}
	for (size_t i = n; i-- > 1;) { /* children sort after their parents: sums go up */
		long p = tree->nodes[i].parent;

		add_node(&tree->nodes[p], &tree->nodes[i]);
		rates_add(&tree->rows[p].r, &tree->rows[i].r);
	}
	for (size_t i = 0; i < nrows && states_from_tasks && !any_states; i++)
		any_states = rows[i].have_states;
	for (size_t i = 0; i < n; i++) {
		rates_finish_sum(&tree->rows[i].r);
		zero_where_known(&tree->rows[i].r, &tree->rows[0].r);
		if (any_states) /* a cgroup without tasks has 0 in each state */
			tree->nodes[i].states_have = (kind_mask)((1u << CG_STATES) - 1) & ~(kind_mask)(1u << CG_IOWAIT);
		tree->rows[i].nthreads = tree->nodes[i].tasks;
	}
	tree->n = n;
	/* made-up paths live in the tree: keep them until the next build */
	for (size_t i = 0; i < tree->nmade; i++)
		free(tree->made[i]);
	free(tree->made);
	tree->made = s.made;
	tree->nmade = s.nmade;
	free(s.p);
	return n;
}

/* The node of a path, by the nodes' paths (sorted, as the tree was built), or -1. */
static long find_node(const struct cgtree *tree, const char *path)
{
	size_t lo = 0, hi = tree->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(tree->nodes[mid].path, path);

		if (c == 0)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Adds what a task (or a node below) waited and lacks to node i: a kind is lacking only where
 * every task lacks it. */
static void add_latency(struct cgtree *tree, size_t i, const struct lat_hist *from, lat_mask kinds,
			lat_mask lack, int from_dense)
{
	struct lat_waits *w = &tree->latw[i];
	struct lat_hist *sum = &tree->lat[i * LAT_KINDS];
	lat_mask got = w->kinds;

	if (from_dense) {
		for (int k = 0; k < LAT_KINDS; k++)
			if (kinds & (1u << k))
				lat_add(&sum[k], &from[k]);
		got |= kinds;
	} else {
		struct lat_waits one = { .kinds = kinds, .h = from };

		lat_waits_add(sum, &got, &one);
	}
	w->kinds = got;
	w->unavail = tree->lat_tasks[i] ? (lat_mask)(w->unavail & lack) : lack;
	tree->lat_tasks[i] = 1;
}

void cgtree_sum_latency(struct cgtree *tree, const struct row *rows, size_t nrows)
{
	size_t n = tree->n;

	if (!n)
		return;
	tree->lat = xgrow(tree->lat, &tree->caplat, n * LAT_KINDS, sizeof(*tree->lat));
	tree->latw = xgrow(tree->latw, &tree->caplatw, n, sizeof(*tree->latw));
	tree->lat_tasks = xgrow(tree->lat_tasks, &tree->caplat_tasks, n, sizeof(*tree->lat_tasks));
	memset(tree->lat, 0, n * LAT_KINDS * sizeof(*tree->lat));
	memset(tree->latw, 0, n * sizeof(*tree->latw));
	memset(tree->lat_tasks, 0, n * sizeof(*tree->lat_tasks));
	for (size_t i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		long at = r->cgroup && cgpath_within(r->cgroup, tree->nodes[0].path) ? find_node(tree, r->cgroup) : -1;

		if (at >= 0)
			add_latency(tree, (size_t)at, r->lat ? r->lat->h : NULL, r->lat ? r->lat->kinds : 0,
				    r->lat ? r->lat->unavail : 0, 0);
	}
	for (size_t i = n; i-- > 1;) /* children sort after their parents: sums go up */
		if (tree->lat_tasks[i])
			add_latency(tree, (size_t)tree->nodes[i].parent, &tree->lat[i * LAT_KINDS], tree->latw[i].kinds,
				    tree->latw[i].unavail, 1);
	for (size_t i = 0; i < n; i++) {
		struct lat_waits *w = &tree->latw[i];

		lat_compact(&tree->lat[i * LAT_KINDS], w->kinds);
		w->h = &tree->lat[i * LAT_KINDS];
		tree->rows[i].lat = w->kinds || w->unavail ? w : NULL;
	}
}

void cgtree_free(struct cgtree *tree)
{
	for (size_t i = 0; i < tree->nmade; i++)
		free(tree->made[i]);
	free(tree->made);
	free(tree->nodes);
	free(tree->rows);
	free(tree->order);
	free(tree->lat);
	free(tree->latw);
	free(tree->lat_tasks);
	memset(tree, 0, sizeof(*tree));
}
