/* snapcopy.h — a snapshot that owns its memory. A sampler's snapshot points into the sampler's
 * tables, which its next tick changes; a front end that goes on showing a snapshot while the next
 * reading runs on another thread shows a copy: its rows, their totals since the start, the cgroup
 * nodes and their facts, the rows' waits (--why), one task's off-CPU stacks (--why: the task the
 * screen's detail view shows, not every row's; a recording's: every row's it holds) and every
 * string (each distinct one once, nearly
 * always). Buffers are kept from one copy to the next. Pure code. */
#ifndef DELAYTOP_SNAPCOPY_H
#define DELAYTOP_SNAPCOPY_H

#include <stddef.h>

#include "cgtree.h"
#include "model.h"
#include "sampler.h"
#include "totals.h"

struct snapcopy_strings;

struct snapcopy {
	struct snapshot snap; /* the copy: every pointer in it points into the buffers below */
	struct row *rows, *cgroup_rows;
	size_t caprows, capcgroup_rows;
	struct kind_totals *acc; /* the task rows' totals, same index, when copied */
	size_t capacc;
	struct cgroup_node *nodes; /* the cgroup rows' nodes and facts, same index */
	struct cgroup_facts *facts;
	size_t capnodes;
	struct lat_waits *lat;     /* the rows' waits (row.lat), task rows' then cgroup rows' */
	size_t caplat, nlat;
	struct lat_hist *hist;     /* and their histograms */
	size_t caphist, nhist;
	uint32_t stacks_of;        /* the task whose stacks (row.stacks) are copied: a tid in thread
				      rows, else a pid; 0: none. The others' stacks are NULL */
	int all_stacks;            /* every row's stacks are copied (a recording holds few) */
	struct stk_list *lists;    /* the stacks copied: the rows' lists, */
	size_t caplists, nlists;
	struct stk_stack *stacks;  /* their stacks */
	size_t capstacks, nstacks;
	const char **frames;       /* and their frames (the names among the strings) */
	size_t capframes, nframes;
	struct snapcopy_strings *strings;
};

void snapcopy_init(struct snapcopy *c);
void snapcopy_free(struct snapcopy *c);

/* Makes c a copy of src that stays valid until the next snapcopy_take() or snapcopy_free().
 * totals: with the task rows' totals since the start (rows in a row that share theirs share one
 * copy); without (the part that reads memory all over the sampler's tables) their acc is NULL.
 * Cgroup rows keep theirs either way. */
void snapcopy_take(struct snapcopy *c, const struct snapshot *src, int totals);

/* The same of a reading of s whose task rows s left to be made (sampler_set_defer): they are
 * made into c's own rows, not copied; s must be still meanwhile (its reading thread waiting). */
void snapcopy_take_made(struct snapcopy *c, struct sampler *s, const struct snapshot *src, int totals);

#endif
