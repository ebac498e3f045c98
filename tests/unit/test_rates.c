/* test_rates.c — rates from two samples: the arithmetic, unavailable kinds, and counters that go
 * backwards or restart. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "rates.h"
#include "tap.h"

#define SEC 1000000000ull
#define ALL_KINDS ((kind_mask)((1u << DK_COUNT) - 1))

/* The longest waits of cur, which the sampler keeps apart from its samples. */
static struct peaks pk;

static void both_available(struct sample *prev, struct sample *cur, kind_mask kinds)
{
	memset(prev, 0, sizeof(*prev));
	memset(cur, 0, sizeof(*cur));
	memset(&pk, 0, sizeof(pk));
	prev->kind_total = prev->kind_count = kinds;
	cur->kind_total = cur->kind_count = kinds;
	pk.kinds = kinds;
	prev->have_run = cur->have_run = 1;
	prev->when_ns = 10 * SEC;
	cur->when_ns = 12 * SEC; /* a 2-second interval */
}

static int all_nan(const struct kind_rate *r)
{
	return isnan(r->pct) && isnan(r->avg_ms) && isnan(r->per_s) && isnan(r->max_ms);
}

/* A value that a counter going backwards must never produce. */
static int sane(float v)
{
	return isnan(v) || (v >= 0 && v < 1e6);
}

static void test_arithmetic(void)
{
	struct sample prev, cur;
	struct task_rates r;

	both_available(&prev, &cur, (1 << DK_CPU) | (1 << DK_IO) | (1 << DK_SWAPIN));
	/* CPU: 20 waits, 0.5 s waited in 2 s */
	prev.count[DK_CPU] = 10;
	prev.total[DK_CPU] = 1 * SEC;
	cur.count[DK_CPU] = 30;
	cur.total[DK_CPU] = 1 * SEC + SEC / 2;
	pk.max[DK_CPU] = 7000000; /* 7 ms */
	/* IO: 4 waits, 0.2 s */
	cur.count[DK_IO] = 4;
	cur.total[DK_IO] = 200000000;
	pk.max[DK_IO] = 90000000;
	/* swap-in: the total is known but the count is not */
	prev.total[DK_SWAPIN] = 5000;
	cur.total[DK_SWAPIN] = 5000 + 40000000;
	prev.kind_count &= (uint8_t)~(1u << DK_SWAPIN);
	cur.kind_count &= (uint8_t)~(1u << DK_SWAPIN);
	pk.kinds &= (uint8_t)~(1u << DK_SWAPIN);
	/* run time: 1.6 s in 2 s */
	prev.run_ns = 1 * SEC;
	cur.run_ns = 2 * SEC + 600000000;

	rates_compute(&prev, &cur, &pk, &r);
	is_num(r.kind[DK_CPU].pct, 25.0, 1e-4, "cpu pct: 0.5 s waited in 2 s is 25%");
	is_num(r.kind[DK_CPU].per_s, 10.0, 1e-4, "cpu per_s: 20 waits in 2 s is 10/s");
	is_num(r.kind[DK_CPU].avg_ms, 25.0, 1e-4, "cpu avg_ms: 500 ms over 20 waits is 25 ms");
	is_num(r.kind[DK_CPU].max_ms, 7.0, 1e-4, "cpu max_ms: 7000000 ns is 7 ms");
	is_num(r.kind[DK_IO].pct, 10.0, 1e-4, "io pct: 0.2 s in 2 s is 10%");
	is_num(r.kind[DK_IO].per_s, 2.0, 1e-4, "io per_s: 4 in 2 s is 2/s");
	is_num(r.kind[DK_IO].avg_ms, 50.0, 1e-4, "io avg_ms: 200 ms over 4 waits is 50 ms");
	is_num(r.kind[DK_IO].max_ms, 90.0, 1e-4, "io max_ms: 90 ms");
	is_num(r.kind[DK_SWAPIN].pct, 2.0, 1e-4, "swapin pct from the total alone: 40 ms in 2 s is 2%");
	ok(isnan(r.kind[DK_SWAPIN].per_s) && isnan(r.kind[DK_SWAPIN].avg_ms),
	   "swapin without counts: per_s and avg_ms are NAN");
	ok(isnan(r.kind[DK_SWAPIN].max_ms), "swapin without max: max_ms is NAN");
	for (int k = DK_RECLAIM; k < DK_COUNT; k++)
		ok(all_nan(&r.kind[k]), "kind %d, unavailable in both samples: every rate is NAN", k);
	is_num(r.total_pct, 37.0, 1e-4, "total_pct is the sum of the available kinds: 25 + 10 + 2");
	is_num(r.run_pct, 80.0, 1e-4, "run_pct: 1.6 s of CPU in 2 s is 80%");

	/* more than one thread waiting: above 100 % */
	prev.threads = cur.threads = 3;
	cur.total[DK_CPU] = prev.total[DK_CPU] + 5 * SEC;
	rates_compute(&prev, &cur, &pk, &r);
	is_num(r.kind[DK_CPU].pct, 250.0, 1e-3, "5 s waited in 2 s (several threads) is 250%, not capped");

	/* a kind with no events in the interval */
	cur = prev;
	cur.when_ns = prev.when_ns + SEC;
	rates_compute(&prev, &cur, &pk, &r);
	ok(r.kind[DK_CPU].pct == 0 && r.kind[DK_CPU].per_s == 0 && r.kind[DK_CPU].avg_ms == 0,
	   "no change in an interval: pct, per_s and avg_ms are 0, not NAN");
	is_num(r.total_pct, 0.0, 0, "no change: total_pct is 0");
}

