/* recstate.c — what a reader of a recording knows after a reading, and the predictions between
 * an object's phases. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "recstate.h"
#include "xalloc.h"

void rec_state_init(struct rec_state *st)
{
	memset(st, 0, sizeof(*st));
}

void rec_state_clear(struct rec_state *st)
{
	for (size_t i = 1; i < st->nstrs; i++)
		free(st->strs[i]);
	st->nstrs = 0;
	st->ntasks = st->ncgs = 0;
	st->have_head = 0;
	memset(&st->head, 0, sizeof(st->head));
	rec_lat_clear(&st->lat);
	rec_stk_clear(&st->stk);
}

void rec_state_free(struct rec_state *st)
{
	rec_state_clear(st);
	free(st->tasks);
	free(st->live);
	free(st->cgs);
	free(st->cglive);
	free(st->strs);
	rec_lat_free(&st->lat);
	rec_stk_free(&st->stk);
	memset(st, 0, sizeof(*st));
}

void rec_state_task_slot(struct rec_state *st, size_t i)
{
	if (i < st->ntasks)
		return;
	st->tasks = xgrow(st->tasks, &st->captasks, i + 1, sizeof(*st->tasks));
	st->live = xrealloc(st->live, st->captasks);
	memset(&st->tasks[st->ntasks], 0, (i + 1 - st->ntasks) * sizeof(*st->tasks));
	memset(&st->live[st->ntasks], 0, i + 1 - st->ntasks);
	st->ntasks = i + 1;
}

void rec_state_cg_slot(struct rec_state *st, size_t i)
{
	if (i < st->ncgs)
		return;
	st->cgs = xgrow(st->cgs, &st->capcgs, i + 1, sizeof(*st->cgs));
	st->cglive = xrealloc(st->cglive, st->capcgs);
	memset(&st->cgs[st->ncgs], 0, (i + 1 - st->ncgs) * sizeof(*st->cgs));
	memset(&st->cglive[st->ncgs], 0, i + 1 - st->ncgs);
	st->ncgs = i + 1;
}

void rec_state_set_string(struct rec_state *st, size_t id, const char *s, size_t len)
{
	if (id >= st->nstrs) {
		st->strs = xgrow(st->strs, &st->capstrs, id + 1, sizeof(*st->strs));
		memset(&st->strs[st->nstrs], 0, (id + 1 - st->nstrs) * sizeof(*st->strs));
		st->nstrs = id + 1;
	}
	free(st->strs[id]);
	st->strs[id] = xmalloc(len + 1);
	memcpy(st->strs[id], s, len);
	st->strs[id][len] = '\0';
}

uint64_t rec_head_dmono(const struct rec_head *old, const struct rec_head *cur)
{
	return cur->psi.when_ns > old->psi.when_ns ? cur->psi.when_ns - old->psi.when_ns : 0;
}

int rec_field_is_set(const struct rec_field *f)
{
	return f->type == RF_KINDS || f->type == RF_ACCTS;
}

void rec_phase_task(void *pred, void *arg, int phase)
{
	struct rec_task_phase *tp = arg;
	struct task_rates r;

	if (phase == 2)
		rec_predict_base(pred, tp->dmono);
	else
		rec_predict_totals(pred, tp->rates ? tp->rates : &r);
}

void rec_phase_shares(void *pred, void *arg, int phase)
{
	if (phase == 2)
		rec_predict_shares(&((struct rec_cgroup *)pred)->psi, arg);
}

void rec_phase_head(void *pred, void *arg, int phase)
{
	if (phase == 2)
		rec_predict_shares(&((struct rec_head *)pred)->psi, arg);
}
