/* exitlisten.h — the listeners for the records the kernel sends as tasks exit: one socket per
 * group of CPUs, each registered for its CPUs only and with its own receive buffer, as the
 * kernel's taskstats documentation advises, so that no single socket carries every CPU's exits;
 * a thread of their own empties them into memory as records come. Records the kernel dropped, or
 * that found the queue full, are counted. */
#ifndef DELAYTOP_EXITLISTEN_H
#define DELAYTOP_EXITLISTEN_H

#include <stddef.h>
#include <stdint.h>

#include "taskstats.h"

struct exitlisten;

/* Called for each exit message: the exiting thread's record, and, when it was the last thread of
 * a process that ever had several, the process aggregate (else NULL). A thread record whose
 * c.flag has TS_AGROUP and comes without an aggregate is a whole single-threaded process. */
typedef void (*ts_exit_fn)(void *arg, const struct ts_record *thread, const struct ts_record *process);

/* ac_flag bit of the record of a task whose exit ended its thread group (linux/acct.h AGROUP). */
#define TS_AGROUP COUNTERS_AGROUP

/* At most this many sockets: one per CPU up to it, then groups of neighbouring CPUs. */
#define EXITLISTEN_MAX 16
#define EXITLISTEN_LIST 256  /* bytes for one group's CPU list */
#define EXITLISTEN_CPUS 8192 /* CPUs at most in the possible list */
#define EXITLISTEN_QUEUE (64u << 20) /* bytes of records at most waiting for the caller's drain */

/* Splits a CPU list as /sys/devices/system/cpu/possible gives it ("0-3,8-11") into at most max
 * groups of neighbouring CPUs of about equal size, each written as a CPU list into groups[i].
 * Returns the number of groups, or -1 when the list cannot be read or a group's list does not
 * fit. Pure. */
int exitlisten_groups(const char *possible, char (*groups)[EXITLISTEN_LIST], int max);

/* Registers the listeners for every possible CPU, each socket with a receive buffer of rcvbuf
 * bytes. Needs CAP_NET_ADMIN and the initial user and PID namespace. Returns 0 or a negative errno
 * with a message in err. */
int exitlisten_open(struct exitlisten **out, int rcvbuf, char *err, size_t errlen);
void exitlisten_close(struct exitlisten *l);
/* One descriptor that polls readable when records are waiting. */
int exitlisten_fd(const struct exitlisten *l);
/* The receive buffer the kernel granted each socket (the smallest). */
int exitlisten_rcvbuf(const struct exitlisten *l);

/* Takes every exit message waiting, in memory or still in a socket, without blocking, and calls
 * fn for each. Messages the kernel dropped because a buffer was full, or that found the queue in
 * memory full, are added to *lost. Returns the number of messages. */
int exitlisten_drain(struct exitlisten *l, ts_exit_fn fn, void *arg, uint64_t *lost);

#endif
