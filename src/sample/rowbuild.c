/* rowbuild.c — a snapshot's rows. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "rowbuild.h"
#include "xalloc.h"

void rowbuf_free(struct rowbuf *b)
{
	free(b->rows);
	b->rows = NULL;
	b->cap = 0;
}

/* A blank row: no strings, no links, every field none (rowfield.h). */
static void blank_row(struct row *r)
{
	memset(r, 0, sizeof(*r));
	row_fields_none(&r->fields);
	r->parent = -1;
}

/* The fields rowfield.h says come from the task's process. */
static void fields_from_proc(struct row *r, const struct proc *p)
{
#define FROM_OWN(member)
#define FROM_PROC(member) r->member = p->member;
#define ROW_FIELD_FROM(member, type, dims, record, check, none, show, from) from(member)
	ROW_FIELDS(ROW_FIELD_FROM)
#undef ROW_FIELD_FROM
#undef FROM_PROC
#undef FROM_OWN
}

static void task_row(struct row *r, const struct task *t, int threads)
{
	blank_row(r);
	if (t->proc)
		fields_from_proc(r, t->proc);
	r->pid = t->proc ? t->proc->pid : t->id;
	r->tid = threads ? t->id : 0;
	r->start_ns = t->start_ns;
	r->uid = t->proc ? t->proc->euid : 0;
	r->state = t->state ? t->state : '?';
	r->exited = t->exited;
	r->partial = t->partial;
	r->user = t->proc ? t->proc->user : "-";
	r->comm = (threads || !t->proc) && t->comm[0] ? t->comm : t->proc ? t->proc->comm : "?";
	r->cmdline = t->proc ? t->proc->cmdline : NULL;
	r->cgroup = t->proc ? t->proc->cgroup : NULL;
	r->nthreads = threads || !t->proc ? 1 : (uint32_t)t->proc->nlwp;
	if (!threads && t->proc && t->proc->have_states) {
		memcpy(r->states, t->proc->states, sizeof(r->states));
		r->have_states = 1;
	}
}

static void departed_row(struct row *r, const struct departed *d, int threads, int others, const char *others_name)
{
	blank_row(r);
	r->pid = d->pid;
	r->tid = threads ? d->id : 0;
	r->uid = d->uid;
	r->state = 'X';
	r->user = others ? "-" : d->user;
	r->comm = others ? others_name : d->comm;
	r->cmdline = d->cmdline;
	r->cgroup = d->cgroup;
	r->identity_uid = d->identity_uid;
	r->acc = &d->acc;
	rates_unavailable(&r->r);
	r->exited = r->departed = 1;
}

/* Where the tasks keep totals only once they have any (tasktable.moved_totals): the totals of a
 * task still since the first reading are zero, shared with the tasks alike. NULL: it keeps its
 * own from now on, as it moved, or has accounting fields (their high-water marks are its own) or
 * a longest wait to keep. */
static const struct kind_totals *zero_totals(struct tasktable *tasks, struct task *t)
{
	if (!tasks->moved_totals || t->acc || sample_moved(&t->base, &t->last) ||
	    (t->acct && t->acct->last.acct_have))
		return NULL;
	return tasktable_zero_totals(tasks, t);
}

/* The row's rates over the interval, and the task's totals grown by them where it keeps them. */
static void task_rates(struct row *r, struct task *t, struct tasktable *tasks)
{
	static const struct kind_totals none_yet;
	const struct acct_sample *base = t->acct ? &t->acct->base : NULL, *last = t->acct ? &t->acct->last : NULL;
	const struct kind_totals *zero = NULL;

	r->last = &t->last;
	r->acct = t->acct;
	if (!t->has_base) {
		rates_unavailable(&r->r);
		r->fresh = 1;
		r->peak = t->peak;
		r->acc = t->acc || !tasks->moved_totals ? t->acc : &none_yet;
		return;
	}
	r->base = &t->base;
	rates_compute(&t->base, &t->last, t->peak, &r->r);
	rates_compute_acct(&t->base, &t->last, base, last, &r->r);
	if (tasks->moved_totals && !t->acc && !(zero = zero_totals(tasks, t)))
		task_keep_totals(t); /* it moved since the first reading */
	if (t->acc) {
		totals_add_delta(t->acc, &t->base, &t->last, t->peak, r->r.impossible);
		totals_add_acct_delta(t->acc, base, last);
	}
	r->peak = t->peak;
	r->acc = t->acc ? t->acc : zero;
}

size_t rowbuild(struct rowbuf *b, struct tasktable *tasks, const struct departed_set *departed, uint32_t tick,
		int threads, const char *others_name)
{
	size_t n = 0, pos = 0, need = tasktable_size(tasks) + departed_count(departed) + 1;
	const struct departed *d;
	struct task *t;

	b->rows = xgrow(b->rows, &b->cap, need, sizeof(*b->rows));
	while (tasktable_next(tasks, &pos, &t)) {
		struct row *r = &b->rows[n];

		if (t->seen != tick)
			continue;
		task_row(r, t, threads);
		/* an exit record folded in after the carry (the thread ended in the interval) moves it */
		r->still = t->carried == tick && !t->exited && t->moved != tick && t->proc &&
			   t->proc->changed != tick;
		task_rates(r, t, tasks);
		n++;
	}
	pos = 0;
	while (departed_next(departed, &pos, &d)) {
		departed_row(&b->rows[n], d, threads, d == departed->others, others_name);
		n++;
	}
	return n;
}
