/* cgroupfs.h — the cgroup hierarchies: where they are mounted (from /proc/self/mountinfo, never a
 * fixed path), which one delaytop shows (the v2 one; without it the name=systemd v1 one; else the
 * first v1 one), a task's path in it (from /proc/PID/cgroup), the cgroups below a path, a
 * cgroup's pressure files and, on v1, its task counts by state (CGROUPSTATS). The parsers are
 * pure; the readers are the kernel edge. */
#ifndef DELAYTOP_CGROUPFS_H
#define DELAYTOP_CGROUPFS_H

#include <stddef.h>
#include <stdint.h>

#include "cgpath.h"
#include "model.h"
#include "psi.h"
#include "taskstats.h"

#define CGROUP_MOUNTS_MAX 32

/* How the machine mounts cgroups. */
enum cgroup_layout {
	CGROUP_NONE,   /* no hierarchy mounted */
	CGROUP_V2,     /* the v2 hierarchy alone */
	CGROUP_HYBRID, /* v1 controllers and a v2 hierarchy side by side */
	CGROUP_V1,     /* v1 hierarchies only */
};

struct cgroup_mount {
	char dir[CGROUP_PATH_MAX];  /* where it is mounted */
	char root[CGROUP_PATH_MAX]; /* the cgroup mounted there: "/" unless a bind mount */
	char opts[256];             /* v1: its super options, "rw,cpu,cpuacct" or "rw,name=systemd" */
	int v2;
};

/* The hierarchy delaytop shows. */
struct cgroup_hier {
	enum cgroup_layout layout;
	struct cgroup_mount m; /* the chosen mount, when layout is not CGROUP_NONE */
};

/* Reads the cgroup mounts from the text of /proc/self/mountinfo into out[0..max); returns how
 * many. Octal escapes (\040 for a space) are undone. Pure. */
int cgroupfs_parse_mountinfo(const char *text, struct cgroup_mount *out, int max);

/* Chooses the hierarchy among the mounts: v2; else name=systemd; else the first v1 one. Pure. */
void cgroupfs_choose(const struct cgroup_mount *m, int n, struct cgroup_hier *h);

/* Finds the hierarchies of this machine. */
void cgroupfs_detect(struct cgroup_hier *h);

/* The hierarchy's name for people: "cgroup v2", "cgroup v1 (name=systemd)". */
const char *cgroupfs_describe(const struct cgroup_hier *h, char *buf, size_t size);

/* From the text of /proc/PID/cgroup, the task's path in the chosen hierarchy into buf: the "0::"
 * line on v2, else the line of the chosen v1 hierarchy's controllers. Returns 0, or -1 when the
 * text has no such line. Pure. */
int cgroupfs_parse_task(const char *text, const struct cgroup_hier *h, char *buf, size_t size);

/* The same, read from /proc/PID/cgroup; -1 when the task is gone or has no such line. */
int cgroupfs_task_path(uint32_t pid, const struct cgroup_hier *h, char *buf, size_t size);

/* The directory of a cgroup path into buf; -1 when the path is outside the mounted part. Pure. */
int cgroupfs_dir(const struct cgroup_hier *h, const char *path, char *buf, size_t size);

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

/* The state a /proc state letter counts as, or -1 (a zombie or an idle kernel thread counts as
 * none, as in the kernel's cgroupstats). Pure. */
int cgroupfs_state_of(char letter);

/* Reads a v1 cgroup's counts by state through CGROUPSTATS; -EINVAL on v2 (the kernel has no
 * such call there), another negative errno when the cgroup is gone. */
int cgroupfs_states(struct ts_client *ts, const struct cgroup_hier *h, const char *path, uint64_t out[CG_STATES]);

#endif
