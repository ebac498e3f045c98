/* htmlpage.c — the HTML report's page: one file with its style inline and its charts as inline
 * SVG (svgchart.h), no script and nothing fetched. Every string a task controls goes through
 * html.h. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "html.h"
#include "htmlrep.h"
#include "i18n.h"
#include "strip.h"
#include "timing.h"
#include "xalloc.h"

/* The points of the series of one chart or table. */
struct points {
	double t[HTMLREP_TABLE][SVG_MAX_POINTS], v[HTMLREP_TABLE][SVG_MAX_POINTS];
	size_t n[HTMLREP_TABLE];
	double peak[HTMLREP_TABLE];
};

static const char style[] =
	"body{font:14px/1.4 sans-serif;margin:1.5em auto;max-width:70em;padding:0 1em;color:#222;"
	"overflow-wrap:anywhere}" /* a name of 240 letters breaks rather than widen the page */
	"h1{font-size:1.5em}h2{font-size:1.25em;border-bottom:1px solid #ccc;margin-top:2em}"
	"h3{font-size:1.05em;margin-top:1.5em}"
	"table{border-collapse:collapse;margin:.5em 0}td,th{padding:2px 8px;text-align:left;vertical-align:top}"
	"table.list td,table.list th{border-bottom:1px solid #e4e4e4}td.num{text-align:right}"
	"table.facts th{font-weight:normal;color:#555}"
	"figure{margin:.5em 0}figcaption{color:#555;font-size:.9em}"
	"svg.chart{width:100%;height:auto;font:12px sans-serif}"
	"svg .grid{stroke:#e4e4e4}svg .axis{stroke:#888}svg .tick{fill:#555}svg .legend{fill:#222}"
	"svg .series{fill:none;stroke-width:1.5}svg .mark{stroke:#d62728;stroke-dasharray:4 3}"
	"svg.heatmap{width:100%;height:auto;font:11px sans-serif}svg .frame{fill:#fafafa;stroke:#ccc}"
	".none{color:#777}"
	"svg.flame{width:100%;height:auto}svg.flame text{fill:#222}svg.flame rect{stroke:#fff;stroke-width:.5}"
	".swatch{display:inline-block;width:.8em;height:.8em;margin:0 .3em 0 .8em;vertical-align:-.05em}"
	"p.dropped{color:#555;font-size:.9em;margin:.2em 0}";

void htmlrep_time_text(char *buf, size_t size, double t)
{
	struct timespec ts = { (time_t)floor(t), (long)((t - floor(t)) * 1e9) };

	timing_iso8601(&ts, buf, size);
}

/* A duration as people say it: 1 h 5 min, 12 min 3 s, 4.5 s. */
static void fmt_span(char *buf, size_t size, double s)
{
	long v = lround(s);

	if (s < 60)
		snprintf(buf, size, "%.1f s", s);
	else if (v < 3600)
		snprintf(buf, size, "%ld min %ld s", v / 60, v % 60);
	else
		snprintf(buf, size, "%ld h %ld min", v / 3600, v % 3600 / 60);
}

void htmlrep_fact(struct outbuf *o, const char *label, const char *value)
{
	out_str(o, "<tr><th>");
	html_text(o, label);
	out_str(o, "</th><td>");
	html_text(o, value);
	out_str(o, "</td></tr>\n");
}

static const char *delayacct_text(int state)
{
	return state == DELAYACCT_ON ? _("on") : state == DELAYACCT_OFF ? _("off") : _("unknown");
}

