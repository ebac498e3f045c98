/* test_latency.c — the arithmetic of --why's distributions (model/latency.c) and the decoding of
 * the kernel's maps (kernel/whymap.c): the slots as the eBPF programs place a wait (whyabi.h's
 * why_slot_of, held against lat_slot_of over every power of two and its neighbours), their
 * bounds, sums, the percentiles of fixtures worked out by hand and their order on random
 * histograms, a row's histograms by kind, the kinds a row shows, and map entries turned into the
 * model's (what is left out, the count as the sum of the slots). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "latency.h"
#include "tap.h"
#include "whymap.h"

#define US 1000ull
#define MS 1000000ull

static void add_wait(struct lat_hist *h, uint64_t ns)
{
	h->count++;
	h->total_ns += ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->slot[lat_slot_of(ns)]++;
}

static void test_slots(void)
{
	int same = 1;

	is_int(lat_slot_of(0), 0, "a wait of 0 is in slot 0");
	is_int(lat_slot_of(1999), 0, "1.999 us is in slot 0 (under 2 us)");
	is_int(lat_slot_of(2 * US), 1, "2 us starts slot 1");
	is_int(lat_slot_of(4 * US - 1), 1, "3.999 us is in slot 1");
	is_int(lat_slot_of(4 * US), 2, "4 us starts slot 2");
	is_int(lat_slot_of(10 * US), 3, "10 us is in slot 3 (8 to 16 us), where runqlat's '8 -> 15' has it");
	is_int(lat_slot_of((1ull << 23) * US), 23, "2^23 us is in slot 23");
	is_int(lat_slot_of((1ull << 24) * US - 1), 23, "just under 2^24 us is in slot 23");
	is_int(lat_slot_of((1ull << 24) * US), LAT_SLOTS - 1, "2^24 us (16.8 s) is in the last slot");
	is_int(lat_slot_of(3600ull * 1000 * MS), LAT_SLOTS - 1, "an hour is in the last slot");
	for (int b = 0; b < 64 && same; b++)
		for (int d = -1; d <= 1; d++) {
			uint64_t ns = (1ull << b) + (uint64_t)(int64_t)d;

			if (why_slot_of(ns) != (unsigned)lat_slot_of(ns)) {
				same = 0;
				printf("#   why_slot_of(%llu) = %u, lat_slot_of = %d\n", (unsigned long long)ns, why_slot_of(ns),
				     lat_slot_of(ns));
			}
		}
	ok(same, "the eBPF programs' slot (why_slot_of) is lat_slot_of's at every power of two and beside it");
	ok(why_slot_of(UINT64_MAX) == LAT_SLOTS - 1, "the longest wait there is goes to the last slot");
	is_num(lat_slot_le_ms(0), 0.002, 1e-12, "slot 0 ends at 0.002 ms");
	is_num(lat_slot_lower_ms(0), 0, 0, "and starts at 0");
	is_num(lat_slot_lower_ms(1), 0.002, 1e-12, "slot 1 starts where slot 0 ends");
	is_num(lat_slot_le_ms(9), 1.024, 1e-12, "slot 9 ends at 1.024 ms");
	is_num(lat_slot_le_ms(LAT_SLOTS - 2), 16777.216, 1e-9, "the last bounded slot ends at 16777.216 ms");
	ok(isinf(lat_slot_le_ms(LAT_SLOTS - 1)), "the last slot has no upper bound");
	is_num(lat_slot_lower_ms(LAT_SLOTS - 1), 16777.216, 1e-9, "it starts at 16.8 s");
}

static void test_percentiles(void)
{
	struct lat_hist h = { 0 }, one = { 0 }, longest = { 0 };

	ok(isnan(lat_percentile_ms(&h, 0.5)), "no waits: no percentile");
	ok(isnan(lat_percentile_ms(NULL, 0.5)), "no histogram: no percentile");
	add_wait(&h, 10 * US);   /* slot 3: 8 to 16 us */
	add_wait(&h, 100 * US);  /* slot 6: 64 to 128 us */
	add_wait(&h, 1000 * US); /* slot 9: 512 to 1024 us, the longest */
	is_int((int)h.count, 3, "three waits");
	/* p50: rank 1.5, the middle of slot 6's one wait: 64 + 0.5 * 64 us */
	is_num(lat_percentile_ms(&h, 0.5), 0.096, 1e-9, "p50 is interpolated halfway into slot 6: 0.096 ms");
	/* p90: rank 2.7 in slot 9, which ends at the longest wait (1 ms), not at its bound */
	is_num(lat_percentile_ms(&h, 0.9), 0.512 + 0.7 * 0.488, 1e-9, "p90 in the top slot runs up to the longest wait");
	is_num(lat_percentile_ms(&h, 0.99), 0.512 + 0.97 * 0.488, 1e-9,
	       "p99 likewise: 0.98536 ms");
	is_num(lat_percentile_ms(&h, 1.0), 1.0, 1e-9, "p100 is the longest wait");

	add_wait(&one, 5 * US);
	is_num(lat_percentile_ms(&one, 0.5), 0.0045, 1e-12, "one wait of 5 us: p50 halfway from 4 us to the longest");
	ok(lat_percentile_ms(&one, 0.99) <= 0.005, "and p99 not above it");

	add_wait(&longest, 20000 * MS);
	add_wait(&longest, 30000 * MS);
	is_num(lat_percentile_ms(&longest, 0.5), 16777.216 + 0.5 * (30000 - 16777.216), 1e-6,
	       "the last slot: interpolated from 16.8 s to the longest wait");
}

