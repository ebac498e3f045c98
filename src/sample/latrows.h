/* latrows.h — the interval's waits that the eBPF side measured (latency.h's entries, one per task
 * and kind) given to the snapshot's rows: in thread mode each thread's own, in process mode the
 * sum of its process's threads (those that ended in the interval included, by the process the
 * kernel stored with each wait). A task whose row is gone by now gives its waits to its departed
 * row where there is one; waits of tasks without a row (not selected, or unseen) are counted and
 * left out. Pure code. */
#ifndef DELAYTOP_LATROWS_H
#define DELAYTOP_LATROWS_H

#include <stddef.h>
#include <stdint.h>

#include "idmap.h"
#include "latency.h"
#include "model.h"

struct latrows {
	struct idmap ids;        /* a row's id (tid or pid) -> its index + 1 */
	lat_mask *kinds;         /* per row: the kinds it waited on */
	lat_mask *lack;          /* per row: the kinds measured that it cannot have */
	size_t *at;              /* per row: its first histogram in h */
	size_t capkinds, caplack, capat;
	struct lat_hist *h;      /* the rows' histograms, each row's in kind order */
	size_t caph;
	struct lat_waits *w;     /* the rows' waits, those that have any */
	size_t capw;
	struct lat_waits unavail; /* shared by the rows without waits that lack kinds */
	size_t rowless;          /* entries of this interval that found no row */
};

/* Gives each of rows[0..nrows) its waits of b (row.lat; NULL when it had none and lacks no kind):
 * ids are tids (threads) or pids. measured: the kinds measured in the interval; a row whose last
 * reading lacks a delayacct kind (its task was forked while kernel.task_delayacct was 0) lacks it
 * here too. What the rows point to lives in lr until the next call. */
void latrows_attach(struct latrows *lr, const struct lat_batch *b, struct row *rows, size_t nrows, int threads,
		    lat_mask measured);

void latrows_free(struct latrows *lr);

#endif
