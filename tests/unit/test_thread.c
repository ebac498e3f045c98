/* test_thread.c — a thread started by thread_start, or by a library between thread_signals_block
 * and thread_signals_restore, has every signal blocked but those of its own faults; the caller's
 * mask is as it was. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>

#include "tap.h"
#include "thread.h"

/* The signals of interest that the calling thread has blocked, as bits: SIGTERM 1, SIGINT 2,
 * SIGCHLD 4, SIGUSR1 8. */
static int blocked_bits(void)
{
	sigset_t m;

	pthread_sigmask(SIG_BLOCK, NULL, &m);
	return (sigismember(&m, SIGTERM) ? 1 : 0) | (sigismember(&m, SIGINT) ? 2 : 0) |
	       (sigismember(&m, SIGCHLD) ? 4 : 0) | (sigismember(&m, SIGUSR1) ? 8 : 0);
}

static void *report_mask(void *arg)
{
	*(int *)arg = blocked_bits();
	return NULL;
}

/* The fault signals, which a thread must leave unblocked so that its handlers run where it
 * faulted. */
static const int faults[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT };
#define NFAULTS (sizeof(faults) / sizeof(faults[0]))

/* Bit i: the calling thread has faults[i] blocked. */
static void *report_faults(void *arg)
{
	sigset_t m;
	int bits = 0;

	pthread_sigmask(SIG_BLOCK, NULL, &m);
	for (size_t i = 0; i < NFAULTS; i++)
		bits |= sigismember(&m, faults[i]) ? 1 << i : 0;
	*(int *)arg = bits;
	return NULL;
}

int main(void)
{
	sigset_t none, old;
	pthread_t t;
	int seen = -1;

	sigemptyset(&none);
	pthread_sigmask(SIG_SETMASK, &none, NULL);
	is_int(thread_start(&t, report_mask, &seen), 0, "thread_start starts the thread");
	pthread_join(t, NULL);
	is_int(seen, 15, "the thread has SIGTERM, SIGINT, SIGCHLD and SIGUSR1 blocked");
	is_int(blocked_bits(), 0, "the caller's mask is unchanged: nothing blocked");

	thread_signals_block(&old);
	seen = -1;
	pthread_create(&t, NULL, report_mask, &seen);
	pthread_join(t, NULL);
	errno = EADDRINUSE;
	thread_signals_restore(&old);
	is_int(seen, 15, "a thread a library starts between block and restore inherits SIGTERM, SIGINT, SIGCHLD and SIGUSR1 blocked");
	is_int(errno, EADDRINUSE, "restore keeps errno (the library's failure)");
	is_int(blocked_bits(), 0, "restore puts the caller's mask back");

	seen = -1;
	thread_start(&t, report_faults, &seen);
	pthread_join(t, NULL);
	is_int(seen, 0, "a started thread leaves SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS and SIGABRT unblocked");
	thread_signals_block(&old);
	seen = -1;
	pthread_create(&t, NULL, report_faults, &seen);
	pthread_join(t, NULL);
	thread_signals_restore(&old);
	is_int(seen, 0, "so does a thread a library starts between block and restore");
	return tap_done();
}
