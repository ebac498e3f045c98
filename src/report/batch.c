/* batch.c — the batch printers: text, csv and json. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "cgtree.h"
#include "csv.h"
#include "i18n.h"
#include "order.h"
#include "rowvalues.h"
#include "timing.h"
#include "xalloc.h"

void batch_init(struct batch_printer *b, const struct options *o)
{
	memset(b, 0, sizeof(*b));
	b->format = o->format;
	b->spec.display.metric = METRIC_PCT;
	b->spec.display.accumulate = o->accumulate;
	b->spec.display.threads = o->threads;
	b->spec.display.cgroups = o->cgroups;
	b->spec.display.commands = o->commands;
	b->spec.display.tree = o->tree;
	b->spec.display.tree_sums = o->tree_sums;
	b->spec.display.why = o->why;
	b->spec.display.chosen = o->chosen;
	b->spec.display.nchosen = o->nchosen;
	if (o->format == FORMAT_OPENMETRICS) {
		b->metrics = xmalloc(sizeof(*b->metrics));
		metrics_init(b->metrics, (int)o->top_commands);
		b->metrics->expiry_s = o->series_expiry_s;
	}
	b->spec.filter.cgroup = o->cgroup;
	b->spec.filter.unit = o->unit;
	b->spec.filter.by_uid = o->by_uid;
	b->spec.filter.uid = o->uid;
	b->spec.filter.active = o->active;
	b->spec.filter.hide_exited = o->hide_exited;
	b->spec.sort_col = o->sort_col;
	b->spec.reverse = o->reverse;
}

void batch_free(struct batch_printer *b)
{
	out_free(&b->out);
	listing_free(&b->list);
	if (b->metrics) {
		metrics_free(b->metrics);
		free(b->metrics);
	}
}

/* The rows to print, filtered and sorted, into b->list; returns how many. */
static size_t select_rows(struct batch_printer *b, const struct snapshot *snap)
{
	b->spec.display.why_kinds = lat_row_kinds(&snap->why, NULL);
	if (!b->header_done && snap->why.state != WHY_OFF)
		b->spec.display.why = 1; /* a replay of a run with --why: CSV's columns of the waits */
	b->spec.display.flat_cgroups = !b->spec.display.nchosen && listing_cgroups_flat(snap);
	listing_build(&b->list, snap, &b->spec);
	return b->list.n;
}

static const char *delayacct_text(int state)
{
	switch (state) {
	case DELAYACCT_ON: return _("on");
	case DELAYACCT_OFF: return _("off (only CPU delay is measured)");
	default: return _("unknown");
	}
}

/* ---- text ---- */

static void text_psi_cell(struct outbuf *o, const struct psi_line *l)
{
	char buf[32];
	double v[4] = { l->pct, l->avg10, l->avg60, l->avg300 };

	for (int i = 0; i < 4; i++) {
		fmt_cell(buf, l->present ? v[i] : NAN, 1, 6);
		out_padded(o, buf, 7, 1);
	}
}

static void text_psi(struct outbuf *o, const struct psi_snapshot *psi)
{
	out_printf(o, "%-8s %7s%7s%7s%7s   %7s%7s%7s%7s\n", _("PSI"), _("some%"), _("avg10"), _("avg60"),
		   _("avg300"), _("full%"), _("avg10"), _("avg60"), _("avg300"));
	for (int r = 0; r < PSI_COUNT; r++) {
		const struct psi_resource *res = &psi->res[r];

		out_padded(o, _(psi_label(r)), 8, 0);
		out_char(o, ' ');
		if (!res->present) {
			out_printf(o, "%s\n", _("not provided by this kernel"));
			continue;
		}
		text_psi_cell(o, &res->some);
		out_spaces(o, 3);
		text_psi_cell(o, &res->full);
		out_char(o, '\n');
	}
}

/* The kinds of a mask by key, separated by sep, each between quotes (JSON) or none. */
static void lat_kind_names(struct outbuf *o, lat_mask kinds, const char *quote, const char *sep)
{
	const char *between = "";

	for (int k = 0; k < LAT_KINDS; k++)
		if (kinds & (1u << k)) {
			out_printf(o, "%s%s%s%s", between, quote, lat_kind_key(k), quote);
			between = sep;
		}
}

