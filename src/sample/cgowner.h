/* cgowner.h — who a cgroup is delegated to. A cgroup directory owned by a user other than root is
 * a delegation: that user may make cgroups below it and name them as they like (a directory is
 * owned by whoever made it), so what the paths at and below it name (cgident.h: a unit, a
 * container's id, a pod's UID) is that user's word, not the system's. A cgroup's delegate is the
 * owner of the outermost directory at or above it that is not root's: the user the system handed
 * the subtree to, who controls all of it, including what a nested delegate (a rootless
 * container's mapped uid) does below. CGOWNER_NONE (0: root's) when every directory up to the
 * hierarchy's root is root's.
 *
 * The owners are read through the seam (kernelops.h: cgroup_owner, a stat of the directory) and
 * kept per path with the directory's inode, so that a cgroup removed and made again is read
 * again. A lookup whose path is kept costs one stat (its own directory: its inode and owner as
 * kept, or it is read again); one that is not stats up to the first ancestor kept and unchanged.
 * What is kept of the directories above is trusted for CGOWNER_FRESH calls of cgowner_retire (a
 * tick each), then read again: a chown above a cgroup is seen within that. A cgroup gone meanwhile
 * (ENOENT) is not known, unless an ancestor still there is delegated: its delegate is then the
 * ancestor's (the user could not have removed that one). Pure but for the seam's calls. */
#ifndef DELAYTOP_CGOWNER_H
#define DELAYTOP_CGOWNER_H

#include <stddef.h>
#include <stdint.h>

#include "cgroupfs.h"
#include "kernelops.h"

/* Not delegated (every directory at and above is root's), or not known. */
#define CGOWNER_NONE 0

/* How many calls of cgowner_retire a directory's owner read is trusted for. */
#define CGOWNER_FRESH 60

/* One cgroup's directory as last read. */
struct cgowner_entry {
	char *path;      /* normalized */
	uint64_t ino;    /* its directory's inode when read */
	uint32_t owner;  /* its directory's owner */
	uint32_t deleg;  /* who it is delegated to: cgowner_below(its parent's, owner) */
	uint32_t read;   /* the generation it was read in */
	uint32_t used;   /* the generation it was last looked up in */
};

struct cgowner {
	struct cgowner_entry *e; /* sorted by path */
	size_t n, cap;
	uint32_t gen;            /* counts cgowner_retire's calls */
};

void cgowner_init(struct cgowner *c);
void cgowner_free(struct cgowner *c);

/* Who a directory owned by owner is delegated to, its parent's delegated to outer: the outermost
 * owner that is not root wins. Pure. */
static inline uint32_t cgowner_below(uint32_t outer, uint32_t owner)
{
	return outer != CGOWNER_NONE ? outer : owner;
}

/* Who the cgroup at path (as /proc/PID/cgroup gives it) is delegated to: a uid, or CGOWNER_NONE
 * (root's all the way up, or not known). */
uint32_t cgowner_of(struct cgowner *c, struct kernel *k, const struct cgroup_hier *h, const char *path);

/* Forgets the paths not looked up in the last keep calls of this (the sampler calls it once a
 * tick): a cgroup's lookups come when a process is new in it or moves to it, so the paths kept
 * follow the cgroups in use. */
void cgowner_retire(struct cgowner *c, uint32_t keep);

#endif
