/* columns.c — the column table, cell values and the text of cells and table lines (which columns a
 * display shows is columnlayout.c's). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cgtree.h"
#include "columns.h"
#include "format.h"
#include "i18n.h"

#define KIND_WIDTH 7

static const char *const metric_keys[METRIC_COUNT] = { "pct", "avg", "rate", "max" };
static const char *const metric_labels[METRIC_COUNT] = {
	/* xgettext:no-c-format */
	N_("% of time waiting"),
	N_("average ms per wait"),
	N_("waits per second"),
	N_("longest wait, ms"),
};

/* TRANSLATORS: the header's short names of what the cells show: at most 10 columns each. */
static const char *const metric_shorts[METRIC_COUNT] = {
	/* xgettext:no-c-format */
	N_("% time"),
	N_("ms/wait"),
	N_("waits/s"),
	N_("max ms"),
};
static const char *const total_shorts[METRIC_COUNT] = {
	N_("s waited"),
	N_("ms/wait"),
	N_("waits"),
	N_("max ms"),
};

const char *metric_short(enum metric m, int accumulate)
{
	return _(accumulate ? total_shorts[m] : metric_shorts[m]);
}

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

/* Kept on a narrow screen: the minor kinds go first (from keep 1), then the columns of 10 to 30,
 * then the major kinds (from KEEP_MAJOR), then the pressure, then TOTAL. */
#define KEEP_MAJOR 40

#define TASKS VIEW_TASKS
#define CGROUPS VIEW_CGROUPS
#define BOTH (VIEW_TASKS | VIEW_CGROUPS)

/* TRANSLATORS: column titles have the width of their column at most: PID and TID 7, USER 8,
   S 1, TASKS 5, R S D T IOW 5, CPU% and CPU s 6, TOTAL 7, the delay kinds and the pressure
   columns 7, CGROUP 24. */
