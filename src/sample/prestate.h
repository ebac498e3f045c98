/* prestate.h — the first reading of a big machine: the states of its many new threads. Taken from
 * the kernel's table of every task's state (kernelops.h's all_states, one read) when it gives one,
 * those it lacks read from /proc at the start; else read from
 * /proc on a thread of its own while the caller asks taskstats about them, and then on both,
 * instead of all after the queries. Each read is a system call on a file of its own, so two
 * threads do them side by side; the reading thread touches only the ids, their processes' pids
 * and its own array of states (not the task table, which the answers fill meanwhile). Through the
 * kernel seam it calls only open_threads, thread_state and close_threads, while the caller's
 * thread calls query (and thread_io from its answers), then the same three (kernelops.h says
 * which calls may run at once). */
#ifndef DELAYTOP_PRESTATE_H
#define DELAYTOP_PRESTATE_H

#include <stddef.h>
#include <stdint.h>

#include "kernelops.h"
#include "proctable.h"

/* Fewer states than this are read after the queries, as for any tick. */
#define PRESTATE_MIN 2048

struct prestate;

/* Starts reading the state of ids[k] (a thread of owner[k]) for each k with want[k] (n ids,
 * grouped by process), which it takes. NULL when there are fewer than min, or without a table one
 * CPU or no thread could start: the caller reads them itself. */
struct prestate *prestate_start(struct kernel *k, const uint32_t *ids, struct proc *const *owner, size_t n,
				uint8_t *want, size_t min);

/* Reads along until every state is read and waits for the thread; then state(p)[k] is ids[k]'s
 * state, 0 where it was not wanted or could not be read. */
void prestate_finish(struct prestate *p);
const char *prestate_states(const struct prestate *p);
const uint8_t *prestate_wanted(const struct prestate *p);

void prestate_free(struct prestate *p);

#endif
