/* steady.h — thread mode's shortcut: which processes did not move since the last tick.
 *
 * The kernel's per-process answer (TASKSTATS_CMD_ATTR_TGID) sums over every thread, those that
 * exited included, the delay totals and counts of each kind, the CPU count (one per arrival on a
 * CPU), the CPU time and the context switches. A thread that ran, waited, was born or ended moves
 * one of those sums, so a process whose answer is the same as at the last tick has threads whose
 * last readings still hold: they are carried over instead of asked about again.
 *
 * A process that moved at the last tick (a timer thread, a worker) is split instead: the threads
 * that moved then, or are new, are asked first, then the process; if the process's answer less
 * what the ended threads left in it is the sum of what the hot threads say now and the others
 * said at their last readings, the others did not move and keep their readings. Every counter
 * summed only grows while no thread ends, and the hot threads were asked before the process, so
 * the answer can only be that sum when nothing else moved (and no hot thread moved in between);
 * anything else asks every thread, as does a thread ending, and that reading, made after the
 * process's answer, gives anew what ended threads left. The sums are steady_sum(), which adds up
 * like the counters. Pure code. */
#ifndef DELAYTOP_STEADY_H
#define DELAYTOP_STEADY_H

#include <stdint.h>

#include "counters.h"
#include "proctable.h"

/* What of a per-process answer moves whenever any of its threads ran, waited, came or went. */
uint64_t steady_signature(const struct task_counters *c);

/* A signature of the counters steady_signature() covers that adds up as they do: the sum of two
 * answers' is the sum of their steady_sum()s (mod 2^64); it differs for different counters but
 * for a chance of 2^-64. */
uint64_t steady_sum(const struct task_counters *c);

/* Whether a task seen for the first time is likely to run again soon: it arrived on a CPU about
 * once a second or more over its life (a timer thread, a worker), as its counters c say. */
int steady_likely_hot(const struct task_counters *c);

/* Records the per-process answer c of tick (NULL: none came, as for a process that ended) and
 * says whether p is steady: answered at the last tick and at this one, alike, with its threads
 * read or carried at the last tick (carried_ok: the caller's rules allow carrying this tick). */
int steady_check(struct proc *p, const struct task_counters *c, uint32_t tick, int carried_ok);

#endif
