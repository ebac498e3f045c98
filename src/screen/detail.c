/* detail.c — the screen's history (show/history.c fed with each reading taken), the strip charts
 * of the PSI lines and of the TREND column, and the detail view of one row: a task's facts, its
 * delays per kind charted over the last minutes (detailchart.c), threads, accounting fields and
 * waits; a cgroup's pressure (charted too), busiest tasks and task states. The view holds the
 * row's identity (id and start, or the cgroup's path), not its place, so it follows the row when
 * the table re-sorts, and says so when the task is gone. */
#include "config.h"

#include <curses.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cgident.h"
#include "detail.h"
#include "detailchart.h"
#include "format.h"
#include "history.h"
#include "lathist.h"
#include "psi.h"
#include "i18n.h"
#include "stackpane.h"
#include "strip.h"
#include "textline.h"
#include "users.h"
#include "xalloc.h"

/* The busiest tasks and the threads a detail view lists at most. */
#define DETAIL_TASKS 8

struct detail {
	struct history hist;
	struct history window;  /* a recording's: the readings around the one shown */
	int windowed;           /* the charts are window's */
	int open;
	int cgroup;             /* a cgroup's view (by path) rather than a task's */
	int threads;            /* the task is a thread (its id a tid) */
	uint32_t id;
	uint64_t start_ns;
	char path[1024];        /* the cgroup's */
	char comm[64];          /* the task's name when opened, for when it is gone */
	int top;                /* lines scrolled */
	struct stackpane pane;  /* w: the task's off-CPU stacks in place of the charts */
};

/* ---- history ---- */

/* The row's value in the sort column (TOTAL when sorting by TREND itself), for its trend. */
static double sort_value(const struct row *r, const void *ctx)
{
	const struct view *v = ctx;
	struct display d = v->spec.display;
	int col = v->spec.sort_col == COL_TREND ? COL_TOTAL : v->spec.sort_col;

	d.trend = NULL;
	return column_value(r, col, &d);
}

/* Whether the sort column's values are shares of the interval (drawn on a fixed 0 to 100 scale). */
static int sort_is_share(const struct view *v)
{
	int col = v->spec.sort_col == COL_TREND ? COL_TOTAL : v->spec.sort_col;

	return !v->spec.display.accumulate && v->spec.display.metric == METRIC_PCT &&
	       ((col >= COL_KIND && col <= COL_TOTAL) || col == COL_PCPU);
}

/* The TREND cell: the row's last sort values, on 0 to 100% for shares, else on its own highest;
 * returns how much the last grew over the first. */
static double trend_cell(const void *ctx, const struct row *r, char *buf)
{
	const struct view *v = ctx;
	double vals[TREND_POINTS], max = 100, first = NAN, last = NAN;
	size_t have = history_trend(history_row(&v->detail->hist, r), vals, TREND_POINTS);

	for (int i = 0; i < TREND_POINTS; i++) {
		if (isnan(vals[i]))
			continue;
		if (isnan(first))
			first = vals[i];
		last = vals[i];
	}
	if (buf) {
		if (!sort_is_share(v)) {
			max = 0;
			for (int i = 0; i < TREND_POINTS; i++)
				if (vals[i] > max)
					max = vals[i];
		}
		strip_render(buf, 32, vals, TREND_POINTS, max, strip_glyphs_for_locale());
	}
	return have ? last - first : NAN;
}

void detail_attach(struct view *v)
{
	v->detail = xcalloc(1, sizeof(*v->detail));
	history_init(&v->detail->hist);
	history_init(&v->detail->window);
	v->spec.display.trend = trend_cell;
	v->spec.display.trend_ctx = v;
}

void detail_detach(struct view *v)
{
	if (!v->detail)
		return;
	history_free(&v->detail->hist);
	history_free(&v->detail->window);
	free(v->detail);
	v->detail = NULL;
}

/* No trend, but a value, so that the window keeps every row (it is a few minutes of a recording,
 * read when the view opens): a task that ends after the reading shown is blank after its end. */
static double no_trend(const struct row *r, const void *ctx)
{
	(void)r;
	(void)ctx;
	return NAN;
}

static void window_feed(void *ctx, const struct snapshot *s)
{
	history_add(ctx, s, no_trend, NULL, 0);
}

/* The time of the reading shown, seconds since the epoch. */
static double shown_time(const struct view *v)
{
	return (double)v->snap.wall.tv_sec + v->snap.wall.tv_nsec / 1e9;
}

