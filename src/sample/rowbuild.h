/* rowbuild.h — the rows of a snapshot, made from the task table and the departed tasks: each
 * task read this tick gets the rates of the interval (and adds them to its totals since the
 * start); the departed tasks follow with their totals only. Pure code. */
#ifndef DELAYTOP_ROWBUILD_H
#define DELAYTOP_ROWBUILD_H

#include <stddef.h>
#include <stdint.h>

#include "departed.h"
#include "model.h"
#include "tasktable.h"

struct rowbuf {
	struct row *rows;
	size_t cap;
};

/* Builds the rows of tick into b and returns how many; others_name names the row that sums the
 * departed tasks not kept one by one. The rows of tasks that keep no totals have none (acc
 * NULL); where the tasks keep them only once they have any (tasks->moved_totals), a task that
 * moved since the first reading is given its own here, and the others' rows point to zero ones
 * shared. The rows point into tasks and departed, and live until their next change. */
size_t rowbuild(struct rowbuf *b, struct tasktable *tasks, const struct departed_set *departed, uint32_t tick,
		int threads, const char *others_name);

void rowbuf_free(struct rowbuf *b);

#endif
