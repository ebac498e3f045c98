/* test_order.c — sorting rows (unavailable last in both directions, ties by pid then tid), the
 * TOTAL column under each metric, and the row filters. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "filter.h"
#include "model.h"
#include "order.h"
#include "tap.h"

static struct row make_row(uint32_t pid, uint32_t tid, const char *comm, double cpu, double io)
{
	struct row r;

	memset(&r, 0, sizeof(r));
	r.pid = pid;
	r.tid = tid;
	r.uid = 1000;
	r.state = 'S';
	r.user = "user";
	r.comm = comm;
	rates_unavailable(&r.r);
	r.r.kind[DK_CPU].pct = (float)cpu;
	r.r.kind[DK_IO].pct = (float)io;
	r.r.total_pct = isnan(cpu) && isnan(io) ? NAN : (float)((isnan(cpu) ? 0 : cpu) + (isnan(io) ? 0 : io));
	return r;
}

/* The rows' pids after sorting, as "5 3 10 ..." */
static const char *sorted(struct row *rows, size_t n, int col, int reverse, const struct display *d, int tids)
{
	static char out[256];
	const struct row *p[16];
	size_t len = 0;

	for (size_t i = 0; i < n; i++)
		p[i] = &rows[i];
	order_sort(p, n, col, reverse, d);
	out[0] = '\0';
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(out + len, sizeof(out) - len, tids ? "%s%u/%u" : "%s%u", i ? " " : "",
					p[i]->pid, p[i]->tid);
	return out;
}

static void test_sort(void)
{
	struct display d = { 0 };
	struct row rows[5];
	const size_t n = 5;

	rows[0] = make_row(10, 0, "nginx", 5, 20);    /* total 25 */
	rows[1] = make_row(5, 0, "bash", 30, 1);      /* total 31 */
	rows[2] = make_row(7, 0, "cron", NAN, NAN);   /* unavailable */
	rows[3] = make_row(3, 0, "bash", 25, 0);      /* total 25: ties with pid 10 */
	rows[4] = make_row(8, 0, "apache", NAN, NAN); /* unavailable */
	d.metric = METRIC_PCT;

	is_str(sorted(rows, n, COL_TOTAL, 0, &d, 0), "5 3 10 7 8",
	       "by total: descending, the tie at 25 by pid, unavailable last");
	is_str(sorted(rows, n, COL_TOTAL, 1, &d, 0), "3 10 5 7 8",
	       "by total, reversed: ascending, tie by pid, unavailable still last");
	is_str(sorted(rows, n, COL_KIND + DK_IO, 0, &d, 0), "10 5 3 7 8", "by io: descending, unavailable last");
	is_str(sorted(rows, n, COL_KIND + DK_IO, 1, &d, 0), "3 5 10 7 8",
	       "by io, reversed: 0 first, unavailable still last");
	is_str(sorted(rows, n, COL_ID, 0, &d, 0), "3 5 7 8 10", "by pid: ascending");
	is_str(sorted(rows, n, COL_ID, 1, &d, 0), "10 8 7 5 3", "by pid, reversed: descending");
	is_str(sorted(rows, n, COL_COMMAND, 0, &d, 0), "8 3 5 7 10",
	       "by command: alphabetical, the two bash by pid");
	is_str(sorted(rows, n, COL_COMMAND, 1, &d, 0), "10 7 3 5 8",
	       "by command, reversed: reverse alphabetical, the tie still by pid");
	is_str(sorted(rows, 0, COL_TOTAL, 0, &d, 0), "", "sorting no rows");

	/* all unavailable: by pid */
	rows[0] = make_row(9, 0, "a", NAN, NAN);
	rows[1] = make_row(2, 0, "b", NAN, NAN);
	rows[2] = make_row(4, 0, "c", NAN, NAN);
	is_str(sorted(rows, 3, COL_TOTAL, 0, &d, 0), "2 4 9", "all unavailable: by pid");
	is_str(sorted(rows, 3, COL_TOTAL, 1, &d, 0), "2 4 9", "all unavailable, reversed: still by pid");

	/* threads of one process: ties by tid */
	rows[0] = make_row(4, 9, "t", 1, 1);
	rows[1] = make_row(4, 6, "t", 1, 1);
	rows[2] = make_row(2, 8, "t", 1, 1);
	rows[3] = make_row(4, 7, "t", 3, 0);
	d.threads = 1;
	is_str(sorted(rows, 4, COL_TOTAL, 0, &d, 1), "4/7 2/8 4/6 4/9", "threads: equal totals by pid, then tid");
	is_str(sorted(rows, 4, COL_ID, 0, &d, 1), "4/6 4/7 2/8 4/9", "threads: the id column sorts by tid");
	d.threads = 0;

	/* every kind is a sort key, and the keys name their columns */
	{
		int bad = 0;

		for (int k = 0; k < DK_COUNT; k++)
			if (order_find(delay_kinds[k].key) != COL_KIND + k)
				bad++;
		ok(bad == 0 && order_find("total") == COL_TOTAL && order_find("pid") == COL_ID &&
			   order_find("command") == COL_COMMAND && order_find("pcpu") == COL_PCPU &&
			   order_find("user") == COL_USER && order_find("state") == COL_STATE,
		   "order_find maps every key to its column");
		ok(order_find("nosuch") == -1 && order_find("") == -1, "order_find of an unknown key is -1");
		ok(order_descending(COL_TOTAL) && order_descending(COL_KIND + DK_IO) && !order_descending(COL_ID) &&
			   !order_descending(COL_COMMAND),
		   "numbers sort high to low by default, ids and names low to high");
		ok(strstr(order_keys(), "total") && strstr(order_keys(), "thrashing"), "order_keys lists the keys");
	}
}