/* A recording's: the readings around the one shown (HISTORY_SECONDS in all), read again when the
 * one shown is outside those read. */
static void window_fill(struct view *v)
{
	struct detail *d = v->detail;
	double t = shown_time(v);

	if (!v->src->around || !v->have_snap)
		return;
	if (d->windowed && t >= history_since(&d->window) && t <= d->window.last)
		return;
	history_clear(&d->window);
	v->src->around(v, HISTORY_SECONDS / 2.0, window_feed, &d->window);
	d->windowed = d->window.readings > 0;
}

/* What the charts show: a recording's window, else the readings taken. */
static struct chart_span charted(const struct view *v)
{
	const struct detail *d = v->detail;

	return (struct chart_span){ d->windowed ? &d->window : &d->hist, d->windowed, shown_time(v) };
}

void detail_feed(struct view *v)
{
	struct detail *d = v->detail;

	if (!v->have_snap)
		return;
	/* trends only while TREND is shown or sorts: without, idle rows cost the history nothing */
	if (v->spec.sort_col == COL_TREND || column_shown(&v->spec.display, COL_TREND))
		history_add(&d->hist, &v->snap, sort_value, v, v->spec.sort_col);
	else
		history_add(&d->hist, &v->snap, NULL, NULL, -1);
	if (d->open)
		window_fill(v);
	/* rows of another kind (H, g): the row opened is not among them; back to the table */
	if (d->open && (d->cgroup ? !v->snap.cgroups : d->threads != v->snap.threads || v->snap.cgroups))
		detail_close(v);
	/* stacks are taken from the first reading --why is on in, while the view is open */
	if (v->snap.why.state != WHY_ON)
		d->pane.since = 0;
	else if (d->open && !d->pane.since)
		d->pane.since = time(NULL);
}

void detail_psi_strip(const struct view *v, int res, int full, int width, char *buf, size_t size)
{
	double vals[PSI_HISTORY_READINGS];

	if (width > PSI_HISTORY_READINGS)
		width = PSI_HISTORY_READINGS;
	history_psi(&v->detail->hist, res, full, vals, (size_t)width);
	strip_render(buf, size, vals, (size_t)width, 100, strip_glyphs_for_locale());
}

/* ---- opening and keys ---- */

/* The task whose off-CPU stacks the screen's copy keeps and a live run takes (0: none). */
static void choose_stacks(struct view *v, uint32_t id)
{
	v->copy.stacks_of = id;
	if (v->src->stacks)
		v->src->stacks(v, id);
}

void detail_close(struct view *v)
{
	if (!v->detail->open)
		return;
	v->detail->open = 0;
	choose_stacks(v, 0);
}

void detail_open(struct view *v)
{
	struct detail *d = v->detail;
	const struct row *r;

	if (v->selected >= v->list.n) {
		view_say(v, "%s", _("no row selected"));
		return;
	}
	r = v->list.rows[v->selected];
	if (r->procs) {
		view_say(v, "%s", _("a command's row sums its processes: Enter shows them"));
		return;
	}
	d->cgroup = v->spec.display.cgroups;
	d->threads = v->spec.display.threads;
	d->id = d->threads ? r->tid : r->pid;
	d->start_ns = r->start_ns;
	str_copy(d->path, sizeof(d->path), r->cgroup ? r->cgroup : "");
	str_copy(d->comm, sizeof(d->comm), r->cg ? r->cg->name : r->comm ? r->comm : "");
	d->top = 0;
	d->open = 1;
	d->windowed = 0;
	d->pane.shown = 0;
	stackpane_reset(&d->pane);
	d->pane.since = v->snap.why.state == WHY_ON ? time(NULL) : 0;
	choose_stacks(v, d->cgroup ? 0 : d->id);
	window_fill(v);
}

void detail_open_stacks(struct view *v)
{
	detail_open(v);
	if (detail_is_open(v))
		detail_show_stacks(v);
}

void detail_show_stacks(struct view *v)
{
	struct detail *d = v->detail;

	if (d->cgroup) {
		view_say(v, "%s", _("stacks are taken of a task: w in the detail view of a process or thread"));
		return;
	}
	d->pane.shown = 1;
	d->top = 0; /* the title in sight: the pane scrolls on its own */
}

int detail_is_open(const struct view *v)
{
	return v->detail && v->detail->open;
}

