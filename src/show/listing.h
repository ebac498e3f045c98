/* listing.h — the rows a front end shows: a snapshot's rows that pass the filter, in the sort
 * order. The one place where the screen and the batch printers select, filter and sort. Pure code. */
#ifndef DELAYTOP_LISTING_H
#define DELAYTOP_LISTING_H

#include <stddef.h>

#include "columns.h"
#include "filter.h"
#include "model.h"
#include "order.h"
#include "rollup.h"

/* How to choose and order rows. */
struct listing_spec {
	struct filter filter;
	struct display display;
	int sort_col; /* a column_id */
	int reverse;
	const char *const *folded; /* the cgroup view: cgroups whose subtrees are hidden */
	size_t nfolded;
};

struct pid_index;

struct listing {
	const struct row **rows; /* into the snapshot: live until its sampler's next tick */
	size_t n, cap;
	uint8_t *folded;         /* the cgroup view: per listed row, its subtree is hidden */
	size_t capfolded;
	/* scratch for the tree */
	const struct row **sorted;
	size_t capsorted;
	long *first, *next;      /* children lists by row index */
	uint8_t *shown;
	size_t capnodes;
	struct order_buf sort;   /* the sort's memory, kept */
	/* the process tree: copies of the process rows, linked to their parents (and summed) */
	struct row *copies;
	size_t capcopies;
	struct kind_totals *sums; /* the copies' totals since the start, with tree_sums */
	size_t capsums;
	struct pid_index *bypid;
	size_t capbypid;
	struct rollup commands;   /* the roll-up by command: a row a command name */
};

/* What process rows must read for the spec (sampler_opts.wants): the accounting fields when it
 * shows or sorts by an accounting column, the longest waits when its cells show them or it shows
 * or sorts by MAX AT. */
unsigned listing_wants(const struct listing_spec *spec);

/* Whether the spec shows or sorts by anything of the totals since the start (the rows' acc): the
 * totals themselves, or MAX AT (when a longest wait was, which the totals keep). */
int listing_reads_totals(const struct listing_spec *spec);

/* Whether the spec shows column id or sorts by it. */
int listing_uses_column(const struct listing_spec *spec, int id);

/* Fills l with the rows of snap (NULL: none) that pass spec's filter, sorted. In the cgroup view
 * the rows are the snapshot's cgroup rows as a tree: each shown with its ancestors, children after
 * their parent sorted among their siblings, none below a folded one. With display.tree, process
 * rows are such a tree too, of parents and children (the listing's copies of the rows, each with
 * its parent and depth; with tree_sums, each copy's numbers sum its subtree). With
 * display.commands the rows are the task rows that pass the filter summed per command name
 * (rollup.h), sorted; ties keep the names' order. */
void listing_build(struct listing *l, const struct snapshot *snap, const struct listing_spec *spec);
void listing_free(struct listing *l);

/* What the rows of a display are, for a header (translated): "cgroups", "processes summed by
 * command", "threads", "processes as a tree", "processes"... */
const char *listing_rows_text(const struct display *d);

/* Whether every task row of snap is in its hierarchy's root ("/", or none known): a CGROUP column
 * would say nothing (a hybrid host's v2 hierarchy, where systemd or nobody made cgroups). */
int listing_cgroups_flat(const struct snapshot *snap);

/* Says which cgroup hierarchy is followed and where it is mounted ("cgroup v2 at
 * /sys/fs/cgroup/unified (v1 controllers not followed)") into o, where a display needs it: in the
 * cgroup view, and with flat_too on a hybrid host also where the CGROUP column is left out (every
 * task in the v2 root, while a v1 cgroup the user made may hold it: the screen's header says so;
 * a text report's does not, as its replay, which cannot know, must print the same). Returns
 * whether it wrote; never in a replay, where it is not known. */
int listing_hierarchy_note(const struct snapshot *snap, const struct display *d, int flat_too, struct outbuf *o);

#endif