static void test_missing_in_prev(void)
{
	struct sample prev, cur;
	struct task_rates r;

	both_available(&prev, &cur, (1 << DK_CPU) | (1 << DK_IO));
	prev.kind_total = prev.kind_count = 1 << DK_CPU; /* io missing before */
	cur.count[DK_IO] = 3;
	cur.total[DK_IO] = SEC;
	pk.max[DK_IO] = 4000000;
	cur.total[DK_CPU] = SEC / 10;
	cur.count[DK_CPU] = 2;
	rates_compute(&prev, &cur, &pk, &r);
	ok(isnan(r.kind[DK_IO].pct) && isnan(r.kind[DK_IO].avg_ms) && isnan(r.kind[DK_IO].per_s),
	   "a kind missing in prev: pct, avg_ms and per_s are NAN (not the whole total as one interval)");
	is_num(r.kind[DK_IO].max_ms, 4.0, 1e-4, "a kind missing in prev: max_ms still comes from cur (a lifetime value)");
	is_num(r.total_pct, 5.0, 1e-4, "total_pct counts only the kinds available in both: 5%");

	both_available(&prev, &cur, 1 << DK_CPU);
	cur.kind_total = cur.kind_count = pk.kinds = 0; /* cpu missing now */
	rates_compute(&prev, &cur, &pk, &r);
	ok(all_nan(&r.kind[DK_CPU]), "a kind missing in cur: every rate is NAN");
	ok(isnan(r.total_pct), "no kind available: total_pct is NAN, not 0");

	both_available(&prev, &cur, 1 << DK_CPU);
	prev.have_run = 0;
	cur.run_ns = SEC;
	rates_compute(&prev, &cur, &pk, &r);
	ok(isnan(r.run_pct), "run time missing in prev: run_pct is NAN");
}

static void test_zero_interval(void)
{
	struct sample prev, cur;
	struct task_rates r;
	int nan = 1;

	both_available(&prev, &cur, ALL_KINDS);
	for (int k = 0; k < DK_COUNT; k++) {
		cur.count[k] = 5;
		cur.total[k] = SEC;
		pk.max[k] = 1000000;
	}
	cur.run_ns = SEC;
	cur.when_ns = prev.when_ns;
	rates_compute(&prev, &cur, &pk, &r);
	for (int k = 0; k < DK_COUNT; k++)
		nan &= all_nan(&r.kind[k]);
	ok(nan && isnan(r.run_pct) && isnan(r.total_pct), "a zero interval gives NAN everywhere (no division by 0)");

	cur.when_ns = prev.when_ns - 1;
	rates_compute(&prev, &cur, &pk, &r);
	nan = 1;
	for (int k = 0; k < DK_COUNT; k++)
		nan &= all_nan(&r.kind[k]);
	ok(nan && isnan(r.run_pct) && isnan(r.total_pct), "a negative interval gives NAN everywhere");
}

