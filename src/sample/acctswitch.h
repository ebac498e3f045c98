/* acctswitch.h — the kernel.task_delayacct switch as a front end asks for it, outside a reading:
 * read for the screen's Ctrl-T question and command mode's warning, set by the screen's Ctrl-T.
 * A tick reads the switch through the sampler's seam (kernelops.h); this is the front ends' door
 * to it (delayacct.h), so that none of them includes the kernel edge. */
#ifndef DELAYTOP_ACCTSWITCH_H
#define DELAYTOP_ACCTSWITCH_H

#include "acctstate.h"

/* The switch now: DELAYACCT_ON, _OFF or _UNKNOWN. */
int acctswitch_state(void);
/* Sets the switch; returns 0 or a negative errno. */
int acctswitch_set(int on);

#endif
