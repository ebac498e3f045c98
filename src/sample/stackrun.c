/* stackrun.c — a command's off-CPU stacks over its run (see stackrun.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernelops.h"
#include "latency.h"
#include "stackrun.h"
#include "xalloc.h"

struct stackrun {
	struct kernel *k;
	struct lat_batch lat; /* the latencies read with the stacks, not kept */
	struct stackrun_stack *s;
	size_t n, cap;
	uint64_t not_kept;
	uint64_t kernel_lost;
	uint32_t self; /* delaytop, selected so that the command is from its birth; its own left out */
};

int stackrun_open(struct stackrun **out, uint32_t self, char *err, size_t errlen)
{
	struct stackrun *s = xcalloc(1, sizeof(*s));
	lat_mask kinds;
	int rc = kernel_open(&s->k, err, errlen);

	if (rc == 0 && !s->k->ops->why_select)
		rc = -EOPNOTSUPP;
	if (rc == 0)
		rc = s->k->ops->why_open(s->k, &kinds, 2, err, errlen); /* the command's new processes too */
	if (rc < 0) {
		stackrun_close(s);
		*out = NULL;
		return rc;
	}
	s->self = self;
	stackrun_select(s, &self, 1);
	*out = s;
	return 0;
}

void stackrun_select(struct stackrun *s, const uint32_t *tgids, size_t n)
{
	s->k->ops->why_select(s->k, tgids, n > STK_SELECT_MAX ? STK_SELECT_MAX : n, 0);
	for (size_t i = 0; i < n; i++)
		if (tgids[i] != s->self)
			s->k->ops->why_warm(s->k, tgids[i]);
}

/* The run's stack of state and frames, made when new; NULL when the run keeps no more. */
static struct stackrun_stack *stack_of(struct stackrun *s, uint32_t state, char **frames, size_t n)
{
	struct stackrun_stack *st;

	for (size_t i = 0; i < s->n; i++) {
		size_t f = 0;

		st = &s->s[i];
		if (st->state != state || st->nframes != n)
			continue;
		while (f < n && strcmp(st->frames[f], frames[f]) == 0)
			f++;
		if (f == n)
			return st;
	}
	if (s->n == STACKRUN_MAX)
		return NULL;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->s = xrealloc(s->s, s->cap * sizeof(*s->s));
	}
	st = &s->s[s->n++];
	memset(st, 0, sizeof(*st));
	st->state = state;
	st->nframes = n;
	st->frames = xmalloc((n ? n : 1) * sizeof(*st->frames));
	for (size_t f = 0; f < n; f++)
		st->frames[f] = xstrdup(frames[f]);
	return st;
}

/* Names the frames of e into names[] (at most cap), the tracing's leading frames left out. */
static size_t name_entry(struct stackrun *s, const struct stk_batch *b, const struct stk_entry *e, char **names,
			 size_t cap)
{
	char buf[512];
	size_t n = 0;
	int lead = 1;

	if (e->klost && n < cap)
		names[n++] = xstrdup("[kernel stack lost]");
	for (size_t i = 0; i < e->nk && n < cap; i++) {
		const char *fname = s->k->ops->why_frame(s->k, e->tgid, b->pc[e->at + i], 0, buf, sizeof(buf));

		if (lead && stk_tracing_frame(fname))
			continue;
		lead = 0;
		names[n++] = xstrdup(fname);
	}
	if (e->ulost && n < cap)
		names[n++] = xstrdup("[user stack lost]");
	for (size_t i = 0; i < e->nu && n < cap; i++)
		names[n++] = xstrdup(s->k->ops->why_frame(s->k, e->tgid, b->pc[e->at + e->nk + i], 1, buf, sizeof(buf)));
	return n;
}

void stackrun_read(struct stackrun *s)
{
	const struct stk_batch *b;
	char *names[2 * 64 + 2];

	s->lat.n = 0;
	if (s->k->ops->why_read(s->k, &s->lat) < 0 || !(b = s->k->ops->why_stacks(s->k)))
		return;
	for (size_t i = 0; i < b->n; i++) {
		if (b->e[i].tgid == s->self)
			continue;
		size_t n = name_entry(s, b, &b->e[i], names, sizeof(names) / sizeof(names[0]));
		struct stackrun_stack *st = stack_of(s, b->e[i].state, names, n);

		if (st) {
			st->ns += b->e[i].ns;
			st->count += b->e[i].count;
		} else {
			s->not_kept++;
		}
		for (size_t f = 0; f < n; f++)
			free(names[f]);
	}
	s->kernel_lost = b->lost_entries + b->lost_stacks;
	s->k->ops->why_frames_done(s->k);
}

static int by_time(const void *a, const void *b)
{
	const struct stackrun_stack *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return x->count > y->count ? -1 : x->count < y->count;
}

const struct stackrun_stack *stackrun_stacks(struct stackrun *s, size_t *n, uint64_t *lost)
{
	if (s->n) /* qsort takes no NULL, even for nothing */
		qsort(s->s, s->n, sizeof(*s->s), by_time);
	*n = s->n;
	*lost = s->not_kept + s->kernel_lost;
	return s->s;
}

void stackrun_close(struct stackrun *s)
{
	if (!s)
		return;
	if (s->k)
		s->k->ops->close(s->k);
	for (size_t i = 0; i < s->n; i++) {
		for (size_t f = 0; f < s->s[i].nframes; f++)
			free(s->s[i].frames[f]);
		free(s->s[i].frames);
	}
	free(s->s);
	lat_batch_free(&s->lat);
	free(s);
}
