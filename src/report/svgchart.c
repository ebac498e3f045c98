/* svgchart.c — line charts over time as plain SVG: the axes' ticks and labels, series thinned to
 * a few hundred points, the drawing. The caller's names go through html.h. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "html.h"
#include "svgchart.h"

/* The drawing's size in SVG units (the page scales it to its width) and its margins. */
#define CHART_W 960
#define CHART_H 182
#define LEFT 56
#define RIGHT 16
#define TOP 12
#define BOTTOM 40 /* the time labels, and a date under the first and where the day changes */
#define LEGEND_ROW 18
#define LEGEND_COL 240

/* The series' colours, in order (a sixth series takes the first again). */
static const char *const palette[] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e" };
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))

int svg_ticks(double hi, int max, double *ticks)
{
	static const double mult[] = { 1, 2, 5 };
	double step = 0;
	int n = 0;

	if (max < 2)
		max = 2;
	if (max > SVG_MAX_TICKS)
		max = SVG_MAX_TICKS;
	if (!(hi > 0) || !isfinite(hi)) {
		ticks[0] = 0;
		ticks[1] = 1;
		return 2;
	}
	/* the smallest round step that reaches hi in at most max - 1 steps */
	for (double p = pow(10, floor(log10(hi / (max - 1)))); !step; p *= 10)
		for (size_t i = 0; i < 3 && !step; i++)
			if (mult[i] * p * (max - 1) >= hi)
				step = mult[i] * p;
	do {
		ticks[n] = n * step;
		n++;
	} while (ticks[n - 1] < hi * (1 - 1e-9) && n < max);
	return n;
}

/* Time steps in seconds, smallest first. */
static const double time_steps[] = {
	1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800,
	3600, 7200, 10800, 21600, 43200, 86400, 2 * 86400, 7 * 86400, 14 * 86400, 28 * 86400,
};

/* The local clock's offset from UTC at t, seconds. */
static long utc_offset(double t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	return localtime_r(&tt, &tm) ? tm.tm_gmtoff : 0;
}

int svg_time_ticks(double t0, double t1, int max, double *ticks, double *step)
{
	size_t i = 0;
	double off = (double)utc_offset(t0), first;
	int n = 0;

	if (max > SVG_MAX_TICKS)
		max = SVG_MAX_TICKS;
	if (max < 1)
		max = 1;
	while (i + 1 < sizeof(time_steps) / sizeof(time_steps[0]) && (t1 - t0) / time_steps[i] > max - 1)
		i++;
	*step = time_steps[i];
	first = ceil((t0 + off) / *step) * *step - off;
	for (double t = first; t <= t1 + 1e-6 && n < max; t += *step)
		ticks[n++] = t;
	return n;
}

void svg_time_label(char *buf, size_t size, double t, double step, int with_date)
{
	time_t tt = (time_t)floor(t + 0.5);
	struct tm tm;
	size_t n = 0;

	if (!localtime_r(&tt, &tm)) {
		snprintf(buf, size, "?");
		return;
	}
	if (with_date || step >= 86400)
		n = strftime(buf, size, step >= 86400 ? "%Y-%m-%d" : "%Y-%m-%d ", &tm);
	if (step < 60)
		strftime(buf + n, size - n, "%H:%M:%S", &tm);
	else if (step < 86400)
		strftime(buf + n, size - n, "%H:%M", &tm);
}

size_t svg_downsample(const double *t, const double *v, size_t n, size_t max, double *ot, double *ov)
{
	size_t out = 0, i = 0;
	double span;

	if (max < 2)
		max = 2;
	if (n <= max) {
		memcpy(ot, t, n * sizeof(*t));
		memcpy(ov, v, n * sizeof(*v));
		return n;
	}
	span = t[n - 1] - t[0];
	for (size_t b = 0; b < max && i < n; b++) {
		double end = t[0] + span * (double)(b + 1) / (double)max, st = 0, sv = 0;
		size_t k = 0, nan = 0;

		for (; i < n && (t[i] < end || b + 1 == max); i++) {
			if (isnan(v[i])) {
				nan++;
				continue;
			}
			st += t[i];
			sv += v[i];
			k++;
		}
		if (k) {
			ot[out] = st / (double)k;
			ov[out++] = sv / (double)k;
		} else if (nan && (!out || !isnan(ov[out - 1]))) {
			ot[out] = t[i - 1];
			ov[out++] = NAN;
		}
	}
	return out;
}

/* The plot's box. */
struct plot {
	double x0, x1, y0, y1; /* SVG units: left, right, bottom, top */
	double t0, t1, vmax;
};

static double plot_x(const struct plot *p, double t)
{
	return p->t1 > p->t0 ? p->x0 + (t - p->t0) / (p->t1 - p->t0) * (p->x1 - p->x0) : p->x0;
}

static double plot_y(const struct plot *p, double v)
{
	if (v > p->vmax)
		v = p->vmax;
	if (v < 0)
		v = 0;
	return p->y0 - v / p->vmax * (p->y0 - p->y1);
}

