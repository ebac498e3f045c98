/* model.h — one snapshot: the header facts and the rows of one interval, as both front ends (the
 * screen and the batch printers) see them. */
#ifndef DELAYTOP_MODEL_H
#define DELAYTOP_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "acctstate.h"
#include "psi.h"
#include "rates.h"
#include "totals.h"

struct cgroup_node;

/* Tasks by state, as the kernel's cgroupstats counts them. */
enum cg_state { CG_RUNNING, CG_SLEEPING, CG_UNINTERRUPTIBLE, CG_STOPPED, CG_IOWAIT, CG_STATES };

struct row {
	uint32_t pid; /* the process (thread group id) */
	uint32_t tid; /* the thread in thread mode; 0 in process mode */
	uint32_t ppid; /* the process's parent; 0 when unknown */
	uint64_t start_ns; /* with pid and tid, the task's identity (0 for a departed task) */
	uint32_t uid;
	char state;   /* as in ps(1): R, S, D, Z, T, ...; '?' when unknown */
	uint8_t exited;   /* the task ended during the interval, or earlier when departed */
	uint8_t departed; /* it ended before this interval: only its totals since the start count */
	uint8_t fresh;    /* first reading of this task: no rates yet */
	uint8_t partial;  /* limited mode, process row: threads came or went during the interval, and
			     the delays of those that ended are missing from it */
	const char *user;    /* strings belong to the sampler and live until its next tick */
	const char *comm;
	const char *cmdline; /* full command line, or NULL when unknown */
	const char *cgroup;  /* the task's cgroup path (a cgroup row's own), or NULL when unknown */
	uint32_t nthreads;   /* live threads the row stands for (a cgroup row: in it and below) */
	uint32_t states[CG_STATES]; /* a process row in the cgroup view: its threads by state */
	uint8_t have_states;
	int depth;           /* a cgroup row: its depth in the tree; in the process tree (a listing's
				copy of a process row) the process's */
	long parent;         /* a cgroup row: the index of its parent's row, -1 for the root; so in
				the process tree, among the listing's copies */
	const struct cgroup_node *cg; /* a cgroup row: its node (pressure, states); NULL for tasks */
	struct task_rates r;
	const struct kind_totals *acc; /* since delaytop's first reading */
	/* a task's readings, for the recorder: the last, the one before (NULL for a task new in
	 * this interval) and its longest waits; NULL for a departed task, a cgroup, a copy */
	const struct sample *base, *last;
	const struct peaks *peak;
};

/* What a front end asks process rows to read beyond the kernel's per-process answer, for the
 * processes that ran: the accounting fields it lacks (I/O, CPU times, high-water marks) from
 * /proc, and the longest waits, which taskstats keeps per thread, from their threads. */
enum { WANT_ACCT = 1, WANT_PEAKS = 2 };

struct snapshot {
	struct timespec wall; /* when the reading started */
	double interval_s;    /* length of the interval; 0 for the first reading (no rates) */
	double elapsed_s;     /* since delaytop's first reading */
	double reading_s;     /* how long this reading took */
	int threads;          /* rows are threads rather than processes */
	unsigned nprocs, nthreads; /* on the system */
	int delayacct;        /* DELAYACCT_*: kernel.task_delayacct now */
	int limited;          /* no CAP_NET_ADMIN: only CPU and I/O delay, from /proc */
	int listening;        /* exits between readings are counted */
	uint64_t exits;       /* exit records received, since start */
	uint64_t exits_lost;  /* exit records the kernel dropped, since start */
	struct psi_snapshot psi;
	const char *events;   /* the PSI triggers that fired just before this reading, one spec a line
				 (as --trigger takes it); NULL: none. Only a recording carries them */
	struct row *rows;
	size_t nrows;
	int cgroups;          /* the cgroup view: cgroup_rows hold a tree of cgroups */
	const char *cgroup_source; /* where the state counts come from: "cgroupstats" or "tasks" */
	struct row *cgroup_rows; /* parents before children; row i's parent is cgroup_rows[parent] */
	size_t ncgroup_rows;
};

#endif
