/* stackrun.h — command mode's --why: the off-CPU stacks of a command's processes over its whole
 * run, named while the processes live (a reading a scan) and summed by state and frames, for the
 * report's "where it waited". Loads the eBPF side through the kernel edge (kernelops.h), which
 * says why in one sentence when it cannot. */
#ifndef DELAYTOP_STACKRUN_H
#define DELAYTOP_STACKRUN_H

#include <stddef.h>
#include <stdint.h>

#include "stacks.h"

/* Different stacks a run keeps at most; the time of others is counted as not kept. */
#define STACKRUN_MAX 4096

struct stackrun;

/* A stack of the run: its frames named, innermost first. */
struct stackrun_stack {
	uint32_t state; /* enum stk_state */
	uint64_t ns, count;
	size_t nframes;
	char **frames;
};

/* Loads the programs with stacks, selecting self (delaytop: what it starts next is followed from
 * its birth, and its own stacks are left out): 0, or a negative errno with one sentence in err. */
int stackrun_open(struct stackrun **out, uint32_t self, char *err, size_t errlen);
/* Adds processes (tgids) whose stacks are taken from now on; the processes they fork are taken
 * from their birth (the kernel follows them), and none is taken out. Their files are read now,
 * so that their frames are named even when they end before the next read. */
void stackrun_select(struct stackrun *s, const uint32_t *tgids, size_t n);
/* Reads the stacks since the last read, names their frames and adds them to the run's. */
void stackrun_read(struct stackrun *s);
/* The run's stacks, by time descending; *lost: off-CPU times and stacks that did not fit (the
 * kernel's maps, or STACKRUN_MAX). Owned by s. */
const struct stackrun_stack *stackrun_stacks(struct stackrun *s, size_t *n, uint64_t *lost);
void stackrun_close(struct stackrun *s);

#endif
