/* test_batch.c — the batch printers against golden output: one hand-built snapshot (a plain
 * row, a row with a carried wait, an exited row without rates, a partial row whose name holds a
 * comma, a quote, UTF-8, a C1 control and a byte that is not UTF-8; PSI present, partly present
 * and absent) printed as text, CSV and JSON, per interval and as totals since the start. The
 * expected output is in tests/unit/golden/; GOLDEN_WRITE=1 rewrites it (then read the diff). */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "batch.h"
#include "cgtree.h"
#include "golden.h"
#include "model.h"
#include "options.h"
#include "tap.h"

#define NROWS 3

static struct row rows[NROWS];
static struct kind_totals totals[NROWS];
static struct snapshot snap;

static void psi_line(struct psi_line *l, double pct, double a10, double a60, double a300)
{
	*l = (struct psi_line){ 1, a10, a60, a300, 0, pct };
}

static void build_snapshot(void)
{
	memset(&snap, 0, sizeof(snap));
	snap.wall.tv_sec = 1700000000;
	snap.wall.tv_nsec = 123000000;
	snap.interval_s = 1.0;
	snap.elapsed_s = 60.0;
	snap.nprocs = 3;
	snap.nthreads = 7;
	snap.delayacct = DELAYACCT_ON;
	snap.listening = 1;
	snap.tasks_from = TASKS_FOLLOWED;
	snap.task_walks = 3;
	snap.exits = 12;
	snap.exits_lost = 2;
	snap.psi.res[PSI_CPU].present = 1;
	psi_line(&snap.psi.res[PSI_CPU].some, 12.5, 1.25, 0.5, 0.0);
	snap.psi.res[PSI_MEMORY].present = 1;
	psi_line(&snap.psi.res[PSI_MEMORY].some, 0, 0, 0, 0);
	psi_line(&snap.psi.res[PSI_MEMORY].full, NAN, 0, 0, 0);
	snap.psi.res[PSI_IO].present = 1;
	psi_line(&snap.psi.res[PSI_IO].some, 35.4, 9.6, 2.1, 0.5);
	psi_line(&snap.psi.res[PSI_IO].full, 31.3, 8.4, 1.9, 0.4);

	for (int i = 0; i < NROWS; i++) {
		memset(&rows[i], 0, sizeof(rows[i]));
		rates_unavailable(&rows[i].r);
		rows[i].acc = &totals[i];
	}
	/* a writer: CPU and I/O delay, the I/O one carried over from an earlier interval */
	rows[0] = (struct row){ .pid = 2844, .uid = 0, .state = 'D', .user = "root", .comm = "writer",
				.cmdline = "/usr/bin/writer --direct", .r = rows[0].r, .acc = &totals[0] };
	for (int k = 0; k < DK_COUNT; k++)
		rows[0].r.kind[k] = (struct kind_rate){ 0, 0, 0, NAN };
	rows[0].r.kind[DK_CPU] = (struct kind_rate){ 4.7f, 0.25f, 18.8f, 3.5f };
	rows[0].r.kind[DK_IO] = (struct kind_rate){ 120.0f, 1200.0f, 1.0f, 1200.0f };
	rows[0].ppid = 1;
	rows[0].nice = -5;
	rows[0].r.carried = 1u << DK_IO;
	rows[0].r.run_pct = 23.0f;
	rows[0].r.total_pct = 124.7f;
	totals[0] = (struct kind_totals){ .kinds = (kind_mask)((1u << DK_COUNT) - 1), .kinds_count = (kind_mask)((1u << DK_COUNT) - 1), .run_ns = 9000000000ull };
	totals[0].total_ns[DK_CPU] = 2820000000ull;
	totals[0].count[DK_CPU] = 11280;
	totals[0].counted_ns[DK_CPU] = 2820000000ull;
	totals[0].total_ns[DK_IO] = 43320000000ull;
	totals[0].count[DK_IO] = 36;
	totals[0].counted_ns[DK_IO] = 43320000000ull;
	totals[0].max_ns[DK_IO] = 1200000000ull;
	totals[0].kinds_max = 1u << DK_IO;
	totals[0].max_at_ns[DK_IO] = 1699999990500000000ll; /* the longest I/O wait, 9.5 s before */
	/* its accounting: 4 MiB/s to disk, a byte rate with decimals, switches, CPU times, memory */
	rows[0].r.acct[AF_READ] = 0;
	rows[0].r.acct[AF_WRITE] = 4194304.0f;
	rows[0].r.acct[AF_WCHAR] = 4194304.5f;
	rows[0].r.acct[AF_SYSCW] = 64.0f;
	rows[0].r.acct[AF_VCSW] = 18.5f;
	rows[0].r.acct[AF_UTIME] = 3.0f;
	rows[0].r.acct[AF_STIME] = 20.0f;
	rows[0].r.acct[AF_MAXRSS] = 10485760.0f;
	totals[0].acct_have = 1u << AF_WRITE | 1u << AF_SYSCW | 1u << AF_STIME | 1u << AF_MAXRSS;
	totals[0].acct[AF_WRITE] = 251658240ull;
	totals[0].acct[AF_SYSCW] = 3840;
	totals[0].acct[AF_STIME] = 12000000ull;
	totals[0].acct[AF_MAXRSS] = 10240; /* KiB */

	/* an exited task seen once: no rates, totals of CPU delay only */
	rows[1] = (struct row){ .pid = 3001, .uid = 65534, .state = 'X', .exited = 1, .fresh = 1, .nice = ROW_NICE_NONE,
				.user = "nobody", .comm = "short", .cmdline = NULL, .r = rows[1].r, .acc = &totals[1] };
	totals[1] = (struct kind_totals){ .kinds = 1u << DK_CPU, .kinds_count = 0 };
	totals[1].total_ns[DK_CPU] = 1500000ull;

	/* a partial row with a hostile name; only CPU and I/O are available (limited mode) */
	rows[2] = (struct row){ .pid = 4100, .uid = 1000, .state = 'S', .partial = 1, .user = "ann",
				.comm = "a,b\"c \xc3\xa9t\xc3\xa9\xc2\x9b\xff", .cmdline = "sh -c 'x\x1b[2J'",
				.r = rows[2].r, .acc = &totals[2] };
	rows[2].ppid = 2844; /* the writer's child */
	rows[2].nice = 19;
	rows[2].r.kind[DK_CPU] = (struct kind_rate){ 0.5f, NAN, NAN, NAN };
	rows[2].r.kind[DK_IO] = (struct kind_rate){ 0, NAN, NAN, NAN };
	rows[2].r.run_pct = 1.0f;
	rows[2].r.total_pct = 0.5f;
	totals[2] = (struct kind_totals){ .kinds = 1u << DK_CPU | 1u << DK_IO, .kinds_count = 0 };
	totals[2].total_ns[DK_CPU] = 300000000ull;

	rows[0].cgroup = "/system.slice/writer.service";
	rows[2].cgroup = "/user.slice/user-1000.slice/session-3.scope/a b\x1b[2J";
	rows[2].identity_uid = 1000; /* a cgroup ann made, in a subtree delegated to her */
	for (int i = 0; i < NROWS; i++)
		rows[i].nthreads = 1;
	rows[0].have_states = 1;
	rows[0].states[CG_UNINTERRUPTIBLE] = 1;
	rows[2].have_states = 1;
	rows[2].states[CG_SLEEPING] = 1;
	snap.rows = rows;
	snap.nrows = NROWS;
}