/* --why: what it measures, or why it is unavailable; nothing when it is off. */
static void text_why(struct outbuf *o, const struct why_header *w)
{
	if (w->state == WHY_OFF)
		return;
	if (w->state == WHY_UNAVAILABLE) {
		out_printf(o, "%s ", _("why: unavailable:"));
		out_text(o, w->reason ? w->reason : "?");
		out_char(o, '\n');
		return;
	}
	out_printf(o, "%s ", _("why: waits measured:"));
	lat_kind_names(o, w->measured, "", " ");
	if (w->measured != LAT_ALL) {
		out_printf(o, "  %s ", _("unavailable:"));
		lat_kind_names(o, (lat_mask)(LAT_ALL & ~w->measured), "", " ");
	}
	out_printf(o, F_(N_("  did not fit: %llu")), (unsigned long long)w->not_fitted);
	if (w->stacks)
		out_printf(o, F_(N_("  stacks that did not fit: %llu")), (unsigned long long)w->stacks_lost);
	out_char(o, '\n');
}

static void text_header(struct outbuf *o, const struct snapshot *snap, const struct batch_printer *b)
{
	char when[48];

	timing_iso8601(&snap->wall, when, sizeof(when));
	out_printf(o, F_(N_("%s - %s  interval %.2f s  processes %u  threads %u  rows: %s, sorted by %s\n")),
		   PACKAGE, when, snap->interval_s, snap->nprocs, snap->nthreads, listing_rows_text(&b->spec.display),
		   column_get(b->spec.sort_col, &b->spec.display).key);
	out_printf(o, F_(N_("delay accounting %s  privileges %s")), delayacct_text(snap->delayacct),
		   snap->limited ? _("limited (CPU and I/O delay only; tasks that exit between readings are not seen)")
				 : _("full"));
	if (snap->listening)
		out_printf(o, F_(N_("  exits %llu (%llu lost)")), (unsigned long long)snap->exits,
			   (unsigned long long)snap->exits_lost);
	if (snap->tasks_from != TASKS_UNKNOWN)
		out_printf(o, F_(N_("  tasks %s")),
			   snap->tasks_from == TASKS_FOLLOWED ? _("followed (process events)") : _("walked (/proc)"));
	out_str(o, "  ");
	if (!listing_hierarchy_note(snap, &b->spec.display, 0, o))
		o->len -= 2;
	out_char(o, '\n');
	text_why(o, &snap->why);
	text_psi(o, &snap->psi);
	out_char(o, '\n');
}

static void text_report(struct batch_printer *b, const struct snapshot *snap, size_t n)
{
	struct table t;
	int carried = 0, partial = 0;

	table_init(&t, &b->spec.display, 0, -1);
	text_header(&b->out, snap, b);
	column_line(&b->out, NULL, &b->spec.display, &t, -1, 0);
	for (size_t i = 0; i < n; i++) {
		if (i + 16 < n)
			column_prefetch(b->list.rows[i + 16], 0);
		if (i + 8 < n)
			column_prefetch(b->list.rows[i + 8], 1);
		column_line(&b->out, b->list.rows[i], &b->spec.display, &t, -1, 0);
		out_spill(&b->out);
		carried |= column_carried(b->list.rows[i], &b->spec.display) != 0;
		partial |= b->list.rows[i]->partial;
	}
	/* the marks, explained under the reports that have them */
	if (carried) /* xgettext:no-c-format */
		out_printf(&b->out, "%s\n", _("+: above 100% per thread: a wait that began in an earlier interval ended in this one"));
	if (partial)
		out_printf(&b->out, "%s\n", _("<partial>: threads ended during the interval; their delays are missing"));
	out_char(&b->out, '\n');
}

/* ---- json ---- */

static void json_number(struct outbuf *o, double v)
{
	char buf[40];

	out_mem(o, buf, fmt_json_number(buf, v));
}

static void json_psi_line(struct outbuf *o, const struct psi_line *l)
{
	if (!l->present) {
		out_str(o, "null");
		return;
	}
	out_str(o, "{\"avg10\":");
	json_number(o, l->avg10);
	out_str(o, ",\"avg60\":");
	json_number(o, l->avg60);
	out_str(o, ",\"avg300\":");
	json_number(o, l->avg300);
	out_str(o, ",\"pct\":");
	json_number(o, l->pct);
	out_char(o, '}');
}

