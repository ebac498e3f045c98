/* tsabi.h — decoding a struct taskstats payload of any version into struct task_counters.
 *
 * delaytop carries its own layout table (delaykind.c, tsabi.c) and never the build machine's
 * <linux/taskstats.h>: the kernel that answers may be older or newer than the headers. */
#ifndef DELAYTOP_TSABI_H
#define DELAYTOP_TSABI_H

#include <stddef.h>
#include <stdint.h>

#include "counters.h"

/* The newest struct version whose layout delaytop knows; newer ones decode by size. */
#define TSABI_KNOWN_VERSION 17

/* Decodes payload (any alignment) into *out. The payload's version field and its length decide
 * which fields exist; the rest stay unavailable (a group of fields, such as the I/O counters, is
 * there whole or not at all). Returns 0, or -EINVAL for a payload that cannot be a struct
 * taskstats (too short for the CPU counters, or version 0). */
int tsabi_decode(const void *payload, size_t len, struct task_counters *out);

/* The same in two steps, for a stream of replies of one shape: a plan of the copies that a
 * payload of this version and length needs, and running it. */
#define TSABI_MAX_STEPS 96

struct tsabi_step {
	uint16_t src, dst, size;
};

struct tsabi_plan {
	uint16_t version;
	size_t len;
	int status; /* 0, or -EINVAL */
	uint32_t have;
	kind_mask kind_total, kind_count, kind_max, kind_max_ts;
	uint16_t btime32; /* offset of the 32-bit start time, 0 when absent */
	unsigned nsteps;
	struct tsabi_step steps[TSABI_MAX_STEPS];
};

/* Works out the plan for payloads like this one; returns its status. */
int tsabi_plan(struct tsabi_plan *plan, const void *payload, size_t len);
/* Whether payload has the version and length plan was made for. */
int tsabi_plan_fits(const struct tsabi_plan *plan, const void *payload, size_t len);
/* Decodes payload by plan; returns the plan's status. */
int tsabi_apply(const struct tsabi_plan *plan, const void *payload, struct task_counters *out);

#endif
