/* exitqueue.h — exit records waiting for the next tick: which record of an exit message the
 * current mode shows, and how many exit messages were received and lost (by the kernel, or
 * because too many waited). Pure code. */
#ifndef DELAYTOP_EXITQUEUE_H
#define DELAYTOP_EXITQUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "taskstats.h"

/* Records kept until the next tick (a long pause); the messages of more are counted as lost. */
#define EXITQUEUE_MAX 65536

/* What an exit message says of the task the mode shows. */
struct exit_choice {
	const struct ts_record *rec; /* the record to fold in */
	uint32_t id;                 /* the task's id in the mode */
	uint32_t pid;                /* its process */
	uint32_t ppid;               /* the process's parent, 0 when the message does not say */
	uint64_t age_ns;             /* how long it lived, UINT64_MAX when the message does not say */
	int peak_only;               /* process mode: only the thread's longest waits, for its process */
};

/* An exit record waiting for the next tick. */
struct pending_exit {
	uint32_t id;        /* the task's id in the current mode */
	uint32_t pid;       /* its process */
	uint64_t age_ns;    /* how long it lived, UINT64_MAX when the record does not say */
	uint64_t recv_mono; /* when it was read */
	uint32_t ppid;      /* its parent, when the message says (0: not) */
	uint8_t peak_only;  /* process mode: a thread's record kept only for its longest waits */
	struct task_counters c;
};

struct exitqueue {
	struct pending_exit *items;
	size_t n, cap;
	/* Since the start, each exit message counted once: received and kept, or lost. */
	uint64_t exits; /* exit messages received whose records the queue took */
	uint64_t lost;  /* messages the kernel dropped, or whose record the queue had no room for */
};

void exitqueue_init(struct exitqueue *q);
void exitqueue_free(struct exitqueue *q);

/* The record of an exit message the mode shows: the thread's in thread mode; in process mode the
 * process aggregate, or the thread record of a process that only ever had one thread; with the
 * task's id, its process, the parent and its age where the message says (a process aggregate
 * says none of them: they come from the thread record beside it). Returns 0, or -1 when the
 * message has nothing for the mode (a thread's exit in process mode). */
int exitqueue_choose(const struct ts_record *thread, const struct ts_record *process, int threads,
		     struct exit_choice *out);

/* Process mode: the record of a thread whose longest waits its process's row needs, as the row's
 * own record (the process aggregate, or none while other threads live) lacks them: a thread
 * record with longest waits that exitqueue_choose does not take. Returns 0, or -1. */
int exitqueue_choose_peak(const struct ts_record *thread, const struct ts_record *process, int threads,
			  struct exit_choice *out);

/* Queues a chosen record received at recv_mono; returns 0, or -1 when the queue is full (the
 * caller counts its message as lost, once however many of its records found no room). */
int exitqueue_push(struct exitqueue *q, const struct exit_choice *x, uint64_t recv_mono);



/* Empties the queue (its records were folded, or belong to another mode). */
void exitqueue_clear(struct exitqueue *q);

#endif