int detail_key(struct view *v, wint_t c, int is_key)
{
	struct detail *d = v->detail;

	if (!is_key && c == KEY_ESC) {
		detail_close(v);
		return 1;
	}
	if (!is_key && c == 'w') {
		if (d->pane.shown)
			d->pane.shown = 0;
		else
			detail_show_stacks(v);
		return 1;
	}
	if (d->pane.shown && !d->cgroup)
		return stackpane_key(&d->pane, c, is_key);
	if (is_key && c == KEY_DOWN) {
		d->top++;
		return 1;
	}
	if (is_key && c == KEY_UP) {
		d->top = d->top > 0 ? d->top - 1 : 0;
		return 1;
	}
	return 0;
}

/* ---- drawing ---- */

/* The lines of the view, drawn from d->top on. */
struct lines {
	int y, end, skip;
};

/* textline_put: writes one line of the view (struct lines; display text, cut to the screen's
 * width) if it is in sight. */
static void line(void *ctx, unsigned a, const char *s)
{
	struct lines *l = ctx;
	struct outbuf o = { 0 };

	if (l->skip > 0) {
		l->skip--;
		return;
	}
	if (l->y >= l->end)
		return;
	out_padded(&o, s, text_width(s) < COLS ? text_width(s) : COLS, 0);
	attron(a);
	move(l->y, 0);
	clrtoeol();
	mvaddnstr(l->y, 0, o.data ? o.data : "", (int)o.len);
	attroff(a);
	l->y++;
	out_free(&o);
}

/* The task's row in the reading shown, or NULL when it is gone. */
static const struct row *task_row(const struct view *v)
{
	const struct detail *d = v->detail;

	for (size_t i = 0; i < v->snap.nrows; i++) {
		const struct row *r = &v->snap.rows[i];

		if ((d->threads ? r->tid : r->pid) == d->id && r->start_ns == d->start_ns && !r->departed)
			return r;
	}
	return NULL;
}

/* The cgroup's row in the reading shown, or NULL. */
static const struct row *cgroup_row(const struct view *v, const char *path)
{
	for (size_t i = 0; path[0] && i < v->snap.ncgroup_rows; i++)
		if (v->snap.cgroup_rows[i].cgroup && strcmp(v->snap.cgroup_rows[i].cgroup, path) == 0)
			return &v->snap.cgroup_rows[i];
	return NULL;
}

/* A cgroup's pressure in the interval: each resource's some and full share. */
static void pressure_line(struct lines *l, const char *lead, const struct row *cg)
{
	struct outbuf o = { 0 };

	out_str(&o, lead);
	for (int res = 0; cg && cg->cg && cg->cg->facts && res < PSI_COUNT; res++) {
		const struct psi_resource *p = &cg->cg->facts->psi.res[res];
		char some[32], full[32];

		if (!p->present)
			continue;
		fmt_cell(some, p->some.present ? p->some.pct : NAN, 1, 6);
		fmt_cell(full, p->full.present ? p->full.pct : NAN, 1, 6);
		out_printf(&o, F_(N_("  %s some %s%% full %s%%")), _(psi_label(res)), some, full);
	}
	if (!cg || !cg->cg || !cg->cg->facts)
		out_str(&o, _(" not read (the cgroup view, g, reads it)"));
	out_char(&o, '\0');
	line(l, A_NORMAL, o.data);
	out_free(&o);
}

/* A row's TOTAL for the busiest first: one without rates (a first reading) last. */
static double busy(const struct row *r)
{
	return r->fresh || isnan(r->r.total_pct) ? -1 : r->r.total_pct;
}

/* Puts t among top[0..n), the busiest first, keeping DETAIL_TASKS; returns the new count. */
static size_t busiest_add(const struct row **top, size_t n, const struct row *t)
{
	size_t at = n;

	while (at > 0 && busy(top[at - 1]) < busy(t))
		at--;
	if (at >= DETAIL_TASKS)
		return n;
	if (n < DETAIL_TASKS)
		n++;
	memmove(top + at + 1, top + at, (n - 1 - at) * sizeof(*top));
	top[at] = t;
	return n;
}

/* The task's other threads in the reading (thread rows of its process), the busiest first. */
static void thread_lines(const struct view *v, struct lines *l, const struct row *r)
{
	const struct row *top[DETAIL_TASKS];
	size_t n = 0;

	if (!r || !v->snap.threads) {
		line(l, A_NORMAL, _("Threads: H shows them, with their delays"));
		return;
	}
	for (size_t i = 0; i < v->snap.nrows; i++) {
		const struct row *t = &v->snap.rows[i];

		if (t->pid == r->pid && !t->departed)
			n = busiest_add(top, n, t);
	}
	textline_printf(line, l, A_BOLD, F_(N_("Threads of process %u, the busiest first:")), r->pid);
	for (size_t i = 0; i < n; i++) {
		char total[32];

		fmt_cell(total, top[i]->r.total_pct, 1, 7);
		textline_printf(line, l, A_NORMAL, F_(N_("  %7u %7s%%  %s")), top[i]->tid, total,
				top[i]->comm ? top[i]->comm : "");
	}
}

