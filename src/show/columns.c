/* columns.c — the column table, cell values and the text of cells (which columns a display shows
 * is columnlayout.c's, the text of a table line columnline.c's). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cgident.h"
#include "cgtree.h"
#include "columns.h"
#include "format.h"
#include "i18n.h"

#define KIND_WIDTH 7

static const char *const metric_keys[METRIC_COUNT] = {
	[METRIC_PCT] = "pct", [METRIC_AVG] = "avg", [METRIC_RATE] = "rate", [METRIC_MAX] = "max",
};
static const char *const metric_labels[METRIC_COUNT] = {
	/* xgettext:no-c-format */
	[METRIC_PCT] = N_("% of time waiting"),
	[METRIC_AVG] = N_("average ms per wait"),
	[METRIC_RATE] = N_("waits per second"),
	[METRIC_MAX] = N_("longest wait, ms"),
};

/* TRANSLATORS: the header's short names of what the cells show: at most 10 columns each. */
static const char *const metric_shorts[METRIC_COUNT] = {
	/* xgettext:no-c-format */
	[METRIC_PCT] = N_("% time"),
	[METRIC_AVG] = N_("ms/wait"),
	[METRIC_RATE] = N_("waits/s"),
	[METRIC_MAX] = N_("max ms"),
};
static const char *const total_shorts[METRIC_COUNT] = {
	[METRIC_PCT] = N_("s waited"),
	[METRIC_AVG] = N_("ms/wait"),
	[METRIC_RATE] = N_("waits"),
	[METRIC_MAX] = N_("max ms"),
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

#define TASKS VIEW_TASKS
#define CGROUPS VIEW_CGROUPS
#define COMMANDS VIEW_COMMANDS
#define BOTH (VIEW_TASKS | VIEW_CGROUPS)
#define ALL_VIEWS (VIEW_TASKS | VIEW_CGROUPS | VIEW_COMMANDS)

/* The pressure columns, COL_PSI + i: column_psi says which line of which resource each shows. */
enum psi_column { PC_CPU_SOME, PC_CPU_FULL, PC_MEMORY_SOME, PC_MEMORY_FULL, PC_IO_SOME, PC_IO_FULL, PC_IRQ_FULL };
_Static_assert(PC_IRQ_FULL + 1 == PSI_COLS, "a pressure column without its line, or a line without its column");

/* TRANSLATORS: column titles have the width of their column at most: PID and TID 7, USER 8,
   S 1, PROCS 5, TASKS 5, R S D T IOW 5, CPU% and CPU s 6, TOTAL 7, the delay kinds and the pressure
   columns 7, CGROUP 24, UNIT 20, CONTAINER 23. */
static const struct column_def fixed_columns[COL_COUNT] = {
	[COL_ID] = { .key = "pid", .title = N_("PID"), .alt = N_("TID"), .alt_when = ALT_THREADS, .width = 7,
		     .right = 1, .value = VALUE_ID, .fit = 10, .views = TASKS },
	[COL_PROCS] = { .key = "procs", .title = N_("PROCS"), .width = 5, .right = 1, .value = VALUE_NUMBER,
			.fit = 5, .views = COMMANDS },
	[COL_USER] = { .key = "user", .title = N_("USER"), .width = 8, .value = VALUE_TEXT, .views = TASKS | COMMANDS },
	[COL_STATE] = { .key = "state", .title = N_("S"), .width = 1, .value = VALUE_STATE, .views = TASKS },
	[COL_TASKS] = { .key = "tasks", .title = N_("TASKS"), .width = 5, .right = 1, .value = VALUE_NUMBER,
			.fit = 5, .views = CGROUPS },
	[COL_NR + CG_RUNNING] = { .key = "running", .title = N_("R"), .width = 5, .right = 1,
				  .value = VALUE_NUMBER, .fit = 5, .views = CGROUPS },
	[COL_NR + CG_SLEEPING] = { .key = "sleeping", .title = N_("S"), .width = 5, .right = 1,
				   .value = VALUE_NUMBER, .fit = 5, .views = CGROUPS },
	[COL_NR + CG_UNINTERRUPTIBLE] = { .key = "uninterruptible", .title = N_("D"), .width = 5, .right = 1,
					  .value = VALUE_NUMBER, .fit = 5, .views = CGROUPS },
	[COL_NR + CG_STOPPED] = { .key = "stopped", .title = N_("T"), .width = 5, .right = 1,
				  .value = VALUE_NUMBER, .fit = 5, .views = CGROUPS },
	[COL_NR + CG_IOWAIT] = { .key = "iowait", .title = N_("IOW"), .width = 5, .right = 1,
				 .value = VALUE_NUMBER, .fit = 5, .views = CGROUPS },
	[COL_PCPU] = { .key = "pcpu", .title = N_("CPU%"), .alt = N_("CPU s"), .alt_when = ALT_TOTALS, .width = 6,
		       .right = 1, .value = VALUE_NUMBER, .decimals = 1, .decimals_totals = 2, .fit = 6,
		       .views = ALL_VIEWS },
	[COL_TOTAL] = { .key = "total", .title = N_("TOTAL"), .width = KIND_WIDTH, .right = 1,
			.value = VALUE_NUMBER, .decimals = -1, .decimals_totals = -1, .fit = KIND_WIDTH,
			.views = ALL_VIEWS },
	[COL_PSI + PC_CPU_SOME] = { .key = "cpu_some", .title = N_("CPUsome"), .width = KIND_WIDTH, .right = 1,
				    .value = VALUE_NUMBER, .decimals = 1, .decimals_totals = 1,
				    .fit = KIND_WIDTH, .views = CGROUPS },
	[COL_PSI + PC_CPU_FULL] = { .key = "cpu_full", .title = N_("CPUfull"), .width = KIND_WIDTH, .right = 1,
				    .value = VALUE_NUMBER, .decimals = 1, .decimals_totals = 1,
				    .fit = KIND_WIDTH, .views = CGROUPS },
	[COL_PSI + PC_MEMORY_SOME] = { .key = "memory_some", .title = N_("MEMsome"), .width = KIND_WIDTH,
				       .right = 1, .value = VALUE_NUMBER, .decimals = 1, .decimals_totals = 1,
				       .fit = KIND_WIDTH, .views = CGROUPS },
	[COL_PSI + PC_MEMORY_FULL] = { .key = "memory_full", .title = N_("MEMfull"), .width = KIND_WIDTH,
				       .right = 1, .value = VALUE_NUMBER, .decimals = 1, .decimals_totals = 1,
				       .fit = KIND_WIDTH, .views = CGROUPS },
	[COL_PSI + PC_IO_SOME] = { .key = "io_some", .title = N_("IOsome"), .width = KIND_WIDTH, .right = 1,
				   .value = VALUE_NUMBER, .decimals = 1, .decimals_totals = 1,
				   .fit = KIND_WIDTH, .views = CGROUPS },
	[COL_PSI + PC_IO_FULL] = { .key = "io_full", .title = N_("IOfull"), .width = KIND_WIDTH, .right = 1,
				   .value = VALUE_NUMBER, .decimals = 1, .decimals_totals = 1,
				   .fit = KIND_WIDTH, .views = CGROUPS },
	[COL_PSI + PC_IRQ_FULL] = { .key = "irq_full", .title = N_("IRQfull"), .width = KIND_WIDTH, .right = 1,
				    .value = VALUE_NUMBER, .decimals = 1, .decimals_totals = 1,
				    .fit = KIND_WIDTH, .views = CGROUPS },
	[COL_MAX_AT] = { .key = "max_at", .title = N_("MAX AT"), .width = 8, .right = 1, .value = VALUE_NUMBER,
			 .fit = 8, .views = TASKS | COMMANDS, .optional = 1 },
	[COL_TREND] = { .key = "trend", .title = N_("TREND"), .width = 8, .value = VALUE_NUMBER, .views = TASKS,
			.optional = 1 },
	[COL_UNIT] = { .key = "unit", .title = N_("UNIT"), .width = 20, .value = VALUE_TEXT, .views = BOTH,
		       .optional = 1, .derived = 1 },
	[COL_CONTAINER] = { .key = "container", .title = N_("CONTAINER"), .width = 23, .value = VALUE_TEXT,
			    .views = BOTH, .optional = 1, .derived = 1 },
	[COL_CGROUP] = { .key = "cgroup", .title = N_("CGROUP"), .width = 24, .value = VALUE_TEXT, .views = BOTH },
	[COL_COMMAND] = { .key = "command", .title = N_("COMMAND"), .width = 7, .value = VALUE_TEXT,
			  .views = TASKS | COMMANDS },
};

/* The percentile columns, COL_LAT + i: the kind of wait and the quantile of each. The kinds are
 * those measured wherever --why runs (the delayacct kinds need fentry, which not every kernel
 * lets a program use); p50 and p99 as a service's objectives are written. */
static const struct {
	int kind;
	double q;
	const char *key, *title, *label;
} lat_columns[LAT_COLS] = {
	/* TRANSLATORS: the titles of --why's percentile columns, 7 columns at most: the kind (CPU:
	   run-queue latency, IO: block I/O, BLK: interruptible sleep) and the percentile. */
	{ DK_CPU, 0.50, "cpu_p50", N_("CPU p50"), N_("median run-queue wait, ms (--why)") },
	{ DK_CPU, 0.99, "cpu_p99", N_("CPU p99"), N_("99th percentile run-queue wait, ms (--why)") },
	{ DK_IO, 0.50, "io_p50", N_("IO p50"), N_("median block I/O wait, ms (--why)") },
	{ DK_IO, 0.99, "io_p99", N_("IO p99"), N_("99th percentile block I/O wait, ms (--why)") },
	{ LAT_BLOCKED, 0.50, "blocked_p50", N_("BLK p50"), N_("median interruptible sleep, ms (--why)") },
	{ LAT_BLOCKED, 0.99, "blocked_p99", N_("BLK p99"), N_("99th percentile interruptible sleep, ms (--why)") },
};

static const struct {
	int resource, full;
} psi_columns[PSI_COLS] = {
	[PC_CPU_SOME] = { .resource = PSI_CPU, .full = 0 },
	[PC_CPU_FULL] = { .resource = PSI_CPU, .full = 1 },
	[PC_MEMORY_SOME] = { .resource = PSI_MEMORY, .full = 0 },
	[PC_MEMORY_FULL] = { .resource = PSI_MEMORY, .full = 1 },
	[PC_IO_SOME] = { .resource = PSI_IO, .full = 0 },
	[PC_IO_FULL] = { .resource = PSI_IO, .full = 1 },
	[PC_IRQ_FULL] = { .resource = PSI_IRQ, .full = 1 },
};

/* A run of columns in one of the orders below: count columns from first on. */
struct column_span {
	int first, count;
};
#define ONE(c) { .first = (c), .count = 1 }
#define ALL(c, n) { .first = (c), .count = (n) }

/* The list of sort keys (--help's, a refusal's), every column once: TOTAL and the kinds, CPU%, the
 * command view's and the cgroup view's, the names, the optional columns. */
static const struct column_span sort_keys[] = {
	ONE(COL_TOTAL), ALL(COL_KIND, DK_COUNT), ONE(COL_PCPU), ONE(COL_PROCS), ONE(COL_TASKS), ALL(COL_NR, CG_STATES),
	ALL(COL_PSI, PSI_COLS), ONE(COL_ID), ONE(COL_USER), ONE(COL_STATE), ONE(COL_CGROUP), ONE(COL_COMMAND),
	ALL(COL_ACCT, AF_COUNT), ONE(COL_MAX_AT), ONE(COL_TREND), ALL(COL_LAT, LAT_COLS), ONE(COL_UNIT),
	ONE(COL_CONTAINER),
};

/* The order a narrow screen hides columns in, the first hidden first: the cgroup of a task, the last
 * delay kind, the optional columns, the other minor kinds (the later in the kind table first), the
 * rarer states and pressures, the names and CPU%, the commoner states, the major kinds (IO, then
 * CPU), the other pressures, TOTAL. The id and the command, not here, are never hidden; nor is a
 * view's last column. */
static const struct column_span hide_order[] = {
	ONE(COL_CGROUP), ONE(COL_KIND + DK_IRQ), ALL(COL_ACCT, AF_COUNT), ONE(COL_MAX_AT), ONE(COL_TREND),
	ALL(COL_LAT, LAT_COLS), ONE(COL_UNIT), ONE(COL_CONTAINER),
	ONE(COL_KIND + DK_WPCOPY), ONE(COL_KIND + DK_COMPACT), ONE(COL_KIND + DK_THRASHING),
	ONE(COL_KIND + DK_RECLAIM), ONE(COL_KIND + DK_SWAPIN),
	ONE(COL_NR + CG_SLEEPING), ONE(COL_NR + CG_STOPPED), ONE(COL_NR + CG_IOWAIT), ONE(COL_PSI + PC_CPU_FULL),
	ONE(COL_PSI + PC_IRQ_FULL),
	ONE(COL_USER), ONE(COL_STATE), ONE(COL_PCPU), ONE(COL_NR + CG_RUNNING), ONE(COL_NR + CG_UNINTERRUPTIBLE),
	ONE(COL_TASKS), ONE(COL_PROCS),
	ONE(COL_KIND + DK_IO), ONE(COL_KIND + DK_CPU),
	ONE(COL_PSI + PC_IO_FULL), ONE(COL_PSI + PC_MEMORY_FULL), ONE(COL_PSI + PC_IO_SOME),
	ONE(COL_PSI + PC_MEMORY_SOME), ONE(COL_PSI + PC_CPU_SOME),
	ONE(COL_TOTAL),
};

/* The columns of n spans, in order, into ids; returns how many. */
static int spans_columns(const struct column_span *spans, size_t n, int *ids)
{
	int count = 0;

	for (size_t i = 0; i < n; i++)
		for (int c = spans[i].first; c < spans[i].first + spans[i].count; c++)
			ids[count++] = c;
	return count;
}

int column_sort_order(int *ids)
{
	return spans_columns(sort_keys, sizeof(sort_keys) / sizeof(sort_keys[0]), ids);
}

int column_hide_order(int *ids)
{
	return spans_columns(hide_order, sizeof(hide_order) / sizeof(hide_order[0]), ids);
}

void column_psi(int id, int *resource, int *full)
{
	*resource = psi_columns[id - COL_PSI].resource;
	*full = psi_columns[id - COL_PSI].full;
}

void column_lat(int id, int *kind, double *q)
{
	*kind = lat_columns[id - COL_LAT].kind;
	*q = lat_columns[id - COL_LAT].q;
}

/* A percentile column: milliseconds with two decimals, shown when chosen, in the task, process
 * and cgroup views (a command's row does not sum the waits' distribution). */
static struct column_def lat_column(int i)
{
	return (struct column_def){
		.key = lat_columns[i].key,
		.title = lat_columns[i].title,
		.width = KIND_WIDTH,
		.right = 1,
		.value = VALUE_NUMBER,
		.decimals = 2,
		.decimals_totals = 2,
		.fit = KIND_WIDTH,
		.views = BOTH,
		.optional = 1,
	};
}

/* An accounting field's column: shown when chosen. Rates of bytes show whole bytes, CPU shares one
 * decimal, totals of CPU time two. */
static struct column_def acct_column(int f)
{
	const struct acct_field_info *info = &acct_fields[f];

	return (struct column_def){
		.key = info->key,
		.title = info->title,
		.width = ACCT_WIDTH,
		.right = 1,
		.value = VALUE_NUMBER,
		.decimals = info->unit == AU_USEC || info->unit == AU_EVENTS ? 1 : 0,
		.decimals_totals = info->unit == AU_USEC ? 2 : 0,
		.fit = ACCT_WIDTH,
		.views = TASKS | COMMANDS,
		.optional = 1,
	};
}

/* A delay kind's column: its cells as the metric says. */
static struct column_def kind_column(int k)
{
	const struct delay_kind_info *info = &delay_kinds[k];

	return (struct column_def){
		.key = info->key,
		.title = info->title,
		.width = KIND_WIDTH,
		.right = 1,
		.value = VALUE_NUMBER,
		.decimals = -1,
		.decimals_totals = -1,
		.fit = KIND_WIDTH,
		.views = ALL_VIEWS,
	};
}

int column_acct(int id)
{
	return id >= COL_ACCT && id < COL_ACCT + AF_COUNT ? id - COL_ACCT : -1;
}

struct column_def column_def(int id)
{
	if (column_acct(id) >= 0)
		return acct_column(column_acct(id));
	if (id >= COL_KIND && id < COL_TOTAL)
		return kind_column(id - COL_KIND);
	if (id >= COL_LAT && id < COL_LAT + LAT_COLS)
		return lat_column(id - COL_LAT);
	return fixed_columns[id];
}

static int is_number_column(int id);
static int decimals_of(const struct column_def *def, const struct display *d);

struct column column_get(int id, const struct display *d)
{
	struct column_def def = column_def(id);
	int alt = (def.alt_when == ALT_THREADS && d->threads) || (def.alt_when == ALT_TOTALS && d->accumulate);

	return (struct column){ .title = _(alt ? def.alt : def.title), .width = def.width, .right = def.right,
				.key = def.key, .number = is_number_column(id), .decimals = decimals_of(&def, d),
				.fit = def.fit };
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

/* A percentile of the row's waits of one kind in the interval, ms: NAN where the snapshot did not
 * measure the kind, the row cannot have it, or the row did not wait (never 0 for "unknown"). The
 * waits are the interval's, in totals since the start too. */
static double lat_value(const struct row *r, int id, const struct display *d)
{
	int kind;
	double q;

	column_lat(id, &kind, &q);
	if (!(d->why_kinds & (1u << kind)) || (r->lat && (r->lat->unavail & (1u << kind))))
		return NAN;
	return lat_percentile_ms(lat_waits_get(r->lat, kind), q);
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
	if (id >= COL_LAT && id < COL_LAT + LAT_COLS)
		return lat_value(r, id, d);
	switch (id) {
	case COL_ID: return d->threads ? r->tid : r->pid;
	case COL_PROCS: return r->procs ? (double)r->procs : NAN;
	case COL_TASKS: return r->cg ? (double)r->nthreads : NAN;
	case COL_PCPU: return pcpu_value(r, d);
	case COL_TOTAL: return total_value(r, d);
	case COL_MAX_AT: return max_at_value(r, d);
	case COL_TREND: return d->trend && !r->cg ? d->trend(d->trend_ctx, r, NULL) : NAN;
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

	return (v == VALUE_NUMBER || v == VALUE_ID) && id != COL_MAX_AT && id != COL_TREND; /* a time of day, a chart */
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

size_t column_number_cell(const struct row *r, int id, const struct display *d, int decimals, int fit, char *buf)
{
	if (r->fresh && !d->accumulate && id != COL_ID && id != COL_PROCS) { /* counts, not rates */
		buf[0] = '\0';
		return 0;
	}
	double v = column_value(r, id, d);

	if (!isnan(v) && cell_carried(r, id, d)) { /* the number gives the mark one column */
		size_t len = fmt_cell(buf, v, decimals, fit - 1);

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
	return fmt_cell(buf, v, decimals, fit);
}

/* A number cell into buf (>= 32 bytes); returns its length. */
static size_t number_text(const struct row *r, int id, const struct display *d, char *buf)
{
	struct column_def def = column_def(id);

	return column_number_cell(r, id, d, decimals_of(&def, d), def.fit, buf);
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

const char *column_ident_marked(const char *name, uint32_t identity_uid, size_t width, char *buf, size_t size)
{
	char mark[16];
	size_t n = strlen(name), m = identity_uid ? (size_t)snprintf(mark, sizeof(mark), "%c%u", DELEGATED_MARK,
								       identity_uid) : 0;

	if (!size)
		return buf;
	if (m && n + m > width) /* the mark says more than the name's end */
		n = width > m ? width - m : 0;
	if (n + m >= size)
		n = size > m + 1 ? size - m - 1 : 0;
	memmove(buf, name, n);
	memcpy(buf + n, mark, m);
	buf[n + m] = '\0';
	return buf;
}

/* The unit or the container of the row's cgroup into buf (32 bytes), "-" when its path names
 * none; marked with the user who could have named it when its cgroup is delegated. */
static const char *ident_text(const struct row *r, int id, char *buf)
{
	struct cgident ident;
	char name[CGIDENT_NAME_MAX + 32];

	cgident_parse(r->cgroup, &ident);
	if (id == COL_UNIT)
		str_copy(name, sizeof(name), ident.unit);
	else
		cgident_container_text(&ident, name, sizeof(name));
	if (!name[0])
		return "-";
	return column_ident_marked(name, r->identity_uid, (size_t)column_def(id).width, buf, 32);
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
	case COL_TREND:
		if (!d->trend || r->cg)
			return "-";
		d->trend(d->trend_ctx, r, buf);
		return buf;
	case COL_UNIT:
	case COL_CONTAINER: return ident_text(r, id, buf);
	default:
		number_text(r, id, d, buf);
		return buf;
	}
}

const char *column_label(int id)
{
	if (id >= COL_KIND && id < COL_TOTAL)
		return _(delay_kinds[id - COL_KIND].label);
	if (column_acct(id) >= 0)
		return _(acct_fields[column_acct(id)].label);
	if (id >= COL_LAT && id < COL_LAT + LAT_COLS)
		return _(lat_columns[id - COL_LAT].label);
	return NULL;
}