static void test_backwards(void)
{
	struct sample prev, cur;
	struct task_rates r;

	/* both counters of cpu drop (a reset, or a reused pid) */
	both_available(&prev, &cur, (1 << DK_CPU) | (1 << DK_IO) | (1 << DK_SWAPIN));
	prev.count[DK_CPU] = 1000;
	prev.total[DK_CPU] = 50 * SEC;
	cur.count[DK_CPU] = 10;
	cur.total[DK_CPU] = 1 * SEC;
	/* io: a thread counted twice in the last process aggregate: the total drops while the count
	 * rises */
	prev.count[DK_IO] = 100;
	prev.total[DK_IO] = 5 * SEC;
	cur.count[DK_IO] = 110;
	cur.total[DK_IO] = 4 * SEC;
	/* swapin: the count drops while the total rises */
	prev.count[DK_SWAPIN] = 50;
	prev.total[DK_SWAPIN] = SEC;
	cur.count[DK_SWAPIN] = 40;
	cur.total[DK_SWAPIN] = SEC + SEC / 5;
	prev.run_ns = 9 * SEC;
	cur.run_ns = 3 * SEC;
	rates_compute(&prev, &cur, &pk, &r);

	is_num(r.kind[DK_CPU].pct, 0.0, 0, "both counters backwards: pct 0");
	is_num(r.kind[DK_CPU].per_s, 0.0, 0, "both counters backwards: per_s 0");
	is_num(r.kind[DK_CPU].avg_ms, 0.0, 0, "both counters backwards: avg_ms 0");
	is_num(r.kind[DK_IO].pct, 0.0, 0, "total drops while the count rises (double count): pct 0, not negative");
	is_num(r.kind[DK_IO].per_s, 5.0, 1e-4, "total drops while the count rises: per_s from the count (10 in 2 s)");
	ok(sane(r.kind[DK_IO].avg_ms) && r.kind[DK_IO].avg_ms == 0,
	   "total drops while the count rises: avg_ms 0 (got %g)", (double)r.kind[DK_IO].avg_ms);
	is_num(r.kind[DK_SWAPIN].pct, 10.0, 1e-4, "count drops while the total rises: pct from the total (10%)");
	is_num(r.kind[DK_SWAPIN].per_s, 0.0, 0, "count drops: per_s 0, not giant");
	is_num(r.kind[DK_SWAPIN].avg_ms, 0.0, 0, "count drops: avg_ms 0 (no events), not a division by a wrapped count");
	is_num(r.run_pct, 0.0, 0, "run time backwards: run_pct 0");
	is_num(r.total_pct, 10.0, 1e-4, "total_pct after counters went backwards: only the swapin 10%");
	for (int k = 0; k < DK_COUNT; k++)
		ok(sane(r.kind[k].pct) && sane(r.kind[k].per_s) && sane(r.kind[k].avg_ms),
		   "kind %d: no negative or giant value after counters went backwards", k);
}

static void test_restart(void)
{
	struct sample prev, cur;
	struct task_rates r;

	/* The kernel restarts a total at 0 when adding to it would overflow; the count goes on. */
	both_available(&prev, &cur, 1 << DK_IO);
	prev.count[DK_IO] = 100;
	prev.total[DK_IO] = UINT64_MAX - SEC;
	cur.count[DK_IO] = 105;
	cur.total[DK_IO] = 300000000; /* 0.3 s since the restart */
	rates_compute(&prev, &cur, &pk, &r);
	is_num(r.kind[DK_IO].pct, 15.0, 1e-4, "a total near 2^64 that restarted at 0: pct is the time since the restart (15%)");
	is_num(r.kind[DK_IO].per_s, 2.5, 1e-4, "restart: per_s from the count (5 in 2 s)");
	is_num(r.kind[DK_IO].avg_ms, 60.0, 1e-4, "restart: avg_ms = 300 ms over 5 waits");

	/* the same drop without a count increase is a reset, not a restart */
	cur.count[DK_IO] = 100;
	rates_compute(&prev, &cur, &pk, &r);
	is_num(r.kind[DK_IO].pct, 0.0, 0, "a total near 2^64 that drops without new events: pct 0");

	/* a small total that drops with new events is a double count, not a restart */
	prev.total[DK_IO] = 2 * SEC;
	cur.count[DK_IO] = 105;
	rates_compute(&prev, &cur, &pk, &r);
	is_num(r.kind[DK_IO].pct, 0.0, 0, "a small total that drops with new events: pct 0, not the new total");
}

