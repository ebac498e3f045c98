/* batch.h — printing snapshots as text (like top -b), CSV or JSON lines. */
#ifndef DELAYTOP_BATCH_H
#define DELAYTOP_BATCH_H

#include <stdio.h>

#include "columns.h"
#include "filter.h"
#include "listing.h"
#include "metrics.h"
#include "format.h"
#include "model.h"
#include "options.h"

struct batch_printer {
	enum output_format format;
	struct listing_spec spec; /* which rows, in which order, showing what */
	int header_done; /* CSV: the header row is out */
	struct outbuf out;
	struct listing list; /* the rows to print */
	struct metrics *metrics; /* --format openmetrics: the counters, from report to report */
};

void batch_init(struct batch_printer *b, const struct options *o);
void batch_free(struct batch_printer *b);

/* Prints one report of snap to f. Returns 0, or -1 when writing failed (a closed pipe). */
int batch_print(struct batch_printer *b, const struct snapshot *snap, FILE *f);

/* Formats the report into b->out without writing it (for tests). */
void batch_format(struct batch_printer *b, const struct snapshot *snap);

/* Prints the event of trigger t firing, with who stalled in snap (the reading made when it
 * fired): a text paragraph or a JSON line of type "event". Returns as batch_print. */
int batch_event(struct batch_printer *b, const struct snapshot *snap, const struct trigger_spec *t, FILE *f);
/* Formats it into b->out (for tests). */
void batch_format_event(struct batch_printer *b, const struct snapshot *snap, const struct trigger_spec *t);

#endif
