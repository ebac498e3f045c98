/* order.c — sorting rows. */
#include "config.h"

#include <math.h>
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

struct keyed {
	double v;
	const char *s;
	const struct row *r;
};

static int by_id(const struct row *a, const struct row *b)
{
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return 0;
}

static int compare(const struct keyed *a, const struct keyed *b, int sign)
{
	int c;

	if (a->s || b->s) {
		c = strcmp(a->s ? a->s : "", b->s ? b->s : "") * sign;
	} else {
		if (isnan(a->v) != isnan(b->v))
			return isnan(a->v) ? 1 : -1; /* unavailable last, whatever the direction */
		c = isnan(a->v) || a->v == b->v ? 0 : a->v < b->v ? -sign : sign;
	}
	return c ? c : by_id(a->r, b->r);
}

/* qsort has no context argument; the comparison is cheap enough to specialise by sign. */
static int up(const void *a, const void *b)
{
	return compare(a, b, 1);
}

static int down(const void *a, const void *b)
{
	return compare(a, b, -1);
}

void order_sort(const struct row **rows, size_t n, int col, int reverse, const struct display *d)
{
	struct keyed *k = xmalloc((n ? n : 1) * sizeof(*k));
	char buf[32];
	int descending = order_descending(col) != !!reverse;

	for (size_t i = 0; i < n; i++) {
		k[i].r = rows[i];
		k[i].v = col == COL_STATE ? rows[i]->state : column_value(rows[i], col, d);
		/* user and command texts are the row's own strings, not buf */
		k[i].s = col == COL_USER || col == COL_COMMAND ? column_text(rows[i], col, d, buf) : NULL;
	}
	qsort(k, n, sizeof(*k), descending ? down : up);
	for (size_t i = 0; i < n; i++)
		rows[i] = k[i].r;
	free(k);
}
