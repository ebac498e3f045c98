/* forkedoff.h — which tasks may have been forked while kernel.task_delayacct was 0. Such a task
 * never gets delays other than CPU delay, even after the switch goes on, and the kernel reports
 * zeros for them: the sampler shows them as unavailable. Keeps the periods in which readings found
 * the switch off. Pure code. */
#ifndef DELAYTOP_FORKEDOFF_H
#define DELAYTOP_FORKEDOFF_H

#include <stdint.h>

/* Periods kept; more are merged with the oldest. */
#define FORKEDOFF_WINDOWS 8

/* From the latest reading that found the switch on (0: none) to the first that found it on
 * again (UINT64_MAX: not yet), on both clocks task start times are on. */
struct off_window {
	uint64_t lo_mono, lo_boot, hi_mono, hi_boot;
};

struct forkedoff {
	struct off_window off[FORKEDOFF_WINDOWS]; /* oldest first */
	int noff, open; /* open: the last window has not ended yet */
	uint64_t on_mono, on_boot; /* the latest reading that found the switch on, 0 when none */
	uint64_t off_mono; /* the latest reading that found the switch off, 0 when none: a wait of a
			      kind other than CPU counted later began after it */
};

void forkedoff_init(struct forkedoff *f);

/* Notes a reading at (mono, boot) that found the switch in state (DELAYACCT_*): a window opens at
 * a reading that finds it off and closes at the next that finds it on. */
void forkedoff_track(struct forkedoff *f, int state, uint64_t mono, uint64_t boot);

/* The switch was off from boot until boot_hi (both clocks agree at boot). */
void forkedoff_since_boot(struct forkedoff *f, uint64_t boot_hi);

/* Whether a task that started at start (on CLOCK_BOOTTIME when boot, else CLOCK_MONOTONIC) may
 * have been forked while the switch was 0. A process (process) may have such threads when it
 * lived in a window at all: when it started before one ended. */
int forkedoff_maybe(const struct forkedoff *f, uint64_t start, int boot, int process);

#endif
