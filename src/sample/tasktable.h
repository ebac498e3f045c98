/* tasktable.h — the tasks the sampler reads: one per thread in thread mode, per process in
 * process mode, identified by id and start time, so that a reused pid is never diffed against the
 * task that had it before. Each keeps its last two readings (their accounting fields only while
 * wanted) and its totals since the start (only where a front end may show them). Also the
 * identities of exited tasks that /proc may still list. Pure code. */
#ifndef DELAYTOP_TASKTABLE_H
#define DELAYTOP_TASKTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "counters.h"
#include "forkedoff.h"
#include "idmap.h"
#include "proctable.h"
#include "rates.h"
#include "totals.h"

/* Two readings of one task whose estimated start times differ by less than this are the same
 * task: a pid cannot be reused that fast. An estimate made from an answer that may be older than
 * the time it was taken with (ts_record.span_ns: the sender was preempted while the kernel
 * answered) may be that much later than the start besides. */
#define SAME_START_NS 20000000ull

struct task {
	uint32_t id;       /* tid in thread mode, tgid in process mode */
	uint32_t seen;     /* tick of the last reading */
	uint64_t start_ns; /* identity: start time, on the clock of the mode's readings */
	struct proc *proc;
	uint64_t activity; /* task_activity() at its last reading */
	char state;
	char comm[17];
	uint8_t has_base; /* base holds the previous reading (or zeros for a task born since) */
	uint8_t forked_off; /* may have been forked while kernel.task_delayacct was 0 (a process: may
			       have such threads), so its non-CPU kinds are unavailable */
	uint8_t accounted;  /* thread mode: a non-CPU wait was counted, so the kernel accounts them */
	uint8_t tids_known; /* limited mode, process rows: tids_sum/ntids hold the last reading's */
	uint8_t partial;    /* limited mode, process rows: the thread set changed since then */
	uint8_t exited;
	uint8_t start_guessed; /* made from an exit record that did not say when the task started */
	uint8_t need_state;
	uint8_t acc_apart;  /* acc (and peak after it) were allocated apart from the task
			       (tasktable.moved_totals), not in its allocation */
	uint32_t ntids;
	uint32_t start_span_us; /* start_ns may be this much later than the start (its answer's span) */
	uint32_t moved;    /* thread mode: the last tick its reading differed from the one before */
	uint32_t slot;     /* its index in the table's all */
	uint32_t carried;  /* thread mode: the last tick its reading was carried over at */
	uint64_t tids_sum;
	uint64_t sum;      /* thread mode: steady_sum() of its last reading's counters (steady.h) */
	struct sample base, last;
	struct acct_pair *acct;  /* base's and last's accounting fields: only while they are wanted
				    (reading_rules.acct), else NULL */
	struct peaks *peak;      /* the last reading's longest waits: only while they are wanted
				    (reading_rules.peaks), else NULL; in the task's own allocation
				    where it keeps totals */
	struct kind_totals *acc; /* since the first reading, in the task's own allocation: only where
				    the table keeps them (tasktable.no_totals), else NULL */
};

struct tasktable {
	struct idmap map;       /* id -> struct task */
	struct task **all;      /* the tasks of map in the order they came (NULL: one that left), so
				   that a pass over every task walks memory mostly in order */
	size_t nall, capall;
	struct task **replaced; /* this tick: tasks whose id a newer task took; their exit record may come */
	size_t nreplaced, capreplaced;
	struct idmap gone;      /* id -> exited task's start: it may still be listed in /proc */
	int no_totals;          /* the tasks keep no totals since the first reading (set before the
				   first task is made) */
	int moved_totals;       /* the tasks keep totals only once they have any (task_keep_totals):
				   the rows of a task still since the first reading share zero ones */
	struct kind_totals *zeros[16]; /* those zero totals, one per availability of the kinds */
	size_t nzeros;
};

/* The tick and its clocks. */
struct tick_times {
	uint32_t tick;
	uint64_t now_mono, now_boot, prev_mono, prev_boot;
};

/* What decides which kinds of a reading are available. */
struct reading_rules {
	const struct forkedoff *off;
	int delayacct; /* DELAYACCT_* found this tick */
	int threads;   /* the tasks are threads */
	int acct;      /* the accounting fields are wanted (sampler_opts.wants): else a reading
			  keeps none, which spares their cost per task */
	int peaks;     /* the longest waits are wanted (sampler_opts.wants, or the totals, which
			  keep the longest): else a task keeps none. A task that carries its
			  reading over (task_carry) has the ones of the reading it carries */
	int peaks_moved; /* tasktable.moved_totals: a task keeps its longest waits once its reading
			    moves, where its totals begin (else a task carried over from then on
			    would keep none in its totals) */
};

