/* test_columns.c — the column table (keys, directions, the drop order on narrow screens, titles)
 * and the values of the cells: TOTAL under each metric, totals since the start; the list of sort
 * keys and the order a narrow screen hides the columns in, pinned as they were when both were
 * hand-numbered. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "listing.h"
#include "model.h"
#include "order.h"
#include "rowfixture.h"
#include "tap.h"

static void test_total(void)
{
	struct display d = { 0 };
	struct row r = make_row(1, 0, "x", 10, 30);
	struct row none = make_row(2, 0, "y", NAN, NAN);
	struct kind_totals acc;

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
	acc.counted_ns[DK_CPU] = 2000000000;
	acc.max_ns[DK_CPU] = 70000000;
	acc.total_ns[DK_IO] = 1000000000;
	acc.count[DK_IO] = 50;
	acc.counted_ns[DK_IO] = 1000000000;
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

/* Where column id is in the order a narrow screen hides columns in; COL_COUNT when never hidden. */
static int hide_place(int id)
{
	int ids[COL_COUNT], n = column_hide_order(ids);

	for (int i = 0; i < n; i++)
		if (ids[i] == id)
			return i;
	return COL_COUNT;
}

/* Each column is once in the list of sort keys, and once in the hide order unless it is the id or
 * the command (so a new column must be given its places). */
static void test_orders_complete(void)
{
	int ids[COL_COUNT], seen[COL_COUNT] = { 0 }, n = column_sort_order(ids), once = 1;

	for (int i = 0; i < n; i++)
		once &= ids[i] >= 0 && ids[i] < COL_COUNT && !seen[ids[i]]++;
	ok(n == COL_COUNT && once, "the list of sort keys has every column once (%d of %d)", n, COL_COUNT);
	memset(seen, 0, sizeof(seen));
	once = 1;
	n = column_hide_order(ids);
	for (int i = 0; i < n; i++)
		once &= ids[i] >= 0 && ids[i] < COL_COUNT && !seen[ids[i]]++;
	for (int c = 0; c < COL_COUNT; c++)
		once &= seen[c] == (c != COL_ID && c != COL_COMMAND);
	ok(n == COL_COUNT - 2 && once, "the hide order has every column once but the id and the command (%d)", n);
}

