/* test_order.c — sorting rows: unavailable last in both directions, ties by pid then tid; sort
 * keys by name. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "model.h"
#include "order.h"
#include "rowfixture.h"
#include "tap.h"

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
		ok(strstr(order_keys(), "total") && strstr(order_keys(), "thrashing"), "order_keys lists the keys");
	}
}

/* Many threads share few names, each in its own buffer: a name sorts by its text, not where
 * it lives; equal names keep pid and tid order, in both directions; an empty name sorts first. */
static void test_shared_names(void)
{
	static char bufs[300][8];
	static const char *const texts[] = { "worker", "bash", "", "zsh" };
	struct row rows[300];
	const struct row *p[300];
	struct display d = { 0 };
	int up = 1, down = 1;

	for (int i = 0; i < 300; i++) {
		strcpy(bufs[i], texts[(i * 7) % 4]);
		rows[i] = make_row((uint32_t)(1000 - i), (uint32_t)(i % 3), bufs[i], 0, 0);
	}
	for (int reverse = 0; reverse < 2; reverse++) {
		for (int i = 0; i < 300; i++)
			p[i] = &rows[i];
		order_sort(p, 300, COL_COMMAND, reverse, &d);
		for (int i = 1; i < 300; i++) {
			int c = strcmp(p[i - 1]->comm, p[i]->comm) * (reverse ? -1 : 1);
			int ids = p[i - 1]->pid < p[i]->pid || (p[i - 1]->pid == p[i]->pid && p[i - 1]->tid < p[i]->tid);

			if (c > 0 || (c == 0 && !ids))
				*(reverse ? &down : &up) = 0;
		}
	}
	ok(up, "300 rows of 4 names in their own buffers: by name, then by pid and tid");
	ok(down, "reversed: reverse by name, still by pid and tid among equal names");
}

int main(void)
{
	test_sort();
	test_shared_names();
	return tap_done();
}
