/* totals.h — delays summed per kind: one task's since delaytop's first reading, a group of exited
 * tasks, a whole command run. The one type every sum of delays uses. Pure code. */
#ifndef DELAYTOP_TOTALS_H
#define DELAYTOP_TOTALS_H

#include <stdint.h>

#include "counters.h"
#include "rates.h"

struct kind_totals {
	uint64_t total_ns[DK_COUNT];
	uint64_t count[DK_COUNT];
	uint64_t counted_ns[DK_COUNT]; /* the part of total_ns from tasks that gave a count too */
	uint64_t max_ns[DK_COUNT];     /* the longest single wait */
	int64_t max_at_ns[DK_COUNT];   /* when it happened, ns since the epoch; 0: unknown */
	uint64_t run_ns;               /* CPU time */
	kind_mask kinds;       /* bit k: kind k's total was available at least once */
	kind_mask kinds_count; /* bit k: and its count (limited mode reads I/O delay without one) */
	kind_mask kinds_max;   /* bit k: and its longest wait */
	uint64_t acct[AF_COUNT]; /* the accounting counters' growth; the high-water marks' highest */
	acct_mask acct_have;     /* bit f: field f was available at least once */
};

/* The totals a task's counters hold, of the kinds in mask (the kinds the kernel accounts), and
 * its accounting fields. */
void totals_from_counters(struct kind_totals *t, const struct task_counters *c, kind_mask mask);

/* Adds a to sum: totals and counts add up, the longest wait and a high-water mark are the
 * higher one. */
void totals_add(struct kind_totals *sum, const struct kind_totals *a);

/* Adds what the counters grew by from base to last, without the kinds in impossible (a delta no
 * task could have waited). A counter that went backwards adds nothing. */
void totals_add_delta(struct kind_totals *sum, const struct sample *base, const struct sample *last,
		      const struct peaks *peaks, kind_mask impossible);
/* The same of the accounting fields (NULL: none): a counter's growth, a high-water mark's
 * highest. */
void totals_add_acct_delta(struct kind_totals *sum, const struct acct_sample *base, const struct acct_sample *last);

/* Field f's total in its unit for people: bytes, events, CPU seconds, or the high-water mark in
 * bytes; NAN when it was never available. */
double totals_acct(const struct kind_totals *t, int f);

/* Leaves out of one task's totals over its life (lived_ns) each kind it waited longer than it
 * lived, with a tenth and 5 ms to spare: the kernel counts such a wait from a start it never took
 * when kernel.task_delayacct is switched during it. The kind becomes unavailable. */
void totals_drop_impossible(struct kind_totals *t, uint64_t lived_ns);

/* Milliseconds per wait of kind k, from the tasks that gave both a total and a count; NAN when
 * none did. */
double totals_avg_ms(const struct kind_totals *t, int k);

/* The sum of every kind's total, ns. */
uint64_t totals_waited(const struct kind_totals *t);

#endif
