/* trigger.c — PSI triggers: their syntax, the file each watches, the delay kinds of a stall, who
 * stalled and who waits now. Pure; trigwatch.c registers them. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "i18n.h"
#include "psi.h"
#include "trigger.h"
#include "xalloc.h"

/* In trigger_parse: a message about the spec s, cleaned for a message (it may hold control
 * characters), into err; -1. msg has one %s, for s. */
#define FAIL(msg) (text_clean(shown, sizeof(shown), s), snprintf(err, errlen, F_(msg), shown), -1)

/* A duration with its unit ("150ms", "1s", "500000us") in microseconds; 0 when it is not one. */
static uint64_t duration_us(const char *s)
{
	static const struct {
		const char *unit;
		uint64_t us;
	} units[] = {
		{ .unit = "us", .us = 1 },
		{ .unit = "ms", .us = 1000 },
		{ .unit = "s", .us = 1000000 },
	};
	char *end;
	double v;

	if (*s < '0' || *s > '9')
		return 0;
	v = strtod(s, &end);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(end, units[i].unit) == 0 && v * units[i].us < 1e12)
			return (uint64_t)(v * units[i].us + 0.5);
	return 0;
}

int trigger_parse(const char *s, struct trigger_spec *out, char *err, size_t errlen)
{
	char copy[CGROUP_PATH_MAX + 128], *word[6], *save = NULL, shown[96];
	int n = 0, res = -1;

	memset(out, 0, sizeof(*out));
	if (strlen(s) < sizeof(copy)) {
		strcpy(copy, s);
		for (char *w = strtok_r(copy, " \t", &save); w && n < 6; w = strtok_r(NULL, " \t", &save))
			word[n++] = w;
	}
	if (n < 4 || n > 5)
		return FAIL(N_("invalid trigger '%s': expected RESOURCE some|full STALL WINDOW [CGROUP], such as "
				  "'memory some 150ms 1s'"));
	for (int r = 0; r < PSI_COUNT; r++)
		if (strcmp(word[0], psi_name(r)) == 0)
			res = r;
	if (res < 0)
		return FAIL(N_("invalid trigger '%s': the resource is cpu, memory, io or irq"));
	if (strcmp(word[1], "some") != 0 && strcmp(word[1], "full") != 0)
		return FAIL(N_("invalid trigger '%s': the second word is some or full"));
	if (res == PSI_IRQ && word[1][0] != 'f')
		return FAIL(N_("invalid trigger '%s': irq has full only"));
	out->resource = res;
	out->full = word[1][0] == 'f';
	out->stall_us = duration_us(word[2]);
	out->window_us = duration_us(word[3]);
	if (!out->stall_us || !out->window_us)
		return FAIL(N_("invalid trigger '%s': the times take a unit, such as 150ms or 1s"));
	if (out->window_us < TRIGGER_WINDOW_MIN_US || out->window_us > TRIGGER_WINDOW_MAX_US)
		return FAIL(N_("invalid trigger '%s': the window is 500ms to 10s"));
	if (out->stall_us > out->window_us)
		return FAIL(N_("invalid trigger '%s': the stall is longer than the window"));
	if (n == 5) {
		if (word[4][0] != '/')
			return FAIL(N_("invalid trigger '%s': the cgroup is a path starting with /"));
		if (cgpath_climbs(word[4]))
			return FAIL(N_("invalid trigger '%s': '..' in the cgroup path would leave the hierarchy"));
		cgpath_normalize(word[4], out->cgroup, sizeof(out->cgroup));
	}
	snprintf(out->text, sizeof(out->text), "%s %s %s %s", word[0], word[1], word[2], word[3]);
	return 0;
}

void trigger_file(const struct trigger_spec *t, char *buf, size_t size)
{
	if (t->cgroup[0])
		snprintf(buf, size, "%s/%s.pressure", t->cgroup, psi_name(t->resource));
	else
		snprintf(buf, size, "/proc/pressure/%s", psi_name(t->resource));
}

kind_mask trigger_kinds(int resource)
{
	switch (resource) {
	case PSI_CPU: return 1u << DK_CPU;
	case PSI_IO: return 1u << DK_IO;
	case PSI_IRQ: return 1u << DK_IRQ;
	default:
		return (kind_mask)(1u << DK_SWAPIN | 1u << DK_RECLAIM | 1u << DK_THRASHING | 1u << DK_COMPACT |
				   1u << DK_WPCOPY);
	}
}

