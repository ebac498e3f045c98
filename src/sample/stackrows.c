/* stackrows.c — off-CPU stacks given to rows, frames named (see stackrows.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "stackrows.h"
#include "xalloc.h"

#define GROW(ptr, cap, need)                                                                                 \
	do {                                                                                                 \
		if ((need) > (cap)) {                                                                        \
			(cap) = (need) * 2;                                                                  \
			(ptr) = xrealloc((ptr), (cap) * sizeof(*(ptr)));                                     \
		}                                                                                            \
	} while (0)

static const struct stk_batch *order_batch; /* qsort has no argument: set for one sort */

/* By id, then time descending, then count descending, then position. */
static int by_id_time(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct stk_entry *x = &order_batch->e[i], *y = &order_batch->e[j];

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return i < j ? -1 : i > j;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The first of idx[0..n) whose entry has id, or n. */
static size_t first_of(const struct stk_batch *b, const size_t *idx, size_t n, uint32_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->e[idx[mid]].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Appends a name to the pool; its offset. */
static size_t keep_name(struct stackrows *sr, const char *name)
{
	size_t len = strlen(name) + 1, at = sr->lennames;

	GROW(sr->names, sr->capnames, sr->lennames + len);
	memcpy(sr->names + at, name, len);
	sr->lennames += len;
	return at;
}

/* The frames of entry e as offsets into the pool, appended to sr->frames from *nf on; the
 * kernel's (a lost one's mark too) into *nk. */
static void name_frames(struct stackrows *sr, const struct stk_batch *b, const struct stk_entry *e, size_t *nf,
			size_t *nk, stk_namer name, void *arg)
{
	size_t n = (size_t)e->nk + e->nu + (e->klost ? 1 : 0) + (e->ulost ? 1 : 0), first = *nf;
	char buf[512];

	GROW(sr->frames, sr->capframes, *nf + n);
	if (e->klost)
		sr->frames[(*nf)++] = (const char *)(uintptr_t)keep_name(sr, "[kernel stack lost]");
	for (size_t i = 0, lead = 1; i < e->nk; i++) {
		const char *fname = name(arg, e->tgid, b->pc[e->at + i], 0, buf, sizeof(buf));

		if (lead && stk_tracing_frame(fname))
			continue;
		lead = 0;
		sr->frames[(*nf)++] = (const char *)(uintptr_t)keep_name(sr, fname);
	}
	*nk = *nf - first;
	if (e->ulost)
		sr->frames[(*nf)++] = (const char *)(uintptr_t)keep_name(sr, "[user stack lost]");
	for (size_t i = 0; i < e->nu; i++)
		sr->frames[(*nf)++] = (const char *)(uintptr_t)keep_name(
			sr, name(arg, e->tgid, b->pc[e->at + e->nk + i], 1, buf, sizeof(buf)));
}

void stackrows_name(struct stackrows *sr, const struct stk_batch *b, const uint32_t *ids, size_t nids,
		    stk_namer name, void *arg)
{
	size_t nstacks = 0, nframes = 0;

	sr->lennames = 0;
	GROW(sr->idx, sr->capidx, b->n + 1);
	for (size_t i = 0; i < b->n; i++)
		sr->idx[i] = i;
	order_batch = b;
	if (b->n) /* qsort takes no NULL, even for nothing */
		qsort(sr->idx, b->n, sizeof(*sr->idx), by_id_time);
	order_batch = NULL;
	GROW(sr->ids, sr->capids, nids + 1);
	GROW(sr->lists, sr->caplists, nids + 1);
	GROW(sr->stacks, sr->capstacks, nids * STK_TOP + 1);
	if (nids)
		memcpy(sr->ids, ids, nids * sizeof(*ids));
	sr->nids = nids;
	/* first pass: the stacks, with their frames' names as offsets into the pool and their first
	 * frame's index in place of the pointer */
	for (size_t l = 0; l < nids; l++) {
		size_t at;

		sr->lists[l].n = 0;
		sr->lists[l].s = (const struct stk_stack *)(uintptr_t)nstacks;
		for (at = first_of(b, sr->idx, b->n, ids[l]); at < b->n && b->e[sr->idx[at]].id == ids[l]; at++) {
			const struct stk_entry *e = &b->e[sr->idx[at]];
			struct stk_stack *s;

			if (sr->lists[l].n == STK_TOP)
				break;
			s = &sr->stacks[nstacks++];
			s->ms = e->ns / 1e6;
			s->count = e->count;
			s->state = e->state;
			s->frames = (const char *const *)(uintptr_t)nframes;
			name_frames(sr, b, e, &nframes, &s->nkernel, name, arg);
			s->nframes = nframes - (size_t)(uintptr_t)s->frames;
			sr->lists[l].n++;
		}
	}
	/* second pass: the offsets become pointers, the pools no longer moving */
	for (size_t i = 0; i < nframes; i++)
		sr->frames[i] = sr->names + (uintptr_t)sr->frames[i];
	for (size_t i = 0; i < nstacks; i++)
		sr->stacks[i].frames = sr->frames + (uintptr_t)sr->stacks[i].frames;
	for (size_t i = 0; i < nids; i++)
		sr->lists[i].s = sr->stacks + (uintptr_t)sr->lists[i].s;
}

void stackrows_give(const struct stackrows *sr, struct row *rows, size_t nrows, int threads)
{
	for (size_t r = 0; r < nrows; r++) {
		uint32_t id = threads ? rows[r].tid : rows[r].pid;
		const uint32_t *at = NULL;

		if (!rows[r].departed && sr->nids)
			at = bsearch(&id, sr->ids, sr->nids, sizeof(*sr->ids), cmp_u32);
		rows[r].stacks = at ? &sr->lists[at - sr->ids] : NULL;
	}
}

void stackrows_attach(struct stackrows *sr, const struct stk_batch *b, struct row *rows, size_t nrows,
		      int threads, const uint32_t *sel, size_t nsel, stk_namer name, void *arg)
{
	stackrows_name(sr, b, sel, nsel, name, arg);
	stackrows_give(sr, rows, nrows, threads);
}

void stackrows_free(struct stackrows *sr)
{
	free(sr->lists);
	free(sr->stacks);
	free(sr->frames);
	free(sr->names);
	free(sr->idx);
	free(sr->ids);
	memset(sr, 0, sizeof(*sr));
}
