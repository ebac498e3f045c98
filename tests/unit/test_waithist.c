/* test_waithist.c — --why's waits as Prometheus histograms (report/waithist.c): each le is a slot's
 * upper bound as Prometheus writes floats, the bounds rise to +Inf; folding is exact (a wait is
 * counted under a bound only when every wait of its slot is at or below it, and under the first
 * such bound); the cumulative counts rise and end at the count of waits; sums add up over
 * intervals. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "waithist.h"

static void test_bounds(void)
{
	int good = 1;
	double last = 0;

	for (int b = 0; b < WAITHIST_BUCKETS - 1; b++) {
		double le = strtod(waithist_le(b), NULL), want = lat_slot_le_ms(waithist_last_slot(b)) / 1000;

		if (fabs(le - want) > want * 1e-12 || le <= last) {
			printf("# bucket %d: le %s, its slot's bound %g s, the bound before %g\n", b, waithist_le(b), want, last);
			good = 0;
		}
		last = le;
	}
	ok(good, "each finite le is its last slot's upper bound, and they rise");
	is_str(waithist_le(WAITHIST_BUCKETS - 1), "+Inf", "the last bound is +Inf");
	is_int(waithist_last_slot(WAITHIST_BUCKETS - 1), LAT_SLOTS - 1, "and it holds the last slot");
	is_str(waithist_le(0), "8e-06", "le as Go writes floats: 8e-06");
	is_str(waithist_le(2), "0.000128", "and 0.000128");
	ok(strtod(waithist_le(0), NULL) <= 1e-5 + 1e-12 && strtod(waithist_le(WAITHIST_BUCKETS - 2), NULL) >= 8,
	   "the bounds reach from 10 us or less to 8 s or more");
}

static void test_fold(void)
{
	int exact = 1;

	for (int s = 0; s < LAT_SLOTS; s++) {
		struct waithist w;
		struct lat_hist h;
		uint64_t cum[WAITHIST_BUCKETS];

		memset(&w, 0, sizeof(w));
		memset(&h, 0, sizeof(h));
		h.slot[s] = 3;
		h.count = 3;
		waithist_add(&w, &h);
		waithist_cumulative(&w, cum);
		for (int b = 0; b < WAITHIST_BUCKETS; b++) {
			double le = b == WAITHIST_BUCKETS - 1 ? INFINITY : strtod(waithist_le(b), NULL) * 1000;
			int under = lat_slot_le_ms(s) <= le * (1 + 1e-12);
			int first = under && (b == 0 || cum[b - 1] == 0);

			if (cum[b] != (under ? 3u : 0u) ||
			    (first && b > 0 && strtod(waithist_le(b - 1), NULL) * 1000 > lat_slot_lower_ms(s) * (1 + 1e-12))) {
				printf("# slot %d (%g..%g ms): bucket %d (le %s) has %llu\n", s, lat_slot_lower_ms(s),
				     lat_slot_le_ms(s), b, waithist_le(b), (unsigned long long)cum[b]);
				exact = 0;
			}
		}
	}
	ok(exact, "every slot folds into the first bucket whose bound is at or above the slot's, above the "
		  "bucket before");
}

static void test_random(void)
{
	struct waithist w;
	uint64_t want_count = 0, want_sum = 0, cum[WAITHIST_BUCKETS];
	int rising = 1;

	memset(&w, 0, sizeof(w));
	srand(31);
	for (int i = 0; i < 200; i++) {
		struct lat_hist h;

		memset(&h, 0, sizeof(h));
		for (int s = 0; s < LAT_SLOTS; s++) {
			h.slot[s] = (uint32_t)(rand() % 4 == 0 ? rand() % 1000 : 0);
			h.count += h.slot[s];
		}
		h.total_ns = (uint64_t)rand() * 1000;
		want_count += h.count;
		want_sum += h.total_ns;
		waithist_add(&w, &h);
		waithist_cumulative(&w, cum);
		for (int b = 1; b < WAITHIST_BUCKETS; b++)
			rising &= cum[b] >= cum[b - 1];
	}
	ok(rising, "the cumulative counts never fall from one bucket to the next");
	ok(cum[WAITHIST_BUCKETS - 1] == want_count, "the +Inf bucket is the count of every wait added (%llu, want %llu)",
	   (unsigned long long)cum[WAITHIST_BUCKETS - 1], (unsigned long long)want_count);
	ok(w.sum_ns == want_sum, "the sum is the intervals' sums added");
}

int main(void)
{
	test_bounds();
	test_fold();
	test_random();
	return tap_done();
}
