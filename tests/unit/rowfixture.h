/* rowfixture.h — hand-built rows for the unit tests of the pure row code. */
#ifndef DELAYTOP_TEST_ROWFIXTURE_H
#define DELAYTOP_TEST_ROWFIXTURE_H

#include <math.h>
#include <string.h>

#include "model.h"

/* A process row (tid 0) or a thread row with CPU and I/O shares; NAN: unavailable. */
static inline struct row make_row(uint32_t pid, uint32_t tid, const char *comm, double cpu, double io)
{
	struct row r;

	memset(&r, 0, sizeof(r));
	row_fields_none(&r.fields);
	r.pid = pid;
	r.tid = tid;
	r.uid = 1000;
	r.state = 'S';
	r.user = "user";
	r.comm = comm;
	rates_unavailable(&r.r);
	r.r.kind[DK_CPU].pct = (float)cpu;
	r.r.kind[DK_IO].pct = (float)io;
	r.r.total_pct = isnan(cpu) && isnan(io) ? NAN : (float)((isnan(cpu) ? 0 : cpu) + (isnan(io) ? 0 : io));
	return r;
}

#endif
