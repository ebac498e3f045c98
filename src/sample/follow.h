/* follow.h — what command mode asks of the kernel, through the sampler's side: every exit
 * record (the exit listeners), taskstats for the processes still alive at the end, /proc for a
 * process's parent and cgroup (the switch it asks of sampler.h). Command mode calls nothing of
 * the kernel edge but this. */
#ifndef DELAYTOP_FOLLOW_H
#define DELAYTOP_FOLLOW_H

#include <stddef.h>
#include <stdint.h>

#include "cghier.h"
#include "counters.h"

/* The exit listeners and a taskstats client. */
struct follow;

/* Told of each exit: the thread's record, and the process aggregate when the thread was the last
 * of a process that ever had several (else NULL); a thread record whose c.flag has
 * COUNTERS_AGROUP and comes without an aggregate is a whole single-threaded process. */
typedef void (*follow_exit_fn)(void *arg, const struct task_record *thread, const struct task_record *process);
/* Told of each survivor's thread: its record. */
typedef void (*follow_task_fn)(void *arg, const struct task_record *rec);

/* Registers for every exit record (a receive buffer of exit_buffer bytes) and opens a taskstats
 * client. Returns 0, or -1 with a message in err and nothing left open. */
int follow_open(struct follow **out, int exit_buffer, char *err, size_t errlen);
/* Closes both; f may be NULL. */
void follow_close(struct follow *f);

/* The descriptor that polls POLLIN when exit records wait. */
int follow_fd(const struct follow *f);
/* Calls fn for every exit record waiting, adding the records the kernel dropped to *lost. */
void follow_drain(struct follow *f, follow_exit_fn fn, void *arg, uint64_t *lost);

/* Finds the cgroup hierarchy into h, and this process's cgroup in it into buf. Returns 0, or -1
 * when the path cannot be read (h is filled all the same). */
int follow_own_cgroup(struct cgroup_hier *h, char *buf, size_t size);

/* 0 when /proc can be read; else a negative errno with a message in err. */
int follow_check_proc(char *err, size_t errlen);

/* The parent of a live process, from /proc; -1 when it is gone. */
int64_t follow_parent(uint32_t pid);

/* Calls fn(fnarg, pid, path) with the cgroup path in h of every process in /proc that
 * keep(arg, pid) accepts (where the command's processes run). */
void follow_cgroups_of(const struct cgroup_hier *h, int (*keep)(void *arg, uint32_t pid), void *arg,
		       void (*fn)(void *fnarg, uint32_t pid, const char *path), void *fnarg);

/* Asks taskstats about every thread of the processes in /proc that keep(arg, pid) accepts, and
 * calls fn(fnarg, record) with each answer (the command's processes still alive at its end).
 * Returns 0 or a negative errno. */
int follow_survivors(struct follow *f, int (*keep)(void *arg, uint32_t pid), void *arg, follow_task_fn fn,
		      void *fnarg);

#endif
