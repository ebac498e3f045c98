/* test_snapcopy.c — a copied snapshot owns everything it points to: the source can change or go
 * away, and the copy still shows what the source showed; of the off-CPU stacks only the chosen
 * task's are copied (every row's when all_stacks). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "rowfixture.h"
#include "snapcopy.h"
#include "tap.h"

/* Whether p points into the block [base, base + size). */
static int inside(const void *p, const void *base, size_t size)
{
	return (const char *)p >= (const char *)base && (const char *)p < (const char *)base + size;
}

struct source {
	char user[16], comm[3][16], cmdline[64], cgroup[64], name[16];
	char *big;
	struct kind_totals acc[3];
	struct row rows[3];
	struct cgroup_facts facts[2];
	struct cgroup_node nodes[2];
	struct row cgrows[2];
	struct snapshot snap;
};

/* Two threads of one process (sharing user, command line and cgroup), a process whose command
 * line is longer than a chunk of strings, and a cgroup tree of two. */
static void make_source(struct source *s)
{
	memset(s, 0, sizeof(*s));
	strcpy(s->user, "alice");
	strcpy(s->comm[0], "worker-0");
	strcpy(s->comm[1], "worker-1");
	strcpy(s->comm[2], "big");
	strcpy(s->cmdline, "/usr/bin/server --port 80");
	strcpy(s->cgroup, "/system.slice/server.service");
	strcpy(s->name, "server.service");
	s->big = malloc(200000);
	memset(s->big, 'x', 199999);
	s->big[199999] = '\0';
	for (int i = 0; i < 3; i++) {
		s->rows[i] = make_row(100, 101 + (uint32_t)i, s->comm[i], 10.0 * i, 1.0);
		s->rows[i].user = s->user;
		s->rows[i].cmdline = i < 2 ? s->cmdline : s->big;
		s->rows[i].cgroup = s->cgroup;
		s->acc[i].total_ns[DK_CPU] = 1000u * (uint64_t)(i + 1);
		s->acc[i].kinds = 1u << DK_CPU;
		s->rows[i].acc = &s->acc[i];
	}
	s->rows[2].acc = NULL;
	for (int i = 0; i < 2; i++) {
		s->facts[i].path = i ? s->cgroup : (char *)"/";
		s->facts[i].psi.res[0].some.pct = 12.5f * (float)(i + 1);
		s->nodes[i].facts = &s->facts[i];
		s->nodes[i].path = s->facts[i].path;
		s->nodes[i].name = i ? s->name : "/";
		s->nodes[i].depth = i;
		s->nodes[i].parent = i - 1;
		s->nodes[i].tasks = 3;
		s->nodes[i].acc.total_ns[DK_IO] = 7;
		s->cgrows[i] = make_row(0, 0, NULL, 5.0, 6.0);
		s->cgrows[i].user = NULL;
		s->cgrows[i].cgroup = s->nodes[i].path;
		s->cgrows[i].cg = &s->nodes[i];
		s->cgrows[i].acc = &s->nodes[i].acc;
		s->cgrows[i].parent = i - 1;
	}
	s->nodes[1].facts = NULL; /* a cgroup only its tasks named */
	s->snap.nprocs = 1;
	s->snap.nthreads = 3;
	s->snap.rows = s->rows;
	s->snap.nrows = 3;
	s->snap.cgroups = 1;
	s->snap.cgroup_rows = s->cgrows;
	s->snap.ncgroup_rows = 2;
}

/* Wipes everything the source's pointers lead to, as the sampler's next tick would. */
static void wreck_source(struct source *s)
{
	memset(s->big, 'y', 199999);
	free(s->big);
	memset(s->user, 'z', sizeof(s->user) - 1);
	memset(s->comm, 'z', sizeof(s->comm));
	memset(s->cmdline, 'z', sizeof(s->cmdline) - 1);
	memset(s->cgroup, 'z', sizeof(s->cgroup) - 1);
	memset(s->name, 'z', sizeof(s->name) - 1);
	memset(s->acc, 0xff, sizeof(s->acc));
	memset(s->rows, 0, sizeof(s->rows));
	memset(s->facts, 0, sizeof(s->facts));
	memset(s->nodes, 0, sizeof(s->nodes));
	memset(s->cgrows, 0, sizeof(s->cgrows));
}

