/* cmdrank.c — command names ranked by their recent delay, and their series. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmdrank.h"
#include "xalloc.h"

void metrics_delays_add(struct metrics_delays *sum, const struct metrics_delays *d)
{
	for (int k = 0; k < DK_COUNT; k++) {
		sum->ns[k] += d->ns[k];
		sum->count[k] += d->count[k];
	}
	sum->kinds |= d->kinds;
	sum->kinds_count |= d->kinds_count;
}

static uint64_t delays_ns(const struct metrics_delays *d)
{
	uint64_t ns = 0;

	for (int k = 0; k < DK_COUNT; k++)
		ns += d->ns[k];
	return ns;
}

void cmdrank_init(struct cmdrank *c, int slots)
{
	memset(c, 0, sizeof(*c));
	c->slots = slots > 0 ? slots : 0;
}

void cmdrank_free(struct cmdrank *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i]->name);
		free(c->v[i]);
	}
	free(c->v);
	free(c->scratch);
	memset(c, 0, sizeof(*c));
}

/* Where name is in the table, or where it would go (*found says which). */
static size_t locate(const struct cmdrank *c, const char *name, int *found)
{
	size_t lo = 0, hi = c->n;

	*found = 0;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int cmp = strcmp(c->v[mid]->name, name);

		if (cmp == 0) {
			*found = 1;
			return mid;
		}
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct cmdrank_name *cmdrank_find(const struct cmdrank *c, const char *name)
{
	int found;
	size_t at = locate(c, name, &found);

	return found ? c->v[at] : NULL;
}

void cmdrank_add(struct cmdrank *c, const char *name, const struct metrics_delays *d)
{
	int found;
	size_t at = locate(c, name, &found);

	if (!found) {
		if (c->slots == 0 || delays_ns(d) == 0) { /* nothing to rank it by */
			metrics_delays_add(&c->other, d);
			return;
		}
		/* the table may pass its bound until the reading is settled, where every name of
		 * the reading competes for a place by its score */
		c->v = xgrow(c->v, &c->cap, c->n + 1, sizeof(*c->v));
		memmove(&c->v[at + 1], &c->v[at], (c->n - at) * sizeof(*c->v));
		c->n++;
		c->v[at] = xmalloc(sizeof(*c->v[at]));
		memset(c->v[at], 0, sizeof(*c->v[at]));
		c->v[at]->name = xstrdup(name);
	}
	metrics_delays_add(&c->v[at]->pending, d);
}

/* The scratch list, room for every name. */
static struct cmdrank_name **scratch(struct cmdrank *c)
{
	c->scratch = xgrow(c->scratch, &c->capscratch, c->n + 1, sizeof(*c->scratch));
	return c->scratch;
}

/* By score, lower first; by name among equals, so that the outcome never depends on qsort. */
static int by_score(const void *a, const void *b)
{
	const struct cmdrank_name *x = *(struct cmdrank_name *const *)a;
	const struct cmdrank_name *y = *(struct cmdrank_name *const *)b;

	if (x->score != y->score)
		return x->score < y->score ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The slots: free ones to the names that waited in the reading, highest score first; then the
 * weakest holders' to those whose score is more than CMDRANK_FACTOR times theirs. Candidates
 * from the strongest down meet the holders from the weakest up: once one does not beat its
 * holder, no later one beats any (nor does one beat a name that took a free slot before it). */
static void give_slots(struct cmdrank *c)
{
	struct cmdrank_name **list = scratch(c);
	size_t nholders = 0, held, ncand = 0, n = c->n;

	for (size_t i = 0; i < n; i++) { /* holders from the front, candidates from the back */
		struct cmdrank_name *e = c->v[i];

		if (e->slot)
			list[nholders++] = e;
		else if (delays_ns(&e->pending) > 0)
			list[n - ++ncand] = e;
	}
	qsort(list, nholders, sizeof(*list), by_score);
	qsort(list + n - ncand, ncand, sizeof(*list), by_score);
	held = nholders; /* list[0..held): the holders before this reading, weakest first */
	for (size_t i = 0, j = 0; i < ncand; i++) {
		struct cmdrank_name *cand = list[n - 1 - i]; /* the strongest left */

		if ((int)nholders < c->slots) {
			cand->slot = 1;
			nholders++;
		} else if (j < held && cand->score > CMDRANK_FACTOR * list[j]->score) {
			list[j++]->slot = 0;
			cand->slot = 1;
		} else {
			break;
		}
	}
}

/* Forgets the names without a slot whose score fell under CMDRANK_FORGET_NS, and the weakest of
 * them while more than CMDRANK_MEMORY are left. */
static void forget(struct cmdrank *c)
{
	struct cmdrank_name **list = scratch(c);
	size_t nfree = 0, kept = 0;

	for (size_t i = 0; i < c->n; i++)
		if (!c->v[i]->slot && c->v[i]->score >= CMDRANK_FORGET_NS)
			list[nfree++] = c->v[i];
	if (nfree > CMDRANK_MEMORY) {
		qsort(list, nfree, sizeof(*list), by_score);
		for (size_t i = 0; i < nfree - CMDRANK_MEMORY; i++)
			list[i]->score = -1; /* marked */
	}
	for (size_t i = 0; i < c->n; i++) {
		struct cmdrank_name *e = c->v[i];

		if (!e->slot && e->score < CMDRANK_FORGET_NS) {
			free(e->name);
			free(e);
			continue;
		}
		c->v[kept++] = e; /* the order, so the search, stays */
	}
	c->n = kept;
}

void cmdrank_settle(struct cmdrank *c, double now_s)
{
	double dt = c->settled && now_s > c->settled_s ? now_s - c->settled_s : 0;
	double keep = exp2(-dt / CMDRANK_HALF_LIFE_S);

	for (size_t i = 0; i < c->n; i++)
		c->v[i]->score = c->v[i]->score * keep + (double)delays_ns(&c->v[i]->pending);
	give_slots(c);
	for (size_t i = 0; i < c->n; i++) {
		struct cmdrank_name *e = c->v[i];

		metrics_delays_add(e->slot ? &e->d : &c->other, &e->pending);
		memset(&e->pending, 0, sizeof(e->pending));
	}
	forget(c);
	if (!c->settled || now_s > c->settled_s)
		c->settled_s = now_s;
	c->settled = 1;
}
