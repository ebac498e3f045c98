/* rollup.c — task rows summed per command name. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "rollup.h"
#include "xalloc.h"

static const char *name_of(const struct row *r)
{
	return r->comm ? r->comm : "?";
}

/* A task as the roll-up orders it: its name's rank among the names, then its ids. */
struct rollup_key {
	uint32_t rank, pid, tid;
	uint8_t departed;
	uint64_t start_ns;
	const struct row *r;
};

/* A distinct name and the index it was met at. */
struct rollup_name {
	const char *s;
	uint32_t first;
};

/* The tasks' order: by name, then pid, tid, start and departed, whatever order they came in. */
static int by_key(const void *pa, const void *pb)
{
	const struct rollup_key *a = pa, *b = pb;

	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	return (int)a->departed - (int)b->departed;
}

static int by_text(const void *pa, const void *pb)
{
	return strcmp(((const struct rollup_name *)pa)->s, ((const struct rollup_name *)pb)->s);
}

static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* The tasks' keys into ru->keys, sorted: each name is found once through a hash of the names
 * (a snapshot's rows do not share their strings) and ranked by one sort of the distinct names, so
 * that the tasks then sort by numbers alone. */
static void order_tasks(struct rollup *ru, const struct row *const *tasks, size_t n)
{
	size_t cap = 16, nd = 0;
	int32_t *slot;
	uint32_t *rank;

	while (cap < 2 * n)
		cap <<= 1;
	slot = xmalloc(cap * sizeof(*slot));
	memset(slot, 0xff, cap * sizeof(*slot)); /* -1: empty */
	ru->names = xgrow(ru->names, &ru->capnames, n + 1, sizeof(*ru->names));
	for (size_t i = 0; i < n; i++) {
		const char *s = name_of(tasks[i]);
		size_t h = (size_t)name_hash(s) & (cap - 1);

		while (slot[h] >= 0 && strcmp(ru->names[slot[h]].s, s) != 0)
			h = (h + 1) & (cap - 1);
		if (slot[h] < 0) {
			ru->names[nd] = (struct rollup_name){ s, (uint32_t)nd };
			slot[h] = (int32_t)nd++;
		}
		ru->keys[i] = (struct rollup_key){ .rank = (uint32_t)slot[h], .pid = tasks[i]->pid, .tid = tasks[i]->tid,
						   .departed = tasks[i]->departed, .start_ns = tasks[i]->start_ns,
						   .r = tasks[i] };
	}
	free(slot);
	qsort(ru->names, nd, sizeof(*ru->names), by_text);
	rank = xmalloc((nd + 1) * sizeof(*rank));
	for (size_t k = 0; k < nd; k++)
		rank[ru->names[k].first] = (uint32_t)k;
	for (size_t i = 0; i < n; i++)
		ru->keys[i].rank = rank[ru->keys[i].rank];
	free(rank);
	qsort(ru->keys, n, sizeof(*ru->keys), by_key);
}

/* A command's row before any task is added: nothing known, no rates. */
static void start_row(struct row *r, const struct row *first)
{
	memset(r, 0, sizeof(*r));
	row_fields_none(&r->fields);
	r->parent = -1;
	r->comm = name_of(first);
	r->user = first->user;
	r->uid = first->uid;
	r->exited = r->fresh = r->departed = 1;
	rates_unavailable(&r->r);
}

/* Adds task t (the next of its name in the tasks' order; prev the one before, or NULL) to its
 * command's row r, whose rates sum *rated tasks so far, and its totals since the start to sum. */
static void add_task(struct row *r, uint32_t *rated, struct kind_totals *sum, const struct row *t,
		     const struct row *prev)
{
	if (!prev || t->tid == 0 || t->pid != prev->pid)
		r->procs++; /* a process row, or a thread of a process not counted yet */
	r->nthreads += t->nthreads;
	if (t->uid != r->uid) {
		r->user = ROLLUP_USERS;
		r->uid = ROLLUP_UID_SEVERAL;
	}
	r->exited &= t->exited;
	r->fresh &= t->fresh;
	r->departed &= t->departed;
	r->partial |= t->partial;
	if (!t->fresh && !t->departed) { /* only these have rates of the interval */
		if (!(*rated)++) {
			r->r = t->r; /* one task's numbers are its own, its average wait too */
		} else {
			rates_add(&r->r, &t->r);
			r->r.carried |= t->r.carried;
		}
	}
	if (t->acc) {
		totals_add(sum, t->acc);
		r->acc = sum;
	}
}

size_t rollup_build(struct rollup *ru, const struct row *const *tasks, size_t n)
{
	ru->n = 0;
	ru->keys = xgrow(ru->keys, &ru->capkeys, n + 1, sizeof(*ru->keys));
	ru->rows = xgrow(ru->rows, &ru->cap, n + 1, sizeof(*ru->rows));
	ru->sums = xgrow(ru->sums, &ru->capsums, n + 1, sizeof(*ru->sums));
	ru->rated = xgrow(ru->rated, &ru->caprated, n + 1, sizeof(*ru->rated));
	order_tasks(ru, tasks, n);
	for (size_t i = 0; i < n; i++) {
		const struct row *t = ru->keys[i].r, *prev = i ? ru->keys[i - 1].r : NULL;
		size_t at;

		if (prev && ru->keys[i - 1].rank != ru->keys[i].rank)
			prev = NULL; /* the first of another name */
		if (!prev) {
			start_row(&ru->rows[ru->n], t);
			memset(&ru->sums[ru->n], 0, sizeof(ru->sums[0]));
			ru->rated[ru->n++] = 0;
		}
		at = ru->n - 1;
		add_task(&ru->rows[at], &ru->rated[at], &ru->sums[at], t, prev);
	}
	for (size_t i = 0; i < ru->n; i++)
		if (ru->rated[i] > 1)
			rates_finish_sum(&ru->rows[i].r);
	return ru->n;
}

void rollup_free(struct rollup *ru)
{
	free(ru->rows);
	free(ru->keys);
	free(ru->names);
	free(ru->sums);
	free(ru->rated);
	memset(ru, 0, sizeof(*ru));
}
