/* threadnotes.h — process mode's notes on the threads of each process, kept while the cgroup view
 * counts tasks by state from them (v2) or the longest waits are wanted (taskstats keeps those per
 * thread only): each thread's state and a signature of its last answer, so that a process that
 * ran costs a read of the threads that moved, not of every thread.
 *
 * A thread that did not run since its state was read cannot have changed it but by being woken
 * (which shows once it runs), nor have waited longer. Which threads moved is proved as thread
 * mode proves its splits (steady.h): a process whose threads moved at the last tick has those
 * (and any new ones) asked first, then itself, in one batch; when its answer less what its ended
 * threads left in it is the sum of what they say now and the others said at their last answers,
 * the others did not move. Otherwise (and for a process new or whose threads came or went) every
 * thread is asked, right after the process, which gives anew what the ended threads left. The
 * states are read after the answers, of the threads whose answers moved; a process of one thread
 * has its own state, read from its stat when it ran. */
#ifndef DELAYTOP_THREADNOTES_H
#define DELAYTOP_THREADNOTES_H

#include <stdint.h>

struct collector;

/* One thread's note. */
struct thread_note {
	uint32_t tid;
	char state;    /* its state when last read (after its last answer); 0: not read */
	uint8_t flags; /* NOTE_* */
	uint64_t sum;  /* steady_sum() of its last answer */
};

/* A process's notes (struct proc's notes). */
struct thread_notes {
	struct thread_note *note; /* by tid, ascending */
	uint32_t n;
	uint32_t tick;        /* the tick the notes hold at (its threads then, each with its answer);
				 0: not known */
	uint32_t hot_tick;    /* the last tick a note was marked hot at (NOTE_HOT) */
	uint64_t answer;      /* steady_sum() of the process's answer the notes hold with */
	uint64_t rest;        /* steady_sum() of what its ended threads left in its answer */
	uint64_t sum;         /* of the notes' sums */
	uint8_t rest_known;
	uint8_t states_known; /* every note's state was read */
	uint8_t peaks_known;  /* every thread's longest waits went to the process */
	/* this tick's queries */
	uint8_t answered;     /* the process answered in the batch of its split or its pass */
	uint64_t answer_now;  /* that answer's steady_sum() */
	uint32_t split_tick;  /* its hot threads were asked before it at this tick */
	uint32_t pass_tick;   /* every thread was asked after it at this tick */
	uint32_t nasked, nanswered; /* threads asked and answered in the split or the pass */
	uint64_t delta;       /* split: what the hot threads' answers added to sum */
	uint32_t peak_tick;   /* one thread: the tick its longest waits were last asked at */
};

/* Frees a process's notes (NULL is fine). */
void threadnotes_free(struct thread_notes *tn);

/* Process mode, before the per-process queries: the processes whose threads moved at the last
 * tick have their hot threads asked, then themselves (TS_BY_EACH); their answers land in the
 * collector's replies, marked answered. Returns 0 or a negative errno. */
int threadnotes_split(struct collector *c);

/* Process mode, once each process answered and was read (the collector's owner array): the
 * processes whose split did not hold, that moved otherwise or are new have every thread asked,
 * right after themselves; then the states of the threads that moved are read and each process's
 * threads counted by state (with want_states), and every thread answer's longest waits are
 * folded into its process (with want_peaks). Returns 0 or a negative errno. */
int threadnotes_settle(struct collector *c);

#endif
