/* cgpath.h — cgroup paths as delaytop compares them: normalized, whether one is at or below
 * another, and whether one climbs out of the hierarchy. Pure; where a path is mounted and what is in it is cgroupfs.h's. */
#ifndef DELAYTOP_CGPATH_H
#define DELAYTOP_CGPATH_H

#include <stddef.h>

#define CGROUP_PATH_MAX 1024

/* The path as delaytop compares it: a leading '/', no trailing or doubled '/'. Pure. */
void cgpath_normalize(const char *in, char *buf, size_t size);

/* Whether path is at or below top. Pure. */
int cgpath_within(const char *path, const char *top);

/* Nonzero when a path has a component '..', which would reach outside the hierarchy (-c and a
 * trigger's cgroup refuse it). Pure. */
int cgpath_climbs(const char *path);

#endif
