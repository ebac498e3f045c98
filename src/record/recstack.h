/* recstack.h — --why's off-CPU stacks in a record (format 1.4 on): a section after the waits',
 * written in a reading whose stacks were taken (snapshot.why.stacks), holding what did not fit
 * since the start and the stacks of the tasks the recorder chose (those a trigger's event names:
 * recorder.c), each task its stacks by time with their state, time, count and frames. The frames
 * are the names given at record time, so a replay on another machine reads the same ones; each
 * name is written once a record, its stacks naming it by index. Not predicted: each reading's
 * stacks are its own. A reader of 1.3 ignores the section (bytes after the waits); a file without
 * it replays without stacks. doc/recording.md describes it. Pure code. */
#ifndef DELAYTOP_RECSTACK_H
#define DELAYTOP_RECSTACK_H

#include <stddef.h>
#include <stdint.h>

#include "format.h"
#include "stacks.h"

/* A reader's bounds: a frame's name at most this long, a stack at most this many frames (the
 * kernel's 48 and the user's 48, and the marks of a lost one, with room to spare). */
#define REC_STK_NAME_MAX 1024
#define REC_STK_FRAMES_MAX 256

/* One stack as recorded: its frames are fr[first..first + n), indexes into the names. */
struct rec_stk_one {
	uint64_t ns, count;
	uint32_t state;
	size_t first, n;
};

/* One task's stacks: s[first..first + n). */
struct rec_stk_task {
	uint32_t slot;
	size_t first, n;
};

/* The stacks of the last reading, as a reader (or the writer) has them. */
struct rec_stk {
	int present;   /* the reading's stacks were taken: the section is there */
	uint64_t lost; /* snapshot.why.stacks_lost */
	char *pool;    /* the names, each ending in a NUL */
	size_t lenpool, cappool;
	size_t *name_at; /* each name's offset in pool */
	size_t nnames, capnames;
	uint32_t *hash; /* writing: 1 + name index by the name's hash, 0 free (open addressing) */
	size_t caphash;
	uint32_t *fr; /* the stacks' frames, as name indexes */
	size_t nfr, capfr;
	struct rec_stk_one *s;
	size_t ns, caps;
	struct rec_stk_task *t; /* by ascending slot once read */
	size_t nt, capt;
	/* made by reading, for the rows: */
	const char **names; /* per frame in fr */
	size_t capnames_out;
	struct stk_stack *out; /* per stack */
	size_t capout;
	struct stk_list *lists; /* per task */
	size_t caplists;
	int made; /* the lists are those of the section read last */
};

/* No stacks: a record without the section. */
void rec_stk_clear(struct rec_stk *l);
void rec_stk_free(struct rec_stk *l);

/* Starts a section: the reading's stacks were taken, lost is what did not fit since the start. */
void rec_stk_start(struct rec_stk *l, uint64_t lost);
/* Adds task slot's stacks (in any order of slots; rec_stk_put sorts them, a slot twice is
 * written once); frame names are kept once. */
void rec_stk_add(struct rec_stk *l, uint32_t slot, const struct stk_list *list);

/* Appends the section (nothing when not started). */
void rec_stk_put(struct outbuf *o, struct rec_stk *l);

/* Reads a section at *p (up to end) into l; slots of max_slots or more, a state delaytop does not
 * know, a name longer than REC_STK_NAME_MAX or holding a NUL, a frame index past the names, a
 * stack of more than REC_STK_FRAMES_MAX frames, a count beyond the bytes left or slots not
 * ascending are damage. Returns 0, or -1 (l then holds nothing). */
int rec_stk_get(struct rec_stk *l, const uint8_t **p, const uint8_t *end, size_t max_slots);

/* Task slot's stacks of the last reading read, or NULL; valid until l changes. */
const struct stk_list *rec_stk_of(const struct rec_stk *l, size_t slot);

#endif
