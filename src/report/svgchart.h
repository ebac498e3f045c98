/* svgchart.h — line charts over time as plain SVG for the HTML report: round ticks for the value
 * axis, time ticks with labels people read, series thinned to at most SVG_MAX_POINTS points, and
 * the drawing (axes, grid, labels, one path a series, a legend). Names in a chart are what tasks
 * control: they are written through html.h. Pure code (time labels follow the TZ variable). */
#ifndef DELAYTOP_SVGCHART_H
#define DELAYTOP_SVGCHART_H

#include <stddef.h>

#include "format.h"

/* The most points a series of a chart has: a day of readings each second draws as 600. */
#define SVG_MAX_POINTS 600
/* The most ticks an axis has. */
#define SVG_MAX_TICKS 12

struct svg_series {
	const char *name; /* the legend's and the line's title; NULL: none */
	const double *t;  /* seconds since the epoch, ascending */
	const double *v;  /* the values; NAN: none there (the line breaks) */
	size_t n;
};

struct svg_chart {
	const char *title; /* above the chart */
	const char *unit;  /* after the value axis's numbers, such as "%" */
	double t0, t1;     /* the time axis: seconds since the epoch */
	const struct svg_series *series;
	size_t nseries;
};

/* Round ticks (1, 2 or 5 times a power of ten) from 0 to at least hi, at most max of them (2 to
 * SVG_MAX_TICKS) into ticks[]; returns how many. hi at or below 0 gives 0 and 1. */
int svg_ticks(double hi, int max, double *ticks);

/* Ticks of the time axis from t0 to t1 (seconds since the epoch), at most max of them, at round
 * times of the local clock (each 1, 2, 5, 10, 15 or 30 seconds or minutes, 1, 2, 3, 6 or 12 hours,
 * or days) into ticks[]; returns how many, and the step in *step. */
int svg_time_ticks(double t0, double t1, int max, double *ticks, double *step);
/* A tick's label in the local time: HH:MM:SS for steps under a minute, HH:MM up to a day, the
 * date for days; with_date adds the date before the time. */
void svg_time_label(char *buf, size_t size, double t, double step, int with_date);

/* Thins the series (t, v) of n points to at most max (at least 2): the span cut into max
 * equal buckets, each bucket's values averaged at their average time; a bucket with only NAN
 * gives one NAN (a break in the line). Into ot, ov (max each); returns how many. A series of at
 * most max points is copied as it is. */
size_t svg_downsample(const double *t, const double *v, size_t n, size_t max, double *ot, double *ov);

/* The chart as an <svg> element, width 100% of its box: each series a <path class="series">
 * with data-points="N" (its points) and a <title>, breaks at NAN; series with more than
 * SVG_MAX_POINTS points are thinned first. */
void svg_chart_write(struct outbuf *o, const struct svg_chart *c);

#endif
