/* rates.h — turning two readings of a task's counters into per-interval rates. Pure code. */
#ifndef DELAYTOP_RATES_H
#define DELAYTOP_RATES_H

#include <stdint.h>

#include "acctfield.h"
#include "counters.h"

/* A reading's times and delays are kept to the microsecond (the kernel counts nanoseconds; no view
 * shows less than ten microseconds): so a recording of them is smaller, and exact. */
#define SAMPLE_UNIT_NS 1000u
static inline uint64_t sample_unit(uint64_t ns)
{
	return ns - ns % SAMPLE_UNIT_NS;
}

/* The part of a reading that rates need; the sampler keeps one per task between ticks. Its
 * accounting fields are apart (struct acct_sample), kept only while something asks for them. */
struct sample {
	uint64_t when_ns; /* CLOCK_MONOTONIC time of the reading */
	uint64_t count[DK_COUNT];
	uint64_t total[DK_COUNT];
	uint64_t run_ns;
	uint64_t age_ns;  /* how long the task had lived; 0 when unknown */
	uint64_t off_ns;  /* the latest reading before that found kernel.task_delayacct off (its
			     CLOCK_MONOTONIC time; 0: none, or not known) */
	uint32_t threads; /* threads whose delays the counters sum (at least 1) */
	kind_mask kind_total, kind_count;
	uint8_t have_run;
};

/* The accounting fields of a reading (struct sample's time is theirs). */
struct acct_sample {
	acct_mask acct_have;     /* the accounting fields the reading holds */
	uint64_t acct[AF_COUNT]; /* their values, in their units (acctfield.h) */
};

/* The accounting fields of a task's two readings, as the sampler keeps them beside the readings
 * while they are wanted. */
struct acct_pair {
	struct acct_sample base, last;
};

/* The longest waits a reading gave: over the task's life, so only the last reading's matter (the
 * sampler keeps one per task, not one per sample). */
struct peaks {
	uint64_t max[DK_COUNT];
	int64_t max_at_ns[DK_COUNT]; /* when, ns since the epoch (struct version 17 on) */
	kind_mask kinds, kinds_ts;   /* bit k: max[k], max_at_ns[k] present */
};

/* One kind over one interval. NAN means unavailable. */
struct kind_rate {
	float pct;    /* percent of wall time spent waiting; above 100 when several threads wait */
	float avg_ms; /* average wait per event */
	float per_s;  /* events per second */
	float max_ms; /* longest single wait over the task's life (the kernel keeps no interval max) */
};

struct task_rates {
	struct kind_rate kind[DK_COUNT];
	float run_pct;   /* CPU time as a percent of wall time */
	float total_pct; /* sum of the available kinds' pct */
	kind_mask impossible; /* bit k: kind k's delta was more than the threads could wait */
	kind_mask carried;    /* bit k: kind k's pct is above 100% per thread: a wait that began in an
				 earlier interval ended in this one (waits count when they end) */
	float acct[AF_COUNT]; /* per second (bytes, events), percent of the interval (CPU times) or
				 bytes (high-water marks); NAN when unavailable */
};

/* Copies what rates need out of c, stamped with when_ns; threads is how many threads the counters
 * sum (1 for a thread). */
void sample_from_counters(struct sample *s, const struct task_counters *c, uint64_t when_ns, uint32_t threads);

/* Copies the accounting fields in want out of c. */
void acct_sample_from_counters(struct acct_sample *a, const struct task_counters *c, acct_mask want);

/* The longest waits c holds. */
void peaks_from_counters(struct peaks *p, const struct task_counters *c);

/* A reading of all zeros at when_ns with cur's availability: the baseline of a task that started
 * after when_ns. */
void sample_zero_like(struct sample *zero, const struct sample *cur, uint64_t when_ns);
/* The same of the accounting fields. */
void acct_sample_zero_like(struct acct_sample *zero, const struct acct_sample *cur);

/* Rates over prev -> cur, the longest waits from peaks (cur's; NULL: none). A counter that went
 * backwards (a reset, or a transient double count in a process aggregate) gives 0, never a
 * negative or giant rate; a total that overflowed and restarted at zero while its count went on
 * gives the time since the restart. A delta that no task could have waited is unavailable and
 * marked in impossible: the kernel records such waits when kernel.task_delayacct is switched on
 * while a task waits (it then counts from a start it never took: boot, or a wait before the
 * switch went off). A wait counted in the interval began after the task did (cur's age_ns) and,
 * in a kind other than CPU, after the switch was last found off (cur's off_ns): each thread may
 * have waited since then, and one that came and went for the interval, plus 5 ms. Knowing
 * neither, the interval for one thread more than it has, plus a tenth. A longest wait longer than
 * the task's life is unavailable for the same reason. A wait is counted in the interval in which
 * it ends, so one that began earlier can take a kind above 100% per thread (the larger of prev's
 * and cur's thread count): such a kind keeps its measured value and is marked in carried. The
 * accounting fields are unavailable: rates_compute_acct adds them. */
void rates_compute(const struct sample *prev, const struct sample *cur, const struct peaks *peaks,
		   struct task_rates *out);

/* The accounting fields' rates over prev -> cur (rates_compute's out), from their fields aprev and
 * acur (NULL: none). A counter that went backwards gives 0; a high-water mark is acur's. */
void rates_compute_acct(const struct sample *prev, const struct sample *cur, const struct acct_sample *aprev,
			const struct acct_sample *acur, struct task_rates *out);

/* Adds one task's rates to a sum of tasks' (a cgroup, a subtree of processes): shares, rates of
 * waits and accounting counters add up, where known; a longest wait and a high-water mark are the
 * longest. Averages are made by rates_finish_sum. */
void rates_add(struct task_rates *sum, const struct task_rates *r);
/* A sum's average wait per kind: its waited share over its rate of waits. */
void rates_finish_sum(struct task_rates *r);

/* All rates unavailable. */
void rates_unavailable(struct task_rates *out);

#endif