static void check_copy(const struct snapcopy *c, const char *when)
{
	const struct snapshot *sn = &c->snap;
	char name[128];

	snprintf(name, sizeof(name), "%s: 3 task rows and 2 cgroup rows", when);
	ok(sn->nrows == 3 && sn->ncgroup_rows == 2 && sn->nthreads == 3, "%s", name);
	snprintf(name, sizeof(name), "%s: the rows are the copy's own", when);
	ok(sn->rows == c->rows && sn->cgroup_rows == c->cgroup_rows, "%s", name);
	is_str(sn->rows[0].comm, "worker-0", "first thread's name");
	is_str(sn->rows[1].comm, "worker-1", "second thread's name");
	is_str(sn->rows[1].user, "alice", "user");
	is_str(sn->rows[0].cmdline, "/usr/bin/server --port 80", "command line");
	ok(sn->rows[0].user == sn->rows[1].user && sn->rows[0].cmdline == sn->rows[1].cmdline &&
		   sn->rows[0].cgroup == sn->rows[1].cgroup,
	   "%s: adjacent rows of one process share one copy of each string", when);
	ok(sn->rows[2].cmdline && strlen(sn->rows[2].cmdline) == 199999 && sn->rows[2].cmdline[0] == 'x' &&
		   sn->rows[2].cmdline[199998] == 'x',
	   "%s: a command line longer than a chunk is copied whole", when);
	is_num(sn->rows[2].r.kind[DK_CPU].pct, 20.0, 1e-6, "rates are copied");
	ok(sn->rows[0].acc && inside(sn->rows[0].acc, c->acc, 3 * sizeof(*c->acc)) &&
		   sn->rows[1].acc->total_ns[DK_CPU] == 2000,
	   "%s: totals since the start are the copy's own", when);
	ok(sn->rows[2].acc == NULL, "%s: a row without totals has none", when);
	ok(sn->cgroup_rows[1].cg && inside(sn->cgroup_rows[1].cg, c->nodes, 2 * sizeof(*c->nodes)),
	   "%s: a cgroup row's node is the copy's own", when);
	is_str(sn->cgroup_rows[1].cg->name, "server.service", "the node's name");
	is_str(sn->cgroup_rows[1].cg->path, "/system.slice/server.service", "the node's path");
	ok(sn->cgroup_rows[1].acc == &sn->cgroup_rows[1].cg->acc && sn->cgroup_rows[1].acc->total_ns[DK_IO] == 7,
	   "%s: a cgroup row's totals are its copied node's", when);
	ok(sn->cgroup_rows[0].cg->facts && inside(sn->cgroup_rows[0].cg->facts, c->facts, 2 * sizeof(*c->facts)),
	   "%s: the facts are the copy's own", when);
	is_num(sn->cgroup_rows[0].cg->facts->psi.res[0].some.pct, 12.5, 1e-6, "the root's pressure");
	is_str(sn->cgroup_rows[0].cg->facts->path, "/", "the facts' path");
	ok(sn->cgroup_rows[1].cg->facts == NULL, "%s: a node without facts has none", when);
	ok(sn->cgroup_rows[1].cg->parent == 0 && sn->cgroup_rows[1].parent == 0, "%s: the tree's links", when);
}

