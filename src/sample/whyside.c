/* whyside.c — the sampler's side of --why: the eBPF side followed (loaded, read, unloaded), the
 * interval's waits and the snapshot's word on them, and the off-CPU stacks of the chosen tasks:
 * which are chosen for each interval, taken, named and given to their rows. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "kernelops.h"
#include "whyside.h"
#include "xalloc.h"

void whyside_init(struct whyside *w, struct kernel *k, const struct sampler_opts *o)
{
	w->k = k;
	w->o = o;
	stallwatch_init(&w->stall, o->stall_triggers, o->why_stacks ? o->nstall_triggers : 0);
}

void whyside_free(struct whyside *w)
{
	lat_batch_free(&w->lat);
	latrows_free(&w->latrows);
	stackrows_free(&w->stackrows);
	free(w->sel);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Whether off-CPU stacks are taken: asked for, and the kernel edge has them. */
static int stacks_wanted(const struct whyside *w)
{
	return w->o->why && w->o->why_stacks && w->k->ops->why_select;
}

/* The ids whose stacks are taken from now on. */
static void stacks_select(struct whyside *w, const uint32_t *ids, size_t n)
{
	if (n > STK_SELECT_MAX)
		n = STK_SELECT_MAX;
	if (n > w->capsel) {
		w->capsel = 2 * n;
		w->sel = xrealloc(w->sel, w->capsel * sizeof(*w->sel));
	}
	if (n) { /* memcpy and qsort take no NULL, even for nothing */
		size_t kept = 1;

		memcpy(w->sel, ids, n * sizeof(*ids));
		qsort(w->sel, n, sizeof(*w->sel), cmp_u32);
		for (size_t i = 1; i < n; i++) /* each once: chosen and stalled too */
			if (w->sel[i] != w->sel[kept - 1])
				w->sel[kept++] = w->sel[i];
		n = kept;
	}
	w->nsel = n;
	w->k->ops->why_select(w->k, w->sel, n, w->o->threads);
}

static const char *name_frame(void *arg, uint32_t tgid, uint64_t addr, int user, char *buf, size_t size)
{
	struct whyside *w = arg;

	return w->k->ops->why_frame(w->k, tgid, addr, user, buf, size);
}

/* The interval's stacks of the ids selected at its start, named as they are read (on the thread
 * that reads, before the rows are made: the screen makes them later). */
static void stacks_take(struct whyside *w, struct snapshot *snap)
{
	const struct stk_batch *b = w->k->ops->why_stacks(w->k);

	if (!b)
		return;
	snap->why.stacks = 1;
	snap->why.stacks_lost = b->lost_entries + b->lost_stacks;
	stackrows_name(&w->stackrows, b, w->sel, w->nsel, name_frame, w);
	w->k->ops->why_frames_done(w->k);
}

/* Adds id to ids[0..n) unless it is there (or 0); the new count. */
static size_t add_id(uint32_t *ids, size_t n, uint32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] == id)
			return n;
	if (id && n < STK_SELECT_MAX)
		ids[n++] = id;
	return n;
}

/* The rows their stacks (stacks_take's), then the ids selected for the next interval: the tasks
 * that stalled most lately (--trigger), the rows the options chose, and the front end's task. */
static void stacks_give(struct whyside *w, struct snapshot *snap)
{
	uint32_t *ids, task = 0;
	size_t n = 0;

	stackrows_give(&w->stackrows, snap->rows, snap->nrows, w->o->threads);
	ids = xmalloc((snap->nrows + STALL_WATCH_MAX + 1) * sizeof(*ids));
	/* the stallers first: they fit, whatever the choice */
	if (w->stall.ntriggers) {
		stallwatch_update(&w->stall, snap);
		n = stallwatch_ids(&w->stall, ids);
	}
	for (size_t i = 0; i < snap->nrows; i++) {
		const struct row *r = &snap->rows[i];
		uint32_t id = w->o->threads ? r->tid : r->pid;

		if (r->departed)
			continue;
		if (id == w->task)
			task = id; /* alive: a pid reused after it ends is not followed */
		if (n < STK_SELECT_MAX && (w->match ? w->match(w->match_arg, r) : w->o->npids > 0))
			ids[n++] = id;
	}
	n = add_id(ids, n, task);
	stacks_select(w, ids, n);
	free(ids);
}

