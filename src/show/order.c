/* order.c — sorting rows. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "order.h"
#include "xalloc.h"

int order_find(const char *key)
{
	for (int c = 0; c < COL_COUNT; c++)
		if (strcmp(column_def(c).key, key) == 0)
			return c;
	return -1;
}

const char *order_keys(void)
{
	static char keys[1024];
	int cols[COL_COUNT], n;

	if (keys[0])
		return keys;
	n = column_sort_order(cols);
	for (int i = 0; i < n; i++) {
		if (i)
			strcat(keys, ", ");
		strcat(keys, column_def(cols[i]).key);
	}
	return keys;
}

/* A row with its sort key, ready for comparisons that are all integer ones: numbers become an
 * unsigned key that orders like the number (unavailable last), names their rank among the names. */
struct keyed {
	uint64_t k;
	uint64_t id; /* pid << 32 | tid: the tie-break */
	const char *s;
	const struct row *r;
};

/* Maps a double to a key in the same order, with NAN after everything. */
static uint64_t order_key(double v, int descending)
{
	uint64_t bits;

	if (isnan(v))
		return UINT64_MAX;
	if (v == 0)
		v = 0; /* -0 and 0 are one value */
	memcpy(&bits, &v, sizeof(bits));
	bits = (bits >> 63) ? ~bits : bits | (1ull << 63); /* IEEE order as unsigned order */
	if (descending)
		bits = ~bits;
	return bits == UINT64_MAX ? UINT64_MAX - 1 : bits;
}

/* A distinct name and where the rows' names point into the list of them. */
struct name {
	const char *s;
	uint32_t first; /* its index in the order the rows met it */
};

static int by_text(const void *pa, const void *pb)
{
	return strcmp(((const struct name *)pa)->s, ((const struct name *)pb)->s);
}

static uint64_t text_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* Names become numbers: the distinct names (threads share few: their process's) are sorted
 * once, and each row is keyed by its name's rank, so that rows then sort like numbers. */
static void rank_names(struct keyed *k, size_t n, int descending)
{
	size_t cap = 16, nd = 0;
	uint32_t *of = xmalloc((n ? n : 1) * sizeof(*of)), *rank;
	struct name *names = xmalloc((n ? n : 1) * sizeof(*names));
	int32_t *slot;

	while (cap < 2 * n)
		cap <<= 1;
	slot = xmalloc(cap * sizeof(*slot));
	memset(slot, 0xff, cap * sizeof(*slot)); /* -1: empty */
	for (size_t i = 0; i < n; i++) {
		const char *s = k[i].s ? k[i].s : "";
		size_t h = (size_t)text_hash(s) & (cap - 1);

		while (slot[h] >= 0 && strcmp(names[slot[h]].s, s) != 0)
			h = (h + 1) & (cap - 1);
		if (slot[h] < 0) {
			names[nd] = (struct name){ s, (uint32_t)nd };
			slot[h] = (int32_t)nd++;
		}
		of[i] = (uint32_t)slot[h];
	}
	qsort(names, nd, sizeof(*names), by_text);
	rank = xmalloc((nd ? nd : 1) * sizeof(*rank));
	for (size_t r = 0; r < nd; r++)
		rank[names[r].first] = (uint32_t)(descending ? nd - 1 - r : r);
	for (size_t i = 0; i < n; i++)
		k[i].k = rank[of[i]];
	free(rank);
	free(slot);
	free(names);
	free(of);
}

/* One pass of a least-significant-digit radix sort on byte `shift` of field: stable, so passes
 * from the least to the most significant byte sort by all of them. A byte that is the same in
 * every key (most are: pids are small, most delays are 0) costs only its count. */
static void radix_pass(struct keyed **from, struct keyed **to, size_t n, size_t field, unsigned shift)
{
	size_t count[256] = { 0 }, at = 0;

	for (size_t i = 0; i < n; i++)
		count[((*(const uint64_t *)((const char *)&(*from)[i] + field)) >> shift) & 0xff]++;
	for (int b = 0; b < 256; b++) {
		size_t c = count[b];

		if (c == n)
			return; /* one bucket holds all: the order stands */
		count[b] = at;
		at += c;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned b = ((*(const uint64_t *)((const char *)&(*from)[i] + field)) >> shift) & 0xff;

		(*to)[count[b]++] = (*from)[i];
	}
	struct keyed *swap = *from;
	*from = *to;
	*to = swap;
}

/* Sorts by k, then pid, then tid, in linear time. */
static struct keyed *radix_sort(struct keyed *k, struct keyed *scratch, size_t n)
{
	static const size_t fields[] = { offsetof(struct keyed, id), offsetof(struct keyed, k) };

	for (size_t f = 0; f < 2; f++)
		for (unsigned shift = 0; shift < 64; shift += 8)
			radix_pass(&k, &scratch, n, fields[f], shift);
	return k;
}

void order_sort_in(struct order_buf *b, const struct row **rows, size_t n, int col, int reverse,
		   const struct display *d)
{
	struct keyed *k, *sorted;
	char buf[32];
	enum column_value_kind value = column_def(col).value;
	int descending = column_descending(col) != !!reverse;
	int names = value == VALUE_TEXT;
	char (*texts)[32] = names && column_def(col).derived ? xmalloc((n ? n : 1) * sizeof(*texts)) : NULL;

	if (b->cap < n) {
		size_t cap = b->cap;

		b->keys = xgrow(b->keys, &b->cap, n, sizeof(*b->keys));
		b->scratch = xgrow(b->scratch, &cap, n, sizeof(*b->scratch));
	}
	k = b->keys;
	for (size_t i = 0; i < n; i++) {
		k[i].r = rows[i];
		k[i].id = (uint64_t)rows[i]->pid << 32 | rows[i]->tid;
		/* user and command texts are the row's own strings, not buf; a derived text has its own */
		k[i].s = names ? column_text(rows[i], col, d, texts ? texts[i] : buf) : NULL;
		k[i].k = names ? 0 : order_key(value == VALUE_STATE ? rows[i]->state : column_value(rows[i], col, d), descending);
	}
	if (names)
		rank_names(k, n, descending);
	free(texts);
	sorted = radix_sort(k, b->scratch, n);
	for (size_t i = 0; i < n; i++)
		rows[i] = sorted[i].r;
}

void order_sort(const struct row **rows, size_t n, int col, int reverse, const struct display *d)
{
	struct order_buf b = { 0 };

	order_sort_in(&b, rows, n, col, reverse, d);
	order_buf_free(&b);
}

void order_buf_free(struct order_buf *b)
{
	free(b->keys);
	free(b->scratch);
	memset(b, 0, sizeof(*b));
}
