/* test_history.c — the screen's history store: pressure lines as a ring, oldest first and blank
 * before the first reading; a task's waits per kind over time (0 where it was read and idle,
 * blank where it was not), its trend of sort values (restarted when the sort changes), a reused
 * id starting a new task, a replay stepping back starting it all again, and tasks let go after
 * HISTORY_SECONDS; an idle task keeps no log. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "history.h"
#include "tap.h"

static struct row rows[3];
static struct snapshot snap;

static void reading(double when, size_t nrows)
{
	snap.wall.tv_sec = (time_t)when;
	snap.wall.tv_nsec = (long)((when - (double)(time_t)when) * 1e9);
	snap.rows = rows;
	snap.nrows = nrows;
}

static double sort_value(const struct row *r, const void *ctx)
{
	(void)ctx;
	return r->r.total_pct;
}

static void setup(void)
{
	memset(rows, 0, sizeof(rows));
	memset(&snap, 0, sizeof(snap));
	snap.threads = 1;
	for (int i = 0; i < 3; i++) {
		rows[i].pid = 100;
		rows[i].tid = (uint32_t)(100 + i);
		rows[i].start_ns = 1000 + (uint64_t)i;
	}
	snap.psi.res[PSI_IO].present = 1;
	snap.psi.res[PSI_IO].some.present = 1;
}

static void test_psi(struct history *h)
{
	double out[4];

	for (int i = 0; i < 3; i++) {
		snap.psi.res[PSI_IO].some.pct = 10.0 * (i + 1);
		reading(1000 + i, 0);
		history_add(h, &snap, NULL, NULL, 0);
	}
	history_psi(h, PSI_IO, 0, out, 4);
	ok(isnan(out[0]) && out[1] == 10 && out[2] == 20 && out[3] == 30,
	   "I/O some: blank before the first reading, then 10 20 30, oldest first");
	history_psi(h, PSI_IO, 1, out, 2);
	ok(isnan(out[0]) && isnan(out[1]), "I/O full, not given: blank");
	history_psi(h, PSI_CPU, 0, out, 1);
	ok(isnan(out[0]), "a resource not present: blank");
}

static void test_tasks(struct history *h)
{
	double out[10], trend[TREND_POINTS];
	const struct task_history *t;

	history_clear(h);
	for (int i = 0; i < 10; i++) {
		rows[0].r.kind[DK_IO].pct = i == 4 ? 50 : i == 5 ? 12.5f : 0;
		rows[0].r.total_pct = (float)i;
		reading(2000 + i, i < 5 ? 2 : 1); /* the second task ends after five readings */
		history_add(h, &snap, sort_value, NULL, 7);
	}
	t = history_task(h, 100, 1000);
	ok(t != NULL, "task 100 is kept");
	history_kind_series(h, t, NULL, DK_IO, out, 10);
	ok(out[0] == 0 && out[3] == 0 && out[4] == 50 && out[5] == 12.5 && out[9] == 0,
	   "I/O of task 100: 0, then 50 and 12.5 where it waited, then 0 (%g %g %g %g %g)", out[0], out[3], out[4],
	   out[5], out[9]);
	history_kind_series(h, t, NULL, DK_CPU, out, 10);
	ok(out[4] == 0, "a kind it never waited on: 0 where read");
	ok(t->nlog == 2, "only the two waits above zero are logged (%u)", t->nlog);
	history_kind_series(h, history_task(h, 101, 1001), NULL, DK_IO, out, 10);
	ok(out[4] == 0 && isnan(out[5]) && isnan(out[9]), "task 101: read until it ended, blank after");
	ok(history_task(h, 101, 1001)->nlog == 0 && history_task(h, 101, 1001)->cap == 0,
	   "an idle task keeps no log at all");
	history_kind_series(h, t, NULL, DK_IO, out, 5);
	ok(out[2] == 50, "five columns of two readings: a column's highest share (%g)", out[2]);
	ok(history_column(h, 2004, 10) == 4 && history_column(h, 2004, 5) == 2 && history_column(h, 1999, 10) == -1,
	   "the column of a reading's time: 4 of 10, 2 of 5; none for a time not kept");
	ok(history_trend(t, trend, TREND_POINTS) == TREND_POINTS && trend[0] == 2 && trend[7] == 9,
	   "the trend: the last 8 sort values, oldest first");
	ok(history_task(h, 100, 999) == NULL, "another start: not the same task");

	rows[0].start_ns = 5000; /* id 100 reused, first read without rates */
	rows[0].fresh = 1;
	reading(2010, 1);
	history_add(h, &snap, sort_value, NULL, 7);
	t = history_task(h, 100, 5000);
	ok(t && t->nlog == 0 && history_trend(t, trend, 2) == 1, "a reused id starts a new task");
	history_kind_series(h, t, NULL, DK_IO, out, 10);
	ok(isnan(out[9]), "its first reading, without rates, is blank in its charts, not 0");
	rows[0].fresh = 0;
	reading(2011, 1);
	history_add(h, &snap, sort_value, NULL, 8);
	ok(history_trend(t, trend, 2) == 1, "the trend starts again when the sort changes");

	reading(2011, 1); /* the same reading again */
	history_add(h, &snap, sort_value, NULL, 8);
	ok(h->readings == 12 && history_trend(t, trend, 2) == 1, "the same reading again is left out (%u)", h->readings);

	reading(2005, 1); /* a replay stepped back */
	history_add(h, &snap, sort_value, NULL, 8);
	ok(history_task(h, 101, 1001) == NULL && h->readings == 1, "a reading older than the last starts again");
}