static void json_common(struct outbuf *o, const char *type, const char *when, const struct snapshot *snap)
{
	out_printf(o, "{\"type\":\"%s\",\"time\":\"%s\",\"interval_s\":", type, when);
	json_number(o, snap->interval_s);
}

static void json_string_or_null(struct outbuf *o, const char *s);

/* --why in the header: null when off; else its state, the kinds measured and not, why not, and
 * the waits that did not fit in the kernel's maps in the interval and since the start. */
static void json_why_state(struct outbuf *o, const struct why_header *w)
{
	lat_mask measured = w->state == WHY_ON ? w->measured : 0;

	if (w->state == WHY_OFF) {
		out_str(o, ",\"why\":null");
		return;
	}
	out_printf(o, ",\"why\":{\"state\":\"%s\",\"kinds\":[", w->state == WHY_ON ? "on" : "unavailable");
	lat_kind_names(o, measured, "\"", ",");
	out_str(o, "],\"unavailable\":[");
	lat_kind_names(o, (lat_mask)(LAT_ALL & ~measured), "\"", ",");
	out_str(o, "],\"reason\":");
	json_string_or_null(o, w->reason);
	if (w->state == WHY_ON)
		out_printf(o, ",\"not_fitted\":%llu,\"not_fitted_total\":%llu", (unsigned long long)w->not_fitted,
			   (unsigned long long)w->not_fitted_total);
	else
		out_str(o, ",\"not_fitted\":null,\"not_fitted_total\":null");
	/* with stacks taken: the off-CPU times and stacks that found the maps full, since the start */
	if (w->state == WHY_ON && w->stacks)
		out_printf(o, ",\"stacks_not_fitted_total\":%llu", (unsigned long long)w->stacks_lost);
	out_str(o, "}");
}

static void json_psi(struct outbuf *o, const char *when, const struct snapshot *snap)
{
	static const char *const da[] = { "\"off\"", "\"on\"" };

	json_common(o, "psi", when, snap);
	for (int r = 0; r < PSI_COUNT; r++) {
		const struct psi_resource *res = &snap->psi.res[r];

		out_printf(o, ",\"%s\":", psi_name(r));
		if (!res->present) {
			out_str(o, "null");
			continue;
		}
		out_str(o, "{\"some\":");
		json_psi_line(o, &res->some);
		out_str(o, ",\"full\":");
		json_psi_line(o, &res->full);
		out_char(o, '}');
	}
	out_printf(o, ",\"processes\":%u,\"threads\":%u,\"delayacct\":%s,\"limited\":%s", snap->nprocs,
		   snap->nthreads,
		   snap->delayacct >= 0 && snap->delayacct <= 1 ? da[snap->delayacct] : "null", /* else unknown */
		   snap->limited ? "true" : "false");
	if (snap->listening)
		out_printf(o, ",\"exits\":%llu,\"exits_lost\":%llu", (unsigned long long)snap->exits,
			   (unsigned long long)snap->exits_lost);
	else
		out_str(o, ",\"exits\":null,\"exits_lost\":null");
	out_printf(o, ",\"tasks_from\":%s",
		   snap->tasks_from == TASKS_FOLLOWED ? "\"events\"" : snap->tasks_from == TASKS_WALKED ? "\"walk\"" : "null");
	if (snap->tasks_from == TASKS_FOLLOWED)
		out_printf(o, ",\"task_walks\":%llu", (unsigned long long)snap->task_walks);
	else
		out_str(o, ",\"task_walks\":null");
	json_why_state(o, &snap->why);
	out_str(o, "}\n");
}

static void json_string_or_null(struct outbuf *o, const char *s)
{
	if (s)
		out_json_string(o, s);
	else
		out_str(o, "null");
}

