/* recstack.c — --why's off-CPU stacks as a record's last section: see recstack.h and
 * doc/recording.md. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "recformat.h"
#include "recstack.h"
#include "xalloc.h"

void rec_stk_clear(struct rec_stk *l)
{
	l->present = 0;
	l->made = 0;
	l->lost = 0;
	l->lenpool = l->nnames = l->nfr = l->ns = l->nt = 0;
	if (l->hash)
		memset(l->hash, 0, l->caphash * sizeof(*l->hash));
}

void rec_stk_free(struct rec_stk *l)
{
	free(l->pool);
	free(l->name_at);
	free(l->hash);
	free(l->fr);
	free(l->s);
	free(l->t);
	free(l->names);
	free(l->out);
	free(l->lists);
	memset(l, 0, sizeof(*l));
}

void rec_stk_start(struct rec_stk *l, uint64_t lost)
{
	rec_stk_clear(l);
	l->present = 1;
	l->lost = lost;
}

static uint64_t name_hash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

/* Appends name s[0..len) to the pool; its index. */
static uint32_t name_new(struct rec_stk *l, const char *s, size_t len)
{
	l->pool = xgrow(l->pool, &l->cappool, l->lenpool + len + 1, 1);
	memcpy(l->pool + l->lenpool, s, len);
	l->pool[l->lenpool + len] = '\0';
	l->name_at = xgrow(l->name_at, &l->capnames, l->nnames + 1, sizeof(*l->name_at));
	l->name_at[l->nnames] = l->lenpool;
	l->lenpool += len + 1;
	return (uint32_t)l->nnames++;
}

/* The hash table of names twice as large, the names placed again. */
static void hash_grow(struct rec_stk *l)
{
	size_t cap = l->caphash ? 2 * l->caphash : 256;

	free(l->hash);
	l->hash = xcalloc(cap, sizeof(*l->hash));
	l->caphash = cap;
	for (size_t i = 0; i < l->nnames; i++) {
		const char *s = l->pool + l->name_at[i];
		size_t j = (size_t)name_hash(s, strlen(s)) & (cap - 1);

		while (l->hash[j])
			j = (j + 1) & (cap - 1);
		l->hash[j] = (uint32_t)i + 1;
	}
}

/* The index of name s, kept once. */
static uint32_t name_intern(struct rec_stk *l, const char *s)
{
	size_t len = strlen(s), j;

	if (len >= REC_STK_NAME_MAX)
		len = REC_STK_NAME_MAX - 1; /* what a reader takes */
	if (2 * (l->nnames + 1) > l->caphash)
		hash_grow(l);
	j = (size_t)name_hash(s, len) & (l->caphash - 1);
	while (l->hash[j]) {
		const char *t = l->pool + l->name_at[l->hash[j] - 1];

		if (strncmp(t, s, len) == 0 && t[len] == '\0')
			return l->hash[j] - 1;
		j = (j + 1) & (l->caphash - 1);
	}
	l->hash[j] = name_new(l, s, len) + 1;
	return l->hash[j] - 1;
}

void rec_stk_add(struct rec_stk *l, uint32_t slot, const struct stk_list *list)
{
	struct rec_stk_task *t;

	l->t = xgrow(l->t, &l->capt, l->nt + 1, sizeof(*l->t));
	t = &l->t[l->nt++];
	t->slot = slot;
	t->first = l->ns;
	t->n = list ? list->n : 0;
	l->s = xgrow(l->s, &l->caps, l->ns + t->n + 1, sizeof(*l->s));
	for (size_t i = 0; i < t->n; i++) {
		const struct stk_stack *in = &list->s[i];
		struct rec_stk_one *s = &l->s[l->ns++];
		size_t nf = in->nframes < REC_STK_FRAMES_MAX ? in->nframes : REC_STK_FRAMES_MAX;

		s->ns = in->ms > 0 && isfinite(in->ms) ? (uint64_t)llround(in->ms * 1e6) : 0;
		s->count = in->count;
		s->state = in->state < STK_STATES ? in->state : STK_RUNNABLE;
		s->first = l->nfr;
		s->n = nf;
		l->fr = xgrow(l->fr, &l->capfr, l->nfr + nf + 1, sizeof(*l->fr));
		for (size_t f = 0; f < nf; f++)
			l->fr[l->nfr++] = name_intern(l, in->frames[f] ? in->frames[f] : "");
	}
}

