/* recdecode.h — a record read back: the differences applied to what this reader predicts
 * (recstate.h), and a snapshot built from it, its rates and totals made by the same code as a
 * live reading's. Pure code. */
#ifndef DELAYTOP_RECDECODE_H
#define DELAYTOP_RECDECODE_H

#include <stddef.h>
#include <stdint.h>

#include "cgtree.h"
#include "model.h"
#include "recstate.h"

struct rec_decoder {
	struct rec_state st;
	const struct rec_schema *schema;
	const struct rec_field **absent; /* our task fields the file lacks: each read as its none */
	size_t nabsent;
	struct row *rows;
	size_t caprows;
	struct task_rates *rates; /* per slot */
	size_t caprates;
	uint8_t *still; /* per slot: its rates are those of a reading whose counters had not moved
			   (rec_decode.c's unmoved), and it was not read since */
	size_t capstill;
	struct cgroup_facts *facts;
	size_t capfacts;
	struct cgtree tree;
	uint64_t samples; /* readings decoded since the last key */
	size_t listed;    /* tasks the last record carried (new or changed) */
	size_t max_tasks, max_cgroups, max_strings; /* slots and string ids a record may name */
};

void rec_decoder_init(struct rec_decoder *d, const struct rec_schema *schema);
/* Bounds the slots and string ids the records may name (and so what a reader allocates) by what a
 * file of file_bytes bytes could honestly hold; a larger one is damage. */
void rec_decoder_bound(struct rec_decoder *d, uint64_t file_bytes);
void rec_decoder_free(struct rec_decoder *d);

/* Reads one record at p[0..n). Returns the bytes it took (>0), 0 when the bytes end before the
 * record does (more may come), or -1 when the record is damaged (err says how: a malformed
 * payload, or a value out of its field's range, which no front end then sees). type gets the
 * record's type, or 0 for a record skipped because no key record came before it. */
long rec_decode(struct rec_decoder *d, const uint8_t *p, size_t n, int *type, char *err, size_t errlen);
/* As rec_decode, but only the record's header facts (rec_state's head: its time, pressure and
 * events), its checksum unchecked and the rest of its payload skipped: for a pass over a whole
 * file, on a decoder of its own (its tasks and cgroups are not kept). */
long rec_decode_head(struct rec_decoder *d, const uint8_t *p, size_t n, int *type, char *err, size_t errlen);
/* The snapshot of the reading decoded last; it lives until the next rec_decode. */
void rec_decoder_snapshot(struct rec_decoder *d, struct snapshot *snap);
/* The time of the reading decoded last, ns since the epoch. */
int64_t rec_decoder_wall(const struct rec_decoder *d);

#endif