/* The cgroup view of the snapshot: the tree from /, pressure for /system.slice. */
static struct cgroup_facts facts[3];
static struct cgtree tree;

static void build_cgroups(void)
{
	memset(facts, 0, sizeof(facts));
	facts[0].path = "/";
	facts[1].path = "/system.slice";
	facts[2].path = "/user.slice";
	for (int i = 0; i < 3; i++)
		for (int r = 0; r < PSI_COUNT; r++)
			facts[i].psi.res[r].some.pct = facts[i].psi.res[r].full.pct = NAN;
	facts[1].psi.res[PSI_IO].present = facts[1].psi.res[PSI_IO].some.present = facts[1].psi.res[PSI_IO].full.present = 1;
	facts[1].psi.res[PSI_IO].some.pct = 35.4;
	facts[1].psi.res[PSI_IO].full.pct = 31.3;
	snap.cgroups = 1;
	snap.cgroup_source = "tasks";
	snap.ncgroup_rows = cgtree_build(&tree, facts, 3, rows, NROWS, 1);
	snap.cgroup_rows = tree.rows;
}

/* The event of the options' first trigger firing, with the snapshot's rows as who stalled, and
 * ann's process (in her session's scope) blocked in D since before the reading. */
static char *event_with(int argc, char **argv)
{
	struct options o;
	struct batch_printer b;
	char err[256], *text;

	if (options_parse(argc, argv, &o, err, sizeof(err)) != OPTIONS_OK || !o.ntriggers) {
		printf("# options: %s\n", err);
		return strdup("");
	}
	batch_init(&b, &o);
	rows[2].state = 'D';
	batch_format_event(&b, &snap, &o.triggers[0]);
	rows[2].state = 'S';
	text = strndup(b.out.data ? b.out.data : "", b.out.len);
	batch_free(&b);
	options_free(&o);
	return text;
}