/* The delay fields of a row: each kind's four numbers, CPU time and the total. */
static void json_kinds(struct outbuf *o, const struct row *r, const struct display *d)
{
	const char *const *names = rowval_metric_names(d);

	out_str(o, ",\"delay\":{");
	for (int k = 0; k < DK_COUNT; k++) {
		double v[METRIC_COUNT];

		rowval_kind(r, k, d, v);
		out_printf(o, "%s\"%s\":{", k ? "," : "", delay_kinds[k].key);
		for (int m = 0; m < METRIC_COUNT; m++) {
			out_printf(o, "%s\"%s\":", m ? "," : "", names[m]);
			if (rowval_is_count(d, m) && !isnan(v[m]))
				out_printf(o, "%.0f", v[m]);
			else
				json_number(o, v[m]);
		}
		out_str(o, ",\"max_at\":");
		rowval_time(o, rowval_max_at(r, k, d), 1);
		out_char(o, '}');
	}
	out_str(o, d->accumulate ? "},\"run_s\":" : "},\"run_pct\":");
	json_number(o, column_value(r, COL_PCPU, d));
	out_str(o, d->accumulate ? ",\"total_s\":" : ",\"total_pct\":");
	json_number(o, rowval_total(r, d));
}

/* One kind's waits: count, total, percentiles, longest, and the slots that have any as
 * [le_ms, count] (le_ms null for the last slot, which has no upper bound). */
static void json_lat_kind(struct outbuf *o, const struct lat_hist *h)
{
	double v[LATVAL_N];
	const char *between = "";

	rowval_latency(h, v);
	for (int i = 0; i < LATVAL_N; i++) {
		out_printf(o, "%s\"%s\":", i ? "," : "{", rowval_lat_names[i]);
		if (i == LATVAL_COUNT)
			out_printf(o, "%.0f", v[i]);
		else
			json_number(o, v[i]);
	}
	out_str(o, ",\"buckets\":[");
	for (int i = 0; h && i < LAT_SLOTS; i++)
		if (h->slot[i]) {
			out_printf(o, "%s[", between);
			json_number(o, lat_slot_le_ms(i));
			out_printf(o, ",%u]", h->slot[i]);
			between = ",";
		}
	out_str(o, "]}");
}

/* --why's stacks of a row: [{"ms", "count", "state", "frames": [innermost first]}, ...] by ms
 * descending, or null where its stacks were not taken. */
static void json_stacks(struct outbuf *o, const struct stk_list *l)
{
	if (!l) {
		out_str(o, "null");
		return;
	}
	out_str(o, "[");
	for (size_t i = 0; i < l->n; i++) {
		const struct stk_stack *s = &l->s[i];

		out_str(o, i ? ",{\"ms\":" : "{\"ms\":");
		json_number(o, s->ms);
		out_printf(o, ",\"count\":%llu,\"state\":\"%s\",\"frames\":[", (unsigned long long)s->count,
			   stk_state_name(s->state));
		for (size_t f = 0; f < s->nframes; f++) {
			if (f)
				out_str(o, ",");
			out_json_string(o, s->frames[f]);
		}
		out_str(o, "]}");
	}
	out_str(o, "]");
}

/* --why: "why": {"latency": {KIND: ...}} with every kind, null where it is not measured for the
 * row, and with stacks taken "stacks": [...]; "why": null where --why is off or unavailable. */
static void json_why(struct outbuf *o, const struct snapshot *snap, const struct row *r)
{
	lat_mask kinds = lat_row_kinds(&snap->why, r->lat);

	if (snap->why.state != WHY_ON) {
		out_str(o, ",\"why\":null");
		return;
	}
	out_str(o, ",\"why\":{\"latency\":{");
	for (int k = 0; k < LAT_KINDS; k++) {
		out_printf(o, "%s\"%s\":", k ? "," : "", lat_kind_key(k));
		if (kinds & (1u << k))
			json_lat_kind(o, lat_waits_get(r->lat, k));
		else
			out_str(o, "null");
	}
	out_str(o, "}");
	if (snap->why.stacks) {
		out_str(o, ",\"stacks\":");
		json_stacks(o, r->stacks);
	}
	out_str(o, "}");
}

/* The accounting fields of a task row, named with their units. */
static void json_acct(struct outbuf *o, const struct row *r, const struct display *d)
{
	char name[32];

	for (int f = 0; f < AF_COUNT; f++) {
		out_printf(o, ",\"%s\":", acct_json_name(f, d->accumulate, name));
		rowval_acct(o, r, f, d, "null");
	}
}

