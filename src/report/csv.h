/* csv.h — reports as CSV: the header line once, then one line a task or cgroup row, with every
 * field whatever the columns shown (the fields are described in the man page). Pure code. */
#ifndef DELAYTOP_CSV_H
#define DELAYTOP_CSV_H

#include <stddef.h>

#include "columns.h"
#include "format.h"
#include "model.h"

/* Appends the lines of rows[0..n) of snap to o under display d, after the header line unless
 * *header_done (which it then sets). */
void csv_report(struct outbuf *o, const struct snapshot *snap, const struct row *const *rows, size_t n,
                const struct display *d, int *header_done);

#endif
