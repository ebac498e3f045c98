/* thread.c — threads started with every signal blocked but the faults (see thread.h). */
#include "config.h"

#include <errno.h>

#include "thread.h"

/* The signals a thread's own fault raises (and abort()'s): left unblocked, so that the handler
 * of the thread that faulted runs (the screen's puts the terminal back). The kernel would unblock
 * a blocked one itself, but only after setting it to its default action: no handler runs. */
static const int fault_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT };

/* Every signal but the faults. */
static void blocked_set(sigset_t *set)
{
	sigfillset(set);
	for (size_t i = 0; i < sizeof(fault_signals) / sizeof(fault_signals[0]); i++)
		sigdelset(set, fault_signals[i]);
}

void thread_signals_block(sigset_t *old)
{
	sigset_t all;

	blocked_set(&all);
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
