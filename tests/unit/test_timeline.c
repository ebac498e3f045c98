/* test_timeline.c — the replay's timeline (timeline.h): a reading's pressure, the buckets of a
 * line (their highest pressure, the intervals they cover, events, the cursor), the peaks (the
 * highest reading of each stretch at or above 10%), stepping to events and peaks; and the strip
 * chart's cells (strip.h), UTF-8 and ASCII. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "format.h"
#include "strip.h"
#include "tap.h"
#include "timeline.h"

#define S 1000000000ll

/* A reading of the same pressure in every focus. */
static void add(struct timeline *tl, int64_t t_ns, double interval_s, double pressure, int event)
{
	double p[TL_FOCUS_COUNT];

	for (int f = 0; f < TL_FOCUS_COUNT; f++)
		p[f] = pressure;
	timeline_add(tl, t_ns, interval_s, p, event);
}

static void test_pressure(void)
{
	struct psi_snapshot psi = { 0 };

	is_num(timeline_pressure(&psi, TL_ALL), 0, 1e-9, "no pressure file read: pressure 0");
	psi.res[PSI_CPU].present = 1;
	psi.res[PSI_CPU].some = (struct psi_line){ .present = 1, .pct = 12.5 };
	psi.res[PSI_CPU].full = (struct psi_line){ .present = 1, .pct = 90 };
	is_num(timeline_pressure(&psi, TL_ALL), 0.125, 1e-9, "CPU some counts, CPU full (meaningless system-wide) does not");
	psi.res[PSI_IO].present = 1;
	psi.res[PSI_IO].full = (struct psi_line){ .present = 1, .pct = 40 };
	psi.res[PSI_IO].some = (struct psi_line){ .present = 1, .pct = NAN };
	is_num(timeline_pressure(&psi, TL_ALL), 0.40, 1e-9, "the highest line wins (I/O full 40%); NaN counts as nothing");
	psi.res[PSI_IRQ].present = 1;
	psi.res[PSI_IRQ].some = (struct psi_line){ .present = 1, .pct = 70 };
	is_num(timeline_pressure(&psi, TL_ALL), 0.40, 1e-9, "IRQ some is not a bar: not counted");
	psi.res[PSI_MEMORY].present = 1;
	psi.res[PSI_MEMORY].some = (struct psi_line){ .present = 1, .pct = 250 };
	is_num(timeline_pressure(&psi, TL_ALL), 1.0, 1e-9, "a share above 100% is taken as 1");
}

/* readings at t = 0..n-1 s, one second each, with these percents */
static void make(struct timeline *tl, const double *pct, size_t n, const int *events)
{
	memset(tl, 0, sizeof(*tl));
	for (size_t i = 0; i < n; i++)
		add(tl, (int64_t)i * S, i ? 1.0 : 0.0, pct[i] / 100.0, events && events[i]);
	timeline_finish(tl);
}

