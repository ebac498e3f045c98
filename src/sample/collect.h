/* collect.h — the collectors: one tick's readings of every selected task into the task table,
 * from taskstats (a query per process in process mode, per thread in thread mode), from /proc
 * alone without CAP_NET_ADMIN (limited mode), and from the exit records queued since the last
 * tick. The kernel edge is called only through the sampler's instance of the seam (kernelops.h),
 * so that a fake kernel can drive them. */
#ifndef DELAYTOP_COLLECT_H
#define DELAYTOP_COLLECT_H

#include <stddef.h>
#include <stdint.h>

#include "cgroupfs.h"
#include "exitqueue.h"
#include "kernelops.h"
#include "proctable.h"
#include "selection.h"
#include "tasktable.h"
#include "users.h"

struct collector {
	struct kernel *k; /* the kernel edge (the sampler's) */
	struct proctable *procs;
	struct tasktable *tasks;
	const struct selection *sel;
	struct users *users;
	const struct tick_times *tt;
	const struct reading_rules *rules;
	const struct cgroup_hier *hier; /* where tasks' cgroups are read */
	int want_states;  /* the cgroup view on v2: count every process's threads by state, reading
			     the states of those that ran (threadnotes.h) */
	int read_all;     /* thread mode: ask about every thread at the next tick (the selection or
			     the mode changed), not only those of the processes that moved */
	int last_delayacct; /* the switch at the last thread-mode tick */
	int want_acct;      /* process mode: read from /proc the accounting fields the kernel's
			       per-process answer lacks (I/O, CPU times, high-water marks) */
	int want_peaks;     /* process mode: ask the threads that ran for their longest waits
			       (threadnotes.h) */
	size_t prestate_min; /* thread mode: the states of this many new threads or more are read
				beside the queries (prestate.h); 0: PRESTATE_MIN */

	/* scratch, reused every tick */
	uint32_t *ids;
	size_t nids, capids;
	struct proc **owner; /* the process of each id */
	size_t capowner;
	const uint32_t *qids; /* thread mode: the ids of the query under way */
	struct proc **qowner; /* and the process of each */
	uint32_t *hot_ids;    /* thread mode: the hot threads of the processes split (steady.h) */
	struct proc **hot_owner;
	size_t nhot, caphot_ids, caphot_owner;
	uint32_t *tids; /* one process's threads */
	size_t ntids, captids;
	int full_pass; /* thread mode: the query under way asks every thread of the processes in it */
	struct task_counters *replies; /* process mode: the answer for each id, until its process is read */
	uint32_t *fids;       /* process mode: a batch of the thread notes (threadnotes.h) */
	struct proc **fowner; /* and the process of each */
	uint32_t *fslot;      /* and each thread's note, or the process's index in ids */
	size_t nf, capfids, capfowner, capfslot;
	uint32_t *sub_ids;    /* process mode: the processes still to ask */
	size_t *sub_index;    /* and their index in ids */
	size_t capsub_ids, capsub_index;
	uint8_t *answered;
	uint64_t *answered_at;
	size_t capreplies;
};

/* Frees the scratch. */
void collector_free(struct collector *c);

/* Process mode: the pids from /proc, one query per process, the stat of the processes that ran;
 * with want_acct, also their accounting fields from /proc.
 * Returns 0, or a negative errno (-EPERM without the capability) with a message in err. */
int collect_processes(struct collector *c, char *err, size_t errlen);

/* Thread mode: one query per selected process, then one per thread of the processes whose
 * answer moved since the last tick; the threads of the others keep their readings (steady.h).
 * The state of the threads that ran. Returns as collect_processes. */
int collect_threads(struct collector *c, char *err, size_t errlen);

/* Limited mode: what /proc gives anyone, per thread, summed for process rows, which are marked
 * partial when their set of threads changed. Returns 0 or a negative errno with a message. */
int collect_limited(struct collector *c, char *err, size_t errlen);

/* Folds the queued exit records into the tick (collectexit.c): a task's final counters replace
 * its last reading. A task never read before has a baseline only if it was born during the
 * interval. */
void collect_exits(struct collector *c, const struct exitqueue *q);

#endif
