/* csv.c — reports as CSV: one header line, then a line a row. */
#include "config.h"

#include <math.h>

#include "cgtree.h"
#include "csv.h"
#include "rollup.h"
#include "rowvalues.h"
#include "timing.h"

/* The row fields that end a task line, each a number or empty. */
static void csv_tail(struct outbuf *o, const struct row *r, const struct display *d)
{
	struct rowval_tail tail[ROWVAL_TAIL_MAX];
	int n = rowval_tail(r, d, tail);

	for (int i = 0; i < n; i++)
		if (tail[i].known)
			out_printf(o, ",%lld", tail[i].v);
		else
			out_char(o, ',');
}

/* The CSV header's names of the row fields that end a task line. */
static void csv_tail_names(struct outbuf *o)
{
	static const struct display plain = {0};
	static const struct row blank = {.parent = -1};
	struct rowval_tail tail[ROWVAL_TAIL_MAX];
	int n = rowval_tail(&blank, &plain, tail);

	for (int i = 0; i < n; i++)
		out_printf(o, ",%s", tail[i].name);
}

/* The names of what the cgroup's path names and of who could have named it, ending a line. */
static void csv_ident_names(struct outbuf *o)
{
	for (int i = 0; i < ROWVAL_IDENT_COUNT; i++)
		out_printf(o, ",%s", rowval_ident_names[i]);
	out_str(o, "," ROWVAL_IDENTITY_UID);
}

/* Their values, empty where unknown; then the user who could have named them, empty when root. */
static void csv_ident(struct outbuf *o, const struct row *r)
{
	struct cgident id;
	const char *v[ROWVAL_IDENT_COUNT];

	rowval_ident(r->cgroup, &id, v);
	for (int i = 0; i < ROWVAL_IDENT_COUNT; i++) {
		out_char(o, ',');
		if (v[i])
			out_csv_field(o, v[i]);
	}
	out_char(o, ',');
	if (r->identity_uid)
		out_printf(o, "%u", r->identity_uid);
}

/* The names of the accounting fields, with their units. */
static void csv_acct_names(struct outbuf *o, const struct display *d)
{
	char name[32];

	for (int f = 0; f < AF_COUNT; f++)
		out_printf(o, ",%s", acct_json_name(f, d->accumulate, name));
}

static void csv_number(struct outbuf *o, double v);

/* --why's columns: each kind's numbers (rowvalues.h), KIND_NAME. */
static void csv_why_names(struct outbuf *o, const struct display *d)
{
	if (!d->why)
		return;
	for (int k = 0; k < LAT_KINDS; k++)
		for (int i = 0; i < LATVAL_N; i++)
			out_printf(o, ",%s_%s", lat_kind_key(k), rowval_lat_csv_names[i]);
}

/* Their values: empty where the kind is not measured for the row (or --why is unavailable), the
 * percentiles and the longest empty without waits. */
static void csv_why(struct outbuf *o, const struct snapshot *snap, const struct row *r, const struct display *d)
{
	lat_mask kinds = lat_row_kinds(&snap->why, r->lat);

	if (!d->why)
		return;
	for (int k = 0; k < LAT_KINDS; k++) {
		double v[LATVAL_N];

		if (!(kinds & (1u << k))) {
			for (int i = 0; i < LATVAL_N; i++)
				out_char(o, ',');
			continue;
		}
		rowval_latency(lat_waits_get(r->lat, k), v);
		out_printf(o, ",%.0f", v[LATVAL_COUNT]);
		for (int i = LATVAL_COUNT + 1; i < LATVAL_N; i++)
			csv_number(o, v[i]);
	}
}

static void csv_header(struct outbuf *o, const struct display *d)
{
	const char *const *names = rowval_metric_names(d);

	if (d->cgroups) {
		out_str(o, "time,interval_s,cgroup,depth,tasks,processes");
		for (int s = 0; s < CG_STATES; s++)
			out_printf(o, ",%s", column_def(COL_NR + s).key);
	} else if (d->commands) {
		out_str(o, "time,interval_s,command,processes,threads,user");
	} else {
		out_str(o, "time,interval_s,pid,tid,user,state,command");
	}
	for (int k = 0; k < DK_COUNT; k++)
		for (int m = 0; m < METRIC_COUNT; m++)
			out_printf(o, ",%s_%s", delay_kinds[k].key, names[m]);
	out_str(o, d->accumulate ? ",run_s,total_s" : ",run_pct,total_pct");
	csv_why_names(o, d);
	if (d->cgroups) {
		for (int i = 0; i < PSI_COLS; i++)
			out_printf(o, ",%s", column_def(COL_PSI + i).key);
		csv_ident_names(o);
		out_char(o, '\n');
	} else if (d->commands) {
		out_str(o, ",exited,partial,carried");
		csv_acct_names(o, d);
		out_char(o, '\n');
	} else {
		out_str(o, ",exited,partial,carried,cgroup,cmdline");
		csv_acct_names(o, d);
		for (int k = 0; k < DK_COUNT; k++)
			out_printf(o, ",%s_max_at", delay_kinds[k].key);
		csv_tail_names(o);
		csv_ident_names(o);
		out_char(o, '\n');
	}
}