/* The off-CPU stacks: two thread rows with stacks, one chosen. */
static void test_stacks(struct snapcopy *c, struct source *s)
{
	char frames[3][32] = { "anon_pipe_read+0x393", "wait_on_pipe+0x12", "do_nanosleep+0x5e" };
	const char *f1[] = { frames[0], frames[1] }, *f2[] = { frames[2] };
	struct stk_stack st1[2] = { { .ms = 900, .count = 90, .state = STK_S, .nframes = 2, .frames = f1, .nkernel = 1 },
				    { .ms = 5, .count = 1, .state = STK_RUNNABLE, .nframes = 0, .frames = NULL } };
	struct stk_stack st2[1] = { { .ms = 7, .count = 2, .state = STK_D, .nframes = 1, .frames = f2, .nkernel = 1 } };
	struct stk_list l1 = { 2, st1 }, l2 = { 1, st2 };
	const struct stk_list *got;

	make_source(s);
	s->snap.threads = 1;
	s->rows[1].stacks = &l1; /* tid 102 */
	s->rows[2].stacks = &l2; /* tid 103 */
	c->stacks_of = 102;
	snapcopy_take(c, &s->snap, 1);
	wreck_source(s);
	memset(frames, 'z', sizeof(frames));
	for (int i = 0; i < 3; i++) /* names still, but not the copied ones */
		frames[i][sizeof(frames[i]) - 1] = '\0';
	memset(st1, 0xff, sizeof(st1));
	memset(&l1, 0xff, sizeof(l1));
	got = c->snap.rows[1].stacks;
	ok(got && got->n == 2 && inside(got, c->lists, sizeof(*c->lists)), "the chosen thread's stacks are the copy's own");
	if (got && got->n == 2) {
		ok(got->s[0].ms == 900 && got->s[0].count == 90 && got->s[0].state == STK_S && got->s[0].nkernel == 1,
		   "its top stack's time, count, state and kernel frames");
		ok(got->s[0].nframes == 2 && !strcmp(got->s[0].frames[0], "anon_pipe_read+0x393") &&
			   !strcmp(got->s[0].frames[1], "wait_on_pipe+0x12"),
		   "its frames, their names copied");
		ok(got->s[1].nframes == 0 && got->s[1].state == STK_RUNNABLE, "a stack without frames");
	}
	ok(c->snap.rows[2].stacks == NULL, "another thread's stacks are not copied");
	ok(c->snap.rows[0].stacks == NULL, "a row without stacks has none");

	make_source(s);
	s->snap.threads = 1;
	s->rows[2].stacks = &l2;
	c->stacks_of = 0;
	c->all_stacks = 1;
	snapcopy_take(c, &s->snap, 1);
	wreck_source(s);
	memset(st2, 0xff, sizeof(st2));
	got = c->snap.rows[2].stacks;
	ok(got && got->n == 1 && got->s[0].ms == 7 && got->s[0].nframes == 1, "all_stacks: every row's are copied");
	c->all_stacks = 0;
	snapcopy_take(c, &s->snap, 1); /* the source wrecked: rows without stacks */
	ok(c->snap.rows[2].stacks == NULL, "none chosen: none copied");
}

int main(void)
{
	struct snapcopy c;
	struct source *s = malloc(sizeof(*s));
	struct snapshot empty;

	snapcopy_init(&c);
	make_source(s);
	snapcopy_take(&c, &s->snap, 1);
	wreck_source(s);
	check_copy(&c, "first copy, source wrecked");

	/* a second copy into the same buffers: the strings' chunks are reused, nothing is left over */
	make_source(s);
	strcpy(s->comm[0], "renamed");
	snapcopy_take(&c, &s->snap, 1);
	wreck_source(s);
	is_str(c.snap.rows[0].comm, "renamed", "second copy: the new name");
	is_str(c.snap.rows[1].comm, "worker-1", "second copy: the other thread's name");
	is_str(c.snap.rows[1].cmdline, "/usr/bin/server --port 80", "second copy: the command line");

	/* without the totals: task rows have none, cgroup rows keep their nodes' */
	make_source(s);
	snapcopy_take(&c, &s->snap, 0);
	wreck_source(s);
	ok(c.snap.rows[0].acc == NULL && c.snap.rows[1].acc == NULL, "without totals, task rows have none");
	ok(c.snap.cgroup_rows[1].acc && c.snap.cgroup_rows[1].acc->total_ns[DK_IO] == 7,
	   "without totals, a cgroup row keeps its node's");
	is_str(c.snap.rows[1].comm, "worker-1", "without totals, the rest is copied");

	/* rows that share their totals (zero ones) share one copy of them */
	make_source(s);
	s->rows[1].acc = s->rows[0].acc;
	s->rows[2].acc = &s->acc[2];
	snapcopy_take(&c, &s->snap, 1);
	wreck_source(s);
	ok(c.snap.rows[0].acc && c.snap.rows[0].acc == c.snap.rows[1].acc && c.snap.rows[0].acc->total_ns[DK_CPU] == 1000 &&
		   c.snap.rows[2].acc && c.snap.rows[2].acc != c.snap.rows[1].acc && c.snap.rows[2].acc->total_ns[DK_CPU] == 3000,
	   "rows in a row with the same totals share one copy; the next row has its own (1000, 3000)");

	test_stacks(&c, s);

	memset(&empty, 0, sizeof(empty));
	snapcopy_take(&c, &empty, 1);
	ok(c.snap.nrows == 0 && c.snap.ncgroup_rows == 0, "an empty snapshot copies as empty");
	snapcopy_free(&c);
	free(s);
	return tap_done();
}
