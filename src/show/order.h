/* order.h — the order of rows: sort keys by name and a sort that keeps unavailable values last.
 * Pure code. */
#ifndef DELAYTOP_ORDER_H
#define DELAYTOP_ORDER_H

#include <stddef.h>

#include "columns.h"

/* The column a sort key names ("io", "total", "pid", ...), or -1. */
int order_find(const char *key);

/* The sort keys as one comma-separated list, for messages and help. */
const char *order_keys(void);

/* Sorts rows[0..n) (pointers into a snapshot) by column col. Unavailable values come last in
 * either direction; ties go by pid, then tid. */
void order_sort(const struct row **rows, size_t n, int col, int reverse, const struct display *d);

/* The memory of a sort, kept for the next one: sorting 100,000 rows needs 6 MB, and memory never
 * touched before costs more to fault in than the sort itself. */
struct keyed;
struct order_buf {
	struct keyed *keys, *scratch;
	size_t cap;
};
/* order_sort() with b's memory, grown as needed. */
void order_sort_in(struct order_buf *b, const struct row **rows, size_t n, int col, int reverse,
		   const struct display *d);
void order_buf_free(struct order_buf *b);

#endif
