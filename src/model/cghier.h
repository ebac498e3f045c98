/* cghier.h — the cgroup hierarchies as delaytop sees them: how the machine mounts cgroups, the
 * hierarchy it shows (the v2 one; without it the name=systemd v1 one; else the first v1 one), and
 * what is made of their text: the mounts from /proc/self/mountinfo, a task's path from
 * /proc/PID/cgroup, a cgroup's directory, a thread's state as a cgroup counts it. Pure: the kernel
 * edge (cgroupfs.h) reads the text; the front ends name a hierarchy without including it. */
#ifndef DELAYTOP_CGHIER_H
#define DELAYTOP_CGHIER_H

#include <stddef.h>
#include <stdint.h>

#include "cgpath.h"
#include "rowfield.h"

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
int cghier_parse_mountinfo(const char *text, struct cgroup_mount *out, int max);

/* Chooses the hierarchy among the mounts: v2; else name=systemd; else the first v1 one. Pure. */
void cghier_choose(const struct cgroup_mount *m, int n, struct cgroup_hier *h);

/* The hierarchy's name for people: "cgroup v2", "cgroup v1 (name=systemd)". */
const char *cghier_describe(const struct cgroup_hier *h, char *buf, size_t size);

/* From the text of /proc/PID/cgroup, the task's path in the chosen hierarchy into buf: the "0::"
 * line on v2, else the line of the chosen v1 hierarchy's controllers. Returns 0, or -1 when the
 * text has no such line. Pure. */
int cghier_parse_task(const char *text, const struct cgroup_hier *h, char *buf, size_t size);

/* The directory of a cgroup path into buf; -1 when the path is outside the mounted part. Pure. */
int cghier_dir(const struct cgroup_hier *h, const char *path, char *buf, size_t size);

/* The state a /proc state letter counts as, or -1 (a zombie or an idle kernel thread counts as
 * none, as in the kernel's cgroupstats). Pure. */
int cghier_state_of(char letter);

#endif