static void test_buckets(void)
{
	static const double pct[] = { 0, 5, 50, 5, 5, 5, 5, 20 };
	static const int events[] = { 0, 0, 0, 0, 1, 0, 0, 0 };
	struct timeline tl;
	double cells[16];
	unsigned char ev[16];
	int cur;

	make(&tl, pct, 8, events);
	cur = timeline_buckets(&tl, TL_ALL, 4, cells, ev, 2 * S);
	/* 0..7 s in 4 buckets of 2 s: [0,2) [2,4) [4,6) [6,7]; reading 2 covers (1, 2] */
	is_num(cells[0], 0.50, 1e-6, "4 buckets: the first takes the highest reading whose interval reaches into it (50%, not the mean)");
	is_num(cells[1], 0.50, 1e-6, "the second holds reading 2 (50%)");
	is_num(cells[2], 0.05, 1e-6, "the third: 5%");
	is_num(cells[3], 0.20, 1e-6, "the last holds the last reading (20%)");
	ok(!ev[0] && !ev[1] && ev[2] && !ev[3], "the event of reading 4 marks its bucket only");
	is_int(cur, 1, "the cursor: the bucket of the reading at 2 s");
	is_int(timeline_buckets(&tl, TL_ALL, 4, cells, ev, 7 * S), 3, "the last reading's cursor is the last bucket");

	cur = timeline_buckets(&tl, TL_ALL, 16, cells, ev, 0);
	is_int(cur, 0, "16 buckets over 8 readings: the first reading's cursor is bucket 0");
	ok(cells[1] >= 0 && cells[2] >= 0, "each reading's interval fills the buckets up to it: no blank between readings");
	is_num(cells[15], 0.20, 1e-6, "the last bucket is the last reading's");
	timeline_free(&tl);

	/* a gap: readings at 0, 1, then a new run (interval 0) at 10 and 11 */
	memset(&tl, 0, sizeof(tl));
	add(&tl, 0, 0, 0.3, 0);
	add(&tl, 1 * S, 1, 0.3, 0);
	add(&tl, 10 * S, 0, 0.6, 0);
	add(&tl, 11 * S, 1, 0.6, 0);
	timeline_finish(&tl);
	timeline_buckets(&tl, TL_ALL, 12, cells, ev, 0);
	ok(cells[0] >= 0 && cells[5] < 0 && cells[11] >= 0,
	   "a time the recorder did not run stays blank (-1) between two runs");
	timeline_free(&tl);

	/* a crafted file's interval: larger than the recording, or than a float holds */
	memset(&tl, 0, sizeof(tl));
	add(&tl, 5 * S, 0, 0.1, 0);
	add(&tl, 6 * S, 1e300, 0.4, 0);
	add(&tl, 7 * S, 3e9, 0.2, 0);
	timeline_finish(&tl);
	timeline_buckets(&tl, TL_ALL, 4, cells, ev, 0);
	ok(cells[0] > 0.39 && cells[1] > 0.39 && fabs(cells[3] - 0.2) < 1e-6,
	   "an interval longer than the recording (or than a float holds) fills it from the start, no further");
	timeline_free(&tl);

	memset(&tl, 0, sizeof(tl));
	is_int(timeline_buckets(&tl, TL_ALL, 10, cells, ev, 0), -1, "no reading: no cursor");
	ok(cells[0] < 0 && cells[9] < 0, "no reading: every bucket blank");
	add(&tl, 5 * S, 0, 0.2, 1);
	timeline_finish(&tl);
	is_int(timeline_buckets(&tl, TL_ALL, 10, cells, ev, 5 * S), 0, "one reading: its bucket is the first");
	is_num(cells[0], 0.2, 1e-6, "one reading: its pressure in the first bucket");
	timeline_free(&tl);
}

