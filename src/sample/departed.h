/* departed.h — exited tasks kept for the totals since the start: the DEPARTED_MAX that waited
 * most one by one, with what their rows show, the others summed in one row. Pure code. */
#ifndef DELAYTOP_DEPARTED_H
#define DELAYTOP_DEPARTED_H

#include <stddef.h>
#include <stdint.h>

#include "topn.h"
#include "totals.h"

#define DEPARTED_MAX 10000

/* An exited task: only what its row shows, a third of the size of a task with its process. */
struct departed {
	uint32_t pid, id, uid;
	uint32_t identity_uid; /* who its cgroup was delegated to (cgowner.h), 0: none */
	const char *user; /* "?", or a name that outlives the set (the users cache) */
	char *cmdline;
	char *cgroup;
	char comm[64];
	struct kind_totals acc;
};

struct departed_set {
	struct topn top;         /* by the time they waited */
	struct departed *others; /* the sum of the rest, or NULL */
};

/* keep: 0 keeps nothing (no front end shows totals since the start). */
void departed_init(struct departed_set *set, int keep);
void departed_clear(struct departed_set *set);

/* Takes d (allocated, with an allocated cmdline or NULL): keeps it, or adds it to the others. */
void departed_add(struct departed_set *set, struct departed *d);

/* How many rows the set makes: the kept tasks and the others' sum. */
size_t departed_count(const struct departed_set *set);

/* Iterates over the kept tasks and then the others' sum: for (size_t i = 0;
 * departed_next(set, &i, &d);) */
int departed_next(const struct departed_set *set, size_t *pos, const struct departed **out);

#endif
