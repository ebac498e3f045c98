/* taskwatch.c — the task set kept from the connector, seeded and reseeded by walks of /proc. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "procevents.h"
#include "procfs.h"
#include "taskwatch.h"
#include "xalloc.h"

/* The receive buffer asked for: some 10,000 events between two readings (a datagram costs its
 * socket about 800 bytes), more than a build's forks and exits in a few seconds. */
#define RCVBUF (8 << 20)

struct taskwatch {
	struct procevents *events;
	struct taskset set;
	int seeded;
	uint64_t seeded_ns;
	struct taskwatch_stats stats;
	uint32_t *pids, *tids; /* the walk's lists */
	size_t cappids, captids;
};

int taskwatch_open(struct taskwatch **out, char *err, size_t errlen)
{
	struct procevents *events;
	int rc = procevents_open(&events, RCVBUF, err, errlen);

	*out = NULL;
	if (rc < 0)
		return rc;
	*out = xcalloc(1, sizeof(**out));
	(*out)->events = events;
	taskset_init(&(*out)->set);
	return 0;
}

void taskwatch_close(struct taskwatch *w)
{
	if (!w)
		return;
	procevents_close(w->events);
	taskset_free(&w->set);
	free(w->pids);
	free(w->tids);
	free(w);
}

static void apply(void *arg, const struct procevent *e)
{
	struct taskwatch *w = arg;

	taskset_apply(&w->set, e);
	w->stats.events++;
}

/* Seeds the set with every process and its threads as /proc lists them now. The events queued
 * meanwhile are applied after it: a task made or ended during the walk comes out right. */
static int seed(struct taskwatch *w, uint64_t now_ns)
{
	size_t npids = 0;
	int rc = procfs_list(NULL, 0, &w->pids, &npids, &w->cappids);

	if (rc < 0)
		return rc;
	taskset_clear(&w->set);
	for (size_t i = 0; i < npids; i++) {
		size_t ntids = 0;

		procfs_threads(w->pids[i], &w->tids, &ntids, &w->captids);
		for (size_t k = 0; k < ntids; k++)
			taskset_add(&w->set, w->pids[i], w->tids[k]);
	}
	w->seeded = 1;
	w->seeded_ns = now_ns;
	w->stats.walks++;
	return 0;
}

int taskwatch_update(struct taskwatch *w, uint64_t now_ns)
{
	int rc = procevents_drain(w->events, apply, w);

	if (rc == -ENOBUFS)
		w->stats.losses++;
	else if (rc < 0)
		return rc;
	if (rc == -ENOBUFS || !w->seeded ||
	    now_ns - w->seeded_ns >= (uint64_t)TASKWATCH_RESEED_S * 1000000000) {
		rc = seed(w, now_ns);
		if (rc < 0)
			return rc;
		rc = procevents_drain(w->events, apply, w);
		if (rc == -ENOBUFS) /* lost again while walking: the next reading walks again */
			w->seeded = 0, w->stats.losses++;
		else if (rc < 0)
			return rc;
	}
	return 0;
}

struct taskset *taskwatch_set(struct taskwatch *w)
{
	return &w->set;
}

const struct taskwatch_stats *taskwatch_stats(const struct taskwatch *w)
{
	return &w->stats;
}
