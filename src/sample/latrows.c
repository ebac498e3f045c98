/* latrows.c — the interval's waits given to the rows (see latrows.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "latrows.h"
#include "xalloc.h"

static uint32_t row_id(const struct row *r, int threads)
{
	return threads ? r->tid : r->pid;
}

/* The rows by id: a live row before a departed one of the same id (a reused id). */
static void index_rows(struct latrows *lr, const struct row *rows, size_t nrows, int threads)
{
	idmap_free(&lr->ids);
	for (size_t i = 0; i < nrows; i++) {
		uint32_t id = row_id(&rows[i], threads);
		void *had;

		if (!id)
			continue; /* the departed tasks summed */
		had = idmap_get(&lr->ids, id);
		if (had && !rows[(uintptr_t)had - 1].departed)
			continue;
		idmap_put(&lr->ids, id, (void *)(uintptr_t)(i + 1));
	}
}

/* The row index an entry belongs to, or -1. */
static long entry_row(const struct latrows *lr, const struct lat_entry *e, int threads)
{
	void *at = idmap_get(&lr->ids, threads ? e->tid : e->tgid);

	return at ? (long)((uintptr_t)at - 1) : -1;
}

/* The kinds a row lacks of those measured: the delayacct kinds its last reading does not have. */
static lat_mask row_unavail(const struct row *r, lat_mask measured)
{
	lat_mask lack = 0;

	if (!r->last)
		return 0;
	for (int k = 0; k < DK_COUNT; k++)
		if ((LAT_DELAYACCT_KINDS & measured & (1u << k)) && !(r->last->kind_total & (1u << k)))
			lack |= (lat_mask)(1u << k);
	return lack;
}

static int below(lat_mask kinds, uint32_t kind)
{
	return __builtin_popcount((unsigned)kinds & ((1u << kind) - 1));
}

void latrows_attach(struct latrows *lr, const struct lat_batch *b, struct row *rows, size_t nrows, int threads,
		    lat_mask measured)
{
	size_t nh = 0, nw = 0;

	lr->rowless = 0;
	index_rows(lr, rows, nrows, threads);
	lr->kinds = xgrow(lr->kinds, &lr->capkinds, nrows ? nrows : 1, sizeof(*lr->kinds));
	lr->lack = xgrow(lr->lack, &lr->caplack, nrows ? nrows : 1, sizeof(*lr->lack));
	lr->at = xgrow(lr->at, &lr->capat, nrows ? nrows : 1, sizeof(*lr->at));
	memset(lr->kinds, 0, nrows * sizeof(*lr->kinds));
	lr->unavail = (struct lat_waits){ .unavail = (lat_mask)(measured & LAT_DELAYACCT_KINDS) };
	for (size_t i = 0; i < b->n; i++) { /* which kinds each row has */
		long r = entry_row(lr, &b->e[i], threads);

		if (r < 0)
			lr->rowless++;
		else
			lr->kinds[r] |= (lat_mask)(1u << b->e[i].kind);
	}
	for (size_t i = 0; i < nrows; i++) { /* where each row's histograms go */
		lr->lack[i] = row_unavail(&rows[i], measured);
		lr->at[i] = nh;
		nh += (size_t)__builtin_popcount(lr->kinds[i]);
		nw += lr->kinds[i] || (lr->lack[i] && lr->lack[i] != lr->unavail.unavail);
	}
	lr->h = xgrow(lr->h, &lr->caph, nh ? nh : 1, sizeof(*lr->h));
	lr->w = xgrow(lr->w, &lr->capw, nw ? nw : 1, sizeof(*lr->w));
	memset(lr->h, 0, nh * sizeof(*lr->h));
	for (size_t i = 0; i < b->n; i++) { /* a process's threads add up */
		long r = entry_row(lr, &b->e[i], threads);

		if (r >= 0)
			lat_add(&lr->h[lr->at[r] + (size_t)below(lr->kinds[r], b->e[i].kind)], &b->e[i].h);
	}
	nw = 0;
	for (size_t i = 0; i < nrows; i++) {
		rows[i].lat = NULL;
		if (lr->kinds[i] || (lr->lack[i] && lr->lack[i] != lr->unavail.unavail)) {
			lr->w[nw] = (struct lat_waits){ .kinds = lr->kinds[i], .unavail = lr->lack[i],
							.h = &lr->h[lr->at[i]] };
			rows[i].lat = &lr->w[nw++];
		} else if (lr->lack[i]) {
			rows[i].lat = &lr->unavail; /* every delayacct kind measured, as most rows lack */
		}
	}
}

void latrows_free(struct latrows *lr)
{
	idmap_free(&lr->ids);
	free(lr->kinds);
	free(lr->lack);
	free(lr->at);
	free(lr->h);
	free(lr->w);
	memset(lr, 0, sizeof(*lr));
}
