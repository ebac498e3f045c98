/* headfield.h — THE table of a reading's header facts as a recording carries them (clocks, counts,
 * the switch, losses, where the tasks came from): struct rec_head's members, the recording's field
 * list for its head, the encoder's copies from a snapshot, the decoder's copies back and the
 * reader's checks of a recorded value are all made from this list. Adding a plain fact is one line
 * here plus the code that fills the snapshot's member (and the writers that show it). The head's
 * pressure readings follow the facts (recformat.h: struct rec_psi). Pure definitions. */
#ifndef DELAYTOP_HEADFIELD_H
#define DELAYTOP_HEADFIELD_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "model.h"

/* X(member, type, snap, conv, check), one line a fact, in the order a recording lists them:
 *   member  its name in a recording and struct rec_head's member
 *   type    its type there; its size is the field's size in the file (a negative int32_t is
 *           written as its 32 bits), so it does not change once recorded
 *   snap    the struct snapshot member it is copied from and back to
 *   conv    HF_PLAIN: copied as a number; HF_BITS: a double kept as its bits; HF_WALL: a timespec
 *           kept as nanoseconds; HF_OWN: the encoder and decoder fill it themselves (snap unused)
 *   check   how a reader tests a recorded value (HEADCHECK_* below); a value that fails is
 *           damage. Every fact reads as 0 from a file that lacks it */
#define HEAD_FIELDS(X)                                                                                       \
	X(wall_ns, int64_t, wall, HF_WALL, HEADCHECK_WALL)                                                   \
	X(interval, uint64_t, interval_s, HF_BITS, HEADCHECK_SECONDS)                                        \
	X(elapsed, uint64_t, elapsed_s, HF_BITS, HEADCHECK_SECONDS)                                          \
	X(reading, uint64_t, reading_s, HF_BITS, HEADCHECK_SECONDS)                                          \
	X(threads, uint8_t, threads, HF_PLAIN, HEADCHECK_FLAG)                                               \
	/* DELAYACCT_*, which may be negative */                                                             \
	X(delayacct, int32_t, delayacct, HF_PLAIN, HEADCHECK_DELAYACCT)                                      \
	X(limited, uint8_t, limited, HF_PLAIN, HEADCHECK_FLAG)                                               \
	X(listening, uint8_t, listening, HF_PLAIN, HEADCHECK_FLAG)                                           \
	X(cgroups, uint8_t, cgroups, HF_PLAIN, HEADCHECK_FLAG)                                               \
	/* the cgroups' state counts came from their tasks (snapshot.cgroup_source "tasks") */               \
	X(states_from_tasks, uint8_t, cgroup_source, HF_OWN, HEADCHECK_FLAG)                                 \
	X(nprocs, uint32_t, nprocs, HF_PLAIN, HEADCHECK_ANY)                                                 \
	X(nthreads, uint32_t, nthreads, HF_PLAIN, HEADCHECK_ANY)                                             \
	X(exits, uint64_t, exits, HF_PLAIN, HEADCHECK_ANY)                                                   \
	X(exits_lost, uint64_t, exits_lost, HF_PLAIN, HEADCHECK_ANY)                                         \
	/* enum task_source; 0 (unknown) in a file before 1.1 */                                             \
	X(tasks_from, uint8_t, tasks_from, HF_PLAIN, HEADCHECK_TASKS)                                        \
	X(task_walks, uint64_t, task_walks, HF_PLAIN, HEADCHECK_ANY)                                         \
	/* the PSI triggers that fired: a string id, or 0 */                                                 \
	X(events, uint32_t, events, HF_OWN, HEADCHECK_ANY)

/* A reader's tests of a recorded value (HEADCHECK_SECONDS: a double's bits that are a time in
 * seconds, finite and not negative). */
#define HEADCHECK_ANY(v)       1
#define HEADCHECK_FLAG(v)      ((v) <= 1)
#define HEADCHECK_WALL(v)      ((v) >= 0)
#define HEADCHECK_SECONDS(v)   head_seconds(v)
#define HEADCHECK_DELAYACCT(v) ((v) >= DELAYACCT_UNKNOWN && (v) <= DELAYACCT_ON)
#define HEADCHECK_TASKS(v)     ((v) <= TASKS_FOLLOWED)

static inline int head_seconds(uint64_t bits)
{
	double v;

	memcpy(&v, &bits, 8);
	return isfinite(v) && v >= 0;
}

/* The copies: HF_conv_PUT(h, snap, member, smember) from a snapshot into struct rec_head,
 * HF_conv_GET back. */
#define HF_PLAIN_PUT(h, s, m, sm) (h)->m = (s)->sm;
#define HF_PLAIN_GET(h, s, m, sm) (s)->sm = (h)->m;
#define HF_BITS_PUT(h, s, m, sm)  memcpy(&(h)->m, &(s)->sm, 8);
#define HF_BITS_GET(h, s, m, sm)  memcpy(&(s)->sm, &(h)->m, 8);
#define HF_WALL_PUT(h, s, m, sm)  (h)->m = (int64_t)(s)->sm.tv_sec * 1000000000 + (s)->sm.tv_nsec;
#define HF_WALL_GET(h, s, m, sm)                                                                             \
	(s)->sm.tv_sec = (time_t)((h)->m / 1000000000);                                                      \
	(s)->sm.tv_nsec = (long)((h)->m % 1000000000);
#define HF_OWN_PUT(h, s, m, sm)
#define HF_OWN_GET(h, s, m, sm)

#endif
