/* cmdrank.h — which command names have delay series of their own in the metrics, and the counters
 * of those series. Every name that waited lately has a score: its delay (every kind's ns summed),
 * older readings weighing less, half as much every CMDRANK_HALF_LIFE_S seconds. At most `slots`
 * names hold a series. In a reading in which it waited, a name without one takes a free slot, or
 * the slot of the weakest holder when its score is more than CMDRANK_FACTOR times the holder's: so
 * names that never wait never take one, and two names that wait about alike do not trade places
 * reading after reading. A holder's series counts what its tasks waited while it held the slot;
 * every other wait counts in _other, so that each wait counts once, in one series. A name that
 * lost its slot is no longer shown; when it takes one again its series goes on from where it
 * stopped, as long as the name is remembered: the holders, and CMDRANK_MEMORY more names that
 * waited most lately (those beyond it, and those whose score fell under CMDRANK_FORGET_NS, are
 * forgotten, and would start again from 0). Pure code. */
#ifndef DELAYTOP_CMDRANK_H
#define DELAYTOP_CMDRANK_H

#include <stddef.h>
#include <stdint.h>

#include "delaykind.h"

/* A score halves in this many seconds without waits. */
#define CMDRANK_HALF_LIFE_S 60.0
/* A name takes a holder's slot when its score is more than this many times the holder's. */
#define CMDRANK_FACTOR 2.0
/* Names remembered beyond the holders. */
#define CMDRANK_MEMORY 4096
/* A name without a slot whose score fell under this (ns) is forgotten. */
#define CMDRANK_FORGET_NS 1000.0

/* A series' delay counters by kind (the metrics' sums, per cgroup and per command). */
struct metrics_delays {
	uint64_t ns[DK_COUNT], count[DK_COUNT];
	kind_mask kinds, kinds_count; /* bit k: kind k was available for some task */
};

/* Adds d to sum: the counts, and the kinds available. */
void metrics_delays_add(struct metrics_delays *sum, const struct metrics_delays *d);

struct cmdrank_name {
	char *name;
	struct metrics_delays d;       /* its series: what it waited while it held a slot */
	struct metrics_delays pending; /* the reading's waits, until cmdrank_settle */
	double score;                  /* ns, older readings' halved every CMDRANK_HALF_LIFE_S */
	uint8_t slot;                  /* holds a slot: its series is shown */
};

struct cmdrank {
	int slots;
	struct cmdrank_name **v; /* sorted by name */
	size_t n, cap;
	struct metrics_delays other; /* every wait counted in no name's series: _other */
	double settled_s;            /* when the scores were last brought up to date */
	int settled;                 /* they were */
	struct cmdrank_name **scratch;
	size_t capscratch;
};

void cmdrank_init(struct cmdrank *c, int slots);
void cmdrank_free(struct cmdrank *c);

/* Adds what a task of the command name waited in the reading: to the name's until the reading is
 * settled, or to _other at once when the name is not remembered and did not wait. */
void cmdrank_add(struct cmdrank *c, const char *name, const struct metrics_delays *d);

/* Ends a reading taken at now_s (seconds on any steady clock): the scores halved for the time
 * since the last reading and the reading's waits added, the slots given, each name's waits added
 * to its series or to _other, the names beyond memory forgotten. */
void cmdrank_settle(struct cmdrank *c, double now_s);

/* The name, when remembered; NULL otherwise. */
const struct cmdrank_name *cmdrank_find(const struct cmdrank *c, const char *name);

#endif