static void test_from_counters(void)
{
	struct task_counters c;
	struct sample s;
	struct peaks p;

	memset(&c, 0, sizeof(c));
	for (int k = 0; k < DK_COUNT; k++) {
		c.delay[k].count = 100 + (uint64_t)k;
		c.delay[k].total_ns = 1000000 + (uint64_t)k * 1000 + 7;
		c.delay[k].max_ns = 10000000 + (uint64_t)k * 1000 + 999;
		c.delay[k].min_ns = 1;
	}
	c.kind_total = 0x0f;
	c.kind_count = 0x07;
	c.kind_max = 0x03;
	c.run_real_ns = 111;
	c.run_virtual_ns = 222222;
	c.have = HAVE_RUN | HAVE_IDS;
	sample_from_counters(&s, &c, 777777, 1);
	peaks_from_counters(&p, &c);
	ok(s.when_ns == 777000 && s.kind_total == 0x0f && s.kind_count == 0x07 && p.kinds == 0x03,
	   "sample_from_counters keeps the time (to the microsecond) and the availability bits, peaks_from_counters the longest waits'");
	ok(s.count[DK_IRQ] == 107 && s.total[DK_IRQ] == 1007000 && p.max[DK_IRQ] == 10007000 &&
		   s.count[DK_CPU] == 100 && s.total[DK_CPU] == 1000000 && p.max[DK_CPU] == 10000000,
	   "they copy count, total and max of every kind, times in whole microseconds (rounded down)");
	ok(s.have_run == 1 && s.run_ns == 222000, "sample_from_counters: run time is run_virtual_ns (the scheduler's), in whole microseconds");
	c.have = HAVE_IDS;
	sample_from_counters(&s, &c, 777, 1);
	is_int(s.have_run, 0, "sample_from_counters: no HAVE_RUN, no have_run");
}

static void test_zero_like(void)
{
	struct sample cur, zero;
	struct task_rates r;
	int zeros = 1;

	both_available(&zero, &cur, 0x13);
	cur.have_run = 1;
	cur.when_ns = 20 * SEC;
	for (int k = 0; k < DK_COUNT; k++) {
		cur.count[k] = 10;
		cur.total[k] = SEC / 2;
		pk.max[k] = 3000000;
	}
	cur.run_ns = SEC;
	memset(&zero, 0xab, sizeof(zero));
	sample_zero_like(&zero, &cur, 18 * SEC);
	for (int k = 0; k < DK_COUNT; k++)
		zeros &= zero.count[k] == 0 && zero.total[k] == 0;
	ok(zeros && zero.run_ns == 0, "sample_zero_like: every counter is 0");
	ok(zero.when_ns == 18 * SEC, "sample_zero_like: stamped with the given time");
	ok(zero.kind_total == 0x13 && zero.kind_count == 0x13 && zero.have_run == 1,
	   "sample_zero_like: availability copied from cur");
	rates_compute(&zero, &cur, &pk, &r);
	is_num(r.kind[DK_CPU].pct, 25.0, 1e-4, "from a zero baseline 2 s earlier: 0.5 s waited is 25%");
	is_num(r.kind[DK_CPU].per_s, 5.0, 1e-4, "from a zero baseline: 10 events in 2 s is 5/s");
	is_num(r.run_pct, 50.0, 1e-4, "from a zero baseline: run_pct 50%");
	ok(isnan(r.kind[DK_SWAPIN].pct), "from a zero baseline: a kind cur lacks stays NAN");
	is_num(r.total_pct, 75.0, 1e-4, "from a zero baseline: total_pct sums the 3 available kinds");
}

static void test_unavailable(void)
{
	struct task_rates r;
	int nan = 1;

	memset(&r, 0, sizeof(r));
	rates_unavailable(&r);
	for (int k = 0; k < DK_COUNT; k++)
		nan &= all_nan(&r.kind[k]);
	ok(nan && isnan(r.run_pct) && isnan(r.total_pct), "rates_unavailable sets every rate to NAN");
}

/* A delta that the task's threads could not have waited is unavailable, not a giant rate: the
 * kernel makes such deltas when kernel.task_delayacct is switched during a wait. */
