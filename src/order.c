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
	static char keys[256];
	int cols[COL_COUNT];

	if (keys[0])
		return keys;
	/* the columns by their rank in the list */
	for (int c = 0; c < COL_COUNT; c++) {
		int i = c;

		for (; i > 0 && column_def(cols[i - 1]).rank > column_def(c).rank; i--)
			cols[i] = cols[i - 1];
		cols[i] = c;
	}
	for (int i = 0; i < COL_COUNT; i++) {
		if (i)
			strcat(keys, ", ");
		strcat(keys, column_def(cols[i]).key);
	}
	return keys;
}

/* A row with its sort key, ready for comparisons that are all integer ones: numbers become an
 * unsigned key that orders like the number (unavailable last), names stay strings. */
struct keyed {
	uint64_t k;
	uint64_t id; /* pid << 32 | tid: the tie-break */
	uint32_t pid, tid;
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

static int by_id(const struct keyed *a, const struct keyed *b)
{
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return 0;
}

/* qsort has no context argument: the direction of names is in the sign of two comparators. */
static int by_name(const void *pa, const void *pb, int sign)
{
	const struct keyed *a = pa, *b = pb;
	int c = strcmp(a->s ? a->s : "", b->s ? b->s : "") * sign;

	return c ? c : by_id(a, b);
}

static int by_name_up(const void *a, const void *b)
{
	return by_name(a, b, 1);
}

static int by_name_down(const void *a, const void *b)
{
	return by_name(a, b, -1);
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

/* Sorts by k, then pid, then tid: the order by_number gives, in linear time. */
static struct keyed *radix_sort(struct keyed *k, struct keyed *scratch, size_t n)
{
	static const size_t fields[] = { offsetof(struct keyed, id), offsetof(struct keyed, k) };

	for (size_t f = 0; f < 2; f++)
		for (unsigned shift = 0; shift < 64; shift += 8)
			radix_pass(&k, &scratch, n, fields[f], shift);
	return k;
}

void order_sort(const struct row **rows, size_t n, int col, int reverse, const struct display *d)
{
	struct keyed *k = xmalloc((n ? n : 1) * sizeof(*k));
	char buf[32];
	enum column_value_kind value = column_def(col).value;
	int descending = column_descending(col) != !!reverse;
	int names = value == VALUE_TEXT;

	for (size_t i = 0; i < n; i++) {
		k[i].r = rows[i];
		k[i].pid = rows[i]->pid;
		k[i].tid = rows[i]->tid;
		k[i].id = (uint64_t)rows[i]->pid << 32 | rows[i]->tid;
		/* user and command texts are the row's own strings, not buf */
		k[i].s = names ? column_text(rows[i], col, d, buf) : NULL;
		k[i].k = names ? 0 : order_key(value == VALUE_STATE ? rows[i]->state : column_value(rows[i], col, d), descending);
	}
	if (names) {
		qsort(k, n, sizeof(*k), descending ? by_name_down : by_name_up);
	} else {
		struct keyed *scratch = xmalloc((n ? n : 1) * sizeof(*scratch));
		struct keyed *sorted = radix_sort(k, scratch, n);

		if (sorted != k)
			memcpy(k, sorted, n * sizeof(*k));
		free(scratch);
	}
	for (size_t i = 0; i < n; i++)
		rows[i] = k[i].r;
	free(k);
}