/* The value axis: grid lines and numbers. */
static void write_value_axis(struct outbuf *o, const struct plot *p, const double *ticks, int n, const char *unit)
{
	for (int i = 0; i < n; i++) {
		double y = plot_y(p, ticks[i]);

		out_printf(o, "<line class=\"grid\" x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\"/>", p->x0, y, p->x1, y);
		out_printf(o, "<text class=\"tick\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%g", p->x0 - 4, y + 4,
			   ticks[i]);
		html_text(o, unit);
		out_str(o, "</text>");
	}
}

/* The day of t, as the labels show it (local time). */
static void day_of(char *buf, size_t size, double t)
{
	svg_time_label(buf, size, t, 86400, 1);
}

/* The time axis: ticks and their times, and on a line below the date under the first tick and
 * under each where the day changes (a date beside a time would run into the next label). */
static void write_time_axis(struct outbuf *o, const struct plot *p)
{
	double ticks[SVG_MAX_TICKS], step;
	int n = svg_time_ticks(p->t0, p->t1, 8, ticks, &step);
	char label[48], day[48], last_day[48] = "";

	out_printf(o, "<line class=\"axis\" x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\"/>", p->x0, p->y0, p->x1, p->y0);
	for (int i = 0; i < n; i++) {
		double x = plot_x(p, ticks[i]);
		const char *anchor = i == 0 && x < p->x0 + 60 ? "start" : x > p->x1 - 40 ? "end" : "middle";

		svg_time_label(label, sizeof(label), ticks[i], step, 0);
		out_printf(o, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\"/>", x, p->y0, x,
			   p->y0 + 4);
		out_printf(o, "<text class=\"tick\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"%s\">%s</text>", x, p->y0 + 16,
			   anchor, label);
		day_of(day, sizeof(day), ticks[i]);
		if (step < 86400 && strcmp(day, last_day) != 0)
			out_printf(o, "<text class=\"tick date\" x=\"%.1f\" y=\"%.0f\" text-anchor=\"%s\">%s</text>", x,
				   p->y0 + 30, anchor, day);
		snprintf(last_day, sizeof(last_day), "%s", day);
	}
}

/* One series as a path: M at the first point and after each break, L between. */
static void write_series(struct outbuf *o, const struct plot *p, const struct svg_series *s, size_t index)
{
	const double *t = s->t, *v = s->v;
	double bt[SVG_MAX_POINTS], bv[SVG_MAX_POINTS];
	size_t n = s->n, points = 0;
	int pen = 0;
	struct outbuf d = { 0 };

	if (n > SVG_MAX_POINTS) {
		n = svg_downsample(s->t, s->v, s->n, SVG_MAX_POINTS, bt, bv);
		t = bt;
		v = bv;
	}
	for (size_t i = 0; i < n; i++) {
		if (isnan(v[i])) {
			pen = 0;
			continue;
		}
		out_printf(&d, "%s%.1f %.1f", pen ? " L" : (d.len ? " M" : "M"), plot_x(p, t[i]), plot_y(p, v[i]));
		pen = 1;
		points++;
	}
	out_printf(o, "<path class=\"series\" data-points=\"%zu\" stroke=\"%s\" d=\"", points,
		   palette[index % NPALETTE]);
	if (d.len)
		out_mem(o, d.data, d.len);
	else
		out_str(o, "M0 0");
	out_str(o, "\"><title>");
	html_text(o, s->name);
	out_str(o, "</title></path>");
	out_free(&d);
}

/* The legend under the plot: a swatch and each series's name (cut to fit its column). */
static void write_legend(struct outbuf *o, const struct svg_chart *c, double top)
{
	for (size_t i = 0; i < c->nseries; i++) {
		double x = LEFT + (double)(i % 4) * LEGEND_COL, y = top + (double)(i / 4) * LEGEND_ROW;
		const char *name = c->series[i].name ? c->series[i].name : "";

		out_printf(o, "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"4\" fill=\"%s\"/>", x, y - 4,
			   palette[i % NPALETTE]);
		out_printf(o, "<text class=\"legend\" x=\"%.0f\" y=\"%.0f\">", x + 16, y);
		html_text_n(o, name, text_fit(name, 34));
		out_str(o, "</text>");
	}
}

void svg_chart_write(struct outbuf *o, const struct svg_chart *c)
{
	double ticks[SVG_MAX_TICKS], vmax = 0;
	size_t rows = (c->nseries + 3) / 4;
	double height = CHART_H + (double)rows * LEGEND_ROW;
	struct plot p = { LEFT, CHART_W - RIGHT, CHART_H - BOTTOM, TOP, c->t0, c->t1, 1 };
	int n;

	for (size_t i = 0; i < c->nseries; i++)
		for (size_t k = 0; k < c->series[i].n; k++)
			if (c->series[i].v[k] > vmax)
				vmax = c->series[i].v[k];
	n = svg_ticks(vmax, 6, ticks);
	p.vmax = ticks[n - 1];
	out_printf(o, "<svg class=\"chart\" viewBox=\"0 0 %d %.0f\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">",
		   CHART_W, height);
	out_str(o, "<title>");
	html_text(o, c->title);
	out_str(o, "</title>");
	write_value_axis(o, &p, ticks, n, c->unit ? c->unit : "");
	write_time_axis(o, &p);
	for (size_t i = 0; i < c->nseries; i++)
		write_series(o, &p, &c->series[i], i);
	write_legend(o, c, CHART_H + 4);
	out_str(o, "</svg>\n");
}
