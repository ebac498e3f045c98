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

#endif
