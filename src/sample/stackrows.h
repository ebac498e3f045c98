/* stackrows.h — the interval's off-CPU stacks (stacks.h's batch, frames as addresses) given to
 * the snapshot's rows, each row its top STK_TOP stacks by time with their frames named. Rows
 * selected for stacks get a list (empty when they did not leave the CPU); other rows NULL. The
 * naming is the caller's (the kernel edge: kallsyms, the processes' ELF files), so that this
 * stays pure and the unit tests name frames themselves. */
#ifndef DELAYTOP_STACKROWS_H
#define DELAYTOP_STACKROWS_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "stacks.h"

/* Names one frame of process tgid into buf (user: a user frame, else a kernel frame), returning
 * buf. */
typedef const char *(*stk_namer)(void *arg, uint32_t tgid, uint64_t addr, int user, char *buf, size_t size);

struct stackrows {
	struct stk_list *lists;
	size_t caplists;
	struct stk_stack *stacks;
	size_t capstacks;
	const char **frames;
	size_t capframes;
	char *names; /* the frames' names, one after another */
	size_t lennames, capnames;
	size_t *idx;
	size_t capidx;
	uint32_t *ids; /* the ids named, sorted: ids[i]'s stacks are lists[i] */
	size_t nids, capids;
};

/* Names the top stacks of each of ids[0..nids) (sorted: the ids selected in the interval) of b,
 * frames named by name; they live in sr until the next call. The sampler names them as it reads,
 * before the rows are made (the screen makes its rows later, at the hand-over). */
void stackrows_name(struct stackrows *sr, const struct stk_batch *b, const uint32_t *ids, size_t nids,
		    stk_namer name, void *arg);

/* Gives each of rows[0..nrows) that is not departed and whose tid (threads) or pid was named its
 * list from sr, else NULL. */
void stackrows_give(const struct stackrows *sr, struct row *rows, size_t nrows, int threads);

/* Gives rows[0..nrows) their stacks of b: a row is matched by its tid (threads) or pid against
 * the entries' ids; sel[0..nsel) (sorted) are the ids that were selected in the interval. What
 * the rows point to lives in sr until the next call. (stackrows_name, then stackrows_give.) */
void stackrows_attach(struct stackrows *sr, const struct stk_batch *b, struct row *rows, size_t nrows,
		      int threads, const uint32_t *sel, size_t nsel, stk_namer name, void *arg);

void stackrows_free(struct stackrows *sr);

#endif
