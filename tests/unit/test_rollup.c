/* test_rollup.c — the roll-up by command (rollup.c, and the listing's command view): task rows
 * summed per command name, worked out by hand. Shares, waits per second and CPU add up (above
 * 100% for several at once), an average wait is the sum's share over its rate, the longest wait
 * is the longest; the processes are counted (distinct pids among threads), their threads summed;
 * the user is the one they share, else a mark; a fresh task is counted but has no rates, a name
 * whose tasks are all fresh has none; exited and departed hold for a name when they hold for all
 * its tasks; carried waits mark the sum; totals since the start add up; the sums do not depend on
 * the order the tasks come in. The listing filters the tasks before it sums them, by user, by an
 * exact name (a command opened) and by -a, and sorts the sums, ties in the names' order. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "listing.h"
#include "rollup.h"
#include "rowfixture.h"
#include "tap.h"

/* A process row of comm waiting cpu% of the interval in events_per_s waits of which the longest
 * took max_ms, and running run% of it. */
static struct row task(uint32_t pid, const char *comm, double cpu, double events_per_s, double max_ms, double run)
{
	struct row r = make_row(pid, 0, comm, cpu, 0);

	r.nthreads = 1;
	r.r.kind[DK_CPU].per_s = (float)events_per_s;
	r.r.kind[DK_CPU].avg_ms = events_per_s > 0 ? (float)(cpu * 10 / events_per_s) : 0;
	r.r.kind[DK_CPU].max_ms = (float)max_ms;
	r.r.kind[DK_IO].per_s = 0;
	r.r.kind[DK_IO].avg_ms = 0;
	r.r.run_pct = (float)run;
	return r;
}

/* The roll-up's row of a name, or NULL. */
static const struct row *named(const struct rollup *ru, const char *comm)
{
	for (size_t i = 0; i < ru->n; i++)
		if (strcmp(ru->rows[i].comm, comm) == 0)
			return &ru->rows[i];
	return NULL;
}

