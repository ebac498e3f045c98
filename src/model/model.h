/* model.h — one snapshot: the header facts and the rows of one interval, as both front ends (the
 * screen and the batch printers) see them. */
#ifndef DELAYTOP_MODEL_H
#define DELAYTOP_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "acctstate.h"
#include "latency.h"
#include "psi.h"
#include "rates.h"
#include "rowfield.h"
#include "stacks.h"
#include "totals.h"

struct cgroup_node;

/* One row: a task (process or thread), a departed task's totals, a cgroup, or the sum of the tasks of
 * one command name (show/rollup.h). */
struct row {
	ROW_FIELDS_MEMBERS; /* rowfield.h: ids, start, state, flags, parent, depth */
	/* rowfield.h's strings: they belong to whoever made the row (the sampler: until its next
	 * tick) */
#define ROW_STRING_DECL(member, none) const char *member;
	ROW_STRINGS(ROW_STRING_DECL)
#undef ROW_STRING_DECL
	long parent;         /* a cgroup row: the index of its parent's row, -1 for the root; so in
				the process tree, among the listing's copies */
	const struct cgroup_node *cg; /* a cgroup row: its node (pressure, states); NULL for tasks */
	struct task_rates r;
	const struct kind_totals *acc; /* since delaytop's first reading; NULL where the sampler keeps
					  none (sampler_opts.no_totals) */
	/* a task's readings, for the recorder: the last, the one before (NULL for a task new in
	 * this interval), their accounting fields (NULL: none were wanted) and its longest waits;
	 * NULL for a departed task, a cgroup, a copy */
	const struct sample *base, *last;
	const struct acct_pair *acct;
	const struct peaks *peak;
	const struct lat_waits *lat; /* --why: the row's waits in the interval by kind (latency.h);
					NULL: none, and no kind it lacks. Whoever made the row owns it */
	const struct stk_list *stacks; /* --why: the row's top off-CPU stacks (stacks.h); NULL when
					  its stacks were not taken. Whoever made the row owns it */
	uint8_t still; /* thread mode: the task's reading was carried over (steady.h) and what its row
			  takes of its process did not change: all of it is as at the reading before,
			  but for its time */
	uint32_t procs; /* a row of the roll-up by command (show/rollup.h): the processes it sums;
			   0 for every other row */
};

/* What a front end asks process rows to read beyond the kernel's per-process answer, for the
 * processes that ran: the accounting fields it lacks (I/O, CPU times, high-water marks) from
 * /proc, and the longest waits, which taskstats keeps per thread, from their threads. */
enum { WANT_ACCT = 1, WANT_PEAKS = 2 };

/* Where a reading's list of tasks came from. */
enum task_source {
	TASKS_UNKNOWN,  /* not said (a recording) */
	TASKS_WALKED,   /* a walk of /proc */
	TASKS_FOLLOWED, /* the process events connector, which told every fork and exit since a walk */
};

struct snapshot {
	struct timespec wall; /* when the reading started */
	double interval_s;    /* length of the interval; 0 for the first reading (no rates) */
	double elapsed_s;     /* since delaytop's first reading */
	double reading_s;     /* how long this reading took, its rows made (also when made later, at
				 the screen's hand-over: sampler_rows) */
	int threads;          /* rows are threads rather than processes */
	unsigned nprocs, nthreads; /* on the system */
	int delayacct;        /* DELAYACCT_*: kernel.task_delayacct now */
	int limited;          /* no CAP_NET_ADMIN: only CPU and I/O delay, from /proc */
	int listening;        /* exits between readings are counted */
	enum task_source tasks_from;
	uint64_t task_walks;  /* TASKS_FOLLOWED: walks of /proc since the start (the first, one after
				 each loss of events, the safety net's) */
	uint64_t exits;       /* exit records received, since start */
	uint64_t exits_lost;  /* exit records the kernel dropped, since start */
	struct why_header why; /* the eBPF side (--why): off, on with the kinds measured, or why not */
	struct psi_snapshot psi;
	const char *events;   /* the PSI triggers that fired just before this reading, one spec a line
				 (as --trigger takes it); NULL: none. Only a recording carries them */
	struct row *rows;
	size_t nrows;
	int cgroups;          /* the cgroup view: cgroup_rows hold a tree of cgroups */
	const char *cgroup_source; /* where the state counts come from: "cgroupstats" or "tasks" */
	const char *cgroup_mount; /* where the one cgroup hierarchy followed is mounted; NULL: none, or
				     not known (a recording) */
	int cgroup_v2;            /* that hierarchy is v2 */
	int cgroup_hybrid;        /* v1 controllers are mounted beside it, and not followed */
	struct row *cgroup_rows; /* parents before children; row i's parent is cgroup_rows[parent] */
	size_t ncgroup_rows;
};

#endif
