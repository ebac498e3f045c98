/* reccodec.h — one reading of a recording as bytes, and back. The writer (rec_encoder) keeps what
 * a reader will know after each reading and writes only what differs from what the reader will
 * predict (recformat.h): a task that did not change costs nothing. A key reading forgets all that
 * came before it and carries everything, so that reading can start there. The reader
 * (rec_decoder) applies the differences and builds a snapshot, its rates and totals made by the
 * same code as a live reading's. Pure code. */
#ifndef DELAYTOP_RECCODEC_H
#define DELAYTOP_RECCODEC_H

#include <stddef.h>
#include <stdint.h>

#include "cgtree.h"
#include "format.h"
#include "idmap.h"
#include "model.h"
#include "recformat.h"

/* Record types in the stream. */
enum { REC_KEY = 'K', REC_SAMPLE = 'S' };

/* What a reader knows after a reading: the slots of tasks and cgroups and the strings. */
struct rec_state {
	struct rec_head head;
	int have_head;
	struct rec_task *tasks;
	uint8_t *live;
	size_t ntasks, captasks;
	struct rec_cgroup *cgs;
	uint8_t *cglive;
	size_t ncgs, capcgs;
	char **strs; /* id i at strs[i]; strs[0] is NULL */
	size_t nstrs, capstrs;
};

void rec_state_init(struct rec_state *st);
void rec_state_clear(struct rec_state *st);
void rec_state_free(struct rec_state *st);

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
};

void rec_encoder_init(struct rec_encoder *e);
void rec_encoder_free(struct rec_encoder *e);
/* Appends snap as one record to out: a key reading when key is set (what the encoder knew is
 * forgotten first), else the differences from the reading before. */
void rec_encode(struct rec_encoder *e, const struct snapshot *snap, int key, struct outbuf *out);
/* Appends a key reading of what st knows (a reader's state after some reading): read, it gives
 * that reading again. */
void rec_encode_state(const struct rec_state *st, struct outbuf *out);

struct rec_decoder {
	struct rec_state st;
	const struct rec_schema *schema;
	struct row *rows;
	size_t caprows;
	struct task_rates *rates; /* per slot */
	size_t caprates;
	struct cgroup_facts *facts;
	size_t capfacts;
	struct cgtree tree;
	uint64_t samples; /* readings decoded since the last key */
};

void rec_decoder_init(struct rec_decoder *d, const struct rec_schema *schema);
void rec_decoder_free(struct rec_decoder *d);

/* Reads one record at p[0..n). Returns the bytes it took (>0), 0 when the bytes end before the
 * record does (more may come), or -1 when the record is damaged (err says how). type gets the
 * record's type, or 0 for a record skipped because no key record came before it. */
long rec_decode(struct rec_decoder *d, const uint8_t *p, size_t n, int *type, char *err, size_t errlen);
/* The snapshot of the reading decoded last; it lives until the next rec_decode. */
void rec_decoder_snapshot(struct rec_decoder *d, struct snapshot *snap);
/* The time of the reading decoded last, ns since the epoch. */
int64_t rec_decoder_wall(const struct rec_decoder *d);

#endif
