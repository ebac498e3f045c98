/* family.c — deciding descent for exit records. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "idmap.h"
#include "xalloc.h"

/* How far up the parents of a live process are asked before giving up. */
#define MAX_DEPTH 64
/* How long a process found not to descend is remembered: its pid may be reused later. */
#define STRANGER_S 2

struct member {
	uint64_t start_s; /* 0: not known */
	uint64_t gone_s;  /* when its process ended; 0 while it lives */
};

struct waiting {
	struct exit_task *tasks;
	size_t n, cap;
};

struct family {
	uint32_t self;
	struct idmap members;   /* tgid -> struct member */
	struct idmap strangers; /* tgid -> when it was found not to descend, + 1 */
	struct idmap waiting;   /* parent tgid -> struct waiting */
	size_t nwaiting;
	uint64_t now_s;
	parent_fn parent;
	member_fn member;
	void *arg;
};

static void add_stranger(struct family *f, uint32_t tgid)
{
	idmap_put(&f->strangers, tgid, (void *)(uintptr_t)(f->now_s + 1));
}

static int is_stranger(const struct family *f, uint32_t tgid)
{
	uintptr_t marked = (uintptr_t)idmap_get(&f->strangers, tgid);

	return marked && f->now_s <= marked - 1 + STRANGER_S;
}

static struct member *add_member(struct family *f, uint32_t tgid, uint64_t start_s)
{
	struct member *m = idmap_get(&f->members, tgid);

	if (!m) {
		m = xcalloc(1, sizeof(*m));
		idmap_put(&f->members, tgid, m);
	}
	m->start_s = start_s;
	m->gone_s = 0;
	idmap_del(&f->strangers, tgid); /* a pid that a stranger had before */
	return m;
}

struct family *family_new(uint32_t root, uint32_t self, uint64_t now_s, parent_fn parent, member_fn member,
			  void *arg)
{
	struct family *f = xcalloc(1, sizeof(*f));

	f->self = self;
	f->now_s = now_s;
	f->parent = parent;
	f->member = member;
	f->arg = arg;
	idmap_init(&f->members);
	idmap_init(&f->strangers);
	idmap_init(&f->waiting);
	add_member(f, root, now_s);
	return f;
}

static void free_all(struct idmap *m)
{
	size_t pos = 0;
	void *v;

	while (idmap_next(m, &pos, NULL, &v))
		free(v);
	idmap_free(m);
}

void family_free(struct family *f)
{
	size_t pos = 0;
	void *v;

	if (!f)
		return;
	while (idmap_next(&f->waiting, &pos, NULL, &v)) {
		free(((struct waiting *)v)->tasks);
		free(v);
	}
	idmap_free(&f->waiting);
	free_all(&f->members);
	idmap_free(&f->strangers);
	free(f);
}

/* Is the process tgid a member for a task that started at start_s? A member that ended before
 * the task started cannot be its parent: its pid was reused. */
static int is_member(const struct family *f, uint32_t tgid, uint64_t start_s)
{
	const struct member *m = idmap_get(&f->members, tgid);

	return m && !(m->gone_s && start_s > m->gone_s + 1);
}

enum kin { KIN_NO, KIN_YES, KIN_UNKNOWN };

/* Asks up the chain of live parents of pid. */
static enum kin ask_parents(struct family *f, uint32_t pid)
{
	uint32_t chain[MAX_DEPTH];
	int n = 0;
	enum kin k = KIN_NO;

	for (uint32_t x = pid; n < MAX_DEPTH; n++) {
		const struct member *m = idmap_get(&f->members, x);
		int64_t p;

		/* a live process cannot be a member that ended: its pid was reused */
		if (x == f->self || (m && !m->gone_s)) {
			k = KIN_YES;
			break;
		}
		if (x <= 1 || is_stranger(f, x))
			break;
		chain[n] = x;
		p = f->parent(f->arg, x);
		if (p < 0) { /* gone: its own exit record, or the end of the run, decides */
			k = KIN_UNKNOWN;
			break;
		}
		x = (uint32_t)p;
	}
	for (int i = 0; i < n && k != KIN_UNKNOWN; i++) {
		if (k == KIN_YES)
			add_member(f, chain[i], 0);
		else
			add_stranger(f, chain[i]);
	}
	return k;
}

static void wait_for(struct family *f, uint32_t parent, const struct exit_task *t)
{
	struct waiting *w = idmap_get(&f->waiting, parent);

	if (!w) {
		w = xcalloc(1, sizeof(*w));
		idmap_put(&f->waiting, parent, w);
	}
	w->tasks = xgrow(w->tasks, &w->cap, w->n + 1, sizeof(*w->tasks));
	w->tasks[w->n++] = *t;
	f->nwaiting++;
}

static void decide(struct family *f, const struct exit_task *t, uint64_t now_s);

/* The records waiting for tgid, now that it is known to descend. */
static void release(struct family *f, uint32_t tgid, uint64_t now_s)
{
	struct waiting *w = idmap_del(&f->waiting, tgid);

	if (!w)
		return;
	f->nwaiting -= w->n;
	for (size_t i = 0; i < w->n; i++)
		decide(f, &w->tasks[i], now_s);
	free(w->tasks);
	free(w);
}

static void family_accept(struct family *f, const struct exit_task *t, uint64_t now_s)
{
	struct member *m = idmap_get(&f->members, t->tgid);

	if (!m || (m->gone_s && t->start_s > m->gone_s + 1))
		m = add_member(f, t->tgid, t->start_s);
	f->member(f->arg, t);
	if (t->group_dead)
		m->gone_s = now_s;
	release(f, t->tgid, now_s);
}

/* t does not descend: neither do the records that waited for its process. */
static void reject(struct family *f, const struct exit_task *t, uint64_t now_s)
{
	add_stranger(f, t->tgid);
	if (t->group_dead)
		release(f, t->tgid, now_s);
}

static void decide(struct family *f, const struct exit_task *t, uint64_t now_s)
{
	if (is_stranger(f, t->tgid) && !idmap_get(&f->members, t->tgid))
		return;
	if (is_member(f, t->tgid, t->start_s) || t->ppid == f->self || is_member(f, t->ppid, t->start_s)) {
		family_accept(f, t, now_s);
		return;
	}
	if (is_stranger(f, t->ppid)) {
		reject(f, t, now_s);
		return;
	}
	switch (ask_parents(f, t->ppid)) {
	case KIN_YES: family_accept(f, t, now_s); break;
	case KIN_NO: reject(f, t, now_s); break;
	default: wait_for(f, t->ppid, t); break;
	}
}

void family_exit(struct family *f, const struct exit_task *t, uint64_t now_s)
{
	f->now_s = now_s;
	decide(f, t, now_s);
}

int family_includes(struct family *f, uint32_t pid)
{
	return ask_parents(f, pid) == KIN_YES;
}

size_t family_undecided(const struct family *f)
{
	return f->nwaiting;
}