static void test_table(void)
{
	struct display d = { 0 };
	struct table t;
	int shown[COL_COUNT];

	ok(column_descending(COL_TOTAL) && column_descending(COL_KIND + DK_IO) && column_descending(COL_PCPU) &&
		   !column_descending(COL_ID) && !column_descending(COL_COMMAND) && !column_descending(COL_USER) &&
		   !column_descending(COL_STATE),
	   "numbers sort high to low by default, ids, states and names low to high");
	for (int k = 0; k < DK_COUNT; k++) {
		struct column_def def = column_def(COL_KIND + k);

		ok(strcmp(def.key, delay_kinds[k].key) == 0 && strcmp(def.title, delay_kinds[k].title) == 0,
		   "kind %s's column has the kind's key and title", delay_kinds[k].key);
	}
	d.threads = 1;
	is_str(column_get(COL_ID, &d).title, "TID", "the id column is TID in thread mode");
	d.threads = 0;
	is_str(column_get(COL_ID, &d).title, "PID", "and PID in process mode");
	d.accumulate = 1;
	is_str(column_get(COL_PCPU, &d).title, "CPU s", "CPU time is in seconds in totals since the start");

	table_init(&t, &d, 0, COL_TOTAL);
	{
		int in_view = 0;

		for (int c = 0; c < COL_COUNT; c++)
			in_view += column_in_view(c, &d) && !column_def(c).optional;
		ok(t.n == in_view && t.ids[t.n - 1] == COL_COMMAND && in_view < COL_COUNT,
		   "width 0: every column of the task view but the optional ones, COMMAND last, none of the "
		   "cgroup view's own");
		ok(column_in_view(COL_ACCT + AF_READ, &d) && column_def(COL_ACCT + AF_READ).optional,
		   "DISK RD is a column of the task view, shown only when chosen");
		d.cgroups = 1;
		table_init(&t, &d, 0, COL_TOTAL);
		ok(t.ids[t.n - 1] == COL_CGROUP && t.ids[0] == COL_TASKS, "the cgroup view: TASKS first, CGROUP last");
		d.cgroups = 0;
	}
	/* 80 columns: the minor kinds go, the last kind in the table first */
	table_init(&t, &d, 80, COL_TOTAL);
	memset(shown, 0, sizeof(shown));
	for (int i = 0; i < t.n; i++)
		shown[t.ids[i]] = 1;
	ok(shown[COL_ID] && shown[COL_COMMAND] && shown[COL_TOTAL] && shown[COL_KIND + DK_CPU] &&
		   shown[COL_KIND + DK_IO],
	   "80 columns keep the id, the command, TOTAL, CPU and IO");
	ok(!shown[COL_KIND + DK_IRQ], "80 columns hide IRQ, the last kind, first");
	{
		int later_first = 1;

		/* of two minor kinds (all but CPU and IO), the later one in the kind table is hidden first */
		for (int k = DK_SWAPIN; k + 1 < DK_COUNT; k++)
			if (!shown[COL_KIND + k] && shown[COL_KIND + k + 1])
				later_first = 0;
		ok(later_first, "80 columns: a minor kind is hidden only after every later one");
	}
	/* 30 columns: only what is never hidden, TOTAL when nothing else fits, and the sort column */
	table_init(&t, &d, 30, COL_KIND + DK_SWAPIN);
	memset(shown, 0, sizeof(shown));
	for (int i = 0; i < t.n; i++)
		shown[t.ids[i]] = 1;
	ok(shown[COL_ID] && shown[COL_COMMAND] && shown[COL_KIND + DK_SWAPIN] && !shown[COL_USER] &&
		   !shown[COL_KIND + DK_IRQ],
	   "a narrow screen keeps the sort column (swapin) and hides user and the other minor kinds");
	{
		int order_ok = 1;

		/* the major kinds stay longer than user, state and CPU%, which stay longer than the minor ones */
		for (int k = 0; k < DK_COUNT; k++) {
			int place = hide_place(COL_KIND + k), major = k == DK_CPU || k == DK_IO;

			if (major && !(place > hide_place(COL_PCPU) && place < hide_place(COL_TOTAL)))
				order_ok = 0;
			if (!major && !(place < hide_place(COL_USER)))
				order_ok = 0;
		}
		ok(order_ok, "drop order: minor kinds, then user/state/CPU%%, then major kinds, then TOTAL");
	}
}

/* --columns: the chosen columns in their order, the view's last column last; a narrow screen
 * hides among them; < and > step through them. */