/* On random histograms (as the kernel fills them), p50 <= p90 <= p99 <= max, and each lies
 * within the bounds of the slot its rank falls in. */
static void test_percentile_order(void)
{
	int good = 1, inside = 1;

	srand(31);
	for (int n = 0; n < 20000 && good && inside; n++) {
		struct lat_hist h = { 0 };
		int waits = 1 + rand() % 40;
		double p[3], q[3] = { 0.5, 0.9, 0.99 };

		for (int i = 0; i < waits; i++) /* lengths spread over every slot */
			add_wait(&h, (uint64_t)(ldexp(1.0, rand() % 40) * (1 + rand() % 1000) / 1000.0));
		for (int i = 0; i < 3; i++) {
			double rank = q[i] * (double)h.count, before = 0;
			int s = 0;

			p[i] = lat_percentile_ms(&h, q[i]);
			while (before + h.slot[s] < rank && s < LAT_SLOTS - 1)
				before += h.slot[s++];
			if (p[i] < lat_slot_lower_ms(s) - 1e-9 || p[i] > lat_slot_le_ms(s) + 1e-9)
				inside = 0;
		}
		if (!(p[0] <= p[1] && p[1] <= p[2] && p[2] <= (double)h.max_ns / 1e6 + 1e-12)) {
			good = 0;
			printf("#   p50 %g p90 %g p99 %g max %g\n", p[0], p[1], p[2], (double)h.max_ns / 1e6);
		}
	}
	ok(good, "20,000 random histograms: p50 <= p90 <= p99 <= the longest wait");
	ok(inside, "and each percentile lies within its slot's bounds");
}