static void test_impossible(void)
{
	struct sample prev, cur;
	struct task_rates r;

	both_available(&prev, &cur, (1 << DK_CPU) | (1 << DK_IO));
	prev.threads = cur.threads = 1;
	cur.total[DK_CPU] = 19 * SEC / 10; /* 1.9 s of a 2 s interval: possible */
	cur.count[DK_CPU] = 10;
	cur.total[DK_IO] = 4300 * SEC; /* "since boot": what a wait with a missed start records */
	cur.count[DK_IO] = 1;
	rates_compute(&prev, &cur, &pk, &r);
	is_num(r.kind[DK_CPU].pct, 95.0, 1e-3, "a thread waiting 1.9 s of 2 s: 95%");
	ok(all_nan(&r.kind[DK_IO]) || (isnan(r.kind[DK_IO].pct) && isnan(r.kind[DK_IO].avg_ms) && isnan(r.kind[DK_IO].per_s)),
	   "a thread cannot wait 4300 s in 2 s: IO is unavailable, not 215000%%");
	is_int(r.impossible, 1 << DK_IO, "the impossible kind is marked, the possible one is not");
	is_num(r.total_pct, 95.0, 1e-3, "TOTAL leaves the impossible kind out");

	cur.total[DK_IO] = 5 * SEC; /* 5 s in 2 s: more than one thread can wait */
	rates_compute(&prev, &cur, &pk, &r);
	ok(isnan(r.kind[DK_IO].pct), "one thread, 5 s waited in 2 s: unavailable");
	prev.threads = cur.threads = 4;
	rates_compute(&prev, &cur, &pk, &r);
	is_num(r.kind[DK_IO].pct, 250.0, 1e-3, "four threads, 5 s waited in 2 s: 250%, possible");
	is_int(r.impossible, 0, "nothing is impossible for four threads");

	cur.age_ns = 1 * SEC; /* a task 1 s old */
	pk.max[DK_CPU] = 3 * SEC;
	pk.max[DK_IO] = SEC / 2;
	rates_compute(&prev, &cur, &pk, &r);
	ok(isnan(r.kind[DK_CPU].max_ms), "a longest wait longer than the task's life is unavailable");
	is_num(r.kind[DK_IO].max_ms, 500.0, 1e-3, "a longest wait within the task's life is kept");
}

/* A wait counts in the interval in which it ends: one that began earlier can take a kind above
 * 100% per thread. The measured value stays, and the kind is marked as carried over. */
static void test_carried(void)
{
	struct sample prev, cur;
	struct task_rates r;

	both_available(&prev, &cur, (1 << DK_CPU) | (1 << DK_IO) | (1 << DK_SWAPIN));
	prev.threads = cur.threads = 1;
	cur.total[DK_CPU] = 3 * SEC; /* one wait of 3 s ended in a 2 s interval */
	cur.count[DK_CPU] = 1;
	cur.total[DK_IO] = 2 * SEC; /* exactly the whole interval: not above 100% */
	cur.count[DK_IO] = 1;
	cur.total[DK_SWAPIN] = SEC / 2;
	cur.count[DK_SWAPIN] = 1;
	rates_compute(&prev, &cur, &pk, &r);
	is_num(r.kind[DK_CPU].pct, 150.0, 1e-3, "one thread, a 3 s wait ending in 2 s: the measured 150% is kept");
	is_num(r.kind[DK_CPU].avg_ms, 3000.0, 1e-3, "and its average wait is the 3 s it lasted");
	is_int(r.carried, 1 << DK_CPU, "only the kind above 100% per thread is marked carried (100% is not)");
	is_int(r.impossible, 0, "a carried wait is not impossible");
	is_num(r.total_pct, 275.0, 1e-3, "TOTAL keeps the carried value: 150 + 100 + 25");

	cur.threads = 2; /* the second thread came during the interval: 200% per two threads */
	rates_compute(&prev, &cur, &pk, &r);
	is_int(r.carried, 0, "two threads, 150%: within 100% per thread, not marked");
	prev.threads = 2;
	cur.threads = 1; /* the larger count of the two readings is the row's */
	rates_compute(&prev, &cur, &pk, &r);
	is_int(r.carried, 0, "a thread that left during the interval still counts for the limit");

	prev.threads = cur.threads = 0; /* unknown: taken as one thread */
	rates_compute(&prev, &cur, &pk, &r);
	is_int(r.carried, 1 << DK_CPU, "an unknown thread count is one thread");

	prev.threads = cur.threads = 1;
	cur.total[DK_CPU] = 5 * SEC; /* 250%: beyond what a carried wait explains here */
	rates_compute(&prev, &cur, &pk, &r);
	ok(isnan(r.kind[DK_CPU].pct) && r.impossible == 1 << DK_CPU && !(r.carried & (1 << DK_CPU)),
	   "far beyond the limit the delta stays impossible (unavailable), not carried");

	rates_unavailable(&r);
	is_int(r.carried, 0, "rates_unavailable clears the carried marks");
}