static void write_facts(struct outbuf *o, const struct htmlrep *h, const struct htmlrep_facts *f)
{
	char buf[256], a[64], b[64];

	html_wrap(o, "<section id=\"host\"><h2>", _("Host and window"), "</h2>\n<table class=\"facts\">\n");
	if (f->host)
		htmlrep_fact(o, _("Host"), f->host);
	if (f->kernel)
		htmlrep_fact(o, _("Kernel"), f->kernel);
	if (f->cpus > 0) {
		snprintf(buf, sizeof(buf), "%ld", f->cpus);
		htmlrep_fact(o, _("CPUs"), buf);
	}
	if (f->source)
		htmlrep_fact(o, _("Readings from"), f->source);
	if (f->writer)
		htmlrep_fact(o, _("Recorded by"), f->writer);
	htmlrep_fact(o, _("Report by"), PACKAGE " " VERSION);
	if (h->nreadings) {
		htmlrep_time_text(a, sizeof(a), h->first_s);
		htmlrep_time_text(b, sizeof(b), h->last_s);
		snprintf(buf, sizeof(buf), "%s — %s", a, b);
		htmlrep_fact(o, _("Window"), buf);
		fmt_span(a, sizeof(a), h->last_s - h->first_s);
		snprintf(buf, sizeof(buf), "%s, %llu %s", a, (unsigned long long)h->nreadings, _("readings"));
		htmlrep_fact(o, _("Span"), buf);
		if (h->delayacct_first == h->delayacct_last)
			snprintf(buf, sizeof(buf), "%s", delayacct_text(h->delayacct_last));
		else
			snprintf(buf, sizeof(buf), "%s → %s", delayacct_text(h->delayacct_first),
				 delayacct_text(h->delayacct_last));
		htmlrep_fact(o, _("Delay accounting (kernel.task_delayacct)"), buf);
		htmlrep_fact(o, _("Rows"), h->threads ? _("threads") : _("processes"));
		if (h->limited)
			htmlrep_fact(o, _("Limited"), _("without CAP_NET_ADMIN: CPU and I/O delay only, from /proc"));
		snprintf(buf, sizeof(buf), "%u / %u", h->max_procs, h->max_threads);
		htmlrep_fact(o, _("Processes / threads on the system (most)"), buf);
		if (h->exits_lost) {
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)h->exits_lost);
			htmlrep_fact(o, _("Exit records lost"), buf);
		}
	}
	if (f->exit_status >= 0) {
		snprintf(buf, sizeof(buf), "%d", f->exit_status);
		htmlrep_fact(o, _("Command's exit status"), buf);
	}
	out_str(o, "</table></section>\n");
}

/* A chart in a figure with an id and a caption. */
static void figure(struct outbuf *o, const char *id, const struct svg_chart *c, const char *caption)
{
	out_printf(o, "<figure id=\"%s\">", id);
	svg_chart_write(o, c);
	out_str(o, "<figcaption>");
	html_text(o, caption);
	out_str(o, "</figcaption></figure>\n");
}

/* What one point of the charts stands for. */
static void bucket_caption(char *buf, size_t size, const struct htmlrep *h, const char *what)
{
	char span[48];

	fmt_span(span, sizeof(span), h->width);
	snprintf(buf, size, F_(N_("%s; each point: the average over %s")), what, span);
}

static void write_pressure(struct outbuf *o, const struct htmlrep *h, struct points *p)
{
	char id[32], caption[256], title[128];
	int any = 0;

	html_wrap(o, "<section id=\"pressure\"><h2>", _("Pressure"), "</h2>\n");
	for (int r = 0; r < PSI_COUNT; r++) {
		struct svg_series s[2];
		size_t ns = 0;

		for (int l = 0; l < 2; l++) {
			int have = 0;

			for (uint32_t b = 0; b < h->nbuckets; b++)
				have |= h->b[b].psi_have[r][l];
			if (!have || (r == PSI_CPU && l == 1))
				continue; /* the system's CPU full is always 0 */
			s[ns] = (struct svg_series){ l ? "full" : "some", p->t[l], p->v[l], 0 };
			s[ns].n = htmlrep_psi_series(h, r, l, p->t[l], p->v[l]);
			ns++;
		}
		if (!ns)
			continue;
		any = 1;
		snprintf(id, sizeof(id), "psi-%s", psi_name(r));
		snprintf(title, sizeof(title), F_(N_("%s pressure")), _(psi_label(r)));
		out_str(o, "<div><h3>");
		html_text(o, title);
		out_str(o, "</h3>");
		bucket_caption(caption, sizeof(caption), h, _("share of the time some (or all) tasks stalled"));
		figure(o, id, &(struct svg_chart){ title, "%", h->first_s, h->last_s, s, ns }, caption);
		out_str(o, "</div>");
	}
	if (!any)
		html_wrap(o, "<p class=\"none\">", _("No pressure was recorded."), "</p>\n");
	out_str(o, "</section>\n");
}