static const struct column_def fixed_columns[COL_COUNT] = {
	[COL_ID] = { "pid", N_("PID"), N_("TID"), ALT_THREADS, 7, 1, VALUE_ID, 0, 40, 0, 0, 10, TASKS, 0 },
	[COL_USER] = { "user", N_("USER"), NULL, ALT_NEVER, 8, 0, VALUE_TEXT, 20, 41, 0, 0, 0, TASKS, 0 },
	[COL_STATE] = { "state", N_("S"), NULL, ALT_NEVER, 1, 0, VALUE_STATE, 21, 42, 0, 0, 0, TASKS, 0 },
	[COL_TASKS] = { "tasks", N_("TASKS"), NULL, ALT_NEVER, 5, 1, VALUE_NUMBER, 30, 21, 0, 0, 5, CGROUPS, 0 },
	[COL_NR + CG_RUNNING] = { "running", N_("R"), NULL, ALT_NEVER, 5, 1, VALUE_NUMBER, 27, 22, 0, 0, 5, CGROUPS, 0 },
	[COL_NR + CG_SLEEPING] = { "sleeping", N_("S"), NULL, ALT_NEVER, 5, 1, VALUE_NUMBER, 10, 23, 0, 0, 5, CGROUPS, 0 },
	[COL_NR + CG_UNINTERRUPTIBLE] = { "uninterruptible", N_("D"), NULL, ALT_NEVER, 5, 1, VALUE_NUMBER, 28, 24,
					  0, 0, 5, CGROUPS, 0 },
	[COL_NR + CG_STOPPED] = { "stopped", N_("T"), NULL, ALT_NEVER, 5, 1, VALUE_NUMBER, 11, 25, 0, 0, 5, CGROUPS, 0 },
	[COL_NR + CG_IOWAIT] = { "iowait", N_("IOW"), NULL, ALT_NEVER, 5, 1, VALUE_NUMBER, 12, 26, 0, 0, 5, CGROUPS, 0 },
	[COL_PCPU] = { "pcpu", N_("CPU%"), N_("CPU s"), ALT_TOTALS, 6, 1, VALUE_NUMBER, 22, 20, 1, 2, 6, BOTH, 0 },
	[COL_TOTAL] = { "total", N_("TOTAL"), NULL, ALT_NEVER, KIND_WIDTH, 1, VALUE_NUMBER, 60, 0, -1, -1,
			KIND_WIDTH, BOTH, 0 },
	[COL_PSI + 0] = { "cpu_some", N_("CPUsome"), NULL, ALT_NEVER, KIND_WIDTH, 1, VALUE_NUMBER, 55, 27, 1, 1,
			  KIND_WIDTH, CGROUPS, 0 },
	[COL_PSI + 1] = { "cpu_full", N_("CPUfull"), NULL, ALT_NEVER, KIND_WIDTH, 1, VALUE_NUMBER, 13, 28, 1, 1,
			  KIND_WIDTH, CGROUPS, 0 },
	[COL_PSI + 2] = { "memory_some", N_("MEMsome"), NULL, ALT_NEVER, KIND_WIDTH, 1, VALUE_NUMBER, 54, 29, 1, 1,
			  KIND_WIDTH, CGROUPS, 0 },
	[COL_PSI + 3] = { "memory_full", N_("MEMfull"), NULL, ALT_NEVER, KIND_WIDTH, 1, VALUE_NUMBER, 52, 30, 1, 1,
			  KIND_WIDTH, CGROUPS, 0 },
	[COL_PSI + 4] = { "io_some", N_("IOsome"), NULL, ALT_NEVER, KIND_WIDTH, 1, VALUE_NUMBER, 53, 31, 1, 1,
			  KIND_WIDTH, CGROUPS, 0 },
	[COL_PSI + 5] = { "io_full", N_("IOfull"), NULL, ALT_NEVER, KIND_WIDTH, 1, VALUE_NUMBER, 51, 32, 1, 1,
			  KIND_WIDTH, CGROUPS, 0 },
	[COL_PSI + 6] = { "irq_full", N_("IRQfull"), NULL, ALT_NEVER, KIND_WIDTH, 1, VALUE_NUMBER, 14, 33, 1, 1,
			  KIND_WIDTH, CGROUPS, 0 },
	[COL_MAX_AT] = { "max_at", N_("MAX AT"), NULL, ALT_NEVER, 8, 1, VALUE_NUMBER, 2, 58, 0, 0, 8, TASKS, 1 },
	[COL_CGROUP] = { "cgroup", N_("CGROUP"), NULL, ALT_NEVER, 24, 0, VALUE_TEXT, 1, 43, 0, 0, 0, BOTH, 0 },
	[COL_COMMAND] = { "command", N_("COMMAND"), NULL, ALT_NEVER, 7, 0, VALUE_TEXT, 0, 44, 0, 0, 0, TASKS, 0 },
};

static const struct {
	int resource, full;
} psi_columns[PSI_COLS] = {
	{ PSI_CPU, 0 }, { PSI_CPU, 1 }, { PSI_MEMORY, 0 }, { PSI_MEMORY, 1 }, { PSI_IO, 0 }, { PSI_IO, 1 }, { PSI_IRQ, 1 },
};

void column_psi(int id, int *resource, int *full)
{
	*resource = psi_columns[id - COL_PSI].resource;
	*full = psi_columns[id - COL_PSI].full;
}

/* An accounting field's column: shown when chosen, hidden first on a narrow screen, after the
 * command in the list of sort keys. Rates of bytes show whole bytes, CPU shares one decimal,
 * totals of CPU time two. */
static struct column_def acct_column(int f)
{
	const struct acct_field_info *info = &acct_fields[f];
	int decimals = info->unit == AU_USEC || info->unit == AU_EVENTS ? 1 : 0;
	int decimals_totals = info->unit == AU_USEC ? 2 : 0;

	return (struct column_def){ info->key, info->title, NULL, ALT_NEVER, ACCT_WIDTH, 1, VALUE_NUMBER, 2,
				    45 + f, decimals, decimals_totals, ACCT_WIDTH, TASKS, 1 };
}

int column_acct(int id)
{
	return id >= COL_ACCT && id < COL_ACCT + AF_COUNT ? id - COL_ACCT : -1;
}