/* A wait longer than the interval is real where the task lived long enough for it, and since
 * boot where it did not; in a kind the switch gates, it began after the switch was last found
 * off. */
static void test_wait_span(void)
{
	struct sample prev, cur;
	struct task_rates r;

	both_available(&prev, &cur, (1 << DK_CPU) | (1 << DK_IO));
	prev.when_ns = 100 * SEC;
	cur.when_ns = 100 * SEC + SEC / 2; /* a 0.5 s interval */
	prev.threads = cur.threads = 1;
	cur.total[DK_IO] = 155 * SEC / 100; /* one 1.55 s wait on a slow disk ends in it */
	cur.count[DK_IO] = 1;
	rates_compute(&prev, &cur, &pk, &r);
	ok(isnan(r.kind[DK_IO].pct) && r.impossible == 1 << DK_IO,
	   "its age unknown, a thread's 1.55 s in 0.5 s is more than the interval allows: unavailable");
	cur.age_ns = 60 * SEC;
	rates_compute(&prev, &cur, &pk, &r);
	is_num(r.kind[DK_IO].pct, 310.0, 1e-3, "a thread 60 s old: the 1.55 s wait is shown, 310%");
	ok(r.impossible == 0 && r.carried == 1 << DK_IO, "marked carried, not impossible");
	cur.total[DK_IO] = 4300 * SEC; /* counted from boot */
	rates_compute(&prev, &cur, &pk, &r);
	ok(isnan(r.kind[DK_IO].pct) && r.impossible == 1 << DK_IO, "4300 s in a thread 60 s old: unavailable");
	cur.total[DK_IO] = 61 * SEC; /* a little more than it lived, more than the slack of the interval */
	rates_compute(&prev, &cur, &pk, &r);
	ok(r.impossible == 1 << DK_IO, "61 s in a thread 60 s old and a 0.5 s interval: unavailable");
	prev.threads = cur.threads = 3;
	cur.total[DK_IO] = 150 * SEC;
	rates_compute(&prev, &cur, &pk, &r);
	ok(r.impossible == 0 && !isnan(r.kind[DK_IO].pct), "three threads 60 s old may have waited 150 s");

	prev.threads = cur.threads = 1;
	cur.off_ns = cur.when_ns - 2 * SEC; /* the switch was found off 2 s ago */
	cur.total[DK_IO] = 30 * SEC;        /* from the start of a wait before it went off */
	cur.total[DK_CPU] = 30 * SEC;       /* CPU delay does not depend on the switch */
	cur.count[DK_CPU] = 1;
	rates_compute(&prev, &cur, &pk, &r);
	ok(isnan(r.kind[DK_IO].pct) && r.impossible == 1 << DK_IO,
	   "30 s of I/O delay, the switch found off 2 s ago: unavailable");
	is_num(r.kind[DK_CPU].pct, 6000.0, 1e-3, "30 s of CPU delay in a thread 60 s old: shown");
	cur.total[DK_IO] = 155 * SEC / 100;
	rates_compute(&prev, &cur, &pk, &r);
	is_num(r.kind[DK_IO].pct, 310.0, 1e-3, "1.55 s of I/O delay, found off 2 s ago: shown");
	cur.age_ns = 0;
	cur.total[DK_IO] = 19 * SEC / 10; /* the age unknown, the switch's bound alone */
	rates_compute(&prev, &cur, &pk, &r);
	ok(r.impossible == 1 << DK_CPU, "the age unknown: 1.9 s of I/O since the switch was off is kept, 30 s of CPU is not");
	cur.total[DK_IO] = 3 * SEC;
	rates_compute(&prev, &cur, &pk, &r);
	ok(r.impossible & (1 << DK_IO), "and 3 s of I/O is not");
}

int main(void)
{
	test_arithmetic();
	test_missing_in_prev();
	test_zero_interval();
	test_backwards();
	test_restart();
	test_from_counters();
	test_zero_like();
	test_unavailable();
	test_impossible();
	test_carried();
	test_wait_span();
	return tap_done();
}
