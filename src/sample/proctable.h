/* proctable.h — the processes the sampler knows: identity (pid and start), what their stat said,
 * and their user and command line, read once per process and again only after exec or a change
 * of user. Tasks point at their process; a process gone from /proc lives on while tasks point at
 * it (an exited task's row still names its process). Pure code: the /proc readers hand in what
 * they read, and the command lines and cgroups come through the seam (kernelops.h). */
#ifndef DELAYTOP_PROCTABLE_H
#define DELAYTOP_PROCTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "acctfield.h"
#include "cgowner.h"
#include "cgroupfs.h"
#include "counters.h"
#include "idmap.h"
#include "kernelops.h"
#include "procfs.h"
#include "users.h"

struct proc {
	uint32_t pid;
	uint32_t ppid;     /* its parent, as its stat or exit record said; 0: unknown */
	int32_t nice;      /* as its stat said; ROW_NICE_NONE: unknown */
	uint64_t activity; /* run time + CPU count at the last read of its stat (process mode), or of
			      its main thread's answer (thread mode) */
	uint32_t seen;   /* last tick whose rows may point here */
	uint32_t walked; /* last tick whose walk saw it */
	uint32_t read;   /* last tick its stat was read at (proctable_update) */
	uint32_t changed; /* last tick what a thread's row takes of it changed at (ids, user, nice,
			     command line, cgroup) */
	uint64_t start_ticks;
	uint32_t euid;
	int refs;      /* tasks pointing here */
	int detached;  /* no longer in the table: freed when refs drop to 0 */
	int nlwp;
	char state;
	int described; /* user and command line were read */
	int reread;    /* thread mode: its stat is to be read again after the queries */
	const char *user; /* from the users cache, or "?" */
	char comm[64];
	char *cmdline;
	char *cgroup;  /* its path in the cgroup hierarchy shown, or NULL when unknown */
	uint32_t identity_uid; /* who that cgroup is delegated to (cgowner.h), looked up when the
				  path is read anew; 0: none, or not known */
	uint32_t states[CG_STATES]; /* the cgroup view: its threads by state, when have_states */
	uint8_t have_states;
	uint64_t sig;      /* thread mode: the signature of its per-process answer (steady.h) */
	uint32_t sig_tick; /* the tick of that answer, 0 when none */
	uint32_t steady;   /* the tick whose readings of its threads were carried over */
	uint32_t moved;    /* thread mode: the last tick a thread of it had run since the tick before */
	/* thread mode, its split (steady.h): */
	uint64_t rest;          /* steady_sum() of what its ended threads left in its answer */
	uint32_t rest_tick;     /* the tick rest held at; 0: unknown */
	uint64_t sum;           /* steady_sum() of the readings of its threads at sum_tick */
	uint32_t nsum, sum_tick; /* how many threads that sums */
	uint32_t hot_tick;      /* the tick its hot threads were asked first at */
	uint32_t nhot, nhot_answered;
	uint64_t hot_delta;     /* what their readings added to sum */
	uint32_t split;         /* the tick the others' readings were carried over at */
	uint32_t nlisted, nread; /* a full reading: threads asked, and answered */
	uint64_t read_sum;      /* their steady_sum()s */
	uint64_t answer_sum;    /* steady_sum() of its answer at this tick */
	uint8_t answered;       /* it answered at this tick */
	/* process mode: the accounting fields the per-process answer lacks, from /proc */
	uint64_t acct[AF_COUNT];
	uint32_t acct_groups;    /* the HAVE_* groups they hold */
	uint32_t acct_tick;      /* the tick they were last read or carried over at; 0: never */
	uint64_t acct_activity;  /* the process's activity when they were read */
	/* process mode: the longest single wait of each kind over its threads' lives, ended ones
	 * included (taskstats keeps it per thread; the per-process answer has none) */
	uint64_t peak_ns[DK_COUNT];
	int64_t peak_at_ns[DK_COUNT]; /* when, ns since the epoch; 0: unknown */
	kind_mask peak_kinds, peak_kinds_ts;
	/* process mode: its threads' notes, while their states or longest waits are wanted
	 * (threadnotes.h), and the tick they last changed at */
	struct thread_notes *notes;
	uint32_t notes_tick;
};

struct proctable {
	struct idmap map;  /* pid -> struct proc */
	uint32_t *fresh;   /* processes to describe: new, ran exec or changed user */
	size_t nfresh, capfresh;
	uint32_t *moved;   /* processes whose cgroup is to be read: their stat was read (new or ran) */
	size_t nmoved, capmoved;
	struct cgowner *owners; /* who cgroups are delegated to (the sampler's); NULL: not asked */
};

void proctable_init(struct proctable *t);
void proctable_free(struct proctable *t);

struct proc *proctable_get(const struct proctable *t, uint32_t pid);

/* Finds or makes the process of a walk entry, seen at tick; a pid now held by a newer process
 * gets a new one. One that is new, changed its user or ran exec (its name changed) is queued to
 * be described; every one is queued to have its cgroup read (a process is read when it is new
 * or ran, and a process moved to another cgroup shows there once it runs). */
struct proc *proctable_update(struct proctable *t, const struct proc_entry *e, uint32_t tick, struct users *users);

/* Reads the command line of the queued processes through k (their user's name came from the
 * users cache when they were queued), and the cgroup of those queued for it in hier; a cgroup
 * path read anew has its delegate looked up (t->owners). */
void proctable_describe(struct proctable *t, struct kernel *k, const struct cgroup_hier *hier);

/* A process seen only in an exit record of tick, made up from the record's counters. */
struct proc *proctable_ghost(struct proctable *t, uint32_t pid, const struct task_counters *c, uint32_t tick,
			     struct users *users);

/* Drops the processes that tick did not see; those still pointed at live on, detached. */
void proctable_retire(struct proctable *t, uint32_t tick);

/* The processes and threads the walk of tick saw. */
void proctable_count(const struct proctable *t, uint32_t tick, unsigned *procs, unsigned *threads);

/* Folds the longest waits of one of p's threads (its counters c) into p's. */
void proc_peak_add(struct proc *p, const struct task_counters *c);

/* Gives a process's counters c the longest waits of its threads, as far as p knows them. */
void proc_peak_apply(const struct proc *p, struct task_counters *c);

/* A task's pointer to its process: takes a reference on p and drops the one on old. */
void proc_repoint(struct proc **slot, struct proc *p);

#endif
