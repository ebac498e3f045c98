/* test_forkedoff.c — the periods in which kernel.task_delayacct was off, and which tasks may have
 * been forked in one. */
#include "config.h"

#include "delayacct.h"
#include "forkedoff.h"
#include "tap.h"

int main(void)
{
	struct forkedoff f;

	forkedoff_init(&f);
	ok(!forkedoff_maybe(&f, 5, 0, 0) && !forkedoff_maybe(&f, 5, 1, 1), "never off: no task may have been forked off");
	forkedoff_track(&f, DELAYACCT_ON, 100, 1100);
	forkedoff_track(&f, DELAYACCT_OFF, 200, 1200);
	ok(forkedoff_maybe(&f, 150, 0, 0), "a thread started after the last reading that found it on may be");
	ok(!forkedoff_maybe(&f, 90, 0, 0), "a thread started before that reading is not");
	ok(forkedoff_maybe(&f, 90, 0, 1), "but a process that lived then may have such threads");
	ok(forkedoff_maybe(&f, 1150, 1, 0) && !forkedoff_maybe(&f, 1090, 1, 0), "the boot clock has its own bounds");
	forkedoff_track(&f, DELAYACCT_OFF, 250, 1250);
	is_int(f.noff, 1, "a second reading that finds it off opens no new window");
	forkedoff_track(&f, DELAYACCT_ON, 300, 1300);
	ok(forkedoff_maybe(&f, 299, 0, 0) && !forkedoff_maybe(&f, 301, 0, 0),
	   "the window ends at the reading that finds it on again");
	forkedoff_track(&f, DELAYACCT_UNKNOWN, 400, 1400);
	is_int(f.noff, 1, "an unknown switch opens no window");
	for (int i = 0; i < FORKEDOFF_WINDOWS + 3; i++) {
		forkedoff_track(&f, DELAYACCT_OFF, 1000 + 20 * (uint64_t)i, 2000 + 20 * (uint64_t)i);
		forkedoff_track(&f, DELAYACCT_ON, 1010 + 20 * (uint64_t)i, 2010 + 20 * (uint64_t)i);
	}
	is_int(f.noff, FORKEDOFF_WINDOWS, "windows beyond the limit are merged");
	ok(forkedoff_maybe(&f, 150, 0, 0), "merging keeps the oldest period covered");
	forkedoff_init(&f);
	forkedoff_since_boot(&f, 5000);
	ok(forkedoff_maybe(&f, 4000, 1, 0) && !forkedoff_maybe(&f, 6000, 1, 0),
	   "booted with it off: tasks started up to the bound may have been forked off");
	return tap_done();
}