static void test_chosen(void)
{
	static const int chosen[] = { COL_KIND + DK_IO, COL_COMMAND, COL_ID, COL_TASKS, COL_KIND + DK_CPU };
	struct display d = { 0 };
	struct table t;
	int ids[] = { COL_KIND + DK_IO, COL_ID, COL_KIND + DK_CPU, COL_COMMAND };

	d.chosen = chosen;
	d.nchosen = 5;
	table_init(&t, &d, 0, COL_TOTAL);
	ok(t.n == 4 && memcmp(t.ids, ids, sizeof(ids)) == 0,
	   "width 0: IO, PID, CPU in the order given, COMMAND last though listed second, TASKS (cgroup view) left out");
	table_init(&t, &d, 200, COL_TOTAL);
	ok(t.n == 4 && memcmp(t.ids, ids, sizeof(ids)) == 0,
	   "a wide screen shows the same, and not TOTAL though it is the sort column");
	/* room for PID, CPU and the command's least (8), each after a space: not for IO too */
	table_init(&t, &d, column_def(COL_ID).width + column_def(COL_KIND + DK_CPU).width + 8 + 2, COL_KIND + DK_CPU);
	ok(t.n == 3 && t.ids[0] == COL_ID && t.ids[1] == COL_KIND + DK_CPU && t.ids[2] == COL_COMMAND,
	   "a narrow screen hides IO, not the id, the sort column (CPU) or the command");
	is_int(column_step_shown(COL_KIND + DK_IO, 1, &d), COL_ID, "> from IO goes to PID, the next one shown");
	is_int(column_step_shown(COL_ID, -1, &d), COL_KIND + DK_IO, "< from PID goes back to IO");
	is_int(column_step_shown(COL_KIND + DK_IO, -1, &d), COL_KIND + DK_IO, "< from the first stays");
	is_int(column_step_shown(COL_TOTAL, 1, &d), COL_COMMAND,
	       "> from TOTAL, sorted by but not shown, goes to the next shown in the table's order");
	is_int(column_step(COL_KIND + DK_CPU, 1, &d), COL_KIND + DK_CPU + 1,
	       "the sort menu still steps through every column of the view");
	d.cgroups = 1;
	table_init(&t, &d, 0, COL_TOTAL);
	ok(t.n == 4 && t.ids[0] == COL_KIND + DK_IO && t.ids[1] == COL_TASKS && t.ids[2] == COL_KIND + DK_CPU &&
		   t.ids[3] == COL_CGROUP,
	   "the cgroup view: IO, TASKS, CPU; PID and COMMAND, which it lacks, left out; CGROUP last");
	d.nchosen = 0;
	d.cgroups = 0;
	table_init(&t, &d, 0, COL_TOTAL);
	ok(t.ids[0] == COL_ID && t.ids[t.n - 1] == COL_COMMAND && t.n > 10, "without --columns: every column again");
}

/* Which column a screen column x is in: a mouse press on a title. */
static void test_column_at(void)
{
	static const int chosen[] = { COL_ID, COL_KIND + DK_IO, COL_COMMAND };
	struct display d = { 0 };
	struct table t;
	int w0, w1;

	d.chosen = chosen;
	d.nchosen = 3;
	table_init(&t, &d, 0, COL_TOTAL);
	w0 = t.col[0].width;
	w1 = t.col[1].width;
	is_int(table_column_at(&t, 0), 0, "x 0 is in the first column (PID)");
	is_int(table_column_at(&t, w0 - 1), 0, "and so is its last character");
	is_int(table_column_at(&t, w0), -1, "the space after it is in none");
	is_int(table_column_at(&t, w0 + 1), 1, "then IO starts");
	is_int(table_column_at(&t, w0 + w1), 1, "and ends");
	is_int(table_column_at(&t, w0 + 1 + w1 + 1), 2, "COMMAND starts after the next space");
	is_int(table_column_at(&t, 500), 2, "and takes the rest of the line");
	is_int(table_column_at(&t, -1), -1, "nothing left of the first");
}

/* The columns of a view in the order a narrow screen hides them, comma-separated into buf: every
 * column of the view chosen, the width lowered one at a time, each column noted as it goes (one
 * more goes at each step, since each takes at least two screen columns). */
static const char *hide_order(int view, char *buf, size_t size)
{
	int chosen[COL_COUNT], n = 0, gone[COL_COUNT] = { 0 };
	struct display d = { 0 };
	struct table t;

	d.cgroups = view == 1;
	d.commands = view == 2;
	for (int c = 0; c < COL_COUNT; c++)
		if (column_in_view(c, &d))
			chosen[n++] = c;
	d.chosen = chosen;
	d.nchosen = n;
	buf[0] = '\0';
	for (int width = 1000; width > 0; width--) {
		int here[COL_COUNT] = { 0 };

		table_init(&t, &d, width, column_last(&d));
		for (int i = 0; i < t.n; i++)
			here[t.ids[i]] = 1;
		for (int i = 0; i < n; i++)
			if (!here[chosen[i]] && !gone[chosen[i]]) {
				gone[chosen[i]] = 1;
				snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", buf[0] ? "," : "",
					 column_def(chosen[i]).key);
			}
	}
	return buf;
}

/* Today's orders, as the hand-numbered keep and rank made them: a change of either is a change of
 * behaviour (--help's list of sort keys, what a narrow screen shows). */