static void test_total(void)
{
	struct display d = { 0 };
	struct row r = make_row(1, 0, "x", 10, 30);
	struct row none = make_row(2, 0, "y", NAN, NAN);
	struct task_totals acc;

	/* cpu: 10% of the time in 50 waits/s (2 ms each); io: 30% in 10 waits/s (30 ms each) */
	r.r.kind[DK_CPU].per_s = 50;
	r.r.kind[DK_CPU].avg_ms = 2;
	r.r.kind[DK_CPU].max_ms = 12;
	r.r.kind[DK_IO].per_s = 10;
	r.r.kind[DK_IO].avg_ms = 30;
	r.r.kind[DK_IO].max_ms = 40;
	/* swapin has a lifetime max but no interval rates */
	r.r.kind[DK_SWAPIN].max_ms = 25;

	d.metric = METRIC_PCT;
	is_num(column_value(&r, COL_TOTAL, &d), 40.0, 1e-4, "TOTAL under pct is the sum of the kinds (10 + 30)");
	is_num(column_value(&r, COL_KIND + DK_IO, &d), 30.0, 1e-4, "a kind column under pct is its pct");
	d.metric = METRIC_RATE;
	is_num(column_value(&r, COL_TOTAL, &d), 60.0, 1e-4, "TOTAL under rate is the sum of the rates (50 + 10)");
	d.metric = METRIC_AVG;
	is_num(column_value(&r, COL_TOTAL, &d), 400.0 / 60.0, 1e-3,
	       "TOTAL under avg is waited time over events: 0.4 s / 60 waits = 6.67 ms (not the mean 16)");
	d.metric = METRIC_MAX;
	is_num(column_value(&r, COL_TOTAL, &d), 40.0, 1e-4, "TOTAL under max is the max of the maxes");
	r.r.kind[DK_SWAPIN].max_ms = 55;
	is_num(column_value(&r, COL_TOTAL, &d), 55.0, 1e-4, "TOTAL under max includes kinds with only a max");

	for (int m = 0; m < METRIC_COUNT; m++) {
		d.metric = (enum metric)m;
		ok(isnan(column_value(&none, COL_TOTAL, &d)), "TOTAL of a row with nothing available is NAN (metric %s)",
		   metric_key((enum metric)m));
	}
	d.metric = METRIC_AVG;
	r.r.kind[DK_CPU].per_s = 0;
	r.r.kind[DK_CPU].avg_ms = 0;
	r.r.kind[DK_CPU].pct = 0;
	r.r.kind[DK_IO].per_s = 0;
	r.r.kind[DK_IO].avg_ms = 0;
	r.r.kind[DK_IO].pct = 0;
	is_num(column_value(&r, COL_TOTAL, &d), 0.0, 0, "TOTAL under avg with no events is 0, not NAN or a division by 0");

	/* accumulated since the start: 10 s */
	memset(&acc, 0, sizeof(acc));
	acc.kinds = (1 << DK_CPU) | (1 << DK_IO);
	acc.kinds_count = acc.kinds;
	acc.total_ns[DK_CPU] = 2000000000;
	acc.count[DK_CPU] = 100;
	acc.max_ns[DK_CPU] = 70000000;
	acc.total_ns[DK_IO] = 1000000000;
	acc.count[DK_IO] = 50;
	acc.max_ns[DK_IO] = 90000000;
	acc.total_ns[DK_SWAPIN] = 999999999; /* not in kinds: ignored */
	acc.run_ns = 5000000000;
	r.acc = &acc;
	d.accumulate = 1;
	d.elapsed_s = 10;
	d.metric = METRIC_PCT;
	is_num(column_value(&r, COL_TOTAL, &d), 3.0, 1e-6, "accumulated TOTAL: 3 s waited in all");
	is_num(column_value(&r, COL_PCPU, &d), 5.0, 1e-6, "accumulated CPU s: 5 s of CPU time");
	d.metric = METRIC_AVG;
	is_num(column_value(&r, COL_TOTAL, &d), 20.0, 1e-6, "accumulated TOTAL avg: 3 s over 150 waits = 20 ms");
	d.metric = METRIC_RATE;
	is_num(column_value(&r, COL_TOTAL, &d), 150.0, 1e-6, "accumulated TOTAL waits: 150 waits in all");
	d.metric = METRIC_MAX;
	is_num(column_value(&r, COL_TOTAL, &d), 90.0, 1e-6, "accumulated TOTAL max: the longest of the kinds, 90 ms");
	ok(isnan(column_value(&r, COL_KIND + DK_SWAPIN, &d)), "accumulated: a kind never available is NAN");

	/* limited mode: I/O delay has a total but no count */
	acc.kinds_count = 1 << DK_CPU;
	d.metric = METRIC_PCT;
	is_num(column_value(&r, COL_KIND + DK_IO, &d), 1.0, 1e-6, "accumulated, I/O without a count: its 1 s still counts");
	d.metric = METRIC_RATE;
	ok(isnan(column_value(&r, COL_KIND + DK_IO, &d)), "accumulated, I/O without a count: its number of waits is NAN, not 0");
	is_num(column_value(&r, COL_TOTAL, &d), 100.0, 1e-6, "accumulated TOTAL waits: only the kinds with a count (100)");
	d.metric = METRIC_AVG;
	ok(isnan(column_value(&r, COL_KIND + DK_IO, &d)), "accumulated, I/O without a count: its average is NAN, not 0");
	is_num(column_value(&r, COL_TOTAL, &d), 20.0, 1e-6, "accumulated TOTAL avg: only the kinds with a count (2 s / 100)");
	r.acc = NULL;
	ok(isnan(column_value(&r, COL_TOTAL, &d)), "accumulated without totals: NAN");
}

