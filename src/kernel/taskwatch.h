/* taskwatch.h — the tasks that exist, followed through the process events connector rather than
 * walked each reading: a walk of /proc (every process and its threads) seeds the set, the
 * connector's events keep it current, and the set is walked again after the kernel dropped
 * events and, as a safety net, every TASKWATCH_RESEED_S seconds. Where the connector is not
 * available (another network or pid namespace; before Linux 6.6 without CAP_NET_ADMIN) the opening
 * fails and the caller walks /proc as before. */
#ifndef DELAYTOP_TASKWATCH_H
#define DELAYTOP_TASKWATCH_H

#include <stddef.h>
#include <stdint.h>

#include "taskset.h"

#define TASKWATCH_RESEED_S 300

/* What the watch did since it opened. */
struct taskwatch_stats {
	uint64_t events; /* applied */
	uint64_t walks;  /* seeding walks: the first, after each loss, and the safety net's */
	uint64_t losses; /* times the kernel dropped events */
};

struct taskwatch;

/* Subscribes to the connector. Returns 0, or a negative errno with a message in err. */
int taskwatch_open(struct taskwatch **out, char *err, size_t errlen);
void taskwatch_close(struct taskwatch *w);

/* Brings the set up to date at now_ns (CLOCK_MONOTONIC): the events since the last call, or a
 * walk when one is due. Returns 0, or a negative errno when the connector failed for good (the
 * caller walks from then on; the watch should be closed). */
int taskwatch_update(struct taskwatch *w, uint64_t now_ns);

/* The set as of the last update. */
struct taskset *taskwatch_set(struct taskwatch *w);
const struct taskwatch_stats *taskwatch_stats(const struct taskwatch *w);

#endif