void whyside_set_task(struct whyside *w, uint32_t id)
{
	uint32_t *ids;
	size_t n;

	w->task = id;
	if (!id || !w->loaded || !stacks_wanted(w))
		return;
	/* from now on, not from the next interval: added to those selected now */
	ids = xmalloc((w->nsel + 1) * sizeof(*ids));
	if (w->nsel)
		memcpy(ids, w->sel, w->nsel * sizeof(*ids));
	n = add_id(ids, w->nsel, id);
	if (n != w->nsel)
		stacks_select(w, ids, n);
	free(ids);
}

void whyside_follow(struct whyside *w)
{
	if (!w->o->why && w->loaded) {
		w->k->ops->why_close(w->k);
		w->loaded = 0;
	}
	if (!w->o->why || w->loaded || w->failed)
		return;
	if (w->k->ops->why_open(w->k, &w->attached, stacks_wanted(w), w->notice, sizeof(w->notice)) < 0) {
		w->failed = 1;
		return;
	}
	w->loaded = 1;
	w->lost_prev = 0;
	w->nsel = 0;
	/* the processes asked for, from the first interval on (threads: from the rows), and the
	 * front end's task (chosen before --why was switched on) */
	if (stacks_wanted(w) && !w->o->threads && w->o->npids)
		stacks_select(w, w->o->pids, w->o->npids);
	whyside_set_task(w, w->task);
}

void whyside_retry(struct whyside *w)
{
	w->failed = 0;
	w->notice[0] = '\0';
}

const char *whyside_notice(const struct whyside *w)
{
	return w->o->why && w->notice[0] ? w->notice : NULL;
}

void whyside_collect(struct whyside *w)
{
	char why[256];
	int rc;

	w->lat.n = 0;
	if (!w->loaded)
		return;
	rc = w->k->ops->why_read(w->k, &w->lat);
	if (rc == 0)
		return;
	snprintf(why, sizeof(why), "%s", strerror(-rc));
	snprintf(w->notice, sizeof(w->notice),
		 F_(N_("reading the eBPF maps failed (%s): wait latencies are not measured")), why);
	w->k->ops->why_close(w->k);
	w->loaded = 0;
	w->failed = 1;
	w->lat.n = 0;
}

/* The snapshot's word on the eBPF side: off, unavailable and why, or the kinds it measured in
 * the interval (the delayacct kinds only while kernel.task_delayacct is on) and what did not fit. */
static void fill_header(struct whyside *w, int delayacct, struct snapshot *snap)
{
	struct why_header *h = &snap->why;

	memset(h, 0, sizeof(*h));
	if (!w->o->why)
		return;
	if (!w->loaded) {
		h->state = WHY_UNAVAILABLE;
		h->reason = w->notice;
		return;
	}
	h->state = WHY_ON;
	h->reason = w->notice[0] ? w->notice : NULL; /* the kinds left out, and why */
	h->attached = w->attached;
	h->measured = w->attached;
	if (delayacct == DELAYACCT_OFF)
		h->measured &= (lat_mask)~LAT_DELAYACCT_KINDS;
	h->not_fitted_total = w->lat.not_fitted;
	h->not_fitted = w->lat.not_fitted - w->lost_prev;
	w->lost_prev = w->lat.not_fitted;
}

void whyside_header(struct whyside *w, int delayacct, struct snapshot *snap)
{
	fill_header(w, delayacct, snap);
	if (snap->why.state == WHY_ON && stacks_wanted(w))
		stacks_take(w, snap);
}

void whyside_give(struct whyside *w, struct snapshot *snap)
{
	if (snap->why.state == WHY_ON)
		latrows_attach(&w->latrows, &w->lat, snap->rows, snap->nrows, w->o->threads, snap->why.measured);
	if (snap->why.stacks)
		stacks_give(w, snap);
}
