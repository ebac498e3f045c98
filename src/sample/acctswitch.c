/* acctswitch.c — the delay-accounting switch for the front ends. */
#include "config.h"

#include "acctswitch.h"
#include "delayacct.h"

int acctswitch_state(void)
{
	return delayacct_read();
}

int acctswitch_set(int on)
{
	return delayacct_write(on);
}
