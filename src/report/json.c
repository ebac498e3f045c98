/* json.c — JSON reports, a line an object: the reading's header ("psi": pressure, counts, the
 * switch, --why's state), then a line a row (a task, a cgroup or a command, with its delays, waits,
 * stacks, accounting fields and what its cgroup names), and a trigger's event. */
#include "config.h"

#include <math.h>

#include "cgtree.h"
#include "json.h"
#include "rollup.h"
#include "rowvalues.h"
#include "timing.h"

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

static void json_string_or_null(struct outbuf *o, const char *s)
{
	if (s)
		out_json_string(o, s);
	else
		out_str(o, "null");
}

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
	rowval_lat_kinds(o, measured, "\"", ",");
	out_str(o, "],\"unavailable\":[");
	rowval_lat_kinds(o, (lat_mask)(LAT_ALL & ~measured), "\"", ",");
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
	rowval_kinds(o, column_carried(r, d), "\"", ",");
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
	rowval_kinds(o, column_carried(r, d), "\"", ",");
	out_char(o, ']');
	json_acct(o, r, d);
	out_str(o, "}\n");
}

void json_report(struct outbuf *o, const struct snapshot *snap, const struct row *const *rows, size_t n,
		 const struct display *d)
{
	static const struct rowval_writers writers = { json_cgroup, json_command, json_task };
	char when[48];

	timing_iso8601(&snap->wall, when, sizeof(when));
	json_psi(o, when, snap);
	rowval_each(o, when, snap, rows, n, d, &writers);
}

/* A task an event names, the i-th of its list: its ids, command, cgroup, share (pct, when not
 * NULL) and with --why's stacks its stacks of the window. */
static void json_event_task(struct outbuf *o, const struct snapshot *snap, const struct row *r, const double *pct,
			    size_t i)
{
	out_str(o, i ? ",{" : "{");
	json_ids(o, r, snap->threads);
	out_str(o, ",\"command\":");
	out_json_string(o, r->comm);
	out_str(o, ",\"cgroup\":");
	json_string_or_null(o, r->cgroup);
	if (pct) {
		out_str(o, ",\"pct\":");
		json_number(o, *pct);
	}
	if (snap->why.state == WHY_ON && snap->why.stacks) { /* its stacks of the window */
		out_str(o, ",\"stacks\":");
		json_stacks(o, r->stacks);
	}
	out_char(o, '}');
}

/* The trigger's event: see json.h. */
void json_event(struct outbuf *o, const char *when, const struct snapshot *snap, const struct trigger_spec *t,
		const struct trigger_stallers *st, const char *file)
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
	rowval_kinds(o, trigger_kinds(t->resource), "\"", ",");
	out_str(o, "],\"tasks\":[");
	for (size_t i = 0; i < st->ntasks; i++)
		json_event_task(o, snap, st->task[i], &st->task_pct[i], i);
	out_str(o, "],\"waiting\":[");
	for (size_t i = 0; i < st->nwaiting; i++)
		json_event_task(o, snap, st->waiting[i], NULL, i);
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
