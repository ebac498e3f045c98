/* acctstate.h — the states of the kernel.task_delayacct switch, as a snapshot carries them and
 * delayacct.h reads them. */
#ifndef DELAYTOP_ACCTSTATE_H
#define DELAYTOP_ACCTSTATE_H

enum {
	DELAYACCT_UNKNOWN = -1,
	DELAYACCT_OFF = 0,
	DELAYACCT_ON = 1,
};

#endif