/* A number cell with decimals. */
static void num_cell(struct outbuf *o, int decimals, double v)
{
	out_printf(o, "<td class=\"num\">%.*f</td>", decimals, v);
}

/* The series of the first n of top (tasks or cgroups, by get) into p, with their peaks; the
 * chart's series for the first HTMLREP_CHART into s. */
static size_t top_series(const struct htmlrep *h, int k, const struct hr_delays *const *d, const char *const *names,
			 size_t n, struct points *p, struct svg_series *s)
{
	for (size_t i = 0; i < n; i++) {
		p->n[i] = htmlrep_delay_series(h, d[i], k, p->t[i], p->v[i]);
		p->peak[i] = strip_max(p->v[i], p->n[i]);
		if (i < HTMLREP_CHART)
			s[i] = (struct svg_series){ names[i], p->t[i], p->v[i], p->n[i] };
	}
	return n < HTMLREP_CHART ? n : HTMLREP_CHART;
}

void htmlrep_table_head(struct outbuf *o, const char *id, const char *const *titles, size_t n)
{
	out_printf(o, "<table class=\"list\" id=\"%s\"><thead><tr>", id);
	for (size_t i = 0; i < n; i++) {
		out_str(o, "<th>");
		html_text(o, titles[i]);
		out_str(o, "</th>");
	}
	out_str(o, "</tr></thead><tbody>\n");
}

/* A row's numbers: seconds waited, the average share of the window, the peak share. */
static void delay_cells(struct outbuf *o, const struct htmlrep *h, double total_ns, double peak)
{
	num_cell(o, 3, total_ns / 1e9);
	num_cell(o, 2, h->cover_s > 0 ? total_ns / 1e9 / h->cover_s * 100 : 0);
	num_cell(o, 2, peak);
}

/* The tasks of kind k: a chart of the first HTMLREP_CHART, a table of all. */
static void write_tasks(struct outbuf *o, const struct htmlrep *h, int k, const char *key, struct points *p)
{
	const struct hr_task *top[HTMLREP_TABLE];
	const struct hr_delays *d[HTMLREP_TABLE];
	const char *names[HTMLREP_TABLE];
	const char *titles[] = { _("Command"), h->threads ? _("TID") : _("PID"), _("User"), _("Cgroup"),
				 _("Waited (s)"), _("Average %"), _("Peak %") };
	struct svg_series s[HTMLREP_CHART];
	char label[HTMLREP_TABLE][64], id[48], caption[256];
	size_t n = htmlrep_top_tasks(h, k, top, HTMLREP_TABLE), ns;

	for (size_t i = 0; i < n; i++) {
		snprintf(label[i], sizeof(label[i]), "%s (%u)", top[i]->comm ? top[i]->comm : "?",
			 top[i]->tid ? top[i]->tid : top[i]->pid);
		names[i] = label[i];
		d[i] = &top[i]->d;
	}
	ns = top_series(h, k, d, names, n, p, s);
	snprintf(id, sizeof(id), "tasks-%s", key);
	bucket_caption(caption, sizeof(caption), h, _("tasks: share of the time waiting"));
	figure(o, id, &(struct svg_chart){ _("Tasks"), "%", h->first_s, h->last_s, s, ns }, caption);
	snprintf(id, sizeof(id), "top-tasks-%s", key);
	htmlrep_table_head(o, id, titles, sizeof(titles) / sizeof(titles[0]));
	for (size_t i = 0; i < n; i++) {
		const struct hr_task *x = top[i];

		out_str(o, "<tr class=\"task\"><td class=\"comm\" title=\"");
		html_text(o, x->cmdline ? x->cmdline : "");
		out_str(o, "\">");
		html_text(o, x->comm ? x->comm : "?");
		out_printf(o, "</td><td class=\"num\">%u</td><td>", x->tid ? x->tid : x->pid);
		html_text(o, x->user ? x->user : "?");
		out_str(o, "</td><td>");
		html_text(o, x->cgroup ? x->cgroup : "");
		out_str(o, "</td>");
		delay_cells(o, h, x->d.total_ns[k], p->peak[i]);
		out_str(o, "</tr>\n");
	}
	out_str(o, "</tbody></table>\n");
}

