/* test_idmap.c — the id map: basic operations, growth, deletion with backward shift against a
 * reference, iteration, and deletion during iteration as src/sample/sampler.c's retire() does it. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "idmap.h"
#include "tap.h"

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint32_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

/* A bijection of 32-bit numbers (murmur3's finaliser): distinct, non-zero ids for distinct,
 * non-zero inputs, with well-mixed low bits so that probe runs form. */
static uint32_t mix(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

static void *val(uint32_t tag)
{
	return (void *)(uintptr_t)(tag * 8u + 8u);
}

static void test_basic(void)
{
	struct idmap m;
	int a, b, c;

	idmap_init(&m);
	ok(idmap_get(&m, 1) == NULL, "get on an empty map is NULL");
	ok(idmap_del(&m, 1) == NULL, "del on an empty map is NULL");
	is_int(m.len, 0, "an empty map has len 0");
	idmap_put(&m, 42, &a);
	idmap_put(&m, 7, &b);
	idmap_put(&m, 4294967295u, &c);
	ok(idmap_get(&m, 42) == &a && idmap_get(&m, 7) == &b && idmap_get(&m, 4294967295u) == &c,
	   "put then get returns each value (including id 2^32-1)");
	ok(idmap_get(&m, 43) == NULL, "get of an absent id is NULL");
	is_int(m.len, 3, "len counts the entries");
	idmap_put(&m, 42, &c);
	ok(idmap_get(&m, 42) == &c, "put of an existing id replaces the value");
	is_int(m.len, 3, "replacing does not change len");
	ok(idmap_del(&m, 7) == &b, "del returns the value");
	ok(idmap_get(&m, 7) == NULL, "a deleted id is gone");
	ok(idmap_del(&m, 7) == NULL, "deleting it again returns NULL");
	is_int(m.len, 2, "del decrements len");
	idmap_put(&m, 7, &a);
	ok(idmap_get(&m, 7) == &a, "an id can be put back after deletion");
	idmap_free(&m);
	ok(m.cap == 0 && m.len == 0 && m.keys == NULL, "idmap_free leaves an empty map");
	ok(idmap_get(&m, 42) == NULL, "get after free is NULL");
	idmap_put(&m, 5, &a);
	ok(idmap_get(&m, 5) == &a, "a freed map can be used again");
	idmap_free(&m);
}

static void test_growth(void)
{
	struct idmap m;
	const uint32_t n = 50000;
	uint32_t bad = 0;

	idmap_init(&m);
	for (uint32_t i = 1; i <= n; i++)
		idmap_put(&m, i, val(i));
	is_int(m.len, n, "50000 sequential ids: len");
	ok(m.cap && (m.cap & (m.cap - 1)) == 0, "the capacity is a power of two (%zu)", m.cap);
	ok(m.len * 4 <= m.cap * 3, "the load stays at most 3/4 (%zu of %zu)", m.len, m.cap);
	for (uint32_t i = 1; i <= n; i++)
		if (idmap_get(&m, i) != val(i))
			bad++;
	is_int(bad, 0, "after growing, every id maps to its value");
	ok(idmap_get(&m, n + 1) == NULL && idmap_get(&m, 0x80000000u) == NULL, "ids never put are absent");
	/* ids that are multiples of a large power of two: they all share low bits */
	for (uint32_t i = 1; i <= 5000; i++)
		idmap_put(&m, i << 16, val(i + n));
	bad = 0;
	for (uint32_t i = 1; i <= 5000; i++)
		if (idmap_get(&m, i << 16) != val(i + n))
			bad++;
	for (uint32_t i = 1; i <= n; i++)
		if (i >= 65536 ? 0 : idmap_get(&m, i) != val(i))
			bad++;
	is_int(bad, 0, "5000 more ids sharing their low 16 bits: all found, the others intact");
	idmap_free(&m);
}

#define POOL 4000

/* Checks the map against the reference: len, every get, and one visit per present key. */
static int consistent(const struct idmap *m, const uint32_t *keys, void *const *ref)
{
	size_t present = 0, visited = 0, pos = 0;
	uint32_t id;
	void *v;
	int bad = 0;

	for (size_t i = 0; i < POOL; i++) {
		if (ref[i])
			present++;
		if (idmap_get(m, keys[i]) != ref[i])
			bad++;
	}
	if (m->len != present)
		bad++;
	while (idmap_next(m, &pos, &id, &v)) {
		size_t i;

		visited++;
		for (i = 0; i < POOL && keys[i] != id; i++)
			;
		if (i == POOL || ref[i] != v)
			bad++;
	}
	if (visited != present)
		bad++;
	return bad;
}

static void test_random(void)
{
	static uint32_t keys[POOL];
	static void *ref[POOL];
	struct idmap m;
	int bad_ops = 0, bad_checks = 0, checks = 0;
	long puts = 0, dels = 0;

	/* half small consecutive pids (long probe runs), half random 32-bit ids */
	for (size_t i = 0; i < POOL; i++) {
		uint32_t k;
		size_t j;

		do {
			k = i < POOL / 2 ? (uint32_t)(i + 1) : rng() | 1u;
			for (j = 0; j < i && keys[j] != k; j++)
				;
		} while (j < i);
		keys[i] = k;
	}
	idmap_init(&m);
	for (long op = 0; op < 100000; op++) {
		size_t i = rng() % POOL;
		uint32_t r = rng() % 10;

		if (r < 5) {
			void *v = val((uint32_t)op);

			idmap_put(&m, keys[i], v);
			ref[i] = v;
			puts++;
		} else if (r < 8) {
			if (idmap_del(&m, keys[i]) != ref[i])
				bad_ops++;
			ref[i] = NULL;
			dels++;
		} else if (idmap_get(&m, keys[i]) != ref[i]) {
			bad_ops++;
		}
		if (op % 1000 == 999) {
			checks++;
			if (consistent(&m, keys, ref))
				bad_checks++;
		}
	}
	is_int(bad_ops, 0, "100000 random put/del/get (seeded): every del and get returns the reference's value");
	is_int(bad_checks, 0, "every 1000 operations: len, all gets and one visit per key match the reference");
	ok(checks == 100 && puts > 40000 && dels > 25000, "the random run did what it says (%ld puts, %ld dels)",
	   puts, dels);
	/* delete everything left, in pool order */
	for (size_t i = 0; i < POOL; i++) {
		if (idmap_del(&m, keys[i]) != ref[i])
			bad_ops++;
		ref[i] = NULL;
	}
	ok(bad_ops == 0 && m.len == 0 && consistent(&m, keys, ref) == 0, "deleting every key empties the map");
	idmap_free(&m);
}

static void test_iteration(void)
{
	struct idmap m;
	static unsigned char seen[3001];
	size_t pos = 0;
	uint32_t id;
	void *v;
	int bad = 0, visits = 0;

	idmap_init(&m);
	for (uint32_t i = 1; i <= 3000; i++)
		idmap_put(&m, i * 7919u, val(i));
	while (idmap_next(&m, &pos, &id, &v)) {
		uint32_t i = id / 7919u;

		visits++;
		if (id % 7919u || i < 1 || i > 3000 || v != val(i) || seen[i]++)
			bad++;
	}
	ok(visits == 3000 && bad == 0, "iteration visits each of 3000 keys exactly once, with its value (%d visits)",
	   visits);
	ok(!idmap_next(&m, &pos, &id, &v), "iteration stays finished");
	pos = 0;
	ok(idmap_next(&m, &pos, NULL, NULL), "iteration accepts NULL id and value pointers");
	idmap_free(&m);
	pos = 0;
	ok(!idmap_next(&m, &pos, &id, &v), "an empty map has nothing to visit");
}

/* Deletes while iterating, like retire(): delete, then pos-- so that the entry shifted into the
 * freed slot is visited. Every entry that is not deleted must survive and be visited. */
static void test_delete_while_iterating(void)
{
	int lost = 0, missed = 0, bad_del = 0, wrong_len = 0, twice = 0;

	for (int trial = 0; trial < 300; trial++) {
		struct idmap m;
		uint32_t n = 20 + rng() % 3000;
		uint32_t base = (uint32_t)trial * 100000u + 1u;
		unsigned char *visits = calloc(n, 1);
		uint32_t modulus = 2 + rng() % 4;
		size_t pos = 0, kept = 0;
		uint32_t id;
		void *v;

		idmap_init(&m);
		for (uint32_t i = 0; i < n; i++)
			idmap_put(&m, mix(base + i), val(i));
		while (idmap_next(&m, &pos, &id, &v)) {
			uint32_t i = (uint32_t)((uintptr_t)v / 8u - 1u);

			if (i >= n || mix(base + i) != id) {
				bad_del++;
				continue;
			}
			if (visits[i] < 255)
				visits[i]++;
			if (i % modulus == 0) {
				if (idmap_del(&m, id) != v)
					bad_del++;
				pos--;
			}
		}
		for (uint32_t i = 0; i < n; i++) {
			void *got = idmap_get(&m, mix(base + i));

			if (visits[i] == 0)
				missed++;
			if (i % modulus == 0) {
				if (got != NULL)
					bad_del++;
				continue;
			}
			if (got != val(i))
				lost++;
			else
				kept++;
			if (visits[i] > 1)
				twice++;
		}
		if (m.len != kept)
			wrong_len++;
		idmap_free(&m);
		free(visits);
	}
	is_int(lost, 0, "deleting during iteration (delete, pos--): no entry that was kept is lost");
	is_int(missed, 0, "deleting during iteration: every entry is visited at least once");
	is_int(bad_del, 0, "deleting during iteration: each deletion returns its value and the id is gone");
	is_int(wrong_len, 0, "deleting during iteration: len equals the number of entries kept");
	if (twice)
		printf("# %d kept entries were visited twice (a wrapped probe run shifted them forward; "
		       "harmless for retire())\n", twice);
}

int main(void)
{
	test_basic();
	test_growth();
	test_random();
	test_iteration();
	test_delete_while_iterating();
	return tap_done();
}
