/* steady.h — thread mode's shortcut: which processes did not move since the last tick.
 *
 * The kernel's per-process answer (TASKSTATS_CMD_ATTR_TGID) sums over every thread, those that
 * exited included, the delay totals and counts of each kind, the CPU count (one per arrival on a
 * CPU), the CPU time and the context switches. A thread that ran, waited, was born or ended moves
 * one of those sums, so a process whose answer is the same as at the last tick has threads whose
 * last readings still hold: they are carried over instead of asked about again. Pure code. */
#ifndef DELAYTOP_STEADY_H
#define DELAYTOP_STEADY_H

#include <stdint.h>

#include "counters.h"
#include "proctable.h"

/* What of a per-process answer moves whenever any of its threads ran, waited, came or went. */
uint64_t steady_signature(const struct task_counters *c);

/* Records the per-process answer c of tick (NULL: none came, as for a process that ended) and
 * says whether p is steady: answered at the last tick and at this one, alike, with its threads
 * read or carried at the last tick (carried_ok: the caller's rules allow carrying this tick). */
int steady_check(struct proc *p, const struct task_counters *c, uint32_t tick, int carried_ok);

#endif