static void test_pinned_orders(void)
{
	char buf[2048];

	is_str(order_keys(),
	       "total, cpu, io, swapin, reclaim, thrashing, compact, wpcopy, irq, pcpu, procs, tasks, running, sleeping, "
	       "uninterruptible, stopped, iowait, cpu_some, cpu_full, memory_some, memory_full, io_some, io_full, "
	       "irq_full, pid, user, state, cgroup, command, read, write, cancelled, rchar, wchar, syscr, syscw, "
	       "vcsw, ivcsw, utime, stime, maxrss, maxvm, max_at, trend, cpu_p50, cpu_p99, io_p50, io_p99, "
	       "blocked_p50, blocked_p99, unit, container",
	       "the list of sort keys: TOTAL, the kinds, CPU%, the cgroup view's, the names, the optional ones");
	is_str(hide_order(0, buf, sizeof(buf)),
	       "cgroup,irq,read,write,cancelled,rchar,wchar,syscr,syscw,vcsw,ivcsw,utime,stime,maxrss,maxvm,"
	       "max_at,trend,cpu_p50,cpu_p99,io_p50,io_p99,blocked_p50,blocked_p99,unit,container,wpcopy,compact,"
	       "thrashing,reclaim,swapin,user,state,pcpu,io,cpu,total",
	       "the task view hides the cgroup, the last kind, the optional columns, the other minor kinds, the "
	       "user, state, CPU%, the major kinds, TOTAL; never the id or the command");
	is_str(hide_order(1, buf, sizeof(buf)),
	       "irq,cpu_p50,cpu_p99,io_p50,io_p99,blocked_p50,blocked_p99,unit,container,wpcopy,compact,thrashing,"
	       "reclaim,swapin,sleeping,stopped,iowait,cpu_full,"
	       "irq_full,pcpu,"
	       "running,uninterruptible,tasks,io,cpu,io_full,memory_full,io_some,memory_some,cpu_some,total",
	       "the cgroup view hides the last kind, the unit and the container, the other minor kinds, the rarer states and pressures, CPU%, the commoner ones, "
	       "the major kinds, the other pressures, TOTAL; never the cgroup");
	is_str(hide_order(2, buf, sizeof(buf)),
	       "irq,read,write,cancelled,rchar,wchar,syscr,syscw,vcsw,ivcsw,utime,stime,maxrss,maxvm,max_at,"
	       "wpcopy,compact,thrashing,reclaim,swapin,user,pcpu,procs,io,cpu,total",
	       "the command view hides the last kind, the optional columns, the other minor kinds, the user, CPU%, "
	       "the count of processes, the major kinds, TOTAL; never the command");
}

#define HEX64 "4f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7"

/* UNIT and CONTAINER: made from the row's cgroup path, "-" where it names none; a sort by either
 * keeps each row's own text (the cells are made into a buffer, not kept by the row). */