/* The accounting fields of the interval, a few to a line. */
static void acct_lines(struct lines *l, const struct row *r)
{
	struct outbuf o = { 0 };

	/* xgettext:no-c-format */
	line(l, A_BOLD, _("Accounting (per second, % of the time, or the high-water mark):"));
	for (int f = 0; f < AF_COUNT; f++) {
		char val[32];

		double x = r ? r->r.acct[f] : NAN;

		fmt_cell(val, x, fabs(x) >= 100 ? 0 : 1, 8);
		out_printf(&o, "  %-8s %8s", _(acct_fields[f].title), val);
		if (f % 4 == 3 || f == AF_COUNT - 1) {
			out_char(&o, '\0');
			line(l, A_NORMAL, o.data);
			o.len = 0;
		}
	}
	out_free(&o);
}

/* What the row's cgroup path names (unit, container, pod), then, on a line of its own, when the
 * cgroup is delegated, the user who could have named it all (a live run names the user; a
 * recording's uid may be another machine's). Nothing when the path names nothing and is not
 * delegated. */
static void identity_lines(const struct view *v, struct lines *l, const struct row *r)
{
	struct cgident id;
	char text[CGIDENT_NAME_MAX + 32], name[64];
	struct outbuf o = { 0 };

	if (!r || !r->cgroup)
		return;
	cgident_parse(r->cgroup, &id);
	if (id.unit[0])
		out_printf(&o, F_(N_("Unit: %s  ")), id.unit);
	if (id.container[0])
		out_printf(&o, F_(N_("Container: %s  ")), cgident_container_text(&id, text, sizeof(text)));
	if (id.pod_uid[0])
		out_printf(&o, F_(N_("Pod: %s (%s)")), id.pod_uid, id.qos);
	while (o.len && o.data[o.len - 1] == ' ')
		o.len--;
	if (o.len) {
		out_char(&o, '\0');
		line(l, A_NORMAL, o.data);
	}
	out_free(&o);
	if (r->identity_uid && !v->replay && users_lookup(r->identity_uid, name, sizeof(name), NULL, 0) == 0)
		textline_printf(line, l, A_BOLD,
				F_(N_("Delegated to uid %u (%s): a cgroup that user may name, and these names are theirs")),
				r->identity_uid, name);
	else if (r->identity_uid)
		textline_printf(line, l, A_BOLD,
				F_(N_("Delegated to uid %u: a cgroup that user may name, and these names are theirs")),
				r->identity_uid);
}

/* lathist_emit_fn: a line of the waits' histograms. */
static void why_line(void *ctx, int heading, const char *text)
{
	line(ctx, heading ? A_BOLD : A_NORMAL, text);
}

/* The row's waits as --why measured them (lathist.h): a histogram per kind. */
static void why_lines(const struct view *v, struct lines *l, const struct row *r)
{
	int width = COLS - 32;

	width = width < 10 ? 10 : width > 40 ? 40 : width;
	lathist_lines(&v->snap.why, r ? r->lat : NULL, strip_glyphs_for_locale(), width, why_line, l);
}

/* stackpane_emit: a line of the stacks pane. */
static void pane_line(void *ctx, int heading, int cursor, const char *text)
{
	line(ctx, (heading ? A_BOLD : A_NORMAL) | (cursor ? A_REVERSE : A_NORMAL), text);
}

/* The stacks pane in the lines left, scrolled on its own (the title stays). */
static void pane_draw(struct view *v, struct lines *l, const struct row *r)
{
	struct stackpane_facts f = { .snap = &v->snap, .row = r, .replay = v->replay != NULL };

	l->skip = 0;
	stackpane_draw(&v->detail->pane, &f, l->end - l->y, pane_line, l);
}

