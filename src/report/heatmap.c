/* heatmap.c — the HTML report's latency heat maps (--why): per kind measured, for the tasks and the
 * cgroups whose waits were longest, an inline SVG whose columns are the report's time buckets,
 * whose rows are the log2 slots from the shortest wait to the longest (each labelled with its
 * range) and whose cells are shaded by how many waits they hold, a few shades with a legend; each
 * cell's <title> says its time, range and count. Where no reading had --why on, one sentence. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "html.h"
#include "htmlrep.h"
#include "i18n.h"
#include "lathist.h"

/* The shades, lightest first. */
#define SHADES 4
static const char *const shade_fill[SHADES] = { "#fdd49e", "#fdbb84", "#fc8d59", "#d7301f" };

/* The geometry, in the SVG's own units. */
enum { LEFT = 130, PLOT_W = 820, TOP = 8, ROW_H = 14, BOTTOM = 22, LEGEND_H = 22 };

/* The highest count of each shade: the counts from 1 to max cut at powers max^(i/SHADES). */
static void shade_bounds(uint32_t max, uint32_t hi[SHADES])
{
	for (int i = 0; i < SHADES; i++) {
		double b = floor(pow((double)max, (double)(i + 1) / SHADES));

		hi[i] = i == SHADES - 1 ? max : (uint32_t)b;
		if (i && hi[i] < hi[i - 1])
			hi[i] = hi[i - 1];
	}
}

static int shade_of(uint32_t count, const uint32_t hi[SHADES])
{
	for (int i = 0; i < SHADES; i++)
		if (count <= hi[i])
			return i;
	return SHADES - 1;
}

/* A slot's range as a label: "0–2us", "1.02ms–2.05ms", "16.8s–inf". */
static void slot_label(char *buf, size_t size, int slot)
{
	char lo[24], hi[24];

	if (slot == 0)
		snprintf(lo, sizeof(lo), "0");
	else
		lathist_bound_text(lat_slot_lower_ms(slot), lo);
	lathist_bound_text(lat_slot_le_ms(slot), hi);
	snprintf(buf, size, "%s–%s", lo, hi);
}

/* The time of bucket b: the average of its readings', else its start. */
static double bucket_time(const struct htmlrep *h, uint32_t b)
{
	return h->b[b].n ? h->b[b].t_sum / h->b[b].n : h->t0 + b * h->width;
}

/* The time axis: ticks at round times under the plot. */
static void time_axis(struct outbuf *o, const struct htmlrep *h, double cw, int y)
{
	double ticks[SVG_MAX_TICKS], step;
	int n = svg_time_ticks(h->t0, h->t0 + h->nbuckets * h->width, 6, ticks, &step);
	char label[64];

	for (int i = 0; i < n; i++) {
		double x = LEFT + (ticks[i] - h->t0) / h->width * cw;

		if (x < LEFT || x > LEFT + PLOT_W - 25)
			continue; /* its label would stand out of the picture */
		svg_time_label(label, sizeof(label), ticks[i], step, 0);
		out_printf(o, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", x, y + 14,
			   label);
	}
}

/* The legend: each shade and the counts it stands for. */
static void legend(struct outbuf *o, const uint32_t hi[SHADES], int y)
{
	char text[64];
	int x = LEFT;

	out_printf(o, "<text class=\"legend\" x=\"%d\" y=\"%d\" text-anchor=\"end\">", LEFT - 6, y + 11);
	html_text(o, _("waits:"));
	out_str(o, "</text>");
	for (int i = 0; i < SHADES; i++) {
		uint32_t lo = i ? hi[i - 1] + 1 : 1;

		if (lo > hi[i])
			continue;
		if (lo == hi[i])
			snprintf(text, sizeof(text), "%u", lo);
		else
			snprintf(text, sizeof(text), "%u–%u", lo, hi[i]);
		out_printf(o, "<rect class=\"swatch\" x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\"/>"
			      "<text class=\"legend\" x=\"%d\" y=\"%d\">%s</text>",
			   x, y, shade_fill[i], x + 18, y + 11, text);
		x += 30 + 8 * (int)strlen(text);
	}
}

