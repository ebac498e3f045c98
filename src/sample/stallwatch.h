/* stallwatch.h — the tasks whose off-CPU stacks --why takes because they stalled (with
 * --trigger): the tasks that stalled most in each reading in each trigger's delay kinds and those
 * waiting in its stall state (the tasks an event would name, trigger.h's trigger_stallers) stay
 * chosen for the next STALL_KEEP readings, at most STALL_WATCH_MAX at once (every trigger's
 * stalled before any waiting), so that when a trigger fires, the stacks of its window exist for
 * the tasks its event names. Pure code. */
#ifndef DELAYTOP_STALLWATCH_H
#define DELAYTOP_STALLWATCH_H

#include <stddef.h>
#include <stdint.h>

#include "delaykind.h"
#include "model.h"
#include "trigger.h"

/* A task named in a reading stays chosen for this many readings after it. */
#define STALL_KEEP 3
/* Tasks chosen at once, at most: those named last are kept first. */
#define STALL_WATCH_MAX 32

struct stallwatch {
	struct trigger_spec triggers[TRIGGER_MAX];
	int ntriggers;
	uint32_t id[STALL_WATCH_MAX]; /* tids (thread rows) or pids */
	uint64_t seen[STALL_WATCH_MAX]; /* the reading that named it last */
	size_t n;
	uint64_t reading; /* readings so far */
};

/* Watches for the triggers[0..n) (at most TRIGGER_MAX). */
void stallwatch_init(struct stallwatch *w, const struct trigger_spec *triggers, int n);
/* Takes a reading: the tasks it names join (or stay), those not named for STALL_KEEP readings
 * leave. */
void stallwatch_update(struct stallwatch *w, const struct snapshot *snap);
/* The ids chosen now, into out (STALL_WATCH_MAX of room); how many. */
size_t stallwatch_ids(const struct stallwatch *w, uint32_t *out);

#endif
