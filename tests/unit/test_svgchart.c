/* test_svgchart.c — svgchart.c: round ticks, time ticks and labels, the thinning of a series to
 * at most SVG_MAX_POINTS points, and the drawing (points counted, names escaped, breaks). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "svgchart.h"
#include "tap.h"
#include "xalloc.h"

static void test_ticks(void)
{
	double t[SVG_MAX_TICKS];
	int n;

	n = svg_ticks(7.3, 6, t);
	is_int(n, 5, "0 to 7.3 in at most 6 ticks: 0 2 4 6 8");
	is_num(t[1], 2, 1e-9, "the step is 2");
	is_num(t[n - 1], 8, 1e-9, "the last tick is at or above the top");
	n = svg_ticks(100, 6, t);
	is_num(t[n - 1], 100, 1e-9, "100 ends at 100");
	is_num(t[1], 20, 1e-9, "100 in steps of 20");
	n = svg_ticks(0.013, 6, t);
	is_num(t[1], 0.005, 1e-12, "small values get steps of 0.005");
	ok(t[n - 1] >= 0.013, "and reach the top");
	n = svg_ticks(0, 6, t);
	ok(n == 2 && t[0] == 0 && t[1] == 1, "nothing above 0: an axis 0 to 1");
	n = svg_ticks(NAN, 6, t);
	is_int(n, 2, "NAN: an axis 0 to 1");
	n = svg_ticks(1e6, 50, t);
	ok(n <= SVG_MAX_TICKS, "never more than SVG_MAX_TICKS ticks");
}

static void test_time(void)
{
	double t[SVG_MAX_TICKS], step;
	char label[48];
	int n;
	/* 2026-01-01 00:00:00 UTC */
	double t0 = 1767225600;

	setenv("TZ", "UTC", 1);
	tzset();
	n = svg_time_ticks(t0 + 7, t0 + 3600 * 24 + 7, 8, t, &step);
	is_num(step, 6 * 3600, 1e-9, "a day in at most 8 ticks: every 6 hours");
	is_num(t[0], t0 + 6 * 3600, 1e-9, "the first tick at a round hour");
	ok(n >= 4 && n <= 8, "4 to 8 ticks");
	svg_time_label(label, sizeof(label), t[0], step, 0);
	is_str(label, "06:00", "hours and minutes");
	svg_time_label(label, sizeof(label), t[0], step, 1);
	is_str(label, "2026-01-01 06:00", "the first with the date");
	n = svg_time_ticks(t0 + 1, t0 + 5, 8, t, &step);
	is_num(step, 1, 1e-9, "4 seconds: every second");
	svg_time_label(label, sizeof(label), t[0], step, 0);
	is_str(label, "00:00:01", "seconds shown under a minute");
	n = svg_time_ticks(t0, t0 + 30 * 86400, 8, t, &step);
	ok(step >= 86400, "a month: steps of days");
	svg_time_label(label, sizeof(label), t[1], step, 0);
	ok(strlen(label) == 10 && label[4] == '-', "days are labelled by the date");
	setenv("TZ", "Asia/Kolkata", 1); /* +05:30 */
	tzset();
	n = svg_time_ticks(t0, t0 + 7200, 4, t, &step);
	svg_time_label(label, sizeof(label), t[0], step, 0);
	ok(n > 0 && strcmp(label + 2, ":00") == 0, "ticks fall on the local clock's round times (got %s)", label);
	setenv("TZ", "UTC", 1);
	tzset();
}

static void test_downsample(void)
{
	size_t n = 86400, m;
	double *t = xmalloc(n * sizeof(*t)), *v = xmalloc(n * sizeof(*v));
	double ot[SVG_MAX_POINTS], ov[SVG_MAX_POINTS], sum = 0, osum = 0;

	for (size_t i = 0; i < n; i++) {
		t[i] = (double)i;
		v[i] = i % 2 ? 10 : 0;
	}
	m = svg_downsample(t, v, n, SVG_MAX_POINTS, ot, ov);
	is_int(m, SVG_MAX_POINTS, "a day of seconds thins to 600 points");
	for (size_t i = 0; i < m; i++)
		osum += ov[i];
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	is_num(osum / (double)m, sum / (double)n, 1e-6, "the average stays the average");
	ok(ot[0] >= t[0] && ot[m - 1] <= t[n - 1], "the points stay within the span");
	for (size_t i = 40000; i < 50000; i++)
		v[i] = NAN;
	m = svg_downsample(t, v, n, SVG_MAX_POINTS, ot, ov);
	{
		size_t nans = 0;

		for (size_t i = 0; i < m; i++)
			nans += isnan(ov[i]) != 0;
		is_int(nans, 1, "a stretch without values becomes one break");
	}
	m = svg_downsample(t, v, 10, SVG_MAX_POINTS, ot, ov);
	ok(m == 10 && ov[1] == 10, "a short series is kept as it is");
	free(t);
	free(v);
}

/* How many times needle is in s. */
static int count(const char *s, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void test_chart(void)
{
	size_t n = 3000;
	double *t = xmalloc(n * sizeof(*t)), *v = xmalloc(n * sizeof(*v));
	double t2[4] = { 0, 1, 2, 3 }, v2[4] = { 1, NAN, 2, 3 };
	struct svg_series s[2] = { { "<img src=x onerror=alert(1)>", t, v, n }, { "b&\"c\xff", t2, v2, 4 } };
	struct svg_chart c = { "CPU <pressure>", "%", 0, 2999, s, 2 };
	struct outbuf o = { 0 };

	for (size_t i = 0; i < n; i++) {
		t[i] = (double)i;
		v[i] = (double)(i % 50);
	}
	svg_chart_write(&o, &c);
	out_char(&o, '\0');
	ok(strstr(o.data, "data-points=\"600\"") != NULL, "3000 points are drawn as 600");
	ok(strstr(o.data, "data-points=\"3\"") != NULL, "a NAN is not drawn");
	is_int(count(o.data, " M"), 1, "the NAN breaks the line: a second M");
	ok(!strstr(o.data, "<img"), "a series name is no element");
	ok(strstr(o.data, "<title>&lt;img src=x onerror=alert(1)&gt;</title>") != NULL,
	   "the series' title holds its name as text");
	ok(strstr(o.data, "b&amp;&quot;c\xef\xbf\xbd") != NULL, "the legend escapes & and \" and mends bad bytes");
	ok(strstr(o.data, "<title>CPU &lt;pressure&gt;</title>") != NULL, "the chart's title is escaped");
	ok(strstr(o.data, ">50%</text>") != NULL, "the value axis goes to a round 50 percent (49 at most)");
	ok(o.len < 40000, "the drawing stays small (%zu bytes)", o.len);
	out_free(&o);
	free(t);
	free(v);
}

int main(void)
{
	test_ticks();
	test_time();
	test_downsample();
	test_chart();
	return tap_done();
}