static void test_ident_columns(void)
{
	struct display d = { 0 };
	struct row r[4] = { make_row(1, 0, "a", 1, 1), make_row(2, 0, "b", 1, 1), make_row(3, 0, "c", 1, 1),
			    make_row(4, 0, "d", 1, 1) };
	const struct row *rows[4] = { &r[0], &r[1], &r[2], &r[3] };
	char buf[32];

	r[0].cgroup = "/system.slice/nginx.service";
	r[1].cgroup = "/system.slice/docker-" HEX64 ".scope";
	r[2].cgroup = NULL;
	r[3].cgroup = "/user.slice/user-1000.slice/session-3.scope";
	is_str(column_text(&r[0], COL_UNIT, &d, buf), "nginx.service", "UNIT: the service");
	is_str(column_text(&r[0], COL_CONTAINER, &d, buf), "-", "CONTAINER: none for a service");
	is_str(column_text(&r[1], COL_UNIT, &d, buf), "docker-4f1c2a9e8b7d6c5f4e3d2c1b", "UNIT: cut to 31 bytes");
	is_str(column_text(&r[1], COL_CONTAINER, &d, buf), "docker:4f1c2a9e8b7d", "CONTAINER: runtime and short id");
	is_str(column_text(&r[2], COL_UNIT, &d, buf), "-", "UNIT: '-' without a cgroup");
	ok(column_def(COL_UNIT).optional && column_def(COL_CONTAINER).optional, "UNIT and CONTAINER are optional");
	is_int(order_find("unit"), COL_UNIT, "sort key unit");
	is_int(order_find("container"), COL_CONTAINER, "sort key container");
	order_sort(rows, 4, COL_UNIT, 0, &d);
	ok(rows[0] == &r[2] && rows[1] == &r[1] && rows[2] == &r[0] && rows[3] == &r[3],
	   "sorted by unit: -, docker-..., nginx.service, session-3.scope (pids %u %u %u %u)", rows[0]->pid,
	   rows[1]->pid, rows[2]->pid, rows[3]->pid);
	order_sort(rows, 4, COL_CONTAINER, 1, &d);
	ok(rows[0] == &r[1], "reversed by container: the docker row first (pid %u)", rows[0]->pid);

	/* a cgroup delegated to a user: the names are marked with the user, the mark kept whole */
	r[1].identity_uid = 65534;
	r[0].identity_uid = 1000;
	is_str(column_text(&r[0], COL_UNIT, &d, buf), "nginx.service~1000", "UNIT delegated: the user after the name");
	is_str(column_text(&r[1], COL_CONTAINER, &d, buf), "docker:4f1c2a9e8b~65534",
	       "CONTAINER delegated: the id cut so that the mark fits the column's 23");
	ok(strlen(buf) == (size_t)column_def(COL_CONTAINER).width, "exactly its width (%zu)", strlen(buf));
	is_str(column_text(&r[1], COL_UNIT, &d, buf), "docker-4f1c2a9~65534", "UNIT delegated: cut to 20 with the mark");
	is_str(column_text(&r[0], COL_CONTAINER, &d, buf), "-", "no container: '-', delegated or not");
	is_str(column_ident_marked("pod x, burstable", 0, 10, buf, sizeof(buf)), "pod x, burstable",
	       "not delegated: the name as it is");
	is_str(column_ident_marked("abcdef", 4294967294u, 8, buf, sizeof(buf)), "~4294967294",
	       "a mark wider than the column: the mark alone");
	is_str(column_ident_marked("abcdefghijklmnopqrstuvwxyz0123456789", 7, 100, buf, sizeof(buf)),
	       "abcdefghijklmnopqrstuvwxyz012~7", "cut to the buffer, the mark kept");
}

/* The CGROUP column of tasks all in the root (a hybrid host's v2 hierarchy) is left out by
 * default, kept where --columns (or the setup) asks for it, and never in the cgroup view. */
static void test_flat_cgroups(void)
{
	static const int chosen[] = { COL_ID, COL_CGROUP, COL_COMMAND };
	struct display d = { 0 };
	struct snapshot snap = { 0 };
	struct row rows[2] = { make_row(1, 0, "a", 1, 1), make_row(2, 0, "b", 1, 1) };

	ok(column_shown(&d, COL_CGROUP), "by default the task view shows CGROUP");
	d.flat_cgroups = 1;
	ok(!column_shown(&d, COL_CGROUP) && column_shown(&d, COL_COMMAND) && column_shown(&d, COL_TOTAL),
	   "flat_cgroups: CGROUP left out, the others kept");
	d.cgroups = 1;
	ok(column_shown(&d, COL_CGROUP), "flat_cgroups in the cgroup view: CGROUP, its last column, stays");
	d.cgroups = 0;
	d.flat_cgroups = 0;
	d.chosen = chosen;
	d.nchosen = 3;
	ok(column_shown(&d, COL_CGROUP), "--columns pid,cgroup,command shows it");

	snap.rows = rows;
	snap.nrows = 2;
	rows[0].cgroup = "/";
	rows[1].cgroup = NULL;
	ok(listing_cgroups_flat(&snap), "rows in / or with none known: flat");
	rows[1].cgroup = "/user.slice";
	ok(!listing_cgroups_flat(&snap), "a row in /user.slice: not flat");
	rows[1].cgroup = "//";
	ok(!listing_cgroups_flat(&snap), "a path that is not exactly /: not flat");
}

