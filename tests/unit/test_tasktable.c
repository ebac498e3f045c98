/* test_tasktable.c — the task table without the kernel: a task is its id and start time, so a
 * reused pid is a new task and the old one waits aside for its exit record; retiring a tick keeps
 * baselines, hands exited tasks on and frees the rest; an exited task still listed in /proc is
 * recognised; readings are masked while delay accounting is off or for tasks forked then. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "delayacct.h"
#include "tap.h"
#include "tasktable.h"

#define SEC 1000000000ull

static struct task *kept[8];
static int nkept;

static void keep(void *arg, struct task *t)
{
	(void)arg;
	kept[nkept++] = t;
}

static void free_kept(void)
{
	for (int i = 0; i < nkept; i++)
		task_free(kept[i]);
	nkept = 0;
}

/* Counters of one thread: total and count of every kind, run time. */
static struct task_counters counters(uint64_t cpu_ns, uint64_t io_ns)
{
	struct task_counters c;

	memset(&c, 0, sizeof(c));
	c.kind_total = c.kind_count = (kind_mask)((1u << DK_COUNT) - 1);
	c.have = HAVE_RUN;
	c.delay[DK_CPU].total_ns = cpu_ns;
	c.delay[DK_CPU].count = cpu_ns / 1000;
	c.delay[DK_IO].total_ns = io_ns;
	c.delay[DK_IO].count = io_ns / 1000;
	c.run_virtual_ns = cpu_ns;
	return c;
}

static void test_identity(void)
{
	struct tasktable t;
	struct task *a, *b, *c;
	size_t pos = 0, n = 0;
	struct task *it;

	tasktable_init(&t);
	a = tasktable_lookup(&t, 100, 5 * SEC);
	ok(a && a->id == 100 && a->start_ns == 5 * SEC, "a new id makes a task");
	ok(tasktable_lookup(&t, 100, 5 * SEC + SAME_START_NS / 2) == a,
	   "the same id with a start within the slack is the same task");
	ok(tasktable_lookup_span(&t, 100, 5 * SEC + 3 * SAME_START_NS, 3 * SAME_START_NS) == a,
	   "a start later by more than the slack, from an answer that may be that late: the same task");
	b = tasktable_lookup(&t, 100, 9 * SEC);
	ok(b != a && tasktable_get(&t, 100) == b, "pid reuse: the id with a later start is a new task");
	ok(tasktable_exiting(&t, 100) == a, "the exit record of the reused id is the old task's, set aside");
	is_int(tasktable_size(&t), 2, "the table counts the task set aside");
	while (tasktable_next(&t, &pos, &it))
		n++;
	is_int(n, 2, "iteration visits the current task and the one set aside");
	a->exited = 1;
	ok(tasktable_exiting(&t, 100) == b, "once the old task has its exit, a record for the id is the new one's");
	c = tasktable_lookup(&t, 200, 1 * SEC);
	c->seen = b->seen = 1;
	tasktable_retire(&t, 1, keep, NULL);
	ok(nkept == 1 && kept[0] == a, "retiring hands the exited task aside to keep");
	ok(tasktable_get(&t, 100) == b && b->has_base && tasktable_get(&t, 200) == c,
	   "tasks read in the tick stay, their reading now the baseline");
	is_int(tasktable_size(&t), 2, "nothing is set aside after the tick");
	tasktable_retire(&t, 2, keep, NULL);
	ok(tasktable_get(&t, 100) == NULL && tasktable_get(&t, 200) == NULL && nkept == 1,
	   "tasks not read in a tick leave the table, and are not handed on unless exited");
	free_kept();
	tasktable_free(&t);
}

