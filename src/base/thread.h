/* thread.h — starting a thread with every signal blocked. Signals are for the main thread: it
 * reads the stop signals through a signalfd (stopsig.h) and command mode reads SIGCHLD so, and a
 * thread that left one unblocked could take it instead. Every thread delaytop starts, and every
 * thread a library starts for it (they inherit the mask), starts so. */
#ifndef DELAYTOP_THREAD_H
#define DELAYTOP_THREAD_H

#include <pthread.h>
#include <signal.h>

/* Starts fn(arg) on a new thread, *t, with every signal blocked; the caller's mask is unchanged.
 * Returns 0 or a negative errno. */
int thread_start(pthread_t *t, void *(*fn)(void *), void *arg);

/* Blocks every signal in the calling thread and keeps its mask in *old: around a library's call
 * that starts threads of its own. thread_signals_restore puts *old back, errno kept. */
void thread_signals_block(sigset_t *old);
void thread_signals_restore(const sigset_t *old);

#endif