/* The cgroups of kind k, as the tasks. */
static void write_cgroups(struct outbuf *o, const struct htmlrep *h, int k, const char *key, struct points *p)
{
	const struct hr_group *top[HTMLREP_TABLE];
	const struct hr_delays *d[HTMLREP_TABLE];
	const char *names[HTMLREP_TABLE];
	const char *titles[] = { _("Cgroup"), _("Waited (s)"), _("Average %"), _("Peak %") };
	struct svg_series s[HTMLREP_CHART];
	char id[48], caption[256];
	size_t n = htmlrep_top_cgroups(h, k, top, HTMLREP_TABLE), ns;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		names[i] = top[i]->name;
		d[i] = &top[i]->d;
	}
	ns = top_series(h, k, d, names, n, p, s);
	snprintf(id, sizeof(id), "cgroups-%s", key);
	bucket_caption(caption, sizeof(caption), h, _("cgroups: their tasks' shares of the time waiting, added"));
	figure(o, id, &(struct svg_chart){ _("Cgroups"), "%", h->first_s, h->last_s, s, ns }, caption);
	snprintf(id, sizeof(id), "top-cgroups-%s", key);
	htmlrep_table_head(o, id, titles, sizeof(titles) / sizeof(titles[0]));
	for (size_t i = 0; i < n; i++) {
		out_str(o, "<tr class=\"cgroup\"><td>");
		html_text(o, top[i]->name);
		out_str(o, "</td>");
		delay_cells(o, h, top[i]->d.total_ns[k], p->peak[i]);
		out_str(o, "</tr>\n");
	}
	out_str(o, "</tbody></table>\n");
}

/* The command names of kind k: a table of those whose tasks waited most, added up (as
 * --group=command sums them), with how many tasks of each name waited. */
static void write_commands(struct outbuf *o, const struct htmlrep *h, int k, const char *key, struct points *p)
{
	const struct hr_group *top[HTMLREP_TABLE];
	const struct hr_delays *d[HTMLREP_TABLE];
	const char *names[HTMLREP_TABLE];
	const char *titles[] = { _("Command"), h->threads ? _("Threads") : _("Processes"), _("Waited (s)"),
				 _("Average %"), _("Peak %") };
	struct svg_series s[HTMLREP_CHART];
	char id[48];
	size_t n = htmlrep_top_commands(h, k, top, HTMLREP_TABLE);

	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		names[i] = top[i]->name;
		d[i] = &top[i]->d;
	}
	top_series(h, k, d, names, n, p, s); /* for the peaks */
	html_wrap(o, "<h4>", _("Commands: the tasks of each name, their waits added"), "</h4>\n");
	snprintf(id, sizeof(id), "top-commands-%s", key);
	htmlrep_table_head(o, id, titles, sizeof(titles) / sizeof(titles[0]));
	for (size_t i = 0; i < n; i++) {
		out_str(o, "<tr class=\"command\"><td class=\"comm\">");
		html_text(o, top[i]->name);
		out_printf(o, "</td><td class=\"num\">%u</td>", top[i]->tasks[k]);
		delay_cells(o, h, top[i]->d.total_ns[k], p->peak[i]);
		out_str(o, "</tr>\n");
	}
	out_str(o, "</tbody></table>\n");
}

