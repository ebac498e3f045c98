/* test_steady.c — thread mode's shortcuts without the kernel: the signature of a per-process
 * answer moves with every counter a thread's run, wait, birth or end moves, and its sum adds up
 * as the counters do; a process is steady
 * only when answered alike at two ticks in a row and carrying is allowed; a carried task keeps
 * its reading, so its interval shows no new delay, and its next real reading diffs against it; a
 * task seen first is guessed hot by how often it ran. */
#include "config.h"

#include <string.h>

#include "delayacct.h"
#include "rates.h"
#include "steady.h"
#include "tap.h"
#include "tasktable.h"

#define SEC 1000000000ull

static struct task_counters answer(void)
{
	struct task_counters c;

	memset(&c, 0, sizeof(c));
	c.kind_total = c.kind_count = (kind_mask)((1u << DK_COUNT) - 1);
	c.have = HAVE_RUN;
	for (int k = 0; k < DK_COUNT; k++) {
		c.delay[k].total_ns = 1000000u * (k + 1);
		c.delay[k].count = 10u * (k + 1);
	}
	c.run_real_ns = c.run_virtual_ns = 5 * SEC;
	c.nvcsw = 100;
	c.nivcsw = 7;
	return c;
}

static void test_signature(void)
{
	struct task_counters a = answer(), b;
	uint64_t sig = steady_signature(&a);
	int moved = 1;

	b = a;
	ok(steady_signature(&b) == sig, "the same answer has the same signature");
	for (int k = 0; k < DK_COUNT; k++) {
		b = a;
		b.delay[k].total_ns++;
		moved &= steady_signature(&b) != sig;
		b = a;
		b.delay[k].count++;
		moved &= steady_signature(&b) != sig;
	}
	ok(moved, "one more nanosecond or one more wait of any kind moves it");
	b = a;
	b.run_virtual_ns++;
	ok(steady_signature(&b) != sig, "CPU time (a thread that spins without switching) moves it");
	b = a;
	b.nvcsw++;
	ok(steady_signature(&b) != sig, "a voluntary switch moves it");
	b = a;
	b.nivcsw++;
	ok(steady_signature(&b) != sig, "an involuntary switch moves it");
	b = a;
	b.delay[DK_CPU].total_ns += 5;
	b.delay[DK_IO].total_ns -= 5; /* a sum would not see this */
	ok(steady_signature(&b) != sig, "changes that cancel in a sum still move it");
	b = a;
	b.comm[0] = 'x';
	b.etime_us = 12345;
	ok(steady_signature(&b) == sig, "what changes without a thread running (its age, its name) does not");
}

/* The split's sum: the sum of two answers' steady_sum()s is the steady_sum() of their sum, so a
 * process's answer can be checked against its threads' readings; and any one counter moves it. */
static void test_sum(void)
{
	struct task_counters a = answer(), b = answer(), both = answer(), c;
	int moved = 1;

	for (int k = 0; k < DK_COUNT; k++) {
		b.delay[k].total_ns = 333u * (k + 2);
		b.delay[k].count = 7u + k;
		both.delay[k].total_ns += b.delay[k].total_ns;
		both.delay[k].count += b.delay[k].count;
	}
	b.run_real_ns = 11;
	b.run_virtual_ns = 12;
	b.nvcsw = 13;
	b.nivcsw = 14;
	both.run_real_ns += 11;
	both.run_virtual_ns += 12;
	both.nvcsw += 13;
	both.nivcsw += 14;
	ok(steady_sum(&a) + steady_sum(&b) == steady_sum(&both), "the sums of two threads add up to their process's");
	for (int k = 0; k < DK_COUNT; k++) {
		c = a;
		c.delay[k].total_ns++;
		moved &= steady_sum(&c) != steady_sum(&a);
		c = a;
		c.delay[k].count++;
		moved &= steady_sum(&c) != steady_sum(&a);
	}
	c = a;
	c.run_virtual_ns++;
	moved &= steady_sum(&c) != steady_sum(&a);
	c = a;
	c.run_real_ns++;
	moved &= steady_sum(&c) != steady_sum(&a);
	c = a;
	c.nvcsw++;
	moved &= steady_sum(&c) != steady_sum(&a);
	c = a;
	c.nivcsw++;
	moved &= steady_sum(&c) != steady_sum(&a);
	ok(moved, "one more of any counter moves it");
	c = a;
	c.delay[DK_IO].total_ns += 1000;
	c.delay[DK_CPU].total_ns -= 1000;
	ok(steady_sum(&c) != steady_sum(&a), "a wait moved from one kind to another moves it");
	c = a;
	c.etime_us += 5;
	c.comm[0] = 'x';
	ok(steady_sum(&c) == steady_sum(&a), "what changes without a thread running does not");
}

