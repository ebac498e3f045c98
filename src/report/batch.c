/* batch.c — the batch printer: which rows a report shows, the text report and events (-b, and
 * the replay's); JSON through json.c, CSV through csv.c, OpenMetrics through metrics.c. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "csv.h"
#include "i18n.h"
#include "json.h"
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
	rowval_lat_kinds(o, w->measured, "", " ");
	if (w->measured != LAT_ALL) {
		out_printf(o, "  %s ", _("unavailable:"));
		rowval_lat_kinds(o, (lat_mask)(LAT_ALL & ~w->measured), "", " ");
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
	case FORMAT_JSON: json_report(&b->out, snap, b->list.rows, n, &b->spec.display); break;
	case FORMAT_CSV: csv_report(&b->out, snap, b->list.rows, n, &b->spec.display, &b->header_done); break;
	default: text_report(b, snap, n); break;
	}
}

/* With --why's stacks: each task the event names (the stalled, then the waiting) with its top
 * stack of the window in the state its resource stalls in (R for cpu, D for the others), or its
 * top one, a line each: "  stack of PID: STATE MS ms frame < frame < ...", innermost first. */
static void text_event_stacks(struct outbuf *o, const struct snapshot *snap, const struct trigger_spec *t,
			      const struct trigger_stallers *st)
{
	uint32_t stalls = t->resource == PSI_CPU ? STK_RUNNABLE : STK_D;
	const struct row *named[2 * TRIGGER_TOP];
	size_t n = trigger_named(st, named);
	char buf[32];

	for (size_t i = 0; i < n; i++) {
		const struct stk_list *l = named[i]->stacks;
		const struct stk_stack *s;
		size_t k = 0;

		if (!l || !l->n)
			continue;
		while (k < l->n && l->s[k].state != stalls)
			k++;
		s = &l->s[k < l->n ? k : 0];
		out_printf(o, F_(N_("  stack of %u: %s ")), snap->threads ? named[i]->tid : named[i]->pid,
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
	rowval_kinds(o, trigger_kinds(t->resource), "", ",");
	out_printf(o, F_(N_(" (%% of the last %.2f s):")), snap->interval_s);
	for (size_t i = 0; i < st->ntasks; i++) {
		out_printf(o, "  %u ", snap->threads ? st->task[i]->tid : st->task[i]->pid);
		out_text(o, st->task[i]->comm);
		out_char(o, ' ');
		out_mem(o, buf, fmt_fixed(buf, st->task_pct[i], 1));
	}
	if (!st->ntasks)
		out_printf(o, "  %s", _("none"));
	if (st->nwaiting) {
		out_printf(o, "\n  %s:", _("waiting now in state D, not yet counted"));
		for (size_t i = 0; i < st->nwaiting; i++) {
			out_printf(o, "  %u ", snap->threads ? st->waiting[i]->tid : st->waiting[i]->pid);
			out_text(o, st->waiting[i]->comm);
		}
	}
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

void batch_format_event(struct batch_printer *b, const struct snapshot *snap, const struct trigger_spec *t)
{
	struct trigger_stallers st;
	char when[48], file[CGROUP_PATH_MAX + 64];

	timing_iso8601(&snap->wall, when, sizeof(when));
	trigger_file(t, file, sizeof(file));
	trigger_stallers(snap, t, &st);
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
