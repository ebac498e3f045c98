/* recencode.h — a reading as a record. The writer keeps what a reader will know after each
 * reading (recstate.h) and writes only what differs from what the reader will predict: a task
 * that did not change costs nothing. A key reading forgets all that came before it and carries
 * everything, so that reading can start there. Pure code. */
#ifndef DELAYTOP_RECENCODE_H
#define DELAYTOP_RECENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "format.h"
#include "idmap.h"
#include "model.h"
#include "recstate.h"

struct rec_strmap {
	uint32_t *ids; /* open addressing on the hash of the string; 0: free */
	size_t cap, len;
};

struct rec_encoder {
	struct rec_state st;
	struct idmap by_id;  /* (tid or pid) + 1 -> first slot + 1 with that id */
	uint32_t *chain;     /* per slot: the next slot + 1 with the same id */
	uint32_t *seen;      /* per slot: the sample that last had it */
	size_t capmeta;
	struct idmap cg_by_path; /* string id -> cgroup slot + 1 */
	uint32_t *cgseen;
	size_t capcgseen;
	struct rec_strmap strmap;
	uint32_t nsample;
	struct outbuf body;
	const struct row *const *stack_rows; /* the rows whose stacks the next record keeps */
	size_t nstack_rows;
};

void rec_encoder_init(struct rec_encoder *e);
void rec_encoder_free(struct rec_encoder *e);
/* The rows of the next snapshot given to rec_encode (pointers into its rows) whose off-CPU stacks
 * (row.stacks) it keeps; the others' are not written. Good for that one record. */
void rec_encoder_keep_stacks(struct rec_encoder *e, const struct row *const *rows, size_t n);
/* Appends snap as one record to out: a key reading when key is set (what the encoder knew is
 * forgotten first), else the differences from the reading before. */
void rec_encode(struct rec_encoder *e, const struct snapshot *snap, int key, struct outbuf *out);
/* Appends a key reading of what st knows (a reader's state after some reading): read, it gives
 * that reading again. */
void rec_encode_state(const struct rec_state *st, struct outbuf *out);

#endif