static void write_kinds(struct outbuf *o, const struct htmlrep *h, struct points *p)
{
	html_wrap(o, "<section id=\"delays\"><h2>", _("Who waited most"), "</h2>\n");
	if (!h->kinds)
		html_wrap(o, "<p class=\"none\">", _("No task waited in this window."), "</p>\n");
	for (int k = 0; k < DK_COUNT; k++) {
		if (!(h->kinds & (1u << k)))
			continue;
		out_printf(o, "<section id=\"kind-%s\"><h3>", delay_kinds[k].key);
		html_text(o, _(delay_kinds[k].title));
		out_str(o, ": ");
		html_text(o, _(delay_kinds[k].label));
		out_str(o, "</h3>\n");
		write_tasks(o, h, k, delay_kinds[k].key, p);
		write_commands(o, h, k, delay_kinds[k].key, p);
		write_cgroups(o, h, k, delay_kinds[k].key, p);
		out_str(o, "</section>\n");
	}
	out_str(o, "</section>\n");
}

/* One event's row. */
static void write_event(struct outbuf *o, const struct hr_event *e)
{
	char when[64], file[CGROUP_PATH_MAX + 64];

	htmlrep_time_text(when, sizeof(when), e->t);
	trigger_file(&e->spec, file, sizeof(file));
	out_printf(o, "<tr class=\"event\"><td>%s</td><td class=\"trigger\">", when);
	html_text(o, e->spec.text);
	out_str(o, "</td><td>");
	html_text(o, file);
	out_str(o, "</td><td class=\"stalled\">");
	for (size_t i = 0; i < e->ntasks; i++) {
		out_str(o, i ? "<br>" : "");
		out_str(o, "<span class=\"staller\">");
		html_text(o, e->task[i]);
		if (e->task_waiting[i]) {
			out_printf(o, "</span> (%u) ", e->task_pid[i]);
			html_text(o, _("waiting now (D)"));
		} else
			out_printf(o, "</span> (%u) %.1f%%", e->task_pid[i], e->task_pct[i]);
	}
	out_str(o, "</td><td>");
	for (size_t i = 0; i < e->ncgroups; i++) {
		out_str(o, i ? "<br>" : "");
		html_text(o, e->cgroup[i]);
		out_printf(o, " %.1f%%", e->cgroup_pct[i]);
	}
	out_str(o, "</td></tr>\n");
}

static void write_events(struct outbuf *o, const struct htmlrep *h)
{
	const char *heads[] = { _("Time"), _("Trigger"), _("Pressure file"), _("Tasks that stalled most"), _("Cgroups") };

	html_wrap(o, "<section id=\"events\"><h2>", _("Trigger events"), "</h2>\n");
	if (!h->nevents) {
		html_wrap(o, "<p class=\"none\">", _("No PSI trigger fired in this window."), "</p></section>\n");
		return;
	}
	out_str(o, "<table class=\"list\" id=\"event-list\"><thead><tr>");
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		html_wrap(o, "<th>", heads[i], "</th>");
	out_str(o, "</tr></thead><tbody>\n");
	for (size_t i = 0; i < h->nevents; i++)
		write_event(o, &h->events[i]);
	out_str(o, "</tbody></table></section>\n");
}

void htmlrep_page_start(struct outbuf *o, const char *host)
{
	out_str(o, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
		   "<meta name=\"viewport\" content=\"width=device-width\"><title>");
	html_text(o, PACKAGE);
	if (host) {
		out_str(o, ": ");
		html_text(o, host);
	}
	out_printf(o, "</title>\n<style>%s</style></head>\n<body>\n<h1>", style);
	html_text(o, _("Delay report"));
	if (host) {
		out_str(o, ": ");
		html_text(o, host);
	}
	out_str(o, "</h1>\n");
}

void htmlrep_page_end(struct outbuf *o)
{
	out_str(o, "</body></html>\n");
}

void htmlrep_page(struct outbuf *o, const struct htmlrep *h, const struct htmlrep_facts *f)
{
	struct points *p = xmalloc(sizeof(*p));

	htmlrep_page_start(o, f->host);
	write_facts(o, h, f);
	write_pressure(o, h, p);
	write_kinds(o, h, p);
	htmlrep_heatmaps(o, h);
	write_events(o, h);
	htmlrep_stacks(o, h);
	htmlrep_page_end(o);
	free(p);
}
