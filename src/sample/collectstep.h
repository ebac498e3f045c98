/* collectstep.h — the steps the collectors share (collect.c), for the thread-mode collector in
 * collectthreads.c; not for anyone else. */
#ifndef DELAYTOP_COLLECTSTEP_H
#define DELAYTOP_COLLECTSTEP_H

#include <stddef.h>
#include <stdint.h>

#include "collect.h"

/* What moves when a task runs (task_activity). */
uint64_t collect_activity(const struct task_counters *cnt);

/* The message for a failed walk of /proc, in err; returns rc. */
int collect_walk_failed(int rc, char *err, size_t errlen);

/* Makes p the process of the owner array's slot i, growing it. */
void collect_set_owner(struct collector *c, size_t i, struct proc *p);

/* Keeps of the n thread ids of process pid those in the selection; returns how many. */
size_t collect_select_threads(const struct collector *c, uint32_t pid, uint32_t *ids, size_t n);

/* Which processes are asked by tgid (TS_ASK_TGID) right before their threads: none (limited
 * mode), those of several threads (thread mode, for their split), or every one (thread mode when
 * nothing is carried: the only per-process answer of the tick). */
enum list_answer { LIST_NO_ANSWER, LIST_ANSWER_SPLIT, LIST_ANSWER_ALL };

/* Replaces the process list in ids/owner by the list of their threads, each process's answer
 * before them as with_answer says. */
void collect_list_threads(struct collector *c, enum list_answer with_answer);

/* With want_acct, a thread's exact I/O counters, read again only when it ran: the counters to
 * read, cnt itself or buf. */
const struct task_counters *collect_thread_io(const struct collector *c, const struct task *t, uint32_t pid,
					      const struct task_counters *cnt, struct task_counters *buf);

/* One per-process answer for each of the first n ids, kept in replies. */
int collect_ask_processes(struct collector *c, size_t n);

#endif
