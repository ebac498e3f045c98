/* rowvalues.c — a row's values as the JSON and CSV reports write them, and their rows written. */
#include "config.h"

#include <math.h>
#include <time.h>

#include "rowvalues.h"
#include "timing.h"

/* The keys of the kinds set in mask (count of them, key_of naming each), separated by sep. */
static void mask_keys(struct outbuf *o, unsigned mask, int count, const char *(*key_of)(int kind),
		      const char *quote, const char *sep)
{
	const char *between = "";

	for (int k = 0; k < count; k++)
		if (mask & (1u << k)) {
			out_printf(o, "%s%s%s%s", between, quote, key_of(k), quote);
			between = sep;
		}
}

static const char *delay_key(int kind)
{
	return delay_kinds[kind].key;
}

/* The delay kinds of a mask, by key, separated by sep. */
void rowval_kinds(struct outbuf *o, unsigned kinds, const char *quote, const char *sep)
{
	mask_keys(o, kinds, DK_COUNT, delay_key, quote, sep);
}

/* The kinds of waits of a mask, by key, separated by sep. */
void rowval_lat_kinds(struct outbuf *o, lat_mask kinds, const char *quote, const char *sep)
{
	mask_keys(o, kinds, LAT_KINDS, lat_kind_key, quote, sep);
}

/* In totals since the start the third number is a count of waits: a whole number. */
int rowval_is_count(const struct display *d, int m)
{
	return d->accumulate && m == METRIC_RATE;
}

/* TOTAL under the first metric: percent of the interval, or seconds since the start. */
double rowval_total(const struct row *r, const struct display *d)
{
	struct display first = *d;

	first.metric = METRIC_PCT;
	return column_value(r, COL_TOTAL, &first);
}

/* One kind's four numbers under display d; the metric field of d is overridden. */
void rowval_kind(const struct row *r, int k, const struct display *d, double v[METRIC_COUNT])
{
	struct display one = *d;

	for (int m = 0; m < METRIC_COUNT; m++) {
		one.metric = (enum metric)m;
		v[m] = column_value(r, COL_KIND + k, &one);
	}
}

/* Field names of a kind's four numbers, in metric order: per interval, or totals since start. */
static const char *const interval_names[METRIC_COUNT] = {"pct", "avg_ms", "per_s", "max_ms"};
static const char *const total_names[METRIC_COUNT] = {"total_s", "avg_ms", "count", "max_ms"};

const char *const *rowval_metric_names(const struct display *d)
{
	return d->accumulate ? total_names : interval_names;
}

/* When kind k's longest wait happened, ns since the epoch; 0 when unknown. */
int64_t rowval_max_at(const struct row *r, int k, const struct display *d)
{
	if (!d->accumulate && isnan(r->r.kind[k].max_ms))
		return 0;
	return r->acc && (r->acc->kinds_max & (1u << k)) ? r->acc->max_at_ns[k] : 0;
}

/* A time as ISO 8601 with the UTC offset, quoted for JSON (quote set) or bare; "null" or nothing
 * when unknown. */
void rowval_time(struct outbuf *o, int64_t ns, int quote)
{
	struct timespec ts = {(time_t)(ns / 1000000000), (long)(ns % 1000000000)};
	char when[48];

	if (!ns) {
		if (quote)
			out_str(o, "null");
		return;
	}
	timing_iso8601(&ts, when, sizeof(when));
	if (quote)
		out_char(o, '"');
	out_str(o, when);
	if (quote)
		out_char(o, '"');
}

const char *const rowval_lat_names[LATVAL_N] = { "count", "total_ms", "p50_ms", "p90_ms", "p99_ms", "max_ms" };
const char *const rowval_lat_csv_names[LATVAL_N] = { "wait_count", "wait_total_ms", "p50_ms", "p90_ms", "p99_ms",
						     "wait_max_ms" };
const double rowval_lat_quantiles[3] = { 0.50, 0.90, 0.99 };

void rowval_latency(const struct lat_hist *h, double v[LATVAL_N])
{
	v[LATVAL_COUNT] = h ? (double)h->count : 0;
	v[LATVAL_TOTAL] = h ? (double)h->total_ns / 1e6 : 0;
	for (int i = 0; i < 3; i++)
		v[LATVAL_P50 + i] = lat_percentile_ms(h, rowval_lat_quantiles[i]);
	v[LATVAL_MAX] = h && h->count ? (double)h->max_ns / 1e6 : NAN;
}

/* Field f's number under d, for JSON and CSV: whole bytes and counts in totals and for the
 * high-water marks, else up to 3 decimals; "null" (JSON) or nothing (CSV) when unavailable. */
void rowval_acct(struct outbuf *o, const struct row *r, int f, const struct display *d, const char *none)
{
	double v = column_value(r, COL_ACCT + f, d);
	int whole = acct_is_level(f) || (d->accumulate && acct_fields[f].unit != AU_USEC);
	char buf[40];

	if (isnan(v))
		out_str(o, none);
	else if (whole)
		out_printf(o, "%.0f", v);
	else
		out_mem(o, buf, fmt_fixed(buf, v, 3));
}

#define SHOW_OWN(member, none)
#define SHOW_NUM(member, none)                                                                               \
	tail[n++] = (struct rowval_tail){#member, r->member != (none), (long long)r->member};
#define SHOW_DEPTH(member, none)                                                                             \
	tail[n++] = (struct rowval_tail){#member, 1, d->tree && !d->threads ? (long long)r->member : 0};
#define ROW_FIELD_TAIL(member, type, dims, record, check, none, show, from) show(member, none)

/* The row fields that end a task record, in the table's order; returns how many. */
int rowval_tail(const struct row *r, const struct display *d, struct rowval_tail *tail)
{
	int n = 0;

	ROW_FIELDS(ROW_FIELD_TAIL)
	return n;
}

const char *const rowval_ident_names[ROWVAL_IDENT_COUNT] = { "unit", "container_runtime", "container_id",
							     "pod_uid", "qos" };

void rowval_ident(const char *path, struct cgident *id, const char *v[ROWVAL_IDENT_COUNT])
{
	cgident_parse(path, id);
	v[0] = id->unit[0] ? id->unit : NULL;
	v[1] = id->container[0] ? id->runtime : NULL;
	v[2] = id->container[0] ? id->container : NULL;
	v[3] = id->pod_uid[0] ? id->pod_uid : NULL;
	v[4] = id->qos;
}

void rowval_each(struct outbuf *o, const char *when, const struct snapshot *snap, const struct row *const *rows,
		 size_t n, const struct display *d, const struct rowval_writers *w)
{
	rowval_writer *write = d->cgroups ? w->cgroup : d->commands ? w->command : w->task;

	for (size_t i = 0; i < n; i++) {
		write(o, when, snap, rows[i], d);
		out_spill(o);
	}
}
