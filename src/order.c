/* order.c — sorting rows. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "order.h"
#include "xalloc.h"

int order_find(const char *key)
{
	struct display d = { 0 };

	for (int c = 0; c < COL_COUNT; c++)
		if (strcmp(column_get(c, &d).key, key) == 0)
			return c;
	return -1;
}

const char *order_keys(void)
{
	static char keys[256];
	struct display d = { 0 };
	/* The order: total first, then the kinds, then the rest. */
	static const int cols[] = { COL_TOTAL, COL_KIND + 0, COL_KIND + 1, COL_KIND + 2, COL_KIND + 3,
				    COL_KIND + 4, COL_KIND + 5, COL_KIND + 6, COL_KIND + 7,
				    COL_PCPU, COL_ID, COL_USER, COL_STATE, COL_COMMAND };

	if (keys[0])
		return keys;
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		if (i)
			strcat(keys, ", ");
		strcat(keys, column_get(cols[i], &d).key);
	}
	return keys;
}

int order_descending(int col)
{
	return col != COL_ID && col != COL_USER && col != COL_STATE && col != COL_COMMAND;
}

/* A row with its sort key, ready for comparisons that are all integer ones: numbers become an
 * unsigned key that orders like the number (unavailable last), names stay strings. */
struct keyed {
	uint64_t k;
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

static int by_number(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;

	if (a->k != b->k)
		return a->k < b->k ? -1 : 1;
	return by_id(a, b);
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

void order_sort(const struct row **rows, size_t n, int col, int reverse, const struct display *d)
{
	struct keyed *k = xmalloc((n ? n : 1) * sizeof(*k));
	char buf[32];
	int descending = order_descending(col) != !!reverse;
	int names = col == COL_USER || col == COL_COMMAND;

	for (size_t i = 0; i < n; i++) {
		k[i].r = rows[i];
		k[i].pid = rows[i]->pid;
		k[i].tid = rows[i]->tid;
		/* user and command texts are the row's own strings, not buf */
		k[i].s = names ? column_text(rows[i], col, d, buf) : NULL;
		k[i].k = names ? 0 : order_key(col == COL_STATE ? rows[i]->state : column_value(rows[i], col, d), descending);
	}
	qsort(k, n, sizeof(*k), names ? (descending ? by_name_down : by_name_up) : by_number);
	for (size_t i = 0; i < n; i++)
		rows[i] = k[i].r;
	free(k);
}