static void test_check(void)
{
	struct proc p;
	struct task_counters a = answer(), b = answer();

	memset(&p, 0, sizeof(p));
	b.nivcsw++;
	ok(!steady_check(&p, &a, 1, 1), "the first answer is not steady: nothing to compare with");
	ok(steady_check(&p, &a, 2, 1) && p.steady == 2, "the same answer at the next tick is steady");
	ok(steady_check(&p, &a, 3, 1), "and at the one after");
	ok(!steady_check(&p, &b, 4, 1) && p.steady == 0, "an answer that moved is not");
	ok(steady_check(&p, &b, 5, 1), "the moved answer is the new reference");
	ok(!steady_check(&p, &b, 7, 1), "a tick without an answer in between (a skipped tick) breaks the chain");
	ok(!steady_check(&p, NULL, 8, 1) && p.sig_tick == 0, "no answer (the process ended) is not steady");
	ok(!steady_check(&p, &b, 9, 1), "nor is the answer after it");
	ok(!steady_check(&p, &b, 10, 0), "nor one when carrying is not allowed (the switch or the selection changed)");
	ok(steady_check(&p, &b, 11, 1), "but the next one is, compared with that answer");
}

static void test_carry(void)
{
	struct tasktable t;
	struct forkedoff off;
	struct tick_times tt = { 1, 10 * SEC, 10 * SEC, 0, 0 };
	struct reading_rules rules = { &off, DELAYACCT_ON, 1, 1, 1, 0 };
	struct task_counters c = answer();
	struct task *a;
	struct task_rates r;

	tasktable_init(&t);
	forkedoff_init(&off);
	a = tasktable_lookup(&t, 10, 1 * SEC);
	c.etime_us = 9000000;
	c.have |= HAVE_IDS;
	task_read(a, &c, tt.now_mono, 1, 0, 0, &tt, &rules);
	tasktable_retire(&t, 1, NULL, NULL);
	tt = (struct tick_times){ 2, 11 * SEC, 11 * SEC, 10 * SEC, 10 * SEC };
	task_carry(a, 11 * SEC, 0, &tt, &rules);
	ok(a->seen == 2 && a->last.when_ns == 11 * SEC && a->last.age_ns == 10 * SEC,
	   "a carried task is seen at this tick, its reading made now, a second older");
	rates_compute(&a->base, &a->last, a->peak, &r);
	is_num(r.kind[DK_CPU].pct, 0, 1e-9, "its interval shows no CPU delay");
	is_num(r.kind[DK_IO].per_s, 0, 1e-9, "and no I/O waits");
	tasktable_retire(&t, 2, NULL, NULL);
	ok(tasktable_get(&t, 10) == a, "it stays in the table");
	tt = (struct tick_times){ 3, 12 * SEC, 12 * SEC, 11 * SEC, 11 * SEC };
	c.delay[DK_CPU].total_ns += SEC / 10;
	c.delay[DK_CPU].count += 1;
	task_read(a, &c, 12 * SEC, 1, 0, 0, &tt, &rules);
	rates_compute(&a->base, &a->last, a->peak, &r);
	is_num(r.kind[DK_CPU].pct, 10, 1e-3, "the next real reading diffs against the carried one: 100 ms in 1 s is 10%");
	tasktable_free(&t);
}

/* A task seen for the first time is guessed likely to run again when it arrived on a CPU about
 * once a second or more over its life; not without its age. */
static void test_likely_hot(void)
{
	struct task_counters c;

	memset(&c, 0, sizeof(c));
	c.have = HAVE_IDS;
	c.etime_us = 60 * 1000000ull;
	c.delay[DK_CPU].count = 1200;
	ok(steady_likely_hot(&c), "a timer: 1,200 arrivals in a minute");
	c.delay[DK_CPU].count = 60;
	ok(steady_likely_hot(&c), "once a second: likely");
	c.delay[DK_CPU].count = 59;
	ok(!steady_likely_hot(&c), "a little less: not");
	c.delay[DK_CPU].count = 2;
	ok(!steady_likely_hot(&c), "a thread that slept since it started: not");
	c.delay[DK_CPU].count = 1200;
	c.have = 0;
	ok(!steady_likely_hot(&c), "an answer without the task's age: no guess");
}

int main(void)
{
	test_signature();
	test_sum();
	test_check();
	test_carry();
	test_likely_hot();
	return tap_done();
}
