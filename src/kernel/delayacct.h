/* delayacct.h — the kernel.task_delayacct switch: its state now, whether the kernel booted with
 * it on, and switching it. The one module that reads or writes it; main, the screen, command mode
 * and the sampler ask it. */
#ifndef DELAYTOP_DELAYACCT_H
#define DELAYTOP_DELAYACCT_H

#include "acctstate.h"

/* The state the text of the sysctl file says: a number and an optional newline; anything else
 * (an empty file, say) is DELAYACCT_UNKNOWN, not off. Pure. */
int delayacct_parse(const char *text);

/* The switch now: DELAYACCT_ON, DELAYACCT_OFF, or DELAYACCT_UNKNOWN when it cannot be read
 * (before 5.14 the kernel has no such switch, and accounting is on unless booted with
 * nodelayacct). */
int delayacct_read(void);

/* Whether a kernel command line (the text of /proc/cmdline) switches delay accounting on at boot:
 * a parameter that starts with "delayacct", as the kernel matches it, before any "--" (what
 * follows is for init). Pure. */
int delayacct_boot_param(const char *cmdline);

/* Whether the switch exists and the kernel booted with it off (no delayacct parameter in
 * /proc/cmdline): 1, or 0 when not or when that cannot be read. */
int delayacct_off_at_boot(void);

/* Sets the switch; returns 0 or a negative errno. */
int delayacct_write(int on);

#endif
