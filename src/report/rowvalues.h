/* rowvalues.h — a row's values as the JSON and CSV reports write them, the same in both: each
 * delay kind's four numbers and the first metric's total under a display, when the longest waits
 * happened, the accounting fields' numbers, the kinds of a mask by key (delay kinds, kinds of
 * waits), the row fields that end a task (rowfield.h's SHOW_NUM and SHOW_DEPTH), what the
 * cgroup's path names (the unit, the container, the pod) and who could have named it. Pure code. */
#ifndef DELAYTOP_ROWVALUES_H
#define DELAYTOP_ROWVALUES_H

#include <stdint.h>

#include "cgident.h"
#include "columns.h"
#include "format.h"
#include "model.h"

/* Whether metric m's number is a count (of waits, in totals since the start): a whole number. */
int rowval_is_count(const struct display *d, int m);
/* TOTAL under the first metric: percent of the interval, or seconds since the start. */
double rowval_total(const struct row *r, const struct display *d);
/* Kind k's four numbers under d, in metric order (d's own metric does not matter). */
void rowval_kind(const struct row *r, int k, const struct display *d, double v[METRIC_COUNT]);
/* The field names of a kind's four numbers, in metric order: per interval ("pct", "avg_ms",
 * "per_s", "max_ms") or in totals since the start ("total_s", "avg_ms", "count", "max_ms"). */
const char *const *rowval_metric_names(const struct display *d);
/* When kind k's longest wait happened, ns since the epoch; 0 when unknown. */
int64_t rowval_max_at(const struct row *r, int k, const struct display *d);
/* A time as ISO 8601 with the UTC offset, quoted for JSON (quote set) or bare; "null" or nothing
 * when ns is 0 (unknown). */
void rowval_time(struct outbuf *o, int64_t ns, int quote);
/* --why: a kind's numbers of the interval, in this order, and their names as JSON has them (CSV
 * puts the kind's key and "_" before each, with "wait_" before the count, total and longest):
 * the count of waits, their sum, the three percentiles and the longest, ms. */
enum { LATVAL_COUNT, LATVAL_TOTAL, LATVAL_P50, LATVAL_P90, LATVAL_P99, LATVAL_MAX, LATVAL_N };
extern const char *const rowval_lat_names[LATVAL_N];
extern const char *const rowval_lat_csv_names[LATVAL_N];
/* Kind k's numbers for the row r (h its histogram of the kind, NULL when it had no wait): the
 * count and sum are 0 without waits, the percentiles and the longest NAN. */
void rowval_latency(const struct lat_hist *h, double v[LATVAL_N]);
/* The quantiles LATVAL_P50 to _P99 stand for. */
extern const double rowval_lat_quantiles[3];

/* Accounting field f's number under d: whole bytes and counts in totals and for the high-water
 * marks, else up to 3 decimals; none when unavailable. */
void rowval_acct(struct outbuf *o, const struct row *r, int f, const struct display *d, const char *none);
/* The delay kinds of a mask (the kinds carried over, a trigger's kinds), by key, each between
 * quotes, separated by sep. */
void rowval_kinds(struct outbuf *o, unsigned kinds, const char *quote, const char *sep);
/* The kinds of waits of a mask (latency.h), the same way. */
void rowval_lat_kinds(struct outbuf *o, lat_mask kinds, const char *quote, const char *sep);

/* A row field that ends a task record: its name, whether it is known, its value. */
struct rowval_tail {
	const char *name;
	int known;
	long long v;
};
#define ROW_FIELD_COUNT(member, type, dims, record, check, none, show, from) +1
enum { ROWVAL_TAIL_MAX = 0 ROW_FIELDS(ROW_FIELD_COUNT) };
#undef ROW_FIELD_COUNT
/* The row fields that end a task record (SHOW_NUM: unknown when none; SHOW_DEPTH: 0 outside a
 * process tree), in the table's order, into tail (ROWVAL_TAIL_MAX); returns how many. */
int rowval_tail(const struct row *r, const struct display *d, struct rowval_tail *tail);

/* The fields that end a task record and a cgroup record: what its cgroup's path names
 * (cgident.h), made when written rather than kept with the row, then who could have named it,
 * the row's identity_uid (ROWVAL_IDENTITY_UID). */
enum { ROWVAL_IDENT_COUNT = 5 };
/* Their names, in order: unit, container_runtime, container_id, pod_uid, qos. */
extern const char *const rowval_ident_names[ROWVAL_IDENT_COUNT];
/* Their values for a cgroup path (NULL: none), in that order, into v; NULL where unknown. id
 * holds the strings. */
void rowval_ident(const char *path, struct cgident *id, const char *v[ROWVAL_IDENT_COUNT]);
/* The name of the number after them: the uid the row's cgroup is delegated to, unknown (null,
 * empty) where it is not (model/rowfield.h's identity_uid 0). */
#define ROWVAL_IDENTITY_UID "identity_uid"

/* A report's writer of one row: its line into o, the reading made at when (ISO 8601). */
typedef void rowval_writer(struct outbuf *o, const char *when, const struct snapshot *snap, const struct row *r,
			   const struct display *d);
/* A report's writers of a row by what d shows: cgroups, commands, or tasks. */
struct rowval_writers {
	rowval_writer *cgroup, *command, *task;
};
/* Each of rows[0..n) of snap (made at when) written into o by the writer of what d shows, o
 * spilled after each. */
void rowval_each(struct outbuf *o, const char *when, const struct snapshot *snap, const struct row *const *rows,
		 size_t n, const struct display *d, const struct rowval_writers *w);

#endif
