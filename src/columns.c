/* columns.c — column descriptors and cell values. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "columns.h"
#include "format.h"
#include "i18n.h"

#define KIND_WIDTH 7

static const char *const metric_keys[METRIC_COUNT] = { "pct", "avg", "rate", "max" };
static const char *const metric_labels[METRIC_COUNT] = {
	N_("% of time waiting"),
	N_("average ms per wait"),
	N_("waits per second"),
	N_("longest wait, ms"),
};

const char *metric_key(enum metric m)
{
	return metric_keys[m];
}

const char *metric_label(enum metric m)
{
	return _(metric_labels[m]);
}

int metric_find(const char *key)
{
	for (int m = 0; m < METRIC_COUNT; m++)
		if (strcmp(metric_keys[m], key) == 0)
			return m;
	return -1;
}

struct column column_get(int id, const struct display *d)
{
	if (id >= COL_KIND && id < COL_TOTAL)
		return (struct column){ _(delay_kinds[id - COL_KIND].title), KIND_WIDTH, 1,
					delay_kinds[id - COL_KIND].key };
	switch (id) {
	/* TRANSLATORS: column titles have the width of their column at most: PID and TID 7, USER 8,
	   S 1, CPU% 6, TOTAL 7. */
	case COL_ID: return (struct column){ d->threads ? _("TID") : _("PID"), 7, 1, "pid" };
	case COL_USER: return (struct column){ _("USER"), 8, 0, "user" };
	case COL_STATE: return (struct column){ _("S"), 1, 0, "state" };
	case COL_PCPU: return (struct column){ _("CPU%"), 6, 1, "pcpu" };
	case COL_TOTAL: return (struct column){ _("TOTAL"), 7, 1, "total" };
	default: return (struct column){ _("COMMAND"), 7, 0, "command" };
	}
}

/* Interval value of one kind under a metric. */
static double interval_kind(const struct row *r, int k, enum metric m)
{
	const struct kind_rate *kr = &r->r.kind[k];

	switch (m) {
	case METRIC_PCT: return kr->pct;
	case METRIC_AVG: return kr->avg_ms;
	case METRIC_RATE: return kr->per_s;
	default: return kr->max_ms;
	}
}

/* Value of one kind since the start: share of the session, per-event average, rate, peak. */
static double accumulated_kind(const struct row *r, int k, const struct display *d)
{
	const struct task_totals *a = r->acc;

	if (!a || !(a->kinds & (1u << k)) || d->elapsed_s <= 0)
		return NAN;
	switch (d->metric) {
	case METRIC_PCT: return a->total_ns[k] / 1e9 / d->elapsed_s * 100.0;
	case METRIC_AVG: return a->count[k] ? a->total_ns[k] / 1e6 / (double)a->count[k] : 0.0;
	case METRIC_RATE: return a->count[k] / d->elapsed_s;
	default: return a->max_ns[k] ? a->max_ns[k] / 1e6 : NAN;
	}
}

static double kind_value(const struct row *r, int k, const struct display *d)
{
	return d->accumulate ? accumulated_kind(r, k, d) : interval_kind(r, k, d->metric);
}

/* TOTAL: the sum of the kinds' shares or rates, their weighted average wait, or the peak. */
static double total_value(const struct row *r, const struct display *d)
{
	struct display pct = *d, rate = *d;
	double sum = 0, peak = NAN, waited = 0, events = 0;
	int any = 0;

	pct.metric = METRIC_PCT;
	rate.metric = METRIC_RATE;
	for (int k = 0; k < DK_COUNT; k++) {
		double v = kind_value(r, k, d);

		if (isnan(v))
			continue; /* for averages this also skips kinds without counts */
		any = 1;
		sum += v;
		if (!(v <= peak))
			peak = v;
		if (d->metric == METRIC_AVG) {
			waited += kind_value(r, k, &pct);
			events += kind_value(r, k, &rate);
		}
	}
	if (!any)
		return NAN;
	if (d->metric == METRIC_MAX)
		return peak;
	if (d->metric == METRIC_AVG) /* percent of a second waited over waits per second */
		return events > 0 ? waited / 100.0 / events * 1000.0 : 0.0;
	return sum;
}

static double pcpu_value(const struct row *r, const struct display *d)
{
	if (!d->accumulate)
		return r->r.run_pct;
	if (!r->acc || d->elapsed_s <= 0)
		return NAN;
	return r->acc->run_ns / 1e9 / d->elapsed_s * 100.0;
}

double column_value(const struct row *r, int id, const struct display *d)
{
	if (id >= COL_KIND && id < COL_TOTAL)
		return kind_value(r, id - COL_KIND, d);
	switch (id) {
	case COL_ID: return d->threads ? r->tid : r->pid;
	case COL_PCPU: return pcpu_value(r, d);
	case COL_TOTAL: return total_value(r, d);
	default: return NAN;
	}
}

static int metric_decimals(enum metric m)
{
	return m == METRIC_AVG ? 2 : 1;
}

const char *column_text(const struct row *r, int id, const struct display *d, char *buf)
{
	switch (id) {
	case COL_USER: return r->user;
	case COL_STATE:
		buf[0] = r->state;
		buf[1] = '\0';
		return buf;
	case COL_COMMAND: return d->cmdline && r->cmdline ? r->cmdline : r->comm;
	case COL_ID:
		fmt_fixed(buf, column_value(r, id, d), 0);
		return buf;
	case COL_PCPU:
		fmt_cell(buf, column_value(r, id, d), 1, 6);
		return buf;
	default:
		fmt_cell(buf, column_value(r, id, d), metric_decimals(d->metric), KIND_WIDTH);
		return buf;
	}
}