void tasktable_init(struct tasktable *t);
/* Frees every task; exited identities are forgotten too. */
void tasktable_clear(struct tasktable *t);
void tasktable_free(struct tasktable *t);

/* How many tasks the table holds, those set aside this tick included. */
size_t tasktable_size(const struct tasktable *t);

/* The task that has id now, or NULL. */
struct task *tasktable_get(const struct tasktable *t, uint32_t id);

/* Finds the task with this id and start, or makes it. One that held the id before is set aside
 * for the rest of the tick: the exit record that comes for the id is its. */
struct task *tasktable_lookup(struct tasktable *t, uint32_t id, uint64_t start_ns);

/* The same for a start estimated from an answer that may be up to span_ns older (ts_record): an
 * estimate up to that much later is still the same start. */
struct task *tasktable_lookup_span(struct tasktable *t, uint32_t id, uint64_t start_ns, uint64_t span_ns);

/* Makes a task for id that is known only from its exit record. */
struct task *tasktable_add(struct tasktable *t, uint32_t id, uint64_t start_ns);

/* The task an exit record for id is about: one set aside this tick, or the one that has the id. */
struct task *tasktable_exiting(const struct tasktable *t, uint32_t id);

/* Whether (id, start) is an exited task that retired already (a zombie, or a task late in its
 * exit that /proc still lists): its readings are to be left out. A newer task with the id ends
 * the memory of the old one. */
int tasktable_gone(struct tasktable *t, uint32_t id, uint64_t start_ns, uint32_t tick);

/* The same for a start estimated from an answer that may be up to span_ns older. */
int tasktable_gone_span(struct tasktable *t, uint32_t id, uint64_t start_ns, uint64_t span_ns, uint32_t tick);

/* Ends the tick: every task read in it keeps its reading as the next baseline; the others leave
 * the table. An exited one is handed to keep (which owns it from then on), others are freed.
 * Exited identities that the tick did not see again are forgotten. */
void tasktable_retire(struct tasktable *t, uint32_t tick, void (*keep)(void *arg, struct task *task), void *arg);

/* Iterates over every task, those set aside this tick included: for (size_t i = 0;
 * tasktable_next(t, &i, &task);) */
int tasktable_next(const struct tasktable *t, size_t *pos, struct task **out);

void task_free(struct task *t);

/* Gives t totals since the first reading, zero, with its longest waits after them (moved
 * there when t kept them apart). */
void task_keep_totals(struct task *t);

/* Zero totals with the kinds of a task whose readings base and last have the same counters:
 * shared by every such task of t alike, living as long as t. NULL when the task's longest waits
 * were read and one is above 0 (its totals keep it), or too many kinds' sets were asked for: the
 * caller gives the task totals of its own. */
const struct kind_totals *tasktable_zero_totals(struct tasktable *t, const struct task *task);

/* Whether two readings differ in what totals add up: a task still between them adds nothing. */
int sample_moved(const struct sample *a, const struct sample *b);

/* What moves when a task runs: its CPU time and its count of waits for a CPU, exactly as the
 * kernel gives them (not as a reading keeps them, in whole microseconds), so that the collectors
 * can tell from an answer whether the task ran since its last reading. */
uint64_t task_activity(const struct task_counters *c);

/* Records a reading of t, which sums threads threads, made at when. born_since: the task started
 * after the previous tick, so zeros are its baseline. boot: t's start is on CLOCK_BOOTTIME (from
 * /proc), else on CLOCK_MONOTONIC (from taskstats). Non-CPU kinds of a task that may have been
 * forked while delay accounting was off, or read while it is off, are unavailable. */
void task_read(struct task *t, const struct task_counters *c, uint64_t when, uint32_t threads, int born_since,
	       int boot, const struct tick_times *tt, const struct reading_rules *rules);

/* Carries t's last reading over to this tick, as if made again at when: nothing moved since
 * (steady.h). boot as for task_read. */
void task_carry(struct task *t, uint64_t when, int boot, const struct tick_times *tt,
		const struct reading_rules *rules);

#endif
