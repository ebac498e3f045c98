/* filter.h — which rows to show: by user, command substring, pid, cgroup, unit, or only tasks that
 * waited.
 * Pure code. */
#ifndef DELAYTOP_FILTER_H
#define DELAYTOP_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "columns.h"

/* A cgroup row (the cgroup view) passes the user and pid filters: it sums every task below it. */
struct filter {
	int by_uid;
	uint32_t uid;
	const char *command;   /* substring of the name or command line, ignoring case; NULL: any */
	const char *comm;      /* exactly this command name (a command's row opened); NULL: any */
	const uint32_t *pids;  /* only these processes, when npids > 0 */
	size_t npids;
	int active;            /* only tasks that waited during the interval (or since the start) */
	int hide_exited;       /* no task that exited (in the interval, or before it for the totals) */
	const char *cgroup;    /* only tasks in this cgroup and below (a normalized path); NULL: any */
	const char *unit;      /* only rows whose cgroup's unit (cgident.h) matches this fnmatch pattern */
};

int filter_match(const struct filter *f, const struct row *r, const struct display *d);

#endif