/* The row fields that end a task record, each a number or null. */
static void json_tail(struct outbuf *o, const struct row *r, const struct display *d)
{
	struct rowval_tail tail[ROWVAL_TAIL_MAX];
	int n = rowval_tail(r, d, tail);

	for (int i = 0; i < n; i++)
		if (tail[i].known)
			out_printf(o, ",\"%s\":%lld", tail[i].name, tail[i].v);
		else
			out_printf(o, ",\"%s\":null", tail[i].name);
}

/* What the cgroup's path names: "unit", "container_runtime", "container_id", "pod_uid", "qos",
 * null where unknown; then "identity_uid", the user who could have named them, null when root. */
static void json_ident(struct outbuf *o, const struct row *r)
{
	struct cgident id;
	const char *v[ROWVAL_IDENT_COUNT];

	rowval_ident(r->cgroup, &id, v);
	for (int i = 0; i < ROWVAL_IDENT_COUNT; i++) {
		out_printf(o, ",\"%s\":", rowval_ident_names[i]);
		json_string_or_null(o, v[i]);
	}
	if (r->identity_uid)
		out_printf(o, ",\"" ROWVAL_IDENTITY_UID "\":%u", r->identity_uid);
	else
		out_str(o, ",\"" ROWVAL_IDENTITY_UID "\":null");
}

/* A task's "pid" and "tid" (null for a process row). */
static void json_ids(struct outbuf *o, const struct row *r, int threads)
{
	out_printf(o, "\"pid\":%u,\"tid\":", r->pid);
	if (threads)
		out_printf(o, "%u", r->tid);
	else
		out_str(o, "null");
}

static void json_task(struct outbuf *o, const char *when, const struct snapshot *snap, const struct row *r,
		      const struct display *d)
{
	char state[2] = { r->state, '\0' };

	json_common(o, "task", when, snap);
	out_char(o, ',');
	json_ids(o, r, d->threads);
	out_str(o, ",\"user\":");
	out_json_string(o, r->user);
	out_str(o, ",\"state\":");
	out_json_string(o, state);
	out_str(o, ",\"command\":");
	out_json_string(o, r->comm);
	json_kinds(o, r, d);
	json_why(o, snap, r);
	out_printf(o, ",\"exited\":%s,\"partial\":%s,\"carried\":[", r->exited ? "true" : "false",
		   r->partial ? "true" : "false");
	rowval_carried(o, column_carried(r, d), "\"", ",");
	out_str(o, "],\"cgroup\":");
	json_string_or_null(o, r->cgroup);
	out_str(o, ",\"cmdline\":");
	json_string_or_null(o, r->cmdline);
	json_acct(o, r, d);
	json_tail(o, r, d);
	json_ident(o, r);
	out_str(o, "}\n");
}

/* A cgroup's numbers under column id (states, pressure): a whole number or a share. */
static void json_column(struct outbuf *o, const struct row *r, int id, const struct display *d, int whole)
{
	double v = column_value(r, id, d);

	if (whole && !isnan(v))
		out_printf(o, "%.0f", v);
	else
		json_number(o, v);
}

static void json_cgroup(struct outbuf *o, const char *when, const struct snapshot *snap, const struct row *r,
			const struct display *d)
{
	json_common(o, "cgroup", when, snap);
	out_str(o, ",\"cgroup\":");
	out_json_string(o, r->cgroup);
	out_printf(o, ",\"depth\":%d,\"tasks\":%u,\"processes\":%u,\"states\":{", r->depth, r->nthreads, r->cg->procs);
	for (int s = 0; s < CG_STATES; s++) {
		out_printf(o, "%s\"%s\":", s ? "," : "", column_def(COL_NR + s).key);
		json_column(o, r, COL_NR + s, d, 1);
	}
	out_printf(o, "},\"states_from\":\"%s\"", snap->cgroup_source ? snap->cgroup_source : "tasks");
	json_kinds(o, r, d);
	json_why(o, snap, r);
	out_str(o, ",\"pressure\":{");
	for (int i = 0; i < PSI_COLS; i++) {
		out_printf(o, "%s\"%s\":", i ? "," : "", column_def(COL_PSI + i).key);
		json_column(o, r, COL_PSI + i, d, 0);
	}
	out_char(o, '}');
	json_ident(o, r);
	out_str(o, "}\n");
}

/* A command's row: the tasks of one name summed (rollup.h); "user" is null when they have
 * several. */
