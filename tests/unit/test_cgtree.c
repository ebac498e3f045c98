/* test_cgtree.c — the cgroup view's rows: each cgroup sums the delays of the tasks in it and
 * below (exited ones included, a first reading not), counts live tasks and their states, and
 * the tree has every cgroup of a task, even one the walk did not see. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "cgtree.h"
#include "rowfixture.h"
#include "tap.h"

static struct cgroup_facts fact(const char *path)
{
	struct cgroup_facts f;

	memset(&f, 0, sizeof(f));
	f.path = (char *)path;
	return f;
}

static long index_of(const struct cgtree *t, const char *path)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->rows[i].cgroup, path) == 0)
			return (long)i;
	return -1;
}

int main(void)
{
	struct cgroup_facts facts[4] = { fact("/"), fact("/a"), fact("/a/x"), fact("/b") };
	struct row rows[7];
	struct kind_totals acc[7];
	struct cgtree t = { 0 };
	long root, a, x, b, c;
	size_t n;

	for (int i = 0; i < 7; i++) {
		memset(&acc[i], 0, sizeof(acc[i]));
		acc[i].kinds = acc[i].kinds_count = 1u << DK_CPU;
		acc[i].total_ns[DK_CPU] = 1000000000ull * (unsigned)(i + 1);
	}
	rows[0] = make_row(10, 0, "spin", 50, 0); /* two spinners in /a/x */
	rows[1] = make_row(11, 0, "spin", 50, 0);
	rows[2] = make_row(20, 0, "writer", 1, 30); /* in /b, 4 threads */
	rows[3] = make_row(30, 0, "gone", 5, 0);     /* exited during the interval, in /a */
	rows[4] = make_row(40, 0, "old", NAN, NAN);  /* departed earlier, in /b */
	rows[5] = make_row(50, 0, "new", NAN, NAN);  /* a first reading, in /c (created after the walk) */
	rows[6] = make_row(60, 0, "deep", 2, 0);     /* in /c/d/e, also unseen */
	rows[0].cgroup = rows[1].cgroup = "/a/x";
	rows[2].cgroup = "/b";
	rows[3].cgroup = "/a";
	rows[4].cgroup = "/b";
	rows[5].cgroup = "/c";
	rows[6].cgroup = "/c/d/e";
	rows[3].exited = 1;
	rows[4].exited = rows[4].departed = 1;
	rows[5].fresh = 1;
	for (int i = 0; i < 7; i++) {
		rows[i].acc = &acc[i];
		rows[i].nthreads = 1;
		rows[i].have_states = 1;
		rows[i].states[CG_RUNNING] = 1;
		rows[i].r.kind[DK_CPU].per_s = 10;
	}
	rows[2].nthreads = 4;
	rows[2].states[CG_RUNNING] = 0;
	rows[2].states[CG_UNINTERRUPTIBLE] = 1;
	rows[2].states[CG_SLEEPING] = 3;

	n = cgtree_build(&t, facts, 4, rows, 7, 1);
	is_int(n, 7, "the 4 walked cgroups and the unseen /c, /c/d and /c/d/e");
	root = index_of(&t, "/");
	a = index_of(&t, "/a");
	x = index_of(&t, "/a/x");
	b = index_of(&t, "/b");
	c = index_of(&t, "/c/d/e");
	ok(root == 0 && t.rows[root].parent == -1 && t.rows[x].parent == a && t.rows[a].parent == root,
	   "parents: / holds /a, which holds /a/x");
	ok(c >= 0 && t.rows[c].depth == 3 && t.nodes[c].facts == NULL, "/c/d/e is three deep, without facts");
	is_num(t.rows[x].r.kind[DK_CPU].pct, 100.0, 1e-4, "/a/x: two spinners waiting half the time each: 100% CPU delay");
	is_num(t.rows[a].r.kind[DK_CPU].pct, 105.0, 1e-4, "/a: its child's 100% and the task that exited in it, 5%");
	is_num(t.rows[b].r.kind[DK_IO].pct, 30.0, 1e-4, "/b: the writer's I/O delay; the departed task has no rates");
	is_num(t.rows[root].r.kind[DK_CPU].pct, 108.0, 1e-4, "/: every task's (100 + 5 + 1 + 2; the first reading has none)");
	is_num(t.rows[x].r.kind[DK_CPU].avg_ms, 100.0 / 20 * 10, 1e-3, "an average from the summed share and rate");
	is_int(t.rows[b].nthreads, 4, "/b: 4 live threads; the departed task is not counted");
	is_int(t.rows[root].nthreads, 8, "/: 8 live threads (2 + 4 + 1 + 1)");
	is_int(t.nodes[root].procs, 5, "/: 5 live processes");
	ok(t.nodes[b].states[CG_SLEEPING] == 3 && t.nodes[b].states[CG_UNINTERRUPTIBLE] == 1 &&
		   t.nodes[root].states[CG_RUNNING] == 4,
	   "states sum the processes' threads, up the tree");
	ok(!(t.nodes[root].states_have & (1u << CG_IOWAIT)), "I/O wait is not known from task states");
	is_int(t.nodes[b].acc.total_ns[DK_CPU], 3000000000ull + 5000000000ull,
	       "/b's totals since the start include the departed task's");
	is_int(t.nodes[root].acc.total_ns[DK_CPU], 28000000000ull, "/: every task's totals, 1 + 2 + ... + 7 s");
	ok(strcmp(t.rows[x].comm, "x") == 0 && strcmp(t.rows[root].comm, "/") == 0, "names: the last part of the path");

	facts[0] = fact("/a");
	n = cgtree_build(&t, facts, 1, rows, 7, 1);
	ok(n == 2 && strcmp(t.rows[0].cgroup, "/a") == 0 && index_of(&t, "/a/x") == 1,
	   "a tree rooted at /a: only it and what is below (/a/x from its tasks)");
	is_num(t.rows[0].r.kind[DK_CPU].pct, 105.0, 1e-4, "and only the tasks below it");
	n = cgtree_build(&t, facts, 0, rows, 7, 1);
	is_int(n, 0, "no cgroups read (the root was removed): no rows");
	cgtree_free(&t);
	return tap_done();
}
