/* test_totals.c — sums of delays per kind: from a task's counters, from two readings (a counter
 * that went backwards adds nothing, an impossible delta is left out), sums of sums, averages only
 * from tasks that gave a count; and the exited tasks kept for totals since the start. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "departed.h"
#include "tap.h"
#include "totals.h"
#include "xalloc.h"

static struct sample reading(uint64_t cpu_ns, uint64_t cpu_count, uint64_t io_ns, uint64_t run_ns)
{
	struct sample s;

	memset(&s, 0, sizeof(s));
	s.total[DK_CPU] = cpu_ns;
	s.count[DK_CPU] = cpu_count;
	s.total[DK_IO] = io_ns;
	s.kind_total = 1u << DK_CPU | 1u << DK_IO;
	s.kind_count = 1u << DK_CPU; /* I/O from /proc: a total without a count */
	s.have_run = 1;
	s.run_ns = run_ns;
	return s;
}

static void test_delta(void)
{
	struct peaks pk = { .kinds = 1u << DK_CPU, .max = { [DK_CPU] = 7000000 } };
	struct kind_totals t;
	struct sample a = reading(1000000, 10, 500000, 9000000), b = reading(4000000, 40, 400000, 12000000);

	memset(&t, 0, sizeof(t));
	totals_add_delta(&t, &a, &b, &pk, 0);
	is_int(t.total_ns[DK_CPU], 3000000, "CPU: the total grew by 3 ms");
	is_int(t.count[DK_CPU], 30, "CPU: 30 waits");
	is_int(t.total_ns[DK_IO], 0, "I/O went backwards: nothing is added, not a negative or giant value");
	is_int(t.run_ns, 3000000, "run time grew by 3 ms");
	ok(t.kinds == (1u << DK_CPU | 1u << DK_IO) && t.kinds_count == (1u << DK_CPU) && t.kinds_max == (1u << DK_CPU),
	   "what was available is marked");
	is_num(totals_avg_ms(&t, DK_CPU), 0.1, 1e-9, "CPU: 3 ms in 30 waits is 0.1 ms each");
	ok(isnan(totals_avg_ms(&t, DK_IO)), "I/O: no count, no average");
	is_int(t.max_ns[DK_CPU], 7000000, "the longest wait comes along");
	totals_add_delta(&t, &a, &b, &pk, 1u << DK_CPU);
	is_int(t.total_ns[DK_CPU], 3000000, "an impossible CPU delta is left out");
	is_int(totals_waited(&t), 3000000, "waited: the sum over the kinds");
}

static void test_impossible(void)
{
	struct kind_totals t;
	struct task_counters c;

	memset(&c, 0, sizeof(c));
	c.kind_total = c.kind_count = c.kind_max = 1u << DK_CPU | 1u << DK_IO;
	c.delay[DK_CPU].total_ns = 100000000; /* 0.1 s */
	c.delay[DK_IO].total_ns = 18000000000000ull; /* 5 hours, in a task of 0.2 s */
	c.delay[DK_IO].count = 2;
	totals_from_counters(&t, &c, 0xff);
	totals_drop_impossible(&t, 200000000);
	ok(!(t.kinds & 1u << DK_IO) && !(t.kinds_count & 1u << DK_IO) && t.total_ns[DK_IO] == 0,
	   "5 hours of I/O delay in a task that lived 0.2 s: left out, unavailable");
	ok((t.kinds & 1u << DK_CPU) && t.total_ns[DK_CPU] == 100000000, "0.1 s of CPU delay in 0.2 s stays");
	is_int(totals_waited(&t), 100000000, "what the task waited is the possible part");
}

static void test_sum(void)
{
	struct kind_totals a, b, sum;
	struct task_counters c;

	memset(&c, 0, sizeof(c));
	c.kind_total = c.kind_count = c.kind_max = 1u << DK_CPU | 1u << DK_IO;
	c.delay[DK_CPU].total_ns = 2000000;
	c.delay[DK_CPU].count = 4;
	c.delay[DK_IO].total_ns = 6000000;
	c.delay[DK_IO].count = 2;
	c.delay[DK_IO].max_ns = 5000000;
	c.have = HAVE_RUN;
	c.run_virtual_ns = 100;
	totals_from_counters(&a, &c, 1u << DK_CPU);
	ok(a.kinds == (1u << DK_CPU) && a.total_ns[DK_IO] == 0 && a.run_ns == 100,
	   "from counters: only the kinds in the mask (the switch was off: CPU only)");
	totals_from_counters(&b, &c, (kind_mask)~0u);
	memset(&sum, 0, sizeof(sum));
	totals_add(&sum, &a);
	totals_add(&sum, &b);
	is_int(sum.total_ns[DK_CPU], 4000000, "sums add the totals");
	is_int(sum.count[DK_CPU], 8, "and the counts");
	is_int(sum.max_ns[DK_IO], 5000000, "the longest wait is the longest of both");
	is_num(totals_avg_ms(&sum, DK_IO), 3.0, 1e-9, "I/O: 6 ms in 2 waits");
}

static struct departed *exited(uint32_t pid, uint64_t waited)
{
	struct departed *d = xcalloc(1, sizeof(*d));

	d->pid = d->id = pid;
	d->user = "u";
	d->acc.kinds = d->acc.kinds_count = 1u << DK_CPU;
	d->acc.total_ns[DK_CPU] = waited;
	d->acc.count[DK_CPU] = 1;
	return d;
}

static void test_departed(void)
{
	struct departed_set set;
	const struct departed *d;
	size_t pos = 0, n = 0;
	uint64_t kept = 0;

	departed_init(&set, 1);
	for (uint32_t i = 1; i <= DEPARTED_MAX + 2; i++)
		departed_add(&set, exited(i, i));
	is_int(departed_count(&set), DEPARTED_MAX + 1, "at most DEPARTED_MAX one by one, and the others' sum");
	while (departed_next(&set, &pos, &d)) {
		n++;
		if (d != set.others)
			kept += d->acc.count[DK_CPU];
	}
	is_int(n, DEPARTED_MAX + 1, "iteration gives the kept ones and the sum");
	ok(set.others && set.others->acc.total_ns[DK_CPU] == 1 + 2 && set.others->acc.count[DK_CPU] == 2,
	   "the two that waited least are summed, nothing lost");
	is_int(kept + set.others->acc.count[DK_CPU], DEPARTED_MAX + 2, "every wait is in a row");
	departed_clear(&set);
	departed_init(&set, 0);
	departed_add(&set, exited(1, 5));
	ok(set.top.len == 0 && set.others && set.others->acc.total_ns[DK_CPU] == 5,
	   "keeping nothing one by one still sums");
	departed_clear(&set);
}

int main(void)
{
	test_delta();
	test_impossible();
	test_sum();
	test_departed();
	return tap_done();
}
