/* trigger.h — PSI triggers: the kernel's trigger syntax ("memory some 150ms 1s", on the system's
 * /proc/pressure or on a cgroup's *.pressure file), the events text, which delay kinds make up the
 * stall of each resource, and who stalled. Pure code; registering one is trigwatch.h's. */
#ifndef DELAYTOP_TRIGGER_H
#define DELAYTOP_TRIGGER_H

#include <stddef.h>
#include <stdint.h>

#include "cgpath.h"
#include "delaykind.h"
#include "model.h"

/* The kernel's limits on a trigger's window (kernel/sched/psi.c). */
#define TRIGGER_WINDOW_MIN_US 500000ull
#define TRIGGER_WINDOW_MAX_US 10000000ull

/* At most this many --trigger options. */
#define TRIGGER_MAX 8

struct trigger_spec {
	int resource;      /* PSI_CPU, PSI_MEMORY, PSI_IO or PSI_IRQ */
	int full;          /* "full" rather than "some" */
	uint64_t stall_us; /* stalled this long ... */
	uint64_t window_us; /* ... within a window this long fires it */
	char cgroup[CGROUP_PATH_MAX]; /* the cgroup whose pressure file it watches; "" for the system */
	char text[64];     /* the resource, kind and times as written, for messages and events */
};

/* Parses "RESOURCE some|full STALL WINDOW [CGROUP]": STALL and WINDOW with the unit us, ms or s
 * (such as 150ms, 1s), the window from 500 ms to 10 s, the stall above 0 and at most the window;
 * CGROUP a path as /proc/PID/cgroup shows it. Returns 0, or -1 with a message naming the bad
 * value in err. Pure. */
int trigger_parse(const char *s, struct trigger_spec *out, char *err, size_t errlen);
/* The triggers of specs[0..n) whose bit is set in fired, as --trigger takes them, one a line,
 * into buf of size bytes ("" for none). */
void trigger_events(const struct trigger_spec *specs, int n, unsigned fired, char *buf, size_t size);

/* The pressure file a trigger watches, for messages and events. */
void trigger_file(const struct trigger_spec *t, char *buf, size_t size);

/* The delay kinds whose waits make up the stall of a resource: CPU for cpu, block I/O for io,
 * the memory ones (swap-in, reclaim, thrashing, compaction, write-protect copy) for memory, IRQ
 * for irq. */
kind_mask trigger_kinds(int resource);

/* A row's share of the interval in the kinds (the sum of those available); NAN when none is. */
double trigger_row_pct(const struct row *r, kind_mask kinds);

/* Who stalled: the rows of a reading (not those that ended before it) with the largest share in
 * the trigger's kinds, and the cgroups whose task rows add up to the largest share; those above
 * 0, largest first, at most TRIGGER_TOP of each. And who is stalled now: delay accounting counts
 * a wait when it ends, so a task blocked since before the reading shows no share while PSI counts
 * its stall. For io and memory, the task rows in state D (a process's main thread, or any of its
 * threads where their states were read) in the trigger's cgroup or below it (any, for the
 * system's), not among the first, at most TRIGGER_TOP in the reading's order, are named as
 * waiting. Pure. */
#define TRIGGER_TOP 5

struct trigger_stallers {
	const struct row *task[TRIGGER_TOP];
	double task_pct[TRIGGER_TOP];
	size_t ntasks;
	const struct row *waiting[TRIGGER_TOP]; /* in the resource's stall state now */
	size_t nwaiting;
	const char *cgroup[TRIGGER_TOP]; /* the rows' strings */
	double cgroup_pct[TRIGGER_TOP];
	size_t ncgroups;
};

void trigger_stallers(const struct snapshot *snap, const struct trigger_spec *t, struct trigger_stallers *out);

/* The rows an event names, the stalled then the waiting, into out (2 * TRIGGER_TOP of room);
 * how many. */
size_t trigger_named(const struct trigger_stallers *st, const struct row **out);

#endif