static void json_command(struct outbuf *o, const char *when, const struct snapshot *snap, const struct row *r,
			 const struct display *d)
{
	json_common(o, "command", when, snap);
	out_str(o, ",\"command\":");
	out_json_string(o, r->comm);
	out_printf(o, ",\"processes\":%u,\"threads\":%u,\"user\":", r->procs, r->nthreads);
	json_string_or_null(o, r->uid == ROLLUP_UID_SEVERAL ? NULL : r->user);
	json_kinds(o, r, d);
	out_printf(o, ",\"exited\":%s,\"partial\":%s,\"carried\":[", r->exited ? "true" : "false",
		   r->partial ? "true" : "false");
	rowval_carried(o, column_carried(r, d), "\"", ",");
	out_char(o, ']');
	json_acct(o, r, d);
	out_str(o, "}\n");
}

static void batch_json_report(struct batch_printer *b, const struct snapshot *snap, size_t n)
{
	char when[48];

	timing_iso8601(&snap->wall, when, sizeof(when));
	json_psi(&b->out, when, snap);
	for (size_t i = 0; i < n; i++) {
		if (b->spec.display.cgroups)
			json_cgroup(&b->out, when, snap, b->list.rows[i], &b->spec.display);
		else if (b->spec.display.commands)
			json_command(&b->out, when, snap, b->list.rows[i], &b->spec.display);
		else
			json_task(&b->out, when, snap, b->list.rows[i], &b->spec.display);
		out_spill(&b->out);
	}
}

void batch_format(struct batch_printer *b, const struct snapshot *snap)
{
	size_t n;

	b->spec.display.elapsed_s = snap->elapsed_s;
	b->spec.display.threads = snap->threads;
	if (b->format == FORMAT_OPENMETRICS) { /* the counters, not rows */
		metrics_update(b->metrics, snap, snap->reading_s);
		metrics_format(b->metrics, &b->out, 1);
		return;
	}
	n = select_rows(b, snap);
	switch (b->format) {
	case FORMAT_JSON: batch_json_report(b, snap, n); break;
	case FORMAT_CSV: csv_report(&b->out, snap, b->list.rows, n, &b->spec.display, &b->header_done); break;
	default: text_report(b, snap, n); break;
	}
}

/* The kinds of a trigger's resource, by name: "cpu" or "swapin,reclaim,..." for text, quoted
 * for JSON. */
static void kind_names(struct outbuf *o, kind_mask kinds, const char *quote)
{
	int first = 1;

	for (int k = 0; k < DK_COUNT; k++)
		if (kinds & (1u << k)) {
			out_printf(o, "%s%s%s%s", first ? "" : ",", quote, delay_kinds[k].key, quote);
			first = 0;
		}
}

/* With --why's stacks: each task the event names with its top stack of the window in the state
 * its resource stalls in (R for cpu, D for the others), or its top one, a line each:
 * "  stack of PID: STATE MS ms frame < frame < ...", innermost first. */
static void text_event_stacks(struct outbuf *o, const struct snapshot *snap, const struct trigger_spec *t,
			      const struct trigger_stallers *st)
{
	uint32_t stalls = t->resource == PSI_CPU ? STK_RUNNABLE : STK_D;
	char buf[32];

	for (size_t i = 0; i < st->ntasks; i++) {
		const struct stk_list *l = st->task[i]->stacks;
		const struct stk_stack *s;
		size_t k = 0;

		if (!l || !l->n)
			continue;
		while (k < l->n && l->s[k].state != stalls)
			k++;
		s = &l->s[k < l->n ? k : 0];
		out_printf(o, F_(N_("  stack of %u: %s ")), snap->threads ? st->task[i]->tid : st->task[i]->pid,
			   stk_state_name(s->state));
		out_mem(o, buf, fmt_fixed(buf, s->ms, 1));
		out_str(o, " ms ");
		for (size_t f = 0; f < s->nframes; f++) {
			if (f)
				out_str(o, " < ");
			out_text(o, s->frames[f]);
		}
		out_char(o, '\n');
	}
}

