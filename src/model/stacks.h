/* stacks.h — the off-CPU stacks the eBPF side (--why) takes of the selected tasks: one
 * interval's entries as read from the kernel (each a task or process, the state it waited in,
 * its kernel and user frames as addresses, the time and the count), and a row's top stacks with
 * their frames named. Pure code: the loader fills a batch, the sampler names the frames through
 * the kernel edge and gives each row its stacks (stackrows.h), the front ends print them.
 *
 * Frames are innermost first: the kernel's, then the user's. */
#ifndef DELAYTOP_STACKS_H
#define DELAYTOP_STACKS_H

#include <stddef.h>
#include <stdint.h>

/* The states a task leaves the CPU in, numbered as the eBPF programs do (whyabi.h). */
enum stk_state { STK_RUNNABLE, STK_D, STK_S, STK_STATES };

/* The tasks or processes whose stacks are taken at once, at most (the kernel's filter map). */
#define STK_SELECT_MAX 4096

/* The stacks a row shows at most, by time. */
#define STK_TOP 8

/* One (task, state, stacks) of an interval as read. */
struct stk_entry {
	uint32_t id;        /* the tid or the tgid it was selected by */
	uint32_t tgid;      /* its process (whose memory the user frames are in) */
	uint32_t state;     /* enum stk_state */
	uint64_t ns, count; /* time off the CPU and times it left */
	uint32_t at;        /* its first frame in the batch's pc[] */
	uint16_t nk, nu;    /* kernel frames, then user frames */
	int8_t klost, ulost; /* the stack was not taken: lost (the map had no room) */
};

/* An interval's entries, and what did not fit since the programs were loaded. */
struct stk_batch {
	struct stk_entry *e;
	size_t n, cap;
	uint64_t *pc; /* the frames' addresses */
	size_t npc, cappc;
	uint64_t lost_entries; /* off-CPU times whose map was full */
	uint64_t lost_stacks;  /* stacks not kept, or gone before they were read */
};

/* One stack of a row, its frames named. */
struct stk_stack {
	double ms;
	uint64_t count;
	uint32_t state;
	size_t nframes;
	const char *const *frames; /* innermost first */
	size_t nkernel;            /* the first nkernel frames are the kernel's; 0: not known */
};

/* A row's top stacks, by ms descending. */
struct stk_list {
	size_t n;
	const struct stk_stack *s;
};

/* The letter of a state as ps shows it ("R", "D", "S"), or "?". */
const char *stk_state_name(uint32_t state);

/* Appends an entry with nk kernel and nu user frames (copied from k and u); returns it. */
struct stk_entry *stk_batch_push(struct stk_batch *b, uint32_t id, uint32_t tgid, uint32_t state,
				 const uint64_t *k, size_t nk, const uint64_t *u, size_t nu);
/* Empties b, keeping its memory and its counts of what was lost. */
void stk_batch_clear(struct stk_batch *b);
void stk_batch_free(struct stk_batch *b);

/* Whether a kernel frame is the tracing's own (the program, the tracepoint's glue), above the
 * scheduler's frames: these lead every stack and say nothing of the wait. */
int stk_tracing_frame(const char *name);

/* Sorts idx[0..n) (indexes into b->e) by time descending, then count, then index. */
void stk_sort(const struct stk_batch *b, size_t *idx, size_t n);

/* ---- names ---- */

/* A symbol table: addresses sorted ascending, each with its name. */
struct stk_sym {
	uint64_t addr;
	const char *name;
};

/* Sorts syms[0..n) by address. */
void stk_syms_sort(struct stk_sym *syms, size_t n);
/* The symbol that contains addr: the last one at or below it, or NULL when addr is below the
 * first. (A table without sizes cannot say where the last symbol ends.) */
const struct stk_sym *stk_syms_find(const struct stk_sym *syms, size_t n, uint64_t addr);

/* A frame's name: "NAME+0xOFF" (name given), "MODULE+0xOFF" (only the module known) or
 * "[unknown] 0xADDR" (neither). Into buf; returns buf. */
const char *stk_frame_format(char *buf, size_t size, const char *name, uint64_t off, const char *module,
			     uint64_t modoff, uint64_t addr);

#endif
