/* thread.c — threads started with every signal blocked (see thread.h). */
#include "config.h"

#include <errno.h>

#include "thread.h"

void thread_signals_block(sigset_t *old)
{
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, old);
}

void thread_signals_restore(const sigset_t *old)
{
	int e = errno;

	pthread_sigmask(SIG_SETMASK, old, NULL);
	errno = e;
}

int thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	sigset_t old;
	int rc;

	thread_signals_block(&old);
	rc = pthread_create(t, NULL, fn, arg);
	thread_signals_restore(&old);
	return -rc;
}