static void test_peaks(void)
{
	/* stretches at or above 10%: 2-4 (highest 40 at 3), 6 (15), 9-10 (30 twice: the first) */
	static const double pct[] = { 0, 5, 20, 40, 20, 9.9, 15, 5, 5, 30, 30, 10, 2 };
	struct timeline tl;
	size_t n = sizeof(pct) / sizeof(pct[0]);
	char got[64] = "";

	make(&tl, pct, n, NULL);
	for (size_t i = 0; i < n; i++)
		if (tl.p[i].peak)
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%zu ", i);
	is_str(got, "3 6 9 ", "peaks: the highest of each stretch at 10% or more (the first of equal ones); 9.9% parts them");
	is_int(timeline_count(&tl, TL_ALL, TL_PEAK), 3, "three peaks");
	is_int(timeline_step(&tl, TL_ALL, 0, 1, TL_PEAK), 3, "the next peak after 0 s: reading 3");
	is_int(timeline_step(&tl, TL_ALL, 3 * S, 1, TL_PEAK), 6, "after the peak at 3 s: 6");
	is_int(timeline_step(&tl, TL_ALL, 9 * S, 1, TL_PEAK), -1, "after the last peak: none");
	is_int(timeline_step(&tl, TL_ALL, 9 * S, -1, TL_PEAK), 6, "before 9 s: the peak at 6");
	is_int(timeline_step(&tl, TL_ALL, 3 * S, -1, TL_PEAK), -1, "before the first peak: none");
	is_int(timeline_step(&tl, TL_ALL, 4500000000ll, -1, TL_PEAK), 3, "before a time between readings: the peak at 3");
	is_int(timeline_step(&tl, TL_ALL, 0, 1, TL_EVENT), -1, "no events: none to step to");
	timeline_free(&tl);

	{
		static const double flat[] = { 0, 100, 100, 100 };

		make(&tl, flat, 4, NULL);
		is_int(timeline_count(&tl, TL_ALL, TL_PEAK), 1, "a stretch to the end at 100%: one peak, its first reading");
		ok(tl.p[1].peak, "the peak of a flat stretch is its first reading");
		timeline_free(&tl);
	}
	{
		static const double quiet[] = { 0, 1, 9.99, 2 };

		make(&tl, quiet, 4, NULL);
		is_int(timeline_count(&tl, TL_ALL, TL_PEAK), 0, "below 10% throughout: no peak");
		timeline_free(&tl);
	}
}

static void test_events(void)
{
	static const double pct[] = { 0, 1, 1, 1, 1, 1 };
	static const int events[] = { 0, 1, 0, 0, 1, 0 };
	struct timeline tl;

	make(&tl, pct, 6, events);
	is_int(timeline_count(&tl, TL_ALL, TL_EVENT), 2, "two readings with events");
	is_int(timeline_step(&tl, TL_ALL, 0, 1, TL_EVENT), 1, "the next event after 0 s: reading 1");
	is_int(timeline_step(&tl, TL_ALL, 1 * S, 1, TL_EVENT), 4, "the next after reading 1: reading 4 (not itself)");
	is_int(timeline_step(&tl, TL_ALL, 4 * S, -1, TL_EVENT), 1, "the one before reading 4: reading 1");
	is_int(timeline_step(&tl, TL_ALL, 1 * S, -1, TL_EVENT), -1, "before the first: none");
	is_int(timeline_step(&tl, TL_ALL, 5 * S, 1, TL_EVENT), -1, "after the last reading: none");
	timeline_free(&tl);
}

/* The timeline's cells as strip.h draws them: shares of 0..1 in eighths, a blank where nothing
 * was read. */
static void test_strip(void)
{
	static const double v[] = { -1, 0, 0.124, 0.125, 0.5, 0.99, 1, 7 };
	char utf8[64] = "", ascii[16] = "";

	is_str(strip_share_glyph(NAN, STRIP_UTF8), " ", "NaN: a blank");
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		strcat(utf8, strip_share_glyph(v[i], STRIP_UTF8));
		strcat(ascii, strip_share_glyph(v[i], STRIP_ASCII));
	}
	is_str(utf8, " \u2581\u2581\u2582\u2585\u2588\u2588\u2588", "UTF-8: a blank, then blocks by eighths");
	is_int(text_width(utf8), 8, "UTF-8: one column a cell");
	is_str(ascii, " __.=###", "ASCII: a blank, then _ . : - = + * # by eighths");
}

/* T: one resource's pressure, its buckets and its peaks, where a steady CPU pressure hides an I/O
 * stall under the highest of all. */
