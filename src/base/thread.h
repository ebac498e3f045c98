/* thread.h — starting a thread with every signal blocked but the faults. Signals are for the main
 * thread: it reads the stop signals through a signalfd (stopsig.h) and command mode reads SIGCHLD
 * so, and a thread that left one unblocked could take it instead. Every thread delaytop starts,
 * and every thread a library starts for it (they inherit the mask), starts so. The signals of a
 * thread's own fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, and abort()'s SIGABRT)
 * stay unblocked: they go to the thread that faulted, and its handlers must run there (the
 * screen's puts the terminal back), which the kernel does not do for a blocked one. */
#ifndef DELAYTOP_THREAD_H
#define DELAYTOP_THREAD_H

#include <pthread.h>
#include <signal.h>

/* Starts fn(arg) on a new thread, *t, with every signal blocked but the faults; the caller's mask
 * is unchanged. Returns 0 or a negative errno. */
int thread_start(pthread_t *t, void *(*fn)(void *), void *arg);

/* Blocks every signal but the faults in the calling thread and keeps its mask in *old: around a
 * library's call that starts threads of its own. thread_signals_restore puts *old back, errno
 * kept. */
void thread_signals_block(sigset_t *old);
void thread_signals_restore(const sigset_t *old);

#endif