/* The heat map of one kind's cells, as an <svg class="heatmap">. */
static void heatmap_svg(struct outbuf *o, const struct htmlrep *h, const struct hl_cells *s, int first, int last)
{
	int rows = last - first + 1, plot_h = rows * ROW_H, height = TOP + plot_h + BOTTOM + LEGEND_H;
	double cw = (double)PLOT_W / (h->nbuckets ? h->nbuckets : 1);
	uint32_t max = 0, hi[SHADES];
	char range[64], when[64];

	for (uint32_t i = 0; i < s->n; i++)
		if (s->c[i].count > max)
			max = s->c[i].count;
	shade_bounds(max, hi);
	out_printf(o, "<svg class=\"heatmap\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" role=\"img\">",
		   LEFT + PLOT_W + 10, height);
	for (int slot = first; slot <= last; slot++) {
		int y = TOP + (last - slot) * ROW_H; /* the longest waits on top */

		slot_label(range, sizeof(range), slot);
		out_printf(o, "<text class=\"tick slot\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>", LEFT - 6,
			   y + ROW_H - 3, range);
	}
	out_printf(o, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>", LEFT, TOP, PLOT_W, plot_h);
	for (uint32_t i = 0; i < s->n; i++) {
		const struct hl_cell *c = &s->c[i];

		slot_label(range, sizeof(range), c->slot);
		svg_time_label(when, sizeof(when), bucket_time(h, c->bucket), 1, 0);
		out_printf(o, "<rect class=\"cell\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"><title>",
			   LEFT + c->bucket * cw, TOP + (last - c->slot) * ROW_H, cw, ROW_H, shade_fill[shade_of(c->count, hi)]);
		out_printf(o, F_(N_("%s, %s; waits: %u")), when, range, c->count);
		out_str(o, "</title></rect>");
	}
	time_axis(o, h, cw, TOP + plot_h);
	legend(o, hi, TOP + plot_h + BOTTOM);
	out_str(o, "</svg>");
}

/* A figure of one task's or cgroup's heat map: id, the data-id of what it stands for, a caption. */
static void heatmap_figure(struct outbuf *o, const struct htmlrep *h, const struct hr_lat *lat, int k, const char *id,
			   const char *name)
{
	const struct hl_cells *s = &lat->k[k];
	int first, last;
	char text[128];

	if (!htmllat_slots(lat, k, &first, &last))
		return;
	out_printf(o, "<figure class=\"heat\" id=\"%s\" data-waits=\"%llu\">", id, (unsigned long long)s->count);
	heatmap_svg(o, h, s, first, last);
	out_str(o, "<figcaption><span class=\"who\">");
	html_text(o, name);
	out_str(o, "</span>: ");
	snprintf(text, sizeof(text), F_(N_("waits: %llu, %.3f s in all")), (unsigned long long)s->count,
		 s->total_ns / 1e9);
	html_text(o, text);
	out_str(o, "</figcaption></figure>\n");
}

/* The heat maps of kind k: its tasks', then its cgroups'. */
static void heatmap_kind(struct outbuf *o, const struct htmlrep *h, int k)
{
	const struct hr_task *tasks[HTMLLAT_TOP];
	const struct hr_group *cgroups[HTMLLAT_TOP];
	size_t nt = htmlrep_top_lat_tasks(h, k, tasks, HTMLLAT_TOP);
	size_t nc = htmlrep_top_lat_cgroups(h, k, cgroups, HTMLLAT_TOP);
	char id[64], name[128];

	out_printf(o, "<section id=\"latency-%s\"><h3>", lat_kind_key(k));
	html_text(o, lathist_kind_title(k));
	out_str(o, "</h3>\n");
	for (size_t i = 0; i < nt; i++) {
		uint32_t who = tasks[i]->tid ? tasks[i]->tid : tasks[i]->pid;

		snprintf(id, sizeof(id), "heat-task-%s-%u", lat_kind_key(k), who);
		snprintf(name, sizeof(name), "%s (%u)", tasks[i]->comm ? tasks[i]->comm : "?", who);
		heatmap_figure(o, h, tasks[i]->lat, k, id, name);
	}
	for (size_t i = 0; i < nc; i++) {
		snprintf(id, sizeof(id), "heat-cgroup-%s-%zu", lat_kind_key(k), i + 1);
		heatmap_figure(o, h, cgroups[i]->lat, k, id, cgroups[i]->name);
	}
	out_str(o, "</section>\n");
}

void htmlrep_heatmaps(struct outbuf *o, const struct htmlrep *h)
{
	char caption[256];

	html_wrap(o, "<section id=\"latency\"><h2>", _("How long each wait took (--why)"), "</h2>\n");
	if (!h->why) {
		html_wrap(o, "<p class=\"none\" id=\"latency-none\">",
			  _("These readings were made without --why: they have no latency of each wait to draw."),
			  "</p></section>\n");
		return;
	}
	if (!h->lat_kinds) {
		html_wrap(o, "<p class=\"none\">", _("--why measured no wait in this window."), "</p></section>\n");
		return;
	}
	snprintf(caption, sizeof(caption),
		 F_(N_("For the %d tasks and the %d cgroups that waited longest in each kind: the waits by time "
		       "(across) and by how long they took (up); the darker, the more waits.")),
		 HTMLLAT_TOP, HTMLLAT_TOP);
	html_wrap(o, "<p>", caption, "</p>\n");
	for (int k = 0; k < LAT_KINDS; k++)
		if (h->lat_kinds & (1u << k))
			heatmap_kind(o, h, k);
	out_str(o, "</section>\n");
}
