/* cgtable.h — the cgroups the sampler reads for the cgroup view: every cgroup at and below the
 * root shown, its pressure (interval shares from the totals of the last tick's reading) and, on
 * a v1 hierarchy, its tasks by state from CGROUPSTATS. A cgroup removed between two ticks simply
 * drops out. A cgroup that had no task in it or below, in this interval or the last, cannot have
 * stalled: its files are not read again (a read costs the kernel about 15 us a file), and its
 * shares are 0. Each cgroup's delegate (cgowner.h) follows from its parent's and its directory's
 * owner, which is read (a stat) when the cgroup is new or made again (another inode than at the
 * last reading) and again once every CGOWNER_FRESH readings (a few cgroups at each), else taken
 * over from the last reading. */
#ifndef DELAYTOP_CGTABLE_H
#define DELAYTOP_CGTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "cgowner.h"
#include "cgroupfs.h"
#include "cgtree.h"
#include "kernelops.h"

struct cgtable {
	struct cgroup_facts *f;    /* this tick's, sorted by path */
	size_t n, cap;
	struct cgroup_facts *prev; /* the last tick's */
	size_t nprev, capprev;
	size_t *open;              /* the walk's scratch: the cgroups walked into, the root first */
	size_t capopen;
	uint32_t reads;            /* readings taken */
};

void cgtable_init(struct cgtable *t);
void cgtable_free(struct cgtable *t);

/* Reads the cgroups at and below root (normalized) through k. cgroupstats: ask k for their states
 * (CGROUPSTATS, v1). rows[0..nrows): the tasks of the interval (their cgroups tell which cgroups
 * were busy). owners tells the root's delegate from the directories above it (NULL: the root's
 * own owner alone). Returns 0, or a negative errno when root cannot be read (it was removed). */
int cgtable_read(struct cgtable *t, struct kernel *k, const struct cgroup_hier *h, const char *root,
		 int cgroupstats, uint64_t now_ns, const struct row *rows, size_t nrows, struct cgowner *owners);

#endif
