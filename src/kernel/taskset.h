/* taskset.h — which tasks exist, known without walking /proc: each process (thread group) and its
 * threads, seeded by one walk and then kept current by the process events connector's forks,
 * execs and exits (kernel/procevents.h). Listing the processes or a process's threads then costs
 * what the set holds, not what the kernel's readdir of /proc costs (a step over every thread of
 * the machine to find each thread group leader). The owner walks again after events were lost.
 * Pure code. */
#ifndef DELAYTOP_TASKSET_H
#define DELAYTOP_TASKSET_H

#include <stddef.h>
#include <stdint.h>

#include "idmap.h"
#include "procevents.h"

struct taskset {
	struct idmap procs; /* tgid -> struct taskset_proc */
	uint32_t *pids;     /* every tgid, ascending, while pids_ok */
	size_t npids, cappids;
	int pids_ok;
	size_t nthreads;
};

void taskset_init(struct taskset *s);
void taskset_free(struct taskset *s);
/* Forgets every task (before a walk seeds the set again). */
void taskset_clear(struct taskset *s);

/* Task tid of process tgid exists (tid == tgid: its main thread); adding one known is nothing. */
void taskset_add(struct taskset *s, uint32_t tgid, uint32_t tid);
/* Task tid of tgid ended; the process goes with its last thread. */
void taskset_remove(struct taskset *s, uint32_t tgid, uint32_t tid);
/* Applies one event of the connector: a fork adds, an exit removes, an exec leaves the process
 * its one thread (exec ends the others, and a thread that runs exec takes the process's id). */
void taskset_apply(struct taskset *s, const struct procevent *e);

/* Appends every process's id, ascending (as /proc lists them), to *out (a growable array of
 * *cap), or of those of pids[0..npids) that exist when npids > 0. */
void taskset_list(struct taskset *s, const uint32_t *pids, size_t npids, uint32_t **out, size_t *n,
                  size_t *cap);
/* Appends the thread ids of pid, ascending, to *tids (a growable array of *cap); returns how many
 * (0: no such process). */
size_t taskset_threads(const struct taskset *s, uint32_t pid, uint32_t **tids, size_t *n, size_t *cap);
/* Processes and threads in the set. */
size_t taskset_nprocs(const struct taskset *s);
size_t taskset_nthreads(const struct taskset *s);

#endif
