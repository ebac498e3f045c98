/* prestate.c — the states of many new threads, from the kernel's table of every task's state or
 * read on two threads (see prestate.h). */
#include "config.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "prestate.h"
#include "thread.h"
#include "xalloc.h"

#define CHUNK 512 /* ids taken at a time: a few processes' worth, so directories open once or twice */

struct prestate {
	struct kernel *k;
	const uint32_t *ids;
	struct proc *const *owner;
	size_t n;
	uint8_t *want;
	uint8_t *todo;  /* those to read from /proc: want, or those the table lacks */
	char *state;
	atomic_size_t next;
	pthread_t thread;
	int threaded;   /* a thread of its own reads beside the caller */
};

/* Reads the wanted states of ids[from..to), each process's directory opened once. */
static void read_range(struct prestate *p, size_t from, size_t to)
{
	uint32_t pid = 0;
	int dirfd = -1;

	for (size_t k = from; k < to; k++) {
		if (!p->todo[k])
			continue;
		if (dirfd < 0 || p->owner[k]->pid != pid) {
			if (dirfd >= 0)
				p->k->ops->close_threads(p->k, dirfd);
			pid = p->owner[k]->pid;
			dirfd = p->k->ops->open_threads(p->k, pid);
		}
		p->state[k] = dirfd >= 0 ? p->k->ops->thread_state(p->k, dirfd, p->ids[k]) : 0;
	}
	if (dirfd >= 0)
		p->k->ops->close_threads(p->k, dirfd);
}

/* Takes chunks until none is left. */
static void read_chunks(struct prestate *p)
{
	for (;;) {
		size_t from = atomic_fetch_add(&p->next, CHUNK);

		if (from >= p->n)
			return;
		read_range(p, from, from + CHUNK < p->n ? from + CHUNK : p->n);
	}
}

static void *run(void *arg)
{
	read_chunks(arg);
	return NULL;
}

/* ids[k]'s state in the table t[0..nt), sorted by tid; 0 when it is not there. */
static char table_state(const struct tid_state *t, size_t nt, uint32_t id)
{
	size_t lo = 0, hi = nt;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t[mid].tid == id)
			return t[mid].state;
		if (t[mid].tid < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Takes the wanted states from the kernel's table of every task's state when it gives one, and
 * reads those it lacks from /proc on the caller's thread: 1, or 0 when there is no table. */
static int from_table(struct prestate *p)
{
	const struct tid_state *t;
	size_t nt;

	if (!p->k->ops->all_states || p->k->ops->all_states(p->k, &t, &nt) < 0)
		return 0;
	p->todo = xcalloc(p->n ? p->n : 1, 1);
	for (size_t k = 0; k < p->n; k++) {
		if (p->want[k] && !(p->state[k] = table_state(t, nt, p->ids[k])))
			p->todo[k] = 1;
	}
	read_range(p, 0, p->n);
	return 1;
}

struct prestate *prestate_start(struct kernel *k, const uint32_t *ids, struct proc *const *owner, size_t n,
				uint8_t *want, size_t min)
{
	struct prestate *p;
	size_t wanted = 0;

	for (size_t i = 0; i < n; i++)
		wanted += want[i];
	if (wanted < min) {
		free(want);
		return NULL;
	}
	p = xcalloc(1, sizeof(*p));
	*p = (struct prestate){ .k = k, .ids = ids, .owner = owner, .n = n, .want = want, .todo = want };
	p->state = xcalloc(n ? n : 1, 1);
	atomic_init(&p->next, 0);
	if (from_table(p))
		return p;
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || thread_start(&p->thread, run, p) < 0) {
		prestate_free(p);
		return NULL;
	}
	p->threaded = 1;
	return p;
}

void prestate_finish(struct prestate *p)
{
	if (!p->threaded)
		return;
	read_chunks(p);
	pthread_join(p->thread, NULL);
}

const char *prestate_states(const struct prestate *p)
{
	return p->state;
}

const uint8_t *prestate_wanted(const struct prestate *p)
{
	return p->want;
}

void prestate_free(struct prestate *p)
{
	if (!p)
		return;
	if (p->todo != p->want)
		free(p->todo);
	free(p->want);
	free(p->state);
	free(p);
}