static void test_filter(void)
{
	struct display d = { 0 };
	struct row r = make_row(100, 0, "nginx", 0.5, NAN);
	struct row idle = make_row(200, 0, "sleeper", 0, 0);
	struct row unknown = make_row(300, 0, "mystery", NAN, NAN);
	struct filter f;
	static const uint32_t pids[] = { 5, 100, 7 };

	r.cmdline = "/usr/sbin/nginx: worker process";
	memset(&f, 0, sizeof(f));
	ok(filter_match(&f, &r, &d) && filter_match(&f, &unknown, &d), "an empty filter matches every row");

	f.by_uid = 1;
	f.uid = 1000;
	ok(filter_match(&f, &r, &d), "uid 1000 matches a row of uid 1000");
	f.uid = 0;
	ok(!filter_match(&f, &r, &d), "uid 0 does not match a row of uid 1000");
	r.uid = 0;
	ok(filter_match(&f, &r, &d), "uid 0 matches a root row (0 is a real uid, not 'unset')");
	r.uid = 1000;
	f.by_uid = 0;

	f.command = "NGI";
	ok(filter_match(&f, &r, &d), "command 'NGI' matches comm 'nginx' (ignoring case)");
	f.command = "WORKER";
	ok(filter_match(&f, &r, &d), "command 'WORKER' matches the command line");
	f.command = "sleeper";
	ok(!filter_match(&f, &r, &d), "command 'sleeper' does not match nginx");
	ok(filter_match(&f, &idle, &d), "a row without a command line is matched by its comm");
	f.command = "process";
	ok(!filter_match(&f, &idle, &d), "and a row without a command line does not match on it");
	f.command = "";
	ok(filter_match(&f, &r, &d), "an empty command substring matches");
	f.command = NULL;

	f.pids = pids;
	f.npids = 3;
	ok(filter_match(&f, &r, &d), "pid 100 is in the list 5,100,7");
	ok(!filter_match(&f, &idle, &d), "pid 200 is not in the list");
	f.npids = 0;

	f.active = 1;
	ok(filter_match(&f, &r, &d), "active: total_pct 0.5 > 0 waited");
	ok(!filter_match(&f, &idle, &d), "active: total_pct 0 did not wait");
	ok(!filter_match(&f, &unknown, &d), "active: NAN (unavailable) is not active");

	f.by_uid = 1;
	f.uid = 1000;
	f.command = "nginx";
	f.pids = pids;
	f.npids = 3;
	ok(filter_match(&f, &r, &d), "all filters together: a row that passes each");
	f.uid = 33;
	ok(!filter_match(&f, &r, &d), "all filters together: one failing filter rejects the row");
}

int main(void)
{
	test_sort();
	test_total();
	test_filter();
	return tap_done();
}