struct column_def column_def(int id)
{
	if (column_acct(id) >= 0)
		return acct_column(column_acct(id));
	if (id >= COL_KIND && id < COL_TOTAL) {
		int k = id - COL_KIND;
		const struct delay_kind_info *info = &delay_kinds[k];

		/* the later a kind is in the kind table, the sooner it is hidden */
		return (struct column_def){ info->key, info->title, NULL, ALT_NEVER, KIND_WIDTH, 1, VALUE_NUMBER,
					    (info->major ? KEEP_MAJOR : 1) + DK_COUNT - k, 1 + k, -1, -1, KIND_WIDTH, BOTH,
					    0 };
	}
	return fixed_columns[id];
}

struct column column_get(int id, const struct display *d)
{
	struct column_def def = column_def(id);
	int alt = (def.alt_when == ALT_THREADS && d->threads) || (def.alt_when == ALT_TOTALS && d->accumulate);

	return (struct column){ _(alt ? def.alt : def.title), def.width, def.right, def.key };
}

int column_descending(int id)
{
	return column_def(id).value == VALUE_NUMBER;
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

/* Value of one kind since the start: seconds waited, average ms per wait, number of waits, the
 * longest wait. */
static double accumulated_kind(const struct row *r, int k, const struct display *d)
{
	const struct kind_totals *a = r->acc;

	if (!a || !(a->kinds & (1u << k)))
		return NAN;
	if (d->metric != METRIC_PCT && d->metric != METRIC_MAX && !(a->kinds_count & (1u << k)))
		return NAN; /* a total without a count: no average, no number of waits */
	switch (d->metric) {
	case METRIC_PCT: return a->total_ns[k] / 1e9;
	case METRIC_AVG: return totals_avg_ms(a, k);
	case METRIC_RATE: return (double)a->count[k];
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

	if (!d->accumulate && d->metric == METRIC_PCT)
		return r->r.total_pct; /* the sum, made with the rates */

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
	/* waited is percent of the interval and events per second, or seconds and waits in totals */
	if (d->metric == METRIC_AVG)
		return events > 0 ? waited * (d->accumulate ? 1.0 : 0.01) / events * 1000.0 : 0.0;
	return sum;
}

static double pcpu_value(const struct row *r, const struct display *d)
{
	if (!d->accumulate)
		return r->r.run_pct;
	return r->acc ? r->acc->run_ns / 1e9 : NAN; /* CPU seconds since the start */
}

/* An accounting field: its rate or level in the interval, or its total since the start. */
static double acct_value(const struct row *r, int f, const struct display *d)
{
	if (!d->accumulate)
		return r->cg ? NAN : r->r.acct[f];
	return r->acc && !r->cg ? totals_acct(r->acc, f) : NAN;
}

/* When the row's longest wait (of the kind TOTAL's peak is) happened, seconds since the epoch;
 * NAN when the kernel does not say (before struct version 17) or the row has no longest wait.
 * The time comes with the longest wait in the totals since the start (the longest wait is the
 * task's life's, in an interval too). */
static double max_at_value(const struct row *r, const struct display *d)
{
	const struct kind_totals *a = r->acc;
	uint64_t longest = 0;
	double at = NAN;

	for (int k = 0; a && !r->cg && k < DK_COUNT; k++) {
		if (!(a->kinds_max & (1u << k)) || (!d->accumulate && isnan(r->r.kind[k].max_ms)))
			continue;
		if (a->max_ns[k] < longest || (longest && a->max_ns[k] == longest))
			continue;
		longest = a->max_ns[k];
		at = a->max_at_ns[k] ? a->max_at_ns[k] / 1e9 : NAN;
	}
	return at;
}

/* A cgroup's pressure in the interval, percent; NAN for a task or where the kernel gives none. */
static double psi_value(const struct row *r, int id)
{
	const struct psi_resource *res;
	int resource, full;

	if (!r->cg || !r->cg->facts)
		return NAN;
	column_psi(id, &resource, &full);
	res = &r->cg->facts->psi.res[resource];
	if (!res->present || !(full ? res->full.present : res->some.present))
		return NAN;
	return full ? res->full.pct : res->some.pct;
}

/* A cgroup's tasks in state s, in it and below; NAN for a task or a count nobody gives. */
static double state_value(const struct row *r, int s)
{
	return r->cg && (r->cg->states_have & (1u << s)) ? (double)r->cg->states[s] : NAN;
}

double column_value(const struct row *r, int id, const struct display *d)
{
	if (id >= COL_KIND && id < COL_TOTAL)
		return kind_value(r, id - COL_KIND, d);
	if (id >= COL_NR && id < COL_NR + CG_STATES)
		return state_value(r, id - COL_NR);
	if (id >= COL_PSI && id < COL_PSI + PSI_COLS)
		return psi_value(r, id);
	if (column_acct(id) >= 0)
		return acct_value(r, column_acct(id), d);
	switch (id) {
	case COL_ID: return d->threads ? r->tid : r->pid;
	case COL_TASKS: return r->cg ? (double)r->nthreads : NAN;
	case COL_PCPU: return pcpu_value(r, d);
	case COL_TOTAL: return total_value(r, d);
	case COL_MAX_AT: return max_at_value(r, d);
	default: return NAN;
	}
}

static int metric_decimals(const struct display *d)
{
	if (d->accumulate && d->metric == METRIC_RATE)
		return 0; /* a count of waits */
	return d->metric == METRIC_AVG || (d->accumulate && d->metric == METRIC_PCT) ? 2 : 1;
}

static int decimals_of(const struct column_def *def, const struct display *d)
{
	int decimals = d->accumulate ? def->decimals_totals : def->decimals;

	return decimals < 0 ? metric_decimals(d) : decimals;
}

/* A cell made by number_text: the id and the numbers. */
static int is_number_column(int id)
{
	enum column_value_kind v = column_def(id).value;

	return (v == VALUE_NUMBER || v == VALUE_ID) && id != COL_MAX_AT; /* a time of day */
}

unsigned column_carried(const struct row *r, const struct display *d)
{
	return d->accumulate ? 0 : r->r.carried;
}

/* The cell carries CARRIED_MARK: a share cell of a kind marked carried, or TOTAL when any of the
 * kinds it sums is. */
static int cell_carried(const struct row *r, int id, const struct display *d)
{
	unsigned carried = d->metric == METRIC_PCT ? column_carried(r, d) : 0;

	if (id == COL_TOTAL)
		return carried != 0;
	return id >= COL_KIND && id < COL_TOTAL && (carried & (1u << (id - COL_KIND)));
}

/* A number cell into buf (>= 32 bytes); returns its length. */
static size_t number_text(const struct row *r, int id, const struct display *d, char *buf)
{
	if (r->fresh && !d->accumulate && id != COL_ID) {
		buf[0] = '\0';
		return 0;
	}
	double v = column_value(r, id, d);
	struct column_def def = column_def(id);
	int decimals = decimals_of(&def, d);

	if (!isnan(v) && cell_carried(r, id, d)) { /* the number gives the mark one column */
		size_t len = fmt_cell(buf, v, decimals, def.fit - 1);

		buf[len++] = CARRIED_MARK;
		buf[len] = '\0';
		return len;
	}
	if (v == 0) { /* most cells of most rows */
		size_t len = decimals ? (size_t)decimals + 2 : 1;

		memcpy(buf, "0.00000", len);
		buf[len] = '\0';
		return len;
	}
	return fmt_cell(buf, v, decimals, def.fit);
}

/* A time of day, HH:MM:SS local time, or "-". */
static const char *time_text(double epoch_s, char *buf)
{
	time_t t = (time_t)epoch_s;
	struct tm tm;

	if (isnan(epoch_s) || !localtime_r(&t, &tm))
		return "-";
	strftime(buf, 32, "%H:%M:%S", &tm);
	return buf;
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
	case COL_CGROUP: return r->cgroup ? r->cgroup : "-";
	case COL_MAX_AT: return time_text(column_value(r, id, d), buf);
	default:
		number_text(r, id, d, buf);
		return buf;
	}
}

/* The sort marker: a triangle where the terminal speaks UTF-8, else v and ^. */
static const char *marker(int descending)
{
	if (MB_CUR_MAX > 1)
		return descending ? "\u25bc" : "\u25b2";
	return descending ? "v" : "^";
}

static void title_cell(struct outbuf *o, const struct column *c, int marked, int descending, int last)
{
	int pad = c->width - text_width(c->title);

	if (!marked) {
		if (last)
			out_str(o, c->title);
		else
			out_padded(o, c->title, c->width, c->right);
		return;
	}
	if (c->right) {
		/* the marker sits right before the title, in the padding or the separator */
		if (pad >= 1) {
			out_spaces(o, pad - 1);
		} else if (o->len > 0 && o->data[o->len - 1] == ' ') {
			o->len--;
		}
		out_str(o, marker(descending));
		out_padded(o, c->title, text_width(c->title), 0);
		return;
	}
	out_str(o, c->title);
	out_str(o, marker(descending));
	if (!last)
		out_spaces(o, pad - 1);
}

/* The number cells of a row, written straight into the buffer: one reservation for all of them
 * instead of a call per cell. Returns the index of the first cell that is not a number. */
static int number_cells(struct outbuf *o, const struct row *r, const struct display *d, const struct table *t,
			int from)
{
	char buf[32];
	int i = from;
	char *p;

	out_reserve(o, (size_t)t->n * 48);
	p = o->data + o->len;
	for (; i < t->n && is_number_column(t->ids[i]); i++) {
		const struct column *c = &t->col[i];
		size_t len = number_text(r, t->ids[i], d, buf);
		size_t w = (size_t)c->width, fit = len < w ? len : w;

		if (i)
			*p++ = ' ';
		memset(p, ' ', w);
		memcpy(p + (c->right ? w - fit : 0), buf, fit);
		p += w;
	}
	o->len = (size_t)(p - o->data);
	return i;
}

/* A cgroup cell: in the cgroup view (the last column) the name indented by depth; in a task view
 * the path, cut at the front to fit the width. */
static void cgroup_cell(struct outbuf *o, const struct row *r, int width, int last)
{
	const char *path = r->cgroup ? r->cgroup : "-";
	int w;

	if (r->cg) {
		out_spaces(o, 2 * r->depth);
		out_padded(o, r->cg->name, text_width(r->cg->name), 0);
		return;
	}
	w = text_width(path);
	if (last) {
		out_padded(o, path, w, 0);
		return;
	}
	if (w > width && width > 2) { /* the end of a path says more than its start */
		const char *tail = path;

		while (*tail && text_width(tail) > width - 1)
			tail++;
		out_str(o, MB_CUR_MAX > 1 ? "\u2026" : "<");
		out_padded(o, tail, width - 1, 0);
		return;
	}
	out_padded(o, path, width, 0);
}

void column_line(struct outbuf *o, const struct row *r, const struct display *d, const struct table *t,
		 int marker_col, int descending)
{
	char buf[32];

	for (int i = 0; i < t->n; i++) {
		const struct column *c = &t->col[i];
		int last = i == t->n - 1;
		const char *text;

		if (r && is_number_column(t->ids[i])) {
			i = number_cells(o, r, d, t, i) - 1;
			continue;
		}
		if (i)
			out_char(o, ' ');
		if (!r) {
			title_cell(o, c, t->ids[i] == marker_col, descending, last);
			continue;
		}
		if (t->ids[i] == COL_CGROUP) {
			cgroup_cell(o, r, c->width, last);
			continue;
		}
		text = column_text(r, t->ids[i], d, buf);
		if (t->ids[i] == COL_COMMAND && d->tree && !r->cg && r->depth > 0) {
			out_spaces(o, 3 * (r->depth - 1)); /* the process tree: under its parent */
			out_str(o, "`- ");
		}
		if (last) {
			out_padded(o, text, text_width(text), 0);
			if (r->exited)
				out_str(o, _(" <exited>"));
			if (r->partial)
				out_str(o, _(" <partial>"));
		} else {
			out_padded(o, text, c->width, c->right);
		}
	}
	out_char(o, '\n');
}

const char *column_label(int id)
{
	if (id >= COL_KIND && id < COL_TOTAL)
		return _(delay_kinds[id - COL_KIND].label);
	if (column_acct(id) >= 0)
		return _(acct_fields[column_acct(id)].label);
	return NULL;
}