static void test_sums(void)
{
	struct lat_hist a = { 0 }, b = { 0 }, set[LAT_KINDS];
	struct lat_hist two[2];
	struct lat_waits w = { .kinds = 1u << DK_IO | 1u << LAT_BLOCKED, .h = two };
	lat_mask kinds = 0;
	struct why_header wh = { .state = WHY_ON, .measured = LAT_ALL & ~(lat_mask)(1u << DK_IRQ) };

	add_wait(&a, 10 * US);
	add_wait(&b, 3 * MS);
	add_wait(&b, 1 * MS);
	lat_add(&a, &b);
	ok(a.count == 3 && a.total_ns == 4010 * US && a.max_ns == 3 * MS, "a sum adds counts and totals, keeps the longest");
	ok(a.slot[3] == 1 && a.slot[9] == 1 && a.slot[11] == 1, "and adds the slots");

	two[0] = a;
	two[1] = b;
	ok(lat_waits_get(&w, DK_CPU) == NULL, "a kind without waits has no histogram");
	ok(lat_waits_get(&w, DK_IO) == &two[0], "the first kind's is the first");
	ok(lat_waits_get(&w, LAT_BLOCKED) == &two[1], "blocked's follows");
	ok(lat_waits_get(NULL, DK_IO) == NULL, "a row without waits has none");

	memset(set, 0, sizeof(set));
	lat_waits_add(set, &kinds, &w);
	lat_waits_add(set, &kinds, &w);
	ok(kinds == w.kinds && set[DK_IO].count == 6 && set[LAT_BLOCKED].count == 4 && set[DK_CPU].count == 0,
	   "rows add into a full set by kind");
	lat_compact(set, kinds);
	ok(set[0].count == 6 && set[1].count == 4, "a full set compacted: its kinds' histograms first, in order");

	is_int(lat_row_kinds(&wh, NULL), wh.measured, "a row without waits shows every kind measured");
	w.unavail = 1u << DK_SWAPIN;
	is_int(lat_row_kinds(&wh, &w), wh.measured & ~(lat_mask)(1u << DK_SWAPIN), "but not those it lacks");
	wh.state = WHY_UNAVAILABLE;
	is_int(lat_row_kinds(&wh, &w), 0, "none when --why is unavailable");
	is_str(lat_kind_key(DK_CPU), "cpu", "the delay kinds' keys");
	is_str(lat_kind_key(LAT_BLOCKED), "blocked", "then blocked");
	is_int(lat_kind_find("blocked"), LAT_BLOCKED, "found by its key");
	is_int(lat_kind_find("sleep"), -1, "an unknown key is not");
}

static void test_decode(void)
{
	struct why_key keys[5] = { { 100, WHY_KIND_CPU }, { 0, WHY_KIND_CPU }, { 101, WHY_KINDS },
				   { 102, WHY_KIND_IO }, { 103, WHY_KIND_BLOCKED } };
	struct why_val vals[5];
	struct lat_batch b = { 0 };
	size_t left;

	memset(vals, 0, sizeof(vals));
	for (int i = 0; i < 5; i++) {
		vals[i].tgid = 100;
		vals[i].total_ns = 50 * US;
		vals[i].max_ns = 30 * US;
		vals[i].slot[3] = 1;
		vals[i].slot[4] = 2;
	}
	memset(vals[3].slot, 0, sizeof(vals[3].slot)); /* made but never filled */
	vals[4].slot[WHY_SLOTS - 1] = 7;
	left = whymap_decode(keys, vals, 5, &b);
	is_int((int)left, 3, "left out: an idle task (tid 0), an unknown kind, an entry without a wait");
	is_int((int)b.n, 2, "two entries kept");
	ok(b.n == 2 && b.e[0].tid == 100 && b.e[0].tgid == 100 && b.e[0].kind == DK_CPU, "with their ids and kind");
	ok(b.n == 2 && b.e[0].h.count == 3 && b.e[0].h.total_ns == 50 * US && b.e[0].h.max_ns == 30 * US,
	   "the count is the sum of the slots; total and longest as written");
	ok(b.n == 2 && b.e[1].kind == LAT_BLOCKED && b.e[1].h.count == 10 && b.e[1].h.slot[LAT_SLOTS - 1] == 7,
	   "blocked, and the last slot, come through");
	lat_batch_free(&b);
}

int main(void)
{
	test_slots();
	test_percentiles();
	test_percentile_order();
	test_sums();
	test_decode();
	return tap_done();
}