static void text_event(struct outbuf *o, const char *when, const struct snapshot *snap,
		       const struct trigger_spec *t, const struct trigger_stallers *st, const char *file)
{
	char buf[32], shown[256];

	text_clean(shown, sizeof(shown), file); /* a cgroup's path may hold control characters */
	out_printf(o, F_(N_("event %s  trigger '%s' on %s fired\n")), when, t->text, shown);
	out_printf(o, "  %s ", _("stalled on"));
	kind_names(o, trigger_kinds(t->resource), "");
	out_printf(o, F_(N_(" (%% of the last %.2f s):")), snap->interval_s);
	for (size_t i = 0; i < st->ntasks; i++) {
		out_printf(o, "  %u ", snap->threads ? st->task[i]->tid : st->task[i]->pid);
		out_text(o, st->task[i]->comm);
		out_char(o, ' ');
		out_mem(o, buf, fmt_fixed(buf, st->task_pct[i], 1));
	}
	if (!st->ntasks)
		out_printf(o, "  %s", _("none"));
	out_printf(o, "\n  %s:", _("cgroups"));
	for (size_t i = 0; i < st->ncgroups; i++) {
		out_char(o, ' ');
		out_char(o, ' ');
		out_text(o, st->cgroup[i]);
		out_char(o, ' ');
		out_mem(o, buf, fmt_fixed(buf, st->cgroup_pct[i], 1));
	}
	if (!st->ncgroups)
		out_printf(o, "  %s", _("none"));
	out_str(o, "\n");
	if (snap->why.state == WHY_ON && snap->why.stacks)
		text_event_stacks(o, snap, t, st);
}

static void json_event(struct outbuf *o, const char *when, const struct snapshot *snap,
		       const struct trigger_spec *t, const struct trigger_stallers *st, const char *file)
{
	out_printf(o, "{\"type\":\"event\",\"time\":\"%s\",\"interval_s\":", when);
	json_number(o, snap->interval_s);
	out_str(o, ",\"trigger\":");
	out_json_string(o, t->text);
	out_str(o, ",\"file\":");
	out_json_string(o, file);
	out_str(o, ",\"cgroup\":");
	json_string_or_null(o, t->cgroup[0] ? t->cgroup : NULL);
	out_str(o, ",\"kinds\":[");
	kind_names(o, trigger_kinds(t->resource), "\"");
	out_str(o, "],\"tasks\":[");
	for (size_t i = 0; i < st->ntasks; i++) {
		const struct row *r = st->task[i];

		out_str(o, i ? ",{" : "{");
		json_ids(o, r, snap->threads);
		out_str(o, ",\"command\":");
		out_json_string(o, r->comm);
		out_str(o, ",\"cgroup\":");
		json_string_or_null(o, r->cgroup);
		out_str(o, ",\"pct\":");
		json_number(o, st->task_pct[i]);
		if (snap->why.state == WHY_ON && snap->why.stacks) { /* its stacks of the window */
			out_str(o, ",\"stacks\":");
			json_stacks(o, r->stacks);
		}
		out_char(o, '}');
	}
	out_str(o, "],\"cgroups\":[");
	for (size_t i = 0; i < st->ncgroups; i++) {
		out_printf(o, "%s{\"cgroup\":", i ? "," : "");
		out_json_string(o, st->cgroup[i]);
		out_str(o, ",\"pct\":");
		json_number(o, st->cgroup_pct[i]);
		out_char(o, '}');
	}
	out_str(o, "]}\n");
}

void batch_format_event(struct batch_printer *b, const struct snapshot *snap, const struct trigger_spec *t)
{
	struct trigger_stallers st;
	char when[48], file[CGROUP_PATH_MAX + 64];

	timing_iso8601(&snap->wall, when, sizeof(when));
	trigger_file(t, file, sizeof(file));
	trigger_stallers(snap, trigger_kinds(t->resource), &st);
	if (b->format == FORMAT_JSON)
		json_event(&b->out, when, snap, t, &st, file);
	else
		text_event(&b->out, when, snap, t, &st, file);
}

int batch_event(struct batch_printer *b, const struct snapshot *snap, const struct trigger_spec *t, FILE *f)
{
	batch_format_event(b, snap, t);
	return out_flush(&b->out, f);
}

int batch_print(struct batch_printer *b, const struct snapshot *snap, FILE *f)
{
	b->out.spill = f; /* a long report goes out as it is made */
	batch_format(b, snap);
	b->out.spill = NULL;
	return out_flush(&b->out, f);
}