static void csv_number(struct outbuf *o, double v)
{
	char buf[40];

	out_char(o, ',');
	if (isfinite(v))
		out_mem(o, buf, fmt_fixed(buf, v, 3));
}

/* A row's delay fields: each kind's four numbers, CPU time and the total. */
static void csv_kinds(struct outbuf *o, const struct row *r, const struct display *d)
{
	for (int k = 0; k < DK_COUNT; k++) {
		double v[METRIC_COUNT];

		rowval_kind(r, k, d, v);
		for (int m = 0; m < METRIC_COUNT; m++) {
			if (rowval_is_count(d, m) && !isnan(v[m]))
				out_printf(o, ",%.0f", v[m]);
			else
				csv_number(o, v[m]);
		}
	}
	csv_number(o, column_value(r, COL_PCPU, d));
	csv_number(o, rowval_total(r, d));
}

/* A row's accounting fields, empty where unavailable. */
static void csv_acct(struct outbuf *o, const struct row *r, const struct display *d)
{
	for (int f = 0; f < AF_COUNT; f++) {
		out_char(o, ',');
		rowval_acct(o, r, f, d, "");
	}
}

static void csv_task(struct outbuf *o, const char *when, const struct snapshot *snap, const struct row *r,
                     const struct display *d)
{
	char state[2] = {r->state, '\0'};

	out_str(o, when);
	csv_number(o, snap->interval_s);
	out_printf(o, ",%u,", r->pid);
	if (d->threads)
		out_printf(o, "%u", r->tid);
	out_char(o, ',');
	out_csv_field(o, r->user);
	out_char(o, ',');
	out_csv_field(o, state);
	out_char(o, ',');
	out_csv_field(o, r->comm);
	csv_kinds(o, r, d);
	csv_why(o, snap, r, d);
	out_str(o, r->exited ? ",1," : ",0,");
	out_str(o, r->partial ? "1," : "0,");
	rowval_kinds(o, column_carried(r, d), "", " ");
	out_char(o, ',');
	if (r->cgroup)
		out_csv_field(o, r->cgroup);
	out_char(o, ',');
	if (r->cmdline)
		out_csv_field(o, r->cmdline);
	csv_acct(o, r, d);
	for (int k = 0; k < DK_COUNT; k++) {
		out_char(o, ',');
		rowval_time(o, rowval_max_at(r, k, d), 0);
	}
	csv_tail(o, r, d);
	csv_ident(o, r);
	out_char(o, '\n');
}

static void csv_cgroup(struct outbuf *o, const char *when, const struct snapshot *snap, const struct row *r,
                       const struct display *d)
{
	out_str(o, when);
	csv_number(o, snap->interval_s);
	out_char(o, ',');
	out_csv_field(o, r->cgroup);
	out_printf(o, ",%d,%u,%u", r->depth, r->nthreads, r->cg->procs);
	for (int s = 0; s < CG_STATES; s++) {
		double v = column_value(r, COL_NR + s, d);

		if (isnan(v))
			out_char(o, ',');
		else
			out_printf(o, ",%.0f", v);
	}
	csv_kinds(o, r, d);
	csv_why(o, snap, r, d);
	for (int i = 0; i < PSI_COLS; i++)
		csv_number(o, column_value(r, COL_PSI + i, d));
	csv_ident(o, r);
	out_char(o, '\n');
}

/* A command's row (rollup.h): the user empty when its tasks have several. */
static void csv_command(struct outbuf *o, const char *when, const struct snapshot *snap, const struct row *r,
			const struct display *d)
{
	out_str(o, when);
	csv_number(o, snap->interval_s);
	out_char(o, ',');
	out_csv_field(o, r->comm);
	out_printf(o, ",%u,%u,", r->procs, r->nthreads);
	if (r->uid != ROLLUP_UID_SEVERAL)
		out_csv_field(o, r->user);
	csv_kinds(o, r, d);
	out_str(o, r->exited ? ",1," : ",0,");
	out_str(o, r->partial ? "1," : "0,");
	rowval_kinds(o, column_carried(r, d), "", " ");
	csv_acct(o, r, d);
	out_char(o, '\n');
}

void csv_report(struct outbuf *o, const struct snapshot *snap, const struct row *const *rows, size_t n,
                const struct display *d, int *header_done)
{
	static const struct rowval_writers writers = { csv_cgroup, csv_command, csv_task };
	char when[48];

	if (!*header_done) {
		csv_header(o, d);
		*header_done = 1;
	}
	timing_iso8601(&snap->wall, when, sizeof(when));
	rowval_each(o, when, snap, rows, n, d, &writers);
}
