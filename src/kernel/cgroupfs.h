/* cgroupfs.h — the cgroup hierarchies read: where they are mounted (/proc/self/mountinfo, never a
 * fixed path), a task's path in the one shown (/proc/PID/cgroup), the cgroups below a path, a
 * cgroup's directory owner, its pressure files and, on v1, its task counts by state
 * (CGROUPSTATS). What their text means, and the hierarchy's types, are the model's (cghier.h). */
#ifndef DELAYTOP_CGROUPFS_H
#define DELAYTOP_CGROUPFS_H

#include <stddef.h>
#include <stdint.h>

#include "cghier.h"
#include "cgpath.h"
#include "model.h"
#include "psi.h"
#include "taskstats.h"

/* Finds the hierarchies of this machine and chooses the one shown (cghier_choose). */
void cgroupfs_detect(struct cgroup_hier *h);

/* A task's path in the hierarchy h (cghier_parse_task), read from /proc/PID/cgroup; -1 when the task is gone or has no such line. */
int cgroupfs_task_path(uint32_t pid, const struct cgroup_hier *h, char *buf, size_t size);

/* 0 when the cgroup exists, else a negative errno. */
int cgroupfs_exists(const struct cgroup_hier *h, const char *path);

/* The owner (uid) and inode of a cgroup's directory: 0, -ENOENT when it is gone or outside the
 * mounted part, or another negative errno. A directory is made owned by whoever made it (or
 * chowned to a user by whoever delegates it), so its owner is who may name the cgroups below it. */
int cgroupfs_owner(const struct cgroup_hier *h, const char *path, uint32_t *uid, uint64_t *ino);

/* What fn is told of each cgroup walked: its path and its directory's inode (a cgroup removed and
 * made again has another). */
typedef void (*cgroupfs_walk_fn)(void *arg, const char *path, uint64_t ino);

/* Calls fn for path and every cgroup below it, parents before their children, each with its
 * directory's inode (as its parent's directory lists it: no lookup of the path). A cgroup removed
 * while it is walked is left out. Returns 0, or a negative errno when path cannot be read. */
int cgroupfs_walk(const struct cgroup_hier *h, const char *path, cgroupfs_walk_fn fn, void *arg);

/* Reads a cgroup's pressure files (each optional; none where cgroup.pressure is 0 or on v1). */
void cgroupfs_pressure(const struct cgroup_hier *h, const char *path, uint64_t when_ns, struct psi_snapshot *out);

/* Reads a v1 cgroup's counts by state through CGROUPSTATS; -EINVAL on v2 (the kernel has no
 * such call there), another negative errno when the cgroup is gone. */
int cgroupfs_states(struct ts_client *ts, const struct cgroup_hier *h, const char *path, uint64_t out[CG_STATES]);

#endif