static void task_detail(struct view *v, struct lines *l)
{
	struct detail *d = v->detail;
	const struct row *r = task_row(v);
	struct chart_span span = charted(v);
	char state[2] = { r ? r->state : '?', '\0' };

	if (!r)
		textline_printf(line, l, A_BOLD | A_REVERSE,
				F_(N_("%s %u (%s) ended: its last minutes as kept; Esc returns")),
				d->threads ? _("Thread") : _("Process"), d->id, d->comm);
	else
		textline_printf(line, l, A_BOLD | A_REVERSE,
				F_(N_("%s %u (%s), followed as the table re-sorts; Esc returns")),
				d->threads ? _("Thread") : _("Process"), d->id, d->comm);
	if (r && r->exited)
		line(l, A_BOLD, _("It ended during the last interval."));
	if (d->pane.shown) {
		pane_draw(v, l, r);
		return;
	}
	textline_printf(line, l, A_NORMAL, F_(N_("Command: %s")),
			r && r->cmdline ? r->cmdline : r && r->comm ? r->comm : d->comm);
	textline_printf(line, l, A_NORMAL, F_(N_("User: %s  State: %s  Process: %u  Cgroup: %s")),
			r && r->user ? r->user : "-", state, r ? r->pid : 0,
			r && r->cgroup ? r->cgroup : "-");
	identity_lines(v, l, r);
	pressure_line(l, _("Cgroup pressure:"), r && r->cgroup ? cgroup_row(v, r->cgroup) : NULL);
	detailchart_kinds(&span, history_task(span.h, d->id, d->start_ns), r, line, l);
	thread_lines(v, l, r);
	acct_lines(l, r);
	why_lines(v, l, r); /* last: what was there before --why keeps its place on a small screen */
}

/* A cgroup: its pressure now, its task states, its busiest tasks. */
static void cgroup_detail(struct view *v, struct lines *l)
{
	struct detail *d = v->detail;
	const struct row *cg = cgroup_row(v, d->path);
	struct chart_span span = charted(v);
	const struct row *top[DETAIL_TASKS];
	size_t n = 0, plen = strlen(d->path);

	textline_printf(line, l, A_BOLD | A_REVERSE,
			cg ? F_(N_("Cgroup %s; Esc returns")) : F_(N_("Cgroup %s is gone; Esc returns")),
			d->path);
	identity_lines(v, l, cg);
	pressure_line(l, _("Pressure:"), cg);
	detailchart_pressure(&span, history_cgroup(span.h, d->path), cg, line, l);
	if (cg && cg->cg) {
		static const char *const names[CG_STATES] = {
			[CG_RUNNING] = N_("running"), [CG_SLEEPING] = N_("sleeping"),
			[CG_UNINTERRUPTIBLE] = N_("uninterruptible"), [CG_STOPPED] = N_("stopped"),
			[CG_IOWAIT] = N_("waiting for I/O"),
		};
		struct outbuf o = { 0 };

		out_printf(&o, F_(N_("Tasks: %u")), (unsigned)cg->cg->tasks);
		for (int s = 0; s < CG_STATES; s++)
			if (cg->cg->states_have & (1u << s))
				out_printf(&o, "  %s %llu", _(names[s]), (unsigned long long)cg->cg->states[s]);
		out_char(&o, '\0');
		line(l, A_NORMAL, o.data);
		out_free(&o);
	}
	for (size_t i = 0; i < v->snap.nrows; i++) {
		const struct row *t = &v->snap.rows[i];

		if (!t->cgroup || strncmp(t->cgroup, d->path, plen) != 0 ||
		    (plen > 1 && t->cgroup[plen] && t->cgroup[plen] != '/') || t->departed)
			continue;
		n = busiest_add(top, n, t);
	}
	/* xgettext:no-c-format */
	line(l, A_BOLD, _("Busiest tasks (TOTAL, % of the time waiting):"));
	for (size_t i = 0; i < n; i++) {
		char total[32];

		fmt_cell(total, top[i]->r.total_pct, 1, 7);
		textline_printf(line, l, A_NORMAL, F_(N_("  %7u %7s%%  %s")),
				v->snap.threads ? top[i]->tid : top[i]->pid, total,
				top[i]->comm ? top[i]->comm : "");
	}
	why_lines(v, l, cg);
}

void detail_draw(struct view *v, int y, int rows)
{
	struct lines l = { .y = y, .end = y + rows, .skip = v->detail->top };

	if (v->detail->cgroup)
		cgroup_detail(v, &l);
	else
		task_detail(v, &l);
	if (l.skip > 0) { /* scrolled past the end */
		v->detail->top -= l.skip;
	}
	for (; l.y < l.end; l.y++) {
		move(l.y, 0);
		clrtoeol();
	}
}