static void test_gone(void)
{
	struct tasktable t;
	struct task *z;

	tasktable_init(&t);
	z = tasktable_lookup(&t, 300, 3 * SEC);
	z->seen = 1;
	z->exited = 1;
	tasktable_retire(&t, 1, keep, NULL);
	ok(tasktable_gone(&t, 300, 3 * SEC, 2), "tick 2: the exited task, still listed, is recognised (a zombie)");
	tasktable_retire(&t, 2, keep, NULL);
	ok(tasktable_gone(&t, 300, 3 * SEC + 1000, 3), "tick 3: still recognised, as tick 2 saw it");
	tasktable_retire(&t, 3, keep, NULL);
	tasktable_retire(&t, 4, keep, NULL);
	ok(!tasktable_gone(&t, 300, 3 * SEC, 5), "a tick that did not see it ends its memory (it was reaped)");

	z = tasktable_lookup(&t, 301, 3 * SEC);
	z->seen = 5;
	z->exited = 1;
	tasktable_retire(&t, 5, keep, NULL);
	ok(!tasktable_gone(&t, 301, 7 * SEC, 6), "a newer task with the id is not the exited one");
	ok(!tasktable_gone(&t, 301, 3 * SEC, 6), "and it ends the memory of the old one");

	z = tasktable_lookup_span(&t, 303, 3 * SEC + 2 * SAME_START_NS, 3 * SAME_START_NS); /* a late answer */
	z->seen = 6;
	z->exited = 1;
	tasktable_retire(&t, 6, keep, NULL);
	ok(tasktable_gone_span(&t, 303, 3 * SEC, 0, 7),
	   "an exited task first seen in a late answer: an answer on time, with an earlier start, is it");

	z = tasktable_lookup(&t, 302, 3 * SEC);
	z->seen = 6;
	z->exited = 1;
	z->start_guessed = 1;
	tasktable_retire(&t, 6, keep, NULL);
	ok(!tasktable_gone(&t, 302, 3 * SEC, 7), "a task whose start was guessed is not remembered");
	free_kept();
	tasktable_free(&t);
}

static void test_read(void)
{
	struct tasktable t;
	struct forkedoff off;
	struct tick_times tt = { 1, 10 * SEC, 10 * SEC, 0, 0 };
	struct reading_rules rules = { &off, DELAYACCT_ON, 1, 1, 1, 0 };
	struct task_counters c = counters(2000000, 3000000);
	struct task *a, *b;

	tasktable_init(&t);
	forkedoff_init(&off);
	a = tasktable_lookup(&t, 10, 1 * SEC);
	task_read(a, &c, tt.now_mono, 1, 0, 0, &tt, &rules);
	ok(a->seen == 1 && !a->has_base && (a->last.kind_total & (1u << DK_IO)),
	   "the first reading has no baseline; I/O delay is available");
	tasktable_retire(&t, 1, keep, NULL);
	tt = (struct tick_times){ 2, 11 * SEC, 11 * SEC, 10 * SEC, 10 * SEC };
	b = tasktable_lookup(&t, 11, 10 * SEC + SEC / 2);
	task_read(b, &c, tt.now_mono, 1, 1, 0, &tt, &rules);
	ok(b->has_base && b->base.total[DK_CPU] == 0 && b->base.when_ns == 10 * SEC,
	   "a task born since the last tick has zeros at the last tick as its baseline");

	rules.delayacct = DELAYACCT_OFF;
	forkedoff_track(&off, DELAYACCT_OFF, tt.now_mono, tt.now_boot);
	task_read(a, &c, tt.now_mono, 1, 0, 0, &tt, &rules);
	ok(a->last.kind_total == (1u << DK_CPU), "with the switch off only CPU delay is available");

	rules.delayacct = DELAYACCT_ON;
	tt = (struct tick_times){ 3, 12 * SEC, 12 * SEC, 11 * SEC, 11 * SEC };
	forkedoff_track(&off, DELAYACCT_ON, tt.now_mono, tt.now_boot);
	b = tasktable_lookup(&t, 12, 11 * SEC + SEC / 2); /* forked while it was off */
	c = counters(2000000, 0);
	task_read(b, &c, tt.now_mono, 1, 1, 0, &tt, &rules);
	ok(b->forked_off && b->last.kind_total == (1u << DK_CPU),
	   "a thread forked while the switch was off keeps only CPU delay after it went on");
	c = counters(2000000, 5000);
	task_read(b, &c, tt.now_mono, 1, 0, 0, &tt, &rules);
	ok(b->accounted && (b->last.kind_total & (1u << DK_IO)), "until it shows a non-CPU wait: then it is accounted");
	ok(b->last.off_ns == 11 * SEC, "a reading carries the time the switch was last found off");

	/* a process's age from its start on the boot clock, 5 s ahead of the monotonic one */
	tt = (struct tick_times){ 4, 20 * SEC, 25 * SEC, 12 * SEC, 17 * SEC };
	b = tasktable_lookup(&t, 13, 21 * SEC);
	task_read(b, &c, tt.now_mono, 2, 1, 1, &tt, &rules);
	ok(b->last.age_ns == 4 * SEC, "a process's age is its start's distance on the boot clock (got %llu ns)",
	   (unsigned long long)b->last.age_ns);
	b->start_guessed = 1;
	task_read(b, &c, tt.now_mono, 2, 0, 1, &tt, &rules);
	ok(b->last.age_ns == 0, "a guessed start gives no age");
	free_kept();
	tasktable_free(&t);
}

int main(void)
{
	test_identity();
	test_gone();
	test_read();
	return tap_done();
}
