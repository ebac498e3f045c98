/* test_topn.c — the bounded keeping of exited tasks: the n largest keys stay, every other item
 * comes back exactly once, so that nothing is lost from a sum; max 0 keeps nothing. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "tap.h"
#include "topn.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 40);
}

static int by_value_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* Offers n random keys (items point at them) with room for max; checks what is kept and given back. */
static void run(size_t n, size_t max, uint32_t range)
{
	uint64_t *keys = malloc(n * sizeof(*keys)), *sorted = malloc(n * sizeof(*sorted));
	uint8_t *back = calloc(n, 1);
	uint64_t kept_sum = 0, back_sum = 0, all_sum = 0, want_sum = 0, min_kept = UINT64_MAX;
	size_t nback = 0, twice = 0, kept_given_back = 0;
	struct topn h;
	char name[160];

	topn_init(&h, max);
	for (size_t i = 0; i < n; i++) {
		uint64_t *out;

		keys[i] = range ? rng() % range : rng();
		all_sum += keys[i];
		out = topn_offer(&h, &keys[i], keys[i]);
		if (out) {
			size_t k = (size_t)(out - keys);

			twice += back[k];
			back[k] = 1;
			back_sum += *out;
			nback++;
		}
	}
	for (size_t i = 0; i < h.len; i++) {
		size_t k = (size_t)((uint64_t *)h.item[i] - keys);

		kept_given_back += back[k];
		kept_sum += *(uint64_t *)h.item[i];
		if (h.key[i] < min_kept)
			min_kept = h.key[i];
	}
	memcpy(sorted, keys, n * sizeof(*keys));
	qsort(sorted, n, sizeof(*sorted), by_value_desc);
	for (size_t i = 0; i < (n < max ? n : max); i++)
		want_sum += sorted[i];

	snprintf(name, sizeof(name), "%zu keys, room for %zu: keeps min(n, max) items", n, max);
	is_int(h.len, n < max ? n : max, name);
	snprintf(name, sizeof(name), "%zu keys, room for %zu: every other item comes back once", n, max);
	ok(nback + h.len == n && twice == 0 && kept_given_back == 0, "%s", name);
	snprintf(name, sizeof(name), "%zu keys, room for %zu: the kept ones are the largest", n, max);
	is_int(kept_sum, want_sum, name);
	snprintf(name, sizeof(name), "%zu keys, room for %zu: kept + given back = everything offered", n, max);
	is_int(kept_sum + back_sum, all_sum, name);
	if (h.len) {
		snprintf(name, sizeof(name), "%zu keys, room for %zu: the root is the smallest kept", n, max);
		is_int(h.key[0], min_kept, name);
	}
	topn_free(&h);
	free(keys);
	free(sorted);
	free(back);
}

int main(void)
{
	struct topn h;
	int a = 1, b = 2, c = 3;

	run(0, 10, 0);
	run(5, 10, 0);
	run(25000, 10000, 0);
	run(25000, 10000, 50); /* many equal keys */
	run(1000, 0, 0);       /* batch mode without totals keeps nothing */

	topn_init(&h, 2);
	ok(topn_offer(&h, &a, 1) == NULL && topn_offer(&h, &b, 2) == NULL, "room for 2: the first two are kept");
	ok(topn_offer(&h, &c, 1) == &c, "a key equal to the smallest kept is not kept: the offered item comes back");
	ok(topn_offer(&h, &c, 3) == &a, "a larger key pushes out the smallest kept one");
	topn_free(&h);
	return tap_done();
}
