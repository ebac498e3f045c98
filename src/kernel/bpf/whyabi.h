/* whyabi.h — what the eBPF programs (why.bpf.c) and their loader (whybpf.c, whymap.c) share: the
 * kinds of wait by number, the histogram's slots, and the key and value of the maps that hold a
 * generation of waits. Plain C types only: the same header is compiled for the BPF target, where
 * there is no libc, and for the host.
 *
 * The maps: a hash keyed by (tid, kind), one entry for each task and kind that waited in the
 * generation, holding the task's process, the sum and the longest of its waits and a log2
 * histogram of them. Two such maps take turns; an array of one map says which one the programs
 * fill now, and the loader swaps it at each reading. */
#ifndef DELAYTOP_WHYABI_H
#define DELAYTOP_WHYABI_H

/* The kinds, numbered as the delay kinds (delaykind.h's enum delay_kind), then blocked: the
 * loader checks that the numbers agree. */
#define WHY_KIND_CPU 0
#define WHY_KIND_IO 1
#define WHY_KIND_SWAPIN 2
#define WHY_KIND_RECLAIM 3
#define WHY_KIND_THRASHING 4
#define WHY_KIND_COMPACT 5
#define WHY_KIND_WPCOPY 6
#define WHY_KIND_IRQ 7
#define WHY_KIND_BLOCKED 8
#define WHY_KINDS 9

/* Slot i counts the waits of [2^i, 2^(i+1)) microseconds; slot 0 also those under 1 us, the
 * last slot every wait of 2^(WHY_SLOTS-1) us (16.8 s) or more. */
#define WHY_SLOTS 25

/* Entries a generation's map holds (each a task and kind that waited): beyond them a wait is
 * counted in not_fitted instead. The maps allocate an entry when it is first used. */
#define WHY_MAX_ENTRIES 262144

/* The slot of a wait of ns: floor(log2(us)), 0 under 2 us, at most the last. Plain arithmetic
 * without loops, for the BPF target; the unit tests hold it against latency.h's lat_slot_of. */
static inline unsigned int why_slot_of(unsigned long long ns)
{
	unsigned long long us = ns / 1000;
	unsigned int s = 0, shift;

	shift = (us > 0xffffffffULL) << 5;
	us >>= shift;
	s |= shift;
	shift = (us > 0xffffULL) << 4;
	us >>= shift;
	s |= shift;
	shift = (us > 0xffULL) << 3;
	us >>= shift;
	s |= shift;
	shift = (us > 0xfULL) << 2;
	us >>= shift;
	s |= shift;
	shift = (us > 0x3ULL) << 1;
	us >>= shift;
	s |= shift;
	s |= (unsigned int)(us >> 1);
	return s < WHY_SLOTS - 1 ? s : WHY_SLOTS - 1;
}

struct why_key {
	unsigned int tid;
	unsigned int kind; /* WHY_KIND_* */
};

struct why_val {
	unsigned int tgid;
	unsigned int pad;
	unsigned long long total_ns;
	unsigned long long max_ns;
	unsigned int slot[WHY_SLOTS]; /* the count of waits is their sum */
	unsigned int pad2;
};

/* ---- off-CPU stacks, for the selected tasks only ----
 *
 * User space names the tasks in a filter map (why_select: an id -> WHY_SEL_TID when the id is a
 * thread, WHY_SEL_TGID when it is a process). When such a task leaves the CPU, the programs take
 * its kernel and user stacks and the state it left in; when it runs again, the time it was off the
 * CPU is added to a hash keyed by (id, state, stack ids). Two such hashes take turns, as the
 * latency maps do. A stack's id is a hash of its frames, and a map from the id to the frames
 * holds the stacks used last (the frames compared, so that an id names one stack, where the
 * kernel's stack-trace map would drop a stack whose bucket another holds); it is shared, and the
 * least used stacks make room for new ones. */
#define WHY_SEL_TID 1
#define WHY_SEL_TGID 2
#define WHY_SELECT_MAX 4096  /* tasks or processes selected */
#define WHY_STACK_DEPTH 48   /* frames kept of a stack (deeper frames are cut) */
#define WHY_STACKS_MAX 8192  /* distinct stacks kept, kernel and user together: the used last */
#define WHY_OFF_MAX 16384    /* (task, state, stacks) entries a generation holds */

/* The state a task left the CPU in. */
#define WHY_STATE_R 0 /* runnable: preempted, or its sleep undone */
#define WHY_STATE_D 1 /* uninterruptible (D) */
#define WHY_STATE_S 2 /* interruptible sleep (S) */
#define WHY_STATES 3

struct why_off_key {
	unsigned int id;    /* a tid or a tgid, as selected */
	unsigned int state; /* WHY_STATE_* */
	long long kstack;   /* stack ids; negative: -EFAULT none (a kernel thread's user stack), else lost */
	long long ustack;
};

/* A stack's frames, innermost first, zeros after the last. */
struct why_frames {
	unsigned long long pc[WHY_STACK_DEPTH];
};

struct why_off_val {
	unsigned long long ns;    /* time off the CPU */
	unsigned long long count; /* times it left */
	unsigned int tgid;
	unsigned int pad;
};

/* What did not fit since loading: off-CPU times whose generation's map was full, and stacks
 * not kept (no memory, or another stack with their hash). */
struct why_stack_lost {
	unsigned long long entries;
	unsigned long long kstacks;
	unsigned long long ustacks;
};

#endif
