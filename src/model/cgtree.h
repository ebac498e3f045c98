/* cgtree.h — the cgroup view's rows: one per cgroup, in a tree, each summing the delays of every
 * task in it and below during the interval (exited tasks included) and since the start, with its
 * task count, its tasks by state and the cgroup's own pressure. Pure code: the cgroups and their
 * facts come from the sampler, the tasks from a snapshot's rows. */
#ifndef DELAYTOP_CGTREE_H
#define DELAYTOP_CGTREE_H

#include <stddef.h>
#include <stdint.h>

#include "latency.h"
#include "model.h"
#include "psi.h"
#include "totals.h"

/* What the sampler read about one cgroup. */
struct cgroup_facts {
	char *path;               /* normalized; owned by the cgroup table */
	struct psi_snapshot psi;  /* its pressure, with the interval's pct */
	uint64_t states[CG_STATES]; /* its own tasks by state, when have_states */
	int have_states;          /* 1: from CGROUPSTATS (v1) */
	int busy;                 /* tasks were in it or below during the interval */
	uint32_t identity_uid;    /* who it is delegated to (cgowner.h); 0: none, or not known */
	/* the sampler's, from one reading to the next (none in a recording): its directory's inode,
	 * its owner and the reading the owner was read at (0: not read); while a reading is made,
	 * its index in the last reading's table + 1 (0: none) */
	uint64_t ino;
	uint32_t owner, owner_read;
	uint32_t old;
};

/* One node of the tree. */
struct cgroup_node {
	const struct cgroup_facts *facts; /* NULL for a cgroup only the tasks named */
	const char *path;
	const char *name;    /* the last part of the path, "/" for the root */
	int depth;           /* 0 for the root of the tree shown */
	long parent;         /* index of the parent node, -1 for the root */
	uint32_t tasks;      /* live threads in it and below */
	uint32_t procs;      /* live processes in it and below */
	uint64_t states[CG_STATES]; /* in it and below */
	kind_mask states_have; /* bit s: states[s] is known (iowait only from CGROUPSTATS) */
	struct kind_totals acc; /* since the start, in it and below, departed tasks included */
};

struct cgtree {
	struct cgroup_node *nodes;
	size_t n, cap;
	struct row *rows; /* one per node, same index */
	size_t caprows;
	char **made;      /* paths of cgroups the walk did not see, made up for their tasks */
	size_t nmade;
	const struct row **order; /* the task rows in the order they are summed */
	size_t caporder;
	/* --why: each node's waits in the interval (cgtree_sum_latency), per node LAT_KINDS
	 * histograms, the first ones those of its kinds; what its row's lat points to */
	struct lat_hist *lat;
	struct lat_waits *latw;
	uint8_t *lat_tasks; /* the node has a task in it or below */
	size_t caplat, caplatw, caplat_tasks;
};

/* Builds the tree of the cgroups in facts[0..nfacts) (sorted by path, the first the root shown)
 * and the cgroups of the tasks in rows[0..nrows) that are at or below the root; sums the task
 * rows into their cgroup and its ancestors. states_from_tasks: count the tasks' states (v2)
 * rather than take CGROUPSTATS'. Returns the number of rows, in tree.rows; they point into tree,
 * facts and the task rows, and live until the next build. */
size_t cgtree_build(struct cgtree *tree, const struct cgroup_facts *facts, size_t nfacts, const struct row *rows,
		    size_t nrows, int states_from_tasks);

/* --why: gives each row of the tree built last the sum of the waits (row.lat) of the task rows
 * in its cgroup and below, rows as given to cgtree_build. A kind a cgroup's tasks all lack (a
 * delayacct kind, for tasks forked while it was off) it lacks too. */
void cgtree_sum_latency(struct cgtree *tree, const struct row *rows, size_t nrows);

void cgtree_free(struct cgtree *tree);

#endif