static void test_focus(void)
{
	struct psi_snapshot psi = { 0 };
	struct timeline tl;
	enum timeline_focus cpu = (enum timeline_focus)(TL_ALL + 1 + PSI_CPU);
	enum timeline_focus mem = (enum timeline_focus)(TL_ALL + 1 + PSI_MEMORY);
	enum timeline_focus io = (enum timeline_focus)(TL_ALL + 1 + PSI_IO);
	enum timeline_focus irq = (enum timeline_focus)(TL_ALL + 1 + PSI_IRQ);
	double cells[8];
	unsigned char ev[8];

	is_int(timeline_focus_resource(TL_ALL), -1, "TL_ALL shows no one resource");
	is_int(timeline_focus_resource(io), PSI_IO, "the I/O focus shows PSI_IO");
	psi.res[PSI_CPU] = (struct psi_resource){ .present = 1, .some = { .present = 1, .pct = 12.5 },
						  .full = { .present = 1, .pct = 90 } };
	psi.res[PSI_IO] = (struct psi_resource){ .present = 1, .some = { .present = 1, .pct = 30 },
						 .full = { .present = 1, .pct = 40 } };
	psi.res[PSI_MEMORY] = (struct psi_resource){ .present = 1, .some = { .present = 1, .pct = 5 } };
	psi.res[PSI_IRQ] = (struct psi_resource){ .present = 1, .some = { .present = 1, .pct = 70 } };
	is_num(timeline_pressure(&psi, cpu), 0.125, 1e-9, "focus CPU: CPU some alone (not its full, nor I/O)");
	is_num(timeline_pressure(&psi, io), 0.40, 1e-9, "focus I/O: the higher of I/O some and full");
	is_num(timeline_pressure(&psi, mem), 0.05, 1e-9, "focus memory: memory some");
	is_num(timeline_pressure(&psi, irq), 0, 1e-9, "focus IRQ: IRQ full only, absent here");

	/* CPU steady at 30% for 8 readings; I/O 0 but a 60% stall at reading 5 */
	memset(&tl, 0, sizeof(tl));
	for (int i = 0; i < 8; i++) {
		double p[TL_FOCUS_COUNT] = { 0 };

		p[cpu] = 0.30;
		p[io] = i == 5 ? 0.60 : 0;
		p[TL_ALL] = fmax(p[cpu], p[io]);
		timeline_add(&tl, (int64_t)i * S, i ? 1.0 : 0.0, p, 0);
	}
	timeline_finish(&tl);
	is_int(timeline_count(&tl, TL_ALL, TL_PEAK), 1, "all: one stretch above 10%, one peak");
	is_int(timeline_step(&tl, TL_ALL, 0, 1, TL_PEAK), 5, "all: its peak is the I/O stall's reading");
	is_int(timeline_count(&tl, cpu, TL_PEAK), 1, "CPU: one peak");
	is_int(timeline_step(&tl, cpu, -1, 1, TL_PEAK), 0, "CPU: its peak is the stretch's first reading (all equal)");
	is_int(timeline_count(&tl, io, TL_PEAK), 1, "I/O: one peak");
	is_int(timeline_step(&tl, io, -1, 1, TL_PEAK), 5, "I/O: at reading 5");
	is_int(timeline_step(&tl, io, 5 * S, 1, TL_PEAK), -1, "I/O: none after it");
	is_int(timeline_count(&tl, mem, TL_PEAK), 0, "memory: no peak");
	timeline_buckets(&tl, io, 8, cells, ev, 0);
	/* 8 buckets over 0..7 s: reading 5's interval (4, 5] reaches into buckets 4 and 5 */
	ok(cells[0] == 0 && cells[3] == 0 && fabs(cells[4] - 0.60) < 1e-6 && fabs(cells[5] - 0.60) < 1e-6 &&
		   cells[6] == 0,
	   "I/O buckets: 0 but 60%% where reading 5's interval falls (all's would be 30%% everywhere else)");
	timeline_buckets(&tl, TL_ALL, 8, cells, ev, 0);
	ok(fabs(cells[0] - 0.30) < 1e-6 && fabs(cells[5] - 0.60) < 1e-6, "all's buckets: 30%% and the stall's 60%%");
	timeline_free(&tl);
}

int main(void)
{
	test_pressure();
	test_buckets();
	test_focus();
	test_peaks();
	test_events();
	test_strip();
	return tap_done();
}
