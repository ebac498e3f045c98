/* test_peaks.c — the longest waits and when they happened: a process's from its threads', the
 * rates and totals that carry the time, the MAX AT column, and what a listing asks the sampler to
 * read for them (the exit records that give them: test_exitqueue.c). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "listing.h"
#include "proctable.h"
#include "rates.h"
#include "tap.h"
#include "totals.h"

#define SEC 1000000000ll

static struct task_counters thread(uint64_t cpu_max_ns, int64_t at_s, int with_ts)
{
	struct task_counters c;

	memset(&c, 0, sizeof(c));
	c.kind_total = c.kind_count = c.kind_max = 1u << DK_CPU | 1u << DK_IO;
	c.delay[DK_CPU].max_ns = cpu_max_ns;
	c.delay[DK_IO].max_ns = 1000;
	if (with_ts) {
		c.kind_max_ts = c.kind_max;
		c.delay[DK_CPU].max_ts_sec = at_s;
		c.delay[DK_CPU].max_ts_nsec = 5;
	}
	return c;
}

static void test_process_peak(void)
{
	struct proc p;
	struct task_counters a = thread(7000000, 1700000000, 1), b = thread(90000000, 1700000100, 1);
	struct task_counters c = thread(3000000, 1700000200, 0), row;

	memset(&p, 0, sizeof(p));
	proc_peak_add(&p, &a);
	proc_peak_add(&p, &b);
	proc_peak_add(&p, &c);
	memset(&row, 0, sizeof(row));
	proc_peak_apply(&p, &row);
	ok(row.kind_max == (1u << DK_CPU | 1u << DK_IO), "the process has the kinds its threads have");
	is_int(row.delay[DK_CPU].max_ns, 90000000, "its CPU peak is its threads' longest, not the last one's");
	ok(row.delay[DK_CPU].max_ts_sec == 1700000100 && row.delay[DK_CPU].max_ts_nsec == 5 &&
		   (row.kind_max_ts & 1u << DK_CPU),
	   "with the time of that thread's wait");
	c = thread(200000000, 0, 0);
	proc_peak_add(&p, &c);
	proc_peak_apply(&p, &row);
	ok(row.delay[DK_CPU].max_ns == 200000000 && !(row.kind_max_ts & 1u << DK_CPU),
	   "a longer wait from a thread whose kernel gives no time: the time is unknown, not the old one");
	memset(&c, 0, sizeof(c));
	proc_peak_add(&p, &c);
	proc_peak_apply(&p, &row);
	is_int(row.delay[DK_CPU].max_ns, 200000000, "a thread without longest waits changes nothing");
}

static void test_rates_totals(void)
{
	struct task_counters c = thread(90000000, 1700000100, 1);
	struct sample prev, cur;
	struct peaks pk;
	struct task_rates r;
	struct kind_totals t, u;

	sample_from_counters(&prev, &c, 10 * SEC, 1);
	sample_from_counters(&cur, &c, 12 * SEC, 1);
	peaks_from_counters(&pk, &c);
	rates_compute(&prev, &cur, &pk, &r);
	is_num(r.kind[DK_CPU].max_ms, 90.0, 1e-3, "the longest wait, ms");
	ok(pk.max_at_ns[DK_CPU] == 1700000100 * SEC + 5 && (pk.kinds_ts & 1u << DK_CPU),
	   "and when it happened, ns since the epoch");
	memset(&t, 0, sizeof(t));
	totals_add_delta(&t, &prev, &cur, &pk, 0);
	ok(t.max_ns[DK_CPU] == 90000000 && t.max_at_ns[DK_CPU] == 1700000100 * SEC + 5,
	   "the totals since the start take the longest wait with its time");
	rates_compute(&prev, &cur, NULL, &r);
	ok(isnan(r.kind[DK_CPU].max_ms), "without the longest waits, none");
	c.kind_max_ts = 0;
	peaks_from_counters(&pk, &c);
	memset(&t, 0, sizeof(t));
	totals_add_delta(&t, &prev, &cur, &pk, 0);
	ok(t.max_ns[DK_CPU] == 90000000 && t.max_at_ns[DK_CPU] == 0, "a kernel before struct version 17 gives no time");

	c = thread(90000000, 1700000100, 1);
	totals_from_counters(&t, &c, 0xff);
	c = thread(5000000, 1700000300, 1);
	totals_from_counters(&u, &c, 0xff);
	totals_add(&u, &t);
	ok(u.max_ns[DK_CPU] == 90000000 && u.max_at_ns[DK_CPU] == 1700000100 * SEC + 5,
	   "a sum keeps the longest wait with its own time");
}

static void test_column(void)
{
	struct display d;
	struct row r;
	struct kind_totals acc;
	struct listing_spec spec;
	char buf[32];

	setenv("TZ", "UTC", 1);
	memset(&d, 0, sizeof(d));
	memset(&r, 0, sizeof(r));
	memset(&acc, 0, sizeof(acc));
	rates_unavailable(&r.r);
	r.comm = "x";
	r.acc = &acc;
	r.r.kind[DK_CPU].max_ms = 90.0f;
	r.r.kind[DK_IO].max_ms = 400.0f;
	acc.kinds_max = 1u << DK_CPU | 1u << DK_IO;
	acc.max_ns[DK_CPU] = 90000000;
	acc.max_ns[DK_IO] = 400000000;
	acc.max_at_ns[DK_CPU] = 1700000100 * SEC;
	acc.max_at_ns[DK_IO] = 1700000000 * SEC;
	is_num(column_value(&r, COL_MAX_AT, &d), 1700000000.0, 1e-3, "MAX AT is when the longest of the kinds' waits was");
	is_str(column_text(&r, COL_MAX_AT, &d, buf), "22:13:20", "shown as the time of day");
	r.r.kind[DK_IO].max_ms = NAN;
	is_num(column_value(&r, COL_MAX_AT, &d), 1700000100.0, 1e-3,
	       "a kind whose longest wait the interval's cells do not show is left out");
	r.r.kind[DK_IO].max_ms = 400.0f;
	acc.max_at_ns[DK_IO] = 0;
	is_str(column_text(&r, COL_MAX_AT, &d, buf), "-", "unknown for that wait: -, not another kind's time");
	ok(column_def(COL_MAX_AT).optional && !column_shown(&d, COL_MAX_AT), "MAX AT is shown only when chosen");

	memset(&spec, 0, sizeof(spec));
	spec.sort_col = COL_TOTAL;
	is_int(listing_wants(&spec), 0, "the default screen asks for nothing more");
	spec.display.metric = METRIC_MAX;
	is_int(listing_wants(&spec), WANT_PEAKS, "cells of longest waits ask for the threads' peaks");
	spec.display.metric = METRIC_PCT;
	spec.sort_col = COL_ACCT + AF_WRITE;
	is_int(listing_wants(&spec), WANT_ACCT, "sorting by DISK WR asks for the accounting fields");
}

int main(void)
{
	test_process_peak();
	test_rates_totals();
	test_column();
	return tap_done();
}
