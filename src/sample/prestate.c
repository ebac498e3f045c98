/* prestate.c — the states of many new threads read on two threads (see prestate.h). */
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
	char *state;
	atomic_size_t next;
	pthread_t thread;
};

/* Reads the wanted states of ids[from..to), each process's directory opened once. */
static void read_range(struct prestate *p, size_t from, size_t to)
{
	uint32_t pid = 0;
	int dirfd = -1;

	for (size_t k = from; k < to; k++) {
		if (!p->want[k])
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

struct prestate *prestate_start(struct kernel *k, const uint32_t *ids, struct proc *const *owner, size_t n,
				uint8_t *want, size_t min)
{
	struct prestate *p;
	size_t wanted = 0;

	for (size_t i = 0; i < n; i++)
		wanted += want[i];
	if (wanted < min || sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		free(want);
		return NULL;
	}
	p = xcalloc(1, sizeof(*p));
	*p = (struct prestate){ .k = k, .ids = ids, .owner = owner, .n = n, .want = want };
	p->state = xcalloc(n ? n : 1, 1);
	atomic_init(&p->next, 0);
	if (thread_start(&p->thread, run, p) < 0) {
		prestate_free(p);
		return NULL;
	}
	return p;
}

void prestate_finish(struct prestate *p)
{
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
	free(p->want);
	free(p->state);
	free(p);
}