static void test_sums(void)
{
	struct row rows[7] = {
		task(10, "cc1", 30, 10, 8, 70), task(11, "cc1", 60, 20, 12, 70), task(12, "cc1", 0, 0, 0, 0),
		task(20, "sh", 1, 1, 1, 2),     task(21, "sh", 2, 4, 3, 2),       task(30, "make", 3, 2, 4, 5),
		task(40, "as", 5, 5, 2, 50),
	};
	struct kind_totals acc[7];
	const struct row *in[7];
	struct rollup ru = { 0 };
	const struct row *cc1, *sh, *mk, *as;
	size_t n;

	for (int i = 0; i < 7; i++) {
		memset(&acc[i], 0, sizeof(acc[i]));
		acc[i].kinds = 1u << DK_CPU;
		acc[i].total_ns[DK_CPU] = (uint64_t)(i + 1) * 1000000000ull;
		acc[i].max_ns[DK_CPU] = (uint64_t)(i + 1) * 1000000ull;
		rows[i].acc = &acc[i];
		in[i] = &rows[i];
	}
	rows[2].fresh = 1; /* cc1 12: new, no rates yet */
	rates_unavailable(&rows[2].r);
	rows[1].nthreads = 3;
	rows[1].exited = 1;
	rows[1].r.carried = 1u << DK_CPU;
	rows[4].uid = 0;
	rows[4].user = "root";
	rows[5].exited = 1;
	rows[6].fresh = 1;
	rates_unavailable(&rows[6].r);
	n = rollup_build(&ru, in, 7);
	is_int(n, 4, "four names: as, cc1, make, sh");
	ok(n == 4 && strcmp(ru.rows[0].comm, "as") == 0 && strcmp(ru.rows[1].comm, "cc1") == 0 &&
	   strcmp(ru.rows[3].comm, "sh") == 0, "in the names' order");
	cc1 = named(&ru, "cc1");
	sh = named(&ru, "sh");
	mk = named(&ru, "make");
	as = named(&ru, "as");
	if (!cc1 || !sh || !mk || !as) {
		ok(0, "every name has its row");
		rollup_free(&ru);
		return;
	}
	is_int(cc1->procs, 3, "cc1: three processes, the fresh one too");
	is_int(cc1->nthreads, 5, "cc1: their threads, 1 + 3 + 1");
	is_num(cc1->r.kind[DK_CPU].pct, 90.0, 1e-4, "cc1's CPU delay: 30% + 60% (the fresh one has none)");
	is_num(cc1->r.kind[DK_CPU].per_s, 30.0, 1e-4, "its waits per second: 10 + 20");
	is_num(cc1->r.kind[DK_CPU].avg_ms, 30.0, 1e-4, "its average wait: 90% of a second in 30 waits, 30 ms");
	is_num(cc1->r.kind[DK_CPU].max_ms, 12.0, 1e-4, "its longest wait: the longer of 8 and 12 ms");
	is_num(cc1->r.run_pct, 140.0, 1e-4, "its CPU: 70% + 70%, above 100% as several ran at once");
	is_num(cc1->r.total_pct, 90.0, 1e-4, "its TOTAL: the sum of the totals");
	ok(cc1->r.carried == (1u << DK_CPU), "a carried wait of one task marks the sum");
	ok(!cc1->exited && !cc1->fresh, "one exited and one fresh of three: the name is neither");
	ok(strcmp(cc1->user, "user") == 0 && cc1->uid == 1000, "one user: the name's user is theirs");
	ok(cc1->pid == 0 && cc1->tid == 0 && !cc1->cg && cc1->parent == -1, "no pid, no tid, no cgroup, no parent");
	ok(cc1->acc && cc1->acc->total_ns[DK_CPU] == (2 + 3 + 1) * 1000000000ull &&
	   cc1->acc->max_ns[DK_CPU] == 3000000ull, "totals since the start add up (1 + 2 + 3 s), the longest wait the longest");
	ok(strcmp(sh->user, ROLLUP_USERS) == 0 && sh->uid == ROLLUP_UID_SEVERAL && sh->procs == 2,
	   "sh of two users: the user is the mark '" ROLLUP_USERS "'");
	is_num(sh->r.kind[DK_CPU].avg_ms, (1.0 + 2.0) * 10 / 5, 1e-4, "sh's average wait: 3% of a second over 5 waits");
	ok(mk->exited && mk->procs == 1, "make's one process exited: so did the name");
	ok(mk->r.kind[DK_CPU].avg_ms == rows[5].r.kind[DK_CPU].avg_ms && mk->r.kind[DK_CPU].pct == 3.0f,
	   "a name of one process has its numbers, its average wait unchanged");
	ok(as->fresh && isnan(as->r.kind[DK_CPU].pct) && isnan(as->r.total_pct),
	   "as's only process is fresh: the name has no rates yet");

	/* the same tasks in another order: the same sums, to the last bit */
	{
		const struct row *rev[7];
		struct rollup again = { 0 };
		int same = 1;

		for (int i = 0; i < 7; i++)
			rev[i] = in[6 - i];
		rollup_build(&again, rev, 7);
		for (size_t i = 0; i < ru.n && i < again.n; i++)
			same &= memcmp(&ru.rows[i].r, &again.rows[i].r, sizeof(ru.rows[i].r)) == 0 &&
				ru.rows[i].procs == again.rows[i].procs;
		ok(same && again.n == ru.n, "the tasks in the reverse order: the same rows, bit for bit");
		rollup_free(&again);
	}
	rollup_free(&ru);
}

/* Thread rows (a recording made with -H): each summed by its own name; a process counts once. */
static void test_threads(void)
{
	struct row rows[4] = { make_row(50, 50, "java", 10, 0), make_row(50, 51, "java", 20, 0),
			       make_row(50, 52, "GC Thread#0", 5, 0), make_row(60, 60, "java", 1, 0) };
	const struct row *in[4] = { &rows[0], &rows[1], &rows[2], &rows[3] };
	struct rollup ru = { 0 };
	const struct row *java;

	for (int i = 0; i < 4; i++)
		rows[i].nthreads = 1;
	rollup_build(&ru, in, 4);
	java = named(&ru, "java");
	ok(ru.n == 2 && java && java->procs == 2 && java->nthreads == 3,
	   "java's three threads of two processes: 2 processes, 3 threads; GC Thread#0 a name of its own");
	ok(java && fabs(java->r.kind[DK_CPU].pct - 31.0) < 1e-4, "java's CPU delay: 10 + 20 + 1");
	rollup_build(&ru, in, 0);
	is_int(ru.n, 0, "no tasks, no rows");
	rollup_free(&ru);
}

