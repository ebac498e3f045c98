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

/* The tasks' order: by name, then pid, tid, start and departed, whatever order they came in. */
static int by_name(const void *pa, const void *pb)
{
	const struct row *a = *(const struct row *const *)pa, *b = *(const struct row *const *)pb;
	int c = strcmp(name_of(a), name_of(b));

	if (c)
		return c;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	return (int)a->departed - (int)b->departed;
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
	ru->sorted = xgrow(ru->sorted, &ru->capsorted, n + 1, sizeof(*ru->sorted));
	ru->rows = xgrow(ru->rows, &ru->cap, n + 1, sizeof(*ru->rows));
	ru->sums = xgrow(ru->sums, &ru->capsums, n + 1, sizeof(*ru->sums));
	ru->rated = xgrow(ru->rated, &ru->caprated, n + 1, sizeof(*ru->rated));
	memcpy(ru->sorted, tasks, n * sizeof(*tasks));
	qsort(ru->sorted, n, sizeof(*ru->sorted), by_name);
	for (size_t i = 0; i < n; i++) {
		const struct row *t = ru->sorted[i], *prev = i ? ru->sorted[i - 1] : NULL;
		size_t at;

		if (prev && strcmp(name_of(prev), name_of(t)) != 0)
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
	free(ru->sorted);
	free(ru->sums);
	free(ru->rated);
	memset(ru, 0, sizeof(*ru));
}
