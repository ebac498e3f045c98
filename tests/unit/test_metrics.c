/* test_metrics.c — the Prometheus counters: what each task waited since the last snapshot is
 * added to its cgroup and every ancestor and to its command name (the first N names by name, the
 * rest as _other); a reused pid is a new task; a departed row adds nothing again; counters never
 * go down; kinds never available get no series; the exposition in both formats against golden
 * files, label values escaped. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "golden.h"
#include "metrics.h"
#include "tap.h"

static struct kind_totals acc[6];
static struct row rows[6];

static void task(int i, uint32_t pid, uint64_t start, const char *cgroup, const char *comm, double cpu_s, uint64_t waits)
{
	memset(&rows[i], 0, sizeof(rows[i]));
	memset(&acc[i], 0, sizeof(acc[i]));
	rows[i].pid = pid;
	rows[i].start_ns = start;
	rows[i].cgroup = cgroup;
	rows[i].comm = comm;
	rows[i].user = "root";
	rows[i].acc = &acc[i];
	acc[i].kinds = acc[i].kinds_count = 1u << DK_CPU;
	acc[i].total_ns[DK_CPU] = (uint64_t)(cpu_s * 1e9);
	acc[i].count[DK_CPU] = waits;
}

static struct metrics_group *find(struct metrics_groups *gs, const char *name)
{
	for (size_t i = 0; i < gs->n; i++)
		if (strcmp(gs->g[i].name, name) == 0)
			return &gs->g[i];
	return NULL;
}

static double cpu_s(struct metrics_groups *gs, const char *name)
{
	struct metrics_group *g = find(gs, name);

	return g ? g->d.ns[DK_CPU] / 1e9 : NAN;
}

static char *exposition(const struct metrics *m, int om)
{
	struct outbuf o = { 0 };
	char *text;

	metrics_format(m, &o, om);
	text = strndup(o.data ? o.data : "", o.len);
	out_free(&o);
	return text;
}

int main(void)
{
	struct metrics m;
	struct snapshot snap;
	double before;

	memset(&snap, 0, sizeof(snap));
	snap.rows = rows;
	snap.delayacct = 1;
	snap.listening = 1;
	snap.exits = 40;
	snap.exits_lost = 2;
	snap.nprocs = 3;
	snap.nthreads = 9;
	snap.psi.res[PSI_CPU].present = snap.psi.res[PSI_CPU].some.present = 1;
	snap.psi.res[PSI_CPU].some.total_us = 2500000;
	snap.psi.res[PSI_IO].present = snap.psi.res[PSI_IO].some.present = snap.psi.res[PSI_IO].full.present = 1;
	snap.psi.res[PSI_IO].some.total_us = 1000000;
	snap.psi.res[PSI_IO].full.total_us = 250000;

	metrics_init(&m, 2);
	task(0, 10, 1, "/a/x", "spin", 1.0, 100);
	task(1, 11, 2, "/a", "spin", 0.5, 50);
	task(2, 12, 3, NULL, "loner", 0.25, 5);
	snap.nrows = 3;
	metrics_update(&m, &snap, 0.004);
	is_num(cpu_s(&m.cgroups, "/a/x"), 1.0, 1e-9, "a task's delay counts in its cgroup");
	is_num(cpu_s(&m.cgroups, "/a"), 1.5, 1e-9, "and in every ancestor, with the parent's own task");
	is_num(cpu_s(&m.cgroups, "/"), 1.5, 1e-9, "up to the root; a task without a cgroup counts in none");
	is_num(cpu_s(&m.commands, "spin"), 1.5, 1e-9, "a command name sums its tasks");
	is_num(cpu_s(&m.commands, "loner"), 0.25, 1e-9, "the second name gets a series too (top 2)");

	before = cpu_s(&m.cgroups, "/a/x");
	task(0, 10, 1, "/a/x", "spin", 3.0, 300); /* exited in this interval: its final totals */
	rows[0].exited = 1;
	task(1, 11, 2, "/a", "spin", 0.5, 50);
	rows[1].departed = 1; /* already counted */
	task(2, 10, 7, "/b", "new", 0.25, 10); /* pid 10 again: a newer task */
	task(3, 13, 4, "/b", "third", 1.0, 1);
	snap.nrows = 4;
	metrics_update(&m, &snap, 0.005);
	is_num(cpu_s(&m.cgroups, "/a/x"), 3.0, 1e-9, "an exited task's last interval counts once: 1 s + 2 s");
	ok(cpu_s(&m.cgroups, "/a/x") >= before, "the counter only grew");
	is_num(cpu_s(&m.cgroups, "/a"), 3.5, 1e-9, "a departed row adds nothing again");
	is_num(cpu_s(&m.cgroups, "/b"), 1.25, 1e-9, "a reused pid is a new task: its whole total counts");
	ok(find(&m.commands, "new") == NULL && find(&m.commands, "third") == NULL &&
		   fabs(m.other.ns[DK_CPU] / 1e9 - 1.25) < 1e-9,
	   "beyond the first 2 names, the rest is summed as _other");
	snap.nrows = 0;
	metrics_update(&m, &snap, 0.001);
	is_num(cpu_s(&m.cgroups, "/a/x"), 3.0, 1e-9, "gone tasks leave their counts");
	ok(!(find(&m.cgroups, "/a")->d.kinds & (1u << DK_IO)), "a kind never available is not counted");

	task(0, 20, 9, "/odd \"q\" \\ b\nx\xff", "spin", 0.5, 1);
	snap.nrows = 1;
	metrics_update(&m, &snap, 0.002);
	golden("metrics.prom", exposition(&m, 0));
	golden("metrics.om", exposition(&m, 1));
	is_str(metrics_content_type(0), "text/plain; version=0.0.4; charset=utf-8", "the text format's type");
	metrics_free(&m);
	return tap_done();
}