/* Puts (item, pct) into the list of the largest, if it belongs there. */
static void keep_largest(const void **items, double *pcts, size_t *n, const void *item, double pct)
{
	size_t at = *n;

	if (!(pct > 0) || (at == TRIGGER_TOP && pct <= pcts[TRIGGER_TOP - 1]))
		return;
	if (at == TRIGGER_TOP)
		at--;
	else
		(*n)++;
	for (; at > 0 && pcts[at - 1] < pct; at--) {
		items[at] = items[at - 1];
		pcts[at] = pcts[at - 1];
	}
	items[at] = item;
	pcts[at] = pct;
}

/* Whether a task row is waiting now where the trigger's resource stalls it and within its cgroup:
 * in D for io and memory (a runnable task may be running; irq waits are not a state); a process
 * row when its main thread is, or any thread where its threads' states were read. */
static int waits_now(const struct row *r, const struct trigger_spec *t)
{
	int in_d = r->state == 'D' || (r->have_states && r->states[CG_UNINTERRUPTIBLE] > 0);

	if (t->resource != PSI_IO && t->resource != PSI_MEMORY)
		return 0;
	if (r->departed || r->exited || !in_d) /* an exited row keeps its last states */
		return 0;
	return !t->cgroup[0] || (r->cgroup && cgpath_within(r->cgroup, t->cgroup));
}

/* The rows waiting now that are not among the stalled, in the reading's order. */
static void find_waiting(const struct snapshot *snap, const struct trigger_spec *t, struct trigger_stallers *out)
{
	for (size_t i = 0; i < snap->nrows && out->nwaiting < TRIGGER_TOP; i++) {
		const struct row *r = &snap->rows[i];
		size_t k = 0;

		if (!waits_now(r, t))
			continue;
		while (k < out->ntasks && out->task[k] != r)
			k++;
		if (k == out->ntasks)
			out->waiting[out->nwaiting++] = r;
	}
}

void trigger_stallers(const struct snapshot *snap, const struct trigger_spec *t, struct trigger_stallers *out)
{
	const void *tasks[TRIGGER_TOP], *groups[TRIGGER_TOP];
	const char **paths = xcalloc(snap->nrows + 1, sizeof(*paths));
	double *sums = xcalloc(snap->nrows + 1, sizeof(*sums));
	kind_mask kinds = trigger_kinds(t->resource);
	size_t npaths = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < snap->nrows; i++) {
		const struct row *r = &snap->rows[i];
		double pct = trigger_row_pct(r, kinds);
		size_t p = 0;

		if (r->departed || r->fresh || isnan(pct))
			continue;
		keep_largest(tasks, out->task_pct, &out->ntasks, r, pct);
		if (!r->cgroup)
			continue;
		while (p < npaths && strcmp(paths[p], r->cgroup) != 0)
			p++;
		if (p == npaths)
			paths[npaths++] = r->cgroup;
		sums[p] += pct;
	}
	for (size_t p = 0; p < npaths; p++)
		keep_largest(groups, out->cgroup_pct, &out->ncgroups, paths[p], sums[p]);
	for (size_t i = 0; i < out->ntasks; i++)
		out->task[i] = tasks[i];
	for (size_t i = 0; i < out->ncgroups; i++)
		out->cgroup[i] = groups[i];
	find_waiting(snap, t, out);
	free(paths);
	free(sums);
}

size_t trigger_named(const struct trigger_stallers *st, const struct row **out)
{
	size_t n = 0;

	for (size_t i = 0; i < st->ntasks; i++)
		out[n++] = st->task[i];
	for (size_t i = 0; i < st->nwaiting; i++)
		out[n++] = st->waiting[i];
	return n;
}

double trigger_row_pct(const struct row *r, kind_mask kinds)
{
	double sum = NAN;

	for (int k = 0; k < DK_COUNT; k++) {
		double v = r->r.kind[k].pct;

		if (!(kinds & (1u << k)) || isnan(v))
			continue;
		sum = isnan(sum) ? v : sum + v;
	}
	return sum;
}

void trigger_events(const struct trigger_spec *specs, int n, unsigned fired, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && len + 1 < size; i++) {
		if (!(fired & (1u << i)))
			continue;
		len += (size_t)snprintf(buf + len, size - len, "%s%s%s%s", len ? "\n" : "", specs[i].text,
					specs[i].cgroup[0] ? " " : "", specs[i].cgroup);
		if (len >= size)
			len = size - 1;
	}
}