/* The percentile columns of --why: the row's percentile of the kind, "-" (never 0) where --why is
 * off, the kind is not measured or not the row's, or the row did not wait; they sort, the "-" last. */
static void test_lat_columns(void)
{
	struct display d = { .why_kinds = (lat_mask)(1u << DK_CPU | 1u << DK_IO | 1u << LAT_BLOCKED) };
	struct lat_hist h[2] = { { .count = 4, .total_ns = 40000000, .max_ns = 20000000 },
				 { .count = 1, .total_ns = 3000000, .max_ns = 3000000 } };
	struct lat_waits w = { .kinds = 1u << DK_CPU }, w2 = { .kinds = 1u << DK_CPU, .h = &h[1] };
	struct lat_waits gone = { .unavail = 1u << DK_CPU };
	struct row r[3] = { make_row(1, 0, "a", 1, 1), make_row(2, 0, "b", 1, 1), make_row(3, 0, "c", 1, 1) };
	const struct row *rows[3] = { &r[0], &r[1], &r[2] };
	char buf[32], want[32];
	int kind;
	double q;

	h[0].slot[lat_slot_of(2000000)] = 2; /* two waits of 2 ms, two of 20 */
	h[0].slot[lat_slot_of(20000000)] = 2;
	h[1].slot[lat_slot_of(3000000)] = 1;
	w.h = &h[0];
	r[0].lat = &w;
	r[1].lat = &w2;
	r[2].lat = &gone;
	column_lat(COL_LAT + 1, &kind, &q);
	ok(kind == DK_CPU && q == 0.99 && strcmp(column_def(COL_LAT + 1).key, "cpu_p99") == 0 &&
		   strcmp(column_def(COL_LAT + 1).title, "CPU p99") == 0 && column_def(COL_LAT + 1).optional,
	   "COL_LAT + 1 is CPU p99, cpu_p99, optional");
	is_int(order_find("blocked_p50"), COL_LAT + 4, "sort key blocked_p50");
	is_num(column_value(&r[0], COL_LAT + 1, &d), lat_percentile_ms(&h[0], 0.99), 1e-9, "CPU p99 is the row's p99");
	snprintf(want, sizeof(want), "%.2f", lat_percentile_ms(&h[0], 0.99));
	is_str(column_text(&r[0], COL_LAT + 1, &d, buf), want, "and its cell has two decimals");
	ok(column_value(&r[0], COL_LAT, &d) < column_value(&r[0], COL_LAT + 1, &d), "p50 below p99");
	is_str(column_text(&r[0], COL_LAT + 3, &d, buf), "-", "IO measured, but the row did not wait: '-'");
	is_str(column_text(&r[2], COL_LAT + 1, &d, buf), "-", "CPU not the row's (forked without): '-'");
	d.why_kinds = 0;
	is_str(column_text(&r[0], COL_LAT + 1, &d, buf), "-", "--why off: '-', not 0");
	d.why_kinds = 1u << DK_CPU;
	ok(column_def(COL_LAT).views == (VIEW_TASKS | VIEW_CGROUPS), "in the task and cgroup views");
	order_sort(rows, 3, COL_LAT + 1, 0, &d);
	ok(rows[0] == &r[0] && rows[1] == &r[1] && rows[2] == &r[2], "sorted by CPU p99: 20 ms, 3 ms, '-' (pids %u %u %u)",
	   rows[0]->pid, rows[1]->pid, rows[2]->pid);
	order_sort(rows, 3, COL_LAT + 1, 1, &d);
	ok(rows[0] == &r[1] && rows[2] == &r[2], "reversed: 3 ms first, '-' still last");
}

int main(void)
{
	test_lat_columns();
	test_flat_cgroups();
	test_ident_columns();
	test_pinned_orders();
	test_orders_complete();
	test_total();
	test_table();
	test_chosen();
	test_column_at();
	return tap_done();
}
