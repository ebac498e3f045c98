/* recstate.h — what a reader of a recording knows after a reading (the writer keeps the same, to
 * know what the reader will predict): the slots of tasks and cgroups, the strings, the header
 * facts; and the predictions between an object's phases (recformat.h), which both sides make
 * alike. The records are described in doc/recording.md. Pure code. */
#ifndef DELAYTOP_RECSTATE_H
#define DELAYTOP_RECSTATE_H

#include <stddef.h>
#include <stdint.h>

#include "recformat.h"
#include "reclat.h"
#include "recstack.h"

/* Slots a record may name: as many as there can be pids (a larger one is damage). */
#define REC_MAX_SLOTS (1u << 22)

/* Record types in the stream. */
enum { REC_KEY = 'K', REC_SAMPLE = 'S' };

/* What a reader knows after a reading: the slots of tasks and cgroups and the strings. */
struct rec_state {
	struct rec_head head;
	int have_head;
	struct rec_task *tasks;
	uint8_t *live;
	size_t ntasks, captasks;
	struct rec_cgroup *cgs;
	uint8_t *cglive;
	size_t ncgs, capcgs;
	char **strs; /* id i at strs[i]; strs[0] is NULL */
	size_t nstrs, capstrs;
	struct rec_lat lat; /* --why: the last reading's waits, by task slot (format 1.3) */
	struct rec_stk stk; /* --why: the last reading's stacks, by task slot (format 1.4) */
};

void rec_state_init(struct rec_state *st);
void rec_state_clear(struct rec_state *st);
void rec_state_free(struct rec_state *st);

/* Makes task slot i (cgroup slot i) exist: zeroed and not live when new. */
void rec_state_task_slot(struct rec_state *st, size_t i);
void rec_state_cg_slot(struct rec_state *st, size_t i);
/* Defines string id as s[0..len). */
void rec_state_set_string(struct rec_state *st, size_t id, const char *s, size_t len);
/* The step of the readings' clock from old to cur (0 when it did not grow). */
uint64_t rec_head_dmono(const struct rec_head *old, const struct rec_head *cur);

/* Whether a field holds a set (of kinds or accounting fields), whose differences are XORs. */
int rec_field_is_set(const struct rec_field *f);

/* What a reader predicts of an object's fields of a phase (2 or more) from those of the phases
 * before; arg is the predictor's: */
typedef void rec_phase_fn(void *obj, void *arg, int phase);
/* a task's (arg: the clock's step, and where its rates go, which phase 3 computes: NULL for
 * nowhere), */
struct rec_task_phase {
	uint64_t dmono;
	struct task_rates *rates;
};
void rec_phase_task(void *obj, void *arg, int phase);
/* a cgroup's and the header's (arg: their pressure at the reading before, struct rec_psi). */
void rec_phase_shares(void *obj, void *arg, int phase);
void rec_phase_head(void *obj, void *arg, int phase);

#endif
