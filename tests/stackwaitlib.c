/* stackwaitlib.c — a shared library for tests/stackwait.c: a function of its own that waits in
 * nanosleep, so that a user frame in a shared library can be named. */
#define _GNU_SOURCE
#include <time.h>

void stackwait_lib_wait(void);

/* Its caller's frame is hidden by nanosleep's wrapper (see stackwait.c): stackwait_lib_wait shows. */
__attribute__((noinline)) static void lib_sleep(void)
{
	struct timespec ts = { 0, 5000000L };

	nanosleep(&ts, NULL);
	__asm__ volatile("");
}

__attribute__((noinline)) void stackwait_lib_wait(void)
{
	lib_sleep();
	__asm__ volatile(""); /* not a tail call */
}
