/* latency.h — the distribution of waits that the eBPF side (--why) measures: for each kind of
 * wait, one interval's waits as a log2 histogram with their count, sum and longest, from which
 * the percentiles are placed; a row's histograms by kind; the kernel's entries as read; and what
 * a snapshot says of the whole (on, unavailable and why, the kinds measured, what did not fit).
 * Pure code.
 *
 * The kinds are the delay kinds (delaykind.h, same numbers) and one more, blocked: interruptible
 * sleep (S), where locks, futexes, the network and timers wait. Blocked is not a delay: taskstats
 * does not count it, and nothing adds it to a delay. */
#ifndef DELAYTOP_LATENCY_H
#define DELAYTOP_LATENCY_H

#include <stddef.h>
#include <stdint.h>

#include "delaykind.h"

enum { LAT_BLOCKED = DK_COUNT, LAT_KINDS };

/* A set of kinds, bit k for kind k. */
typedef uint16_t lat_mask;
_Static_assert(LAT_KINDS <= sizeof(lat_mask) * 8, "lat_mask has fewer bits than there are kinds");
#define LAT_ALL ((lat_mask)((1u << LAT_KINDS) - 1))
/* The kinds measured at the kernel's own delay accounting (__delayacct_*): only while
 * kernel.task_delayacct is 1, and only for tasks forked while it was. */
#define LAT_DELAYACCT_KINDS                                                                                  \
	((lat_mask)(1u << DK_SWAPIN | 1u << DK_RECLAIM | 1u << DK_THRASHING | 1u << DK_COMPACT |            \
		    1u << DK_WPCOPY | 1u << DK_IRQ))

/* Slot i holds the waits of [2^i, 2^(i+1)) microseconds; slot 0 also those under 1 us, the last
 * slot every wait of 2^(LAT_SLOTS-1) us (16.8 s) or longer. */
#define LAT_SLOTS 25

/* One kind's waits in one interval. */
struct lat_hist {
	uint64_t count;    /* the waits: the sum of the slots */
	uint64_t total_ns; /* their sum */
	uint64_t max_ns;   /* the longest, as measured (not a slot's bound) */
	uint32_t slot[LAT_SLOTS];
};

/* A row's waits in one interval: the histograms of the kinds that had any. */
struct lat_waits {
	lat_mask kinds;   /* kinds with at least one wait; their histograms are h[], in kind order */
	lat_mask unavail; /* kinds measured for other tasks but not for this one (a task forked while
			     kernel.task_delayacct was 0 has no delayacct kinds) */
	const struct lat_hist *h;
};

/* One task's waits of one kind, as the kernel's map gave them. */
struct lat_entry {
	uint32_t tid, tgid;
	uint32_t kind; /* < LAT_KINDS */
	struct lat_hist h;
};

/* A reading of the kernel's maps: the entries of the interval (a growable array), and the waits
 * that did not fit in the maps since they were loaded. */
struct lat_batch {
	struct lat_entry *e;
	size_t n, cap;
	uint64_t not_fitted;
};

/* What a snapshot says of the eBPF side. */
enum why_state {
	WHY_OFF,         /* not asked for (--why), or a recording without it */
	WHY_ON,
	WHY_UNAVAILABLE, /* asked for, but it could not be loaded: reason says why */
};

struct why_header {
	enum why_state state;
	const char *reason;        /* WHY_UNAVAILABLE: why, one sentence; WHY_ON: which kinds the
				      kernel would not take and why, or NULL */
	lat_mask attached;         /* WHY_ON: the kinds whose programs the kernel took */
	lat_mask measured;         /* of those, the kinds measured in the interval (without
				      kernel.task_delayacct, not the delayacct kinds) */
	uint64_t not_fitted;       /* waits that found the maps full, in the interval */
	uint64_t not_fitted_total; /* and since the start */
};

/* A kind's key, as in JSON and CSV: the delay kinds' ("cpu", "io", ...), then "blocked". */
const char *lat_kind_key(int kind);
/* The kind of a key, or -1. */
int lat_kind_find(const char *key);

/* The slot of a wait of ns, as the kernel's programs place it. */
int lat_slot_of(uint64_t ns);
/* A slot's upper bound (exclusive), ms; INFINITY for the last. */
double lat_slot_le_ms(int slot);
/* Its lower bound, ms: 0 for slot 0. */
double lat_slot_lower_ms(int slot);

/* Adds h to sum: counts, sums and slots add up, the longest is the longer one. */
void lat_add(struct lat_hist *sum, const struct lat_hist *h);

/* The q-quantile (0 < q <= 1) of h's waits, ms; NAN when it has none. See latency.c for how it is
 * placed inside its slot; for any h, q1 <= q2 gives p(q1) <= p(q2) <= the longest wait. */
double lat_percentile_ms(const struct lat_hist *h, double q);

/* Kind k's histogram in w, or NULL when w has no wait of it (w may be NULL). */
const struct lat_hist *lat_waits_get(const struct lat_waits *w, int kind);

/* The kinds a row shows, of the measured ones: all but those its waits say it cannot have. */
lat_mask lat_row_kinds(const struct why_header *wh, const struct lat_waits *w);

/* Adds w's histograms to a full set of them, sum[LAT_KINDS], and their kinds to *kinds. */
void lat_waits_add(struct lat_hist sum[LAT_KINDS], lat_mask *kinds, const struct lat_waits *w);
/* Moves the histograms of the kinds in `kinds` to the front of set, in kind order, so that the
 * set becomes the h of a struct lat_waits with those kinds. */
void lat_compact(struct lat_hist set[LAT_KINDS], lat_mask kinds);

/* Appends one entry to b, returning it (zeroed but for its ids). */
struct lat_entry *lat_batch_push(struct lat_batch *b, uint32_t tid, uint32_t tgid, uint32_t kind);
void lat_batch_free(struct lat_batch *b);

#endif
