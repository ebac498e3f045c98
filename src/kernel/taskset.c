/* taskset.c — the processes and threads that exist, kept from the connector's events. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "taskset.h"
#include "xalloc.h"

/* A process's threads, ascending. */
struct taskset_proc {
	uint32_t *tids;
	size_t n, cap;
};

void taskset_init(struct taskset *s)
{
	memset(s, 0, sizeof(*s));
	idmap_init(&s->procs);
}

void taskset_clear(struct taskset *s)
{
	size_t pos = 0;
	void *v;

	while (idmap_next(&s->procs, &pos, NULL, &v)) {
		struct taskset_proc *p = v;

		free(p->tids);
		free(p);
	}
	idmap_free(&s->procs);
	idmap_init(&s->procs);
	s->npids = 0;
	s->pids_ok = 0;
	s->nthreads = 0;
}

void taskset_free(struct taskset *s)
{
	taskset_clear(s);
	idmap_free(&s->procs);
	free(s->pids);
	memset(s, 0, sizeof(*s));
}

/* Where tid is, or would go, in p's threads. */
static size_t place(const struct taskset_proc *p, uint32_t tid)
{
	size_t lo = 0, hi = p->n;

	if (p->n && p->tids[p->n - 1] < tid)
		return p->n; /* the common case: a new thread's id is above the others' */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->tids[mid] < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void taskset_add(struct taskset *s, uint32_t tgid, uint32_t tid)
{
	struct taskset_proc *p = idmap_get(&s->procs, tgid);
	size_t at;

	if (!tgid || !tid)
		return;
	if (!p) {
		p = xcalloc(1, sizeof(*p));
		idmap_put(&s->procs, tgid, p);
		s->pids_ok = 0;
	}
	at = place(p, tid);
	if (at < p->n && p->tids[at] == tid)
		return;
	p->tids = xgrow(p->tids, &p->cap, p->n + 1, sizeof(*p->tids));
	memmove(p->tids + at + 1, p->tids + at, (p->n - at) * sizeof(*p->tids));
	p->tids[at] = tid;
	p->n++;
	s->nthreads++;
}

/* Takes process tgid out of the set. */
static void drop(struct taskset *s, uint32_t tgid)
{
	struct taskset_proc *p = idmap_del(&s->procs, tgid);

	if (!p)
		return;
	s->nthreads -= p->n;
	free(p->tids);
	free(p);
	s->pids_ok = 0;
}

void taskset_remove(struct taskset *s, uint32_t tgid, uint32_t tid)
{
	struct taskset_proc *p = idmap_get(&s->procs, tgid);
	size_t at;

	if (!p)
		return;
	at = place(p, tid);
	if (at < p->n && p->tids[at] == tid) {
		memmove(p->tids + at, p->tids + at + 1, (p->n - at - 1) * sizeof(*p->tids));
		p->n--;
		s->nthreads--;
	}
	if (!p->n)
		drop(s, tgid);
}

void taskset_apply(struct taskset *s, const struct procevent *e)
{
	struct taskset_proc *p;

	switch (e->kind) {
	case PROCEVENT_FORK: taskset_add(s, e->tgid, e->tid); break;
	case PROCEVENT_EXIT: taskset_remove(s, e->tgid, e->tid); break;
	case PROCEVENT_EXEC:
		p = idmap_get(&s->procs, e->tgid);
		if (p) {
			s->nthreads -= p->n;
			p->n = 0;
		}
		taskset_add(s, e->tgid, e->tgid);
		break;
	case PROCEVENT_COMM: break;
	}
}

static int by_id(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Makes s->pids every process's id, ascending, when the set changed since. */
static void sort_pids(struct taskset *s)
{
	size_t pos = 0;
	uint32_t id;

	if (s->pids_ok)
		return;
	s->npids = 0;
	s->pids = xgrow(s->pids, &s->cappids, s->procs.len ? s->procs.len : 1, sizeof(*s->pids));
	while (idmap_next(&s->procs, &pos, &id, NULL))
		s->pids[s->npids++] = id;
	qsort(s->pids, s->npids, sizeof(*s->pids), by_id);
	s->pids_ok = 1;
}

void taskset_list(struct taskset *s, const uint32_t *pids, size_t npids, uint32_t **out, size_t *n,
                  size_t *cap)
{
	if (npids) {
		for (size_t i = 0; i < npids; i++)
			if (idmap_get(&s->procs, pids[i])) {
				*out = xgrow(*out, cap, *n + 1, sizeof(**out));
				(*out)[(*n)++] = pids[i];
			}
		return;
	}
	sort_pids(s);
	*out = xgrow(*out, cap, *n + s->npids + 1, sizeof(**out));
	memcpy(*out + *n, s->pids, s->npids * sizeof(**out));
	*n += s->npids;
}

size_t taskset_threads(const struct taskset *s, uint32_t pid, uint32_t **tids, size_t *n, size_t *cap)
{
	const struct taskset_proc *p = idmap_get(&s->procs, pid);

	if (!p)
		return 0;
	*tids = xgrow(*tids, cap, *n + p->n + 1, sizeof(**tids));
	memcpy(*tids + *n, p->tids, p->n * sizeof(**tids));
	*n += p->n;
	return p->n;
}

size_t taskset_nprocs(const struct taskset *s)
{
	return s->procs.len;
}

size_t taskset_nthreads(const struct taskset *s)
{
	return s->nthreads;
}