static void test_expiry(struct history *h)
{
	history_clear(h);
	rows[0].start_ns = 1000;
	reading(3000, 2);
	history_add(h, &snap, NULL, NULL, 0);
	for (int i = 1; i <= 40; i++) {
		reading(3000 + i * 10, 1);
		rows[0].r.kind[DK_IO].pct = i == 40 ? 5 : 0;
		history_add(h, &snap, NULL, NULL, 0);
		if (i == 39)
			ok(history_task(h, 100, 1000) == NULL,
			   "without trends, a task idle since before the readings kept has no entry");
	}
	ok(history_task(h, 100, 1000) != NULL, "a task that waits in the newest reading is kept");
	rows[0].r.kind[DK_IO].pct = 0;
	ok(history_task(h, 101, 1001) == NULL, "a task last read 400 s ago is let go");
	ok(history_readings(h) == 31, "the readings of the last %d s are kept (%u)", HISTORY_SECONDS, history_readings(h));
	ok(history_since(h) >= 3400 - HISTORY_SECONDS, "the oldest reading kept is within %d s (%g)", HISTORY_SECONDS,
	   history_since(h));
	ok(history_bytes(h) > sizeof(*h), "the store counts its bytes");
}

/* Without trends (history_add's fn NULL) an idle task is looked up only at its first reading;
 * its charts still show it idle over every reading it was in. */
static void test_idle(struct history *h)
{
	double out[6];
	const struct task_history *t;

	history_clear(h);
	memset(rows, 0, sizeof(rows));
	rows[0].pid = rows[0].tid = 200;
	rows[0].start_ns = 7000;
	rows[0].fresh = 1; /* read first at the second reading */
	rows[1].pid = rows[1].tid = 201; /* there before the first reading kept, never new */
	rows[1].start_ns = 7001;
	reading(4000, 0);
	history_add(h, &snap, NULL, NULL, -1);
	for (int i = 1; i < 6; i++) {
		reading(4000 + i, 2);
		rows[1].r.kind[DK_CPU].pct = i == 4 ? 30 : 0;
		history_add(h, &snap, NULL, NULL, -1);
		rows[0].fresh = 0;
	}
	t = history_task(h, 200, 7000);
	ok(t != NULL && t->seen == 1, "a task's entry is made at its first reading and not fed while idle");
	history_kind_series(h, t, &rows[0], DK_IO, out, 6);
	ok(isnan(out[0]) && isnan(out[1]) && out[2] == 0 && out[5] == 0,
	   "still there: 0 in every reading since its first (blank before, and at its first, without rates)");
	history_kind_series(h, t, NULL, DK_IO, out, 6);
	ok(isnan(out[2]) && isnan(out[5]), "ended: blank after the last reading it was fed");
	t = history_task(h, 201, 7001);
	ok(t != NULL && t->first == 0, "a task first met waiting, not new: its readings begin with the oldest kept");
	history_kind_series(h, t, &rows[1], DK_CPU, out, 6);
	ok(out[0] == 0 && out[4] == 30 && out[5] == 0, "its wait where it waited, 0 around it (%g %g %g)", out[0],
	   out[4], out[5]);
	history_kind_series(h, NULL, &rows[1], DK_CPU, out, 6);
	ok(out[0] == 0 && out[5] == 0, "a task there without an entry: 0 over every reading kept");

	history_clear(h); /* a live run's first reading: every row new, none looked up */
	rows[1].r.kind[DK_CPU].pct = 0;
	rows[0].fresh = rows[1].fresh = 1;
	reading(5000, 2);
	history_add(h, &snap, NULL, NULL, -1);
	rows[0].fresh = rows[1].fresh = 0;
	reading(5001, 2);
	history_add(h, &snap, NULL, NULL, -1);
	ok(history_task(h, 200, 7000) == NULL && h->tasks.len == 0, "the first reading makes no entry for idle tasks");
	history_kind_series(h, NULL, &rows[0], DK_IO, out, 2);
	ok(isnan(out[0]) && out[1] == 0, "blank at the first reading (no rates), then 0");
	setup();
}

int main(void)
{
	struct history h;

	setup();
	history_init(&h);
	test_psi(&h);
	test_tasks(&h);
	test_idle(&h);
	test_expiry(&h);
	history_free(&h);
	return tap_done();
}