/* The report of the snapshot under these options, as delaytop would print it. */
static char *format_with(int argc, char **argv)
{
	struct options o;
	struct batch_printer b;
	char err[256], *text;

	if (options_parse(argc, argv, &o, err, sizeof(err)) != OPTIONS_OK) {
		printf("# options: %s\n", err);
		return strdup("");
	}
	batch_init(&b, &o);
	batch_format(&b, &snap);
	text = strndup(b.out.data ? b.out.data : "", b.out.len);
	batch_free(&b);
	options_free(&o);
	return text;
}

int main(void)
{
	char *text[] = { "delaytop", "-b", NULL };
	char *csv[] = { "delaytop", "--format=csv", NULL };
	char *json[] = { "delaytop", "--format=json", NULL };
	char *text_acc[] = { "delaytop", "-b", "--accumulate", NULL };
	char *csv_acc[] = { "delaytop", "--format=csv", "--accumulate", NULL };
	char *json_acc[] = { "delaytop", "--format=json", "--accumulate", NULL };

	setenv("TZ", "UTC", 1);
	tzset();
	setlocale(LC_ALL, "C.UTF-8");
	build_snapshot();
	golden("batch.txt", format_with(2, text));
	golden("batch.csv", format_with(2, csv));
	golden("batch.json", format_with(2, json));
	golden("batch-total.txt", format_with(3, text_acc));
	golden("batch-total.csv", format_with(3, csv_acc));
	golden("batch-total.json", format_with(3, json_acc));
	{
		/* a trigger on I/O fired: the writer stalled most, in its service's cgroup; ann's
		 * process waits, outside /system.slice */
		char *text_ev[] = { "delaytop", "-b", "--trigger=io some 500ms 2s", NULL };
		char *json_ev[] = { "delaytop", "--format=json", "--trigger=io some 500ms 2s /system.slice", NULL };

		golden("event.txt", event_with(3, text_ev));
		golden("event.json", event_with(3, json_ev));
	}
	{
		/* the tree: the child under the writer, and the writer summing it */
		char *text_tree[] = { "delaytop", "-b", "--tree", NULL };
		char *text_sums[] = { "delaytop", "-b", "--tree-sums", "--accumulate", NULL };

		golden("batch-tree.txt", format_with(3, text_tree));
		golden("batch-tree-sums.txt", format_with(4, text_sums));
	}
	{
		char *text_cg[] = { "delaytop", "-b", "--group=cgroup", NULL };
		char *csv_cg[] = { "delaytop", "--format=csv", "--group=cgroup", NULL };
		char *json_cg[] = { "delaytop", "--format=json", "--group=cgroup", NULL };

		build_cgroups();
		golden("cgroups.txt", format_with(3, text_cg));
		golden("cgroups.csv", format_with(3, csv_cg));
		golden("cgroups.json", format_with(3, json_cg));
		cgtree_free(&tree);
	}
	return tap_done();
}