static int by_slot(const void *a, const void *b)
{
	const struct rec_stk_task *x = a, *y = b;

	if (x->slot != y->slot)
		return x->slot < y->slot ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

void rec_stk_put(struct outbuf *o, struct rec_stk *l)
{
	size_t kept = 0;
	uint32_t prev = 0;

	if (!l->present)
		return;
	if (l->nt) /* qsort takes no NULL, even for nothing */
		qsort(l->t, l->nt, sizeof(*l->t), by_slot);
	for (size_t i = 0; i < l->nt; i++) /* a slot once (its first): a reader refuses it twice */
		if (!kept || l->t[i].slot != l->t[kept - 1].slot)
			l->t[kept++] = l->t[i];
	l->nt = kept;
	rec_put_uint(o, l->lost);
	rec_put_uint(o, l->nnames);
	for (size_t i = 0; i < l->nnames; i++) {
		const char *s = l->pool + l->name_at[i];
		size_t len = strlen(s);

		rec_put_uint(o, len);
		out_mem(o, s, len);
	}
	rec_put_uint(o, l->nt);
	for (size_t i = 0; i < l->nt; i++) {
		const struct rec_stk_task *t = &l->t[i];

		rec_put_uint(o, t->slot - prev);
		prev = t->slot;
		rec_put_uint(o, t->n);
		for (size_t k = 0; k < t->n; k++) {
			const struct rec_stk_one *s = &l->s[t->first + k];

			rec_put_uint(o, s->state);
			rec_put_uint(o, s->ns);
			rec_put_uint(o, s->count);
			rec_put_uint(o, s->n);
			for (size_t f = 0; f < s->n; f++)
				rec_put_uint(o, l->fr[s->first + f]);
		}
	}
}

/* ---- reading ---- */

struct stk_cursor {
	const uint8_t *p, *end;
	int bad;
};

static uint64_t get(struct stk_cursor *c)
{
	uint64_t v = 0;

	if (!c->bad && rec_get_uint(&c->p, c->end, &v) < 0)
		c->bad = 1;
	return c->bad ? 0 : v;
}

/* A count of items of a byte or more each: more than the bytes left is damage. */
static size_t get_count(struct stk_cursor *c)
{
	uint64_t n = get(c);

	if (n > (uint64_t)(c->end - c->p))
		c->bad = 1;
	return c->bad ? 0 : (size_t)n;
}

static void get_names(struct rec_stk *l, struct stk_cursor *c)
{
	size_t n = get_count(c);

	for (size_t i = 0; i < n && !c->bad; i++) {
		uint64_t len = get(c);

		if (c->bad || len >= REC_STK_NAME_MAX || len > (uint64_t)(c->end - c->p) ||
		    memchr(c->p, '\0', (size_t)len)) {
			c->bad = 1;
			return;
		}
		name_new(l, (const char *)c->p, (size_t)len);
		c->p += len;
	}
}

/* One stack of a task. */
static void get_stack(struct rec_stk *l, struct stk_cursor *c)
{
	struct rec_stk_one *s;
	uint64_t state = get(c), ns = get(c), count = get(c);
	size_t nf = get_count(c);

	if (c->bad || state >= STK_STATES || nf > REC_STK_FRAMES_MAX) {
		c->bad = 1;
		return;
	}
	l->s = xgrow(l->s, &l->caps, l->ns + 1, sizeof(*l->s));
	s = &l->s[l->ns++];
	s->state = (uint32_t)state;
	s->ns = ns;
	s->count = count;
	s->first = l->nfr;
	s->n = nf;
	l->fr = xgrow(l->fr, &l->capfr, l->nfr + nf + 1, sizeof(*l->fr));
	for (size_t f = 0; f < nf && !c->bad; f++) {
		uint64_t at = get(c);

		if (at >= l->nnames)
			c->bad = 1;
		l->fr[l->nfr++] = (uint32_t)at;
	}
}

/* The rows' lists, pointing into l. */
static void make_lists(struct rec_stk *l)
{
	l->names = xgrow(l->names, &l->capnames_out, l->nfr + 1, sizeof(*l->names));
	l->out = xgrow(l->out, &l->capout, l->ns + 1, sizeof(*l->out));
	l->lists = xgrow(l->lists, &l->caplists, l->nt + 1, sizeof(*l->lists));
	for (size_t i = 0; i < l->nfr; i++)
		l->names[i] = l->pool + l->name_at[l->fr[i]];
	for (size_t i = 0; i < l->ns; i++)
		l->out[i] = (struct stk_stack){ .ms = (double)l->s[i].ns / 1e6,
						.count = l->s[i].count,
						.state = l->s[i].state,
						.nframes = l->s[i].n,
						.frames = l->names + l->s[i].first };
	for (size_t i = 0; i < l->nt; i++)
		l->lists[i] = (struct stk_list){ .n = l->t[i].n, .s = l->out + l->t[i].first };
	l->made = 1;
}

int rec_stk_get(struct rec_stk *l, const uint8_t **p, const uint8_t *end, size_t max_slots)
{
	struct stk_cursor c = { *p, end, 0 };
	uint64_t slot = 0;
	size_t n;

	rec_stk_start(l, 0);
	l->lost = get(&c);
	get_names(l, &c);
	n = get_count(&c);
	for (size_t i = 0; i < n && !c.bad; i++) {
		uint64_t gap = get(&c);
		size_t k;
		struct rec_stk_task *t;

		slot += gap;
		if (c.bad || (i && !gap) || gap >= max_slots || slot >= max_slots) { /* ascending, bounded */
			c.bad = 1;
			break;
		}
		k = get_count(&c);
		l->t = xgrow(l->t, &l->capt, l->nt + 1, sizeof(*l->t));
		t = &l->t[l->nt++];
		t->slot = (uint32_t)slot;
		t->first = l->ns;
		t->n = k;
		for (size_t j = 0; j < k && !c.bad; j++)
			get_stack(l, &c);
	}
	if (c.bad) {
		rec_stk_clear(l);
		return -1;
	}
	make_lists(l);
	*p = c.p;
	return 0;
}

const struct stk_list *rec_stk_of(const struct rec_stk *l, size_t slot)
{
	size_t lo = 0, hi = l->nt;

	if (!l->made)
		return NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->t[mid].slot < slot)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < l->nt && l->t[lo].slot == slot ? &l->lists[lo] : NULL;
}