/* The names of the listed rows, "cc1:3 sh:2", for comparisons. */
static const char *names_text(const struct listing *l)
{
	static char buf[256];
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < l->n && len < sizeof(buf) - 32; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, i ? " %s:%u" : "%s:%u", l->rows[i]->comm,
					l->rows[i]->procs);
	return buf;
}

static void test_listing(void)
{
	struct row rows[6] = { make_row(1, 0, "cc1", 10, 0),    make_row(2, 0, "cc1", 20, 0),
			       make_row(3, 0, "cc1plus", 25, 0), make_row(4, 0, "sh", 1, 0),
			       make_row(5, 0, "sh", 0, 0),       make_row(6, 0, "b", 1, 0) };
	struct snapshot snap;
	struct listing_spec spec;
	struct listing l = { 0 };

	rows[1].uid = 0;
	memset(&snap, 0, sizeof(snap));
	snap.rows = rows;
	snap.nrows = 6;
	memset(&spec, 0, sizeof(spec));
	spec.sort_col = COL_TOTAL;
	spec.display.commands = 1;
	listing_build(&l, &snap, &spec);
	is_str(names_text(&l), "cc1:2 cc1plus:1 b:1 sh:2",
	       "the command view: a row a name by TOTAL (cc1's 30 above cc1plus's 25), ties (b and sh: 1) by name");
	spec.filter.by_uid = 1;
	spec.filter.uid = 1000;
	listing_build(&l, &snap, &spec);
	is_str(names_text(&l), "cc1plus:1 cc1:1 b:1 sh:2", "-u: the user's tasks are summed, not the names with one of them");
	spec.filter.by_uid = 0;
	spec.filter.comm = "cc1";
	listing_build(&l, &snap, &spec);
	is_str(names_text(&l), "cc1:2", "a command opened: that name exactly, not cc1plus");
	spec.filter.comm = NULL;
	spec.filter.active = 1;
	listing_build(&l, &snap, &spec);
	is_str(names_text(&l), "cc1:2 cc1plus:1 b:1 sh:1", "-a: the tasks that waited are summed (one sh of two)");
	spec.filter.active = 0;
	spec.sort_col = COL_PROCS;
	listing_build(&l, &snap, &spec);
	is_str(names_text(&l), "cc1:2 sh:2 b:1 cc1plus:1", "sorted by PROCS, most first, ties by name");
	spec.display.tree = 1;
	spec.sort_col = COL_TOTAL;
	listing_build(&l, &snap, &spec);
	is_str(names_text(&l), "cc1:2 cc1plus:1 b:1 sh:2", "--tree has no say over the command view");
	listing_free(&l);
}

/* The command view's columns: the count first, the user, CPU, the kinds, TOTAL, the command. */
static void test_columns(void)
{
	struct display d = { 0 };
	int cols[COL_COUNT], n;
	char text[512] = "";

	d.commands = 1;
	n = column_order(&d, cols);
	for (int i = 0; i < n; i++) {
		strcat(text, column_get(cols[i], &d).title);
		strcat(text, i + 1 < n ? " " : "");
	}
	is_str(text, "PROCS USER CPU% CPU IO SWAP RECLAIM THRASH COMPACT WPCOPY IRQ TOTAL COMMAND",
	       "the command view's columns");
	ok(!column_in_view(COL_ID, &d) && !column_in_view(COL_CGROUP, &d) && column_in_view(COL_ACCT, &d) &&
	   column_in_view(COL_MAX_AT, &d), "no PID, no CGROUP; the accounting columns and MAX AT may be chosen");
	d.commands = 0;
	ok(!column_in_view(COL_PROCS, &d), "the task view has no PROCS");
	is_int(order_find("procs"), COL_PROCS, "the sort key procs");
}

int main(void)
{
	test_sums();
	test_threads();
	test_listing();
	test_columns();
	return tap_done();
}
