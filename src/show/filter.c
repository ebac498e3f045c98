/* filter.c — row filters. */
#include "config.h"

#include <fnmatch.h>
#include <math.h>
#include <string.h>
#include <strings.h>

#include "cgident.h"
#include "cgpath.h"
#include "filter.h"

static int contains_nocase(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return 1;
	return n == 0;
}

static int filter_waited(const struct row *r, const struct display *d)
{
	if (!d->accumulate)
		return r->r.total_pct > 0; /* NAN compares false */
	return r->acc && totals_waited(r->acc) > 0;
}

static int pid_listed(const struct filter *f, uint32_t pid)
{
	for (size_t i = 0; i < f->npids; i++)
		if (f->pids[i] == pid)
			return 1;
	return 0;
}

/* Whether the unit a cgroup's path names matches pattern; a path that names none never does. */
static int unit_matches(const char *path, const char *pattern)
{
	struct cgident id;

	cgident_parse(path, &id);
	return id.unit[0] && fnmatch(pattern, id.unit, 0) == 0;
}

int filter_match(const struct filter *f, const struct row *r, const struct display *d)
{
	if (r->departed && !d->accumulate)
		return 0; /* ended in an earlier interval: only the totals show it */
	if (f->by_uid && !r->cg && r->uid != f->uid) /* a cgroup sums every user's tasks */
		return 0;
	if (f->npids && !r->cg && !pid_listed(f, r->pid))
		return 0;
	if (f->command && !contains_nocase(r->comm, f->command) &&
	    !(r->cmdline && contains_nocase(r->cmdline, f->command)))
		return 0;
	if (f->comm && !r->cg && !(r->comm && strcmp(r->comm, f->comm) == 0))
		return 0;
	if (f->active && !filter_waited(r, d))
		return 0;
	if (f->hide_exited && !r->cg && r->exited)
		return 0;
	if (f->cgroup && !(r->cgroup && cgpath_within(r->cgroup, f->cgroup)))
		return 0;
	if (f->unit && !unit_matches(r->cgroup, f->unit))
		return 0;
	return 1;
}
