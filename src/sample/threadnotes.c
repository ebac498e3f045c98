/* threadnotes.c — process mode's notes on the threads of each process: which moved, proved by the
 * process's answer; their states and longest waits read only for those (see threadnotes.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "collectstep.h"
#include "prestate.h"
#include "steady.h"
#include "threadnotes.h"
#include "xalloc.h"

enum {
	NOTE_NEW = 1,      /* not answered yet */
	NOTE_HOT = 2,      /* its answer moved at hot_tick (or it is likely to run): asked first at the
			      next split */
	NOTE_MOVED = 4,    /* its answer moved at this tick, or it is new: its state is read again */
	NOTE_ANSWERED = 8, /* answered at this tick */
	NOTE_STATED = 16,  /* its state was read at this tick */
};

#define NO_NOTE UINT32_MAX /* a batch entry of a process of one thread: no note */

void threadnotes_free(struct thread_notes *tn)
{
	if (!tn)
		return;
	free(tn->note);
	free(tn);
}

static struct thread_notes *notes_of(struct proc *p)
{
	if (!p->notes)
		p->notes = xcalloc(1, sizeof(*p->notes));
	return p->notes;
}

static void notes_clear(struct thread_notes *tn)
{
	free(tn->note);
	tn->note = NULL;
	tn->n = 0;
	tn->tick = 0;
	tn->rest_known = 0;
}

static int by_tid(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Makes the notes those of the threads listed in tids[0..n) (sorted here when /proc listed them
 * out of order): a note kept for each thread still there, a new one for each other. Returns -1
 * when a noted thread went (it ended), 1 when threads came, 0 when the threads are the same. */
static int notes_merge(struct thread_notes *tn, uint32_t *tids, size_t n)
{
	struct thread_note *m;
	size_t i = 0, k = 0;
	int gone = 0;

	for (size_t j = 1; j < n; j++)
		if (tids[j - 1] >= tids[j]) {
			qsort(tids, n, sizeof(*tids), by_tid);
			break;
		}
	if (tn->n == n) {
		while (i < n && tn->note[i].tid == tids[i])
			i++;
		if (i == n)
			return 0;
		i = 0;
	}
	m = xmalloc((n ? n : 1) * sizeof(*m));
	for (size_t j = 0; j < n; j++) {
		while (i < tn->n && tn->note[i].tid < tids[j]) {
			i++;
			gone = 1;
		}
		if (i < tn->n && tn->note[i].tid == tids[j])
			m[k++] = tn->note[i++];
		else
			m[k++] = (struct thread_note){ .tid = tids[j], .flags = NOTE_NEW };
	}
	gone |= i < tn->n;
	free(tn->note);
	tn->note = m;
	tn->n = (uint32_t)k;
	return gone ? -1 : 1;
}

/* Lists p's threads into the notes; returns as notes_merge. */
static int notes_list(struct collector *c, struct proc *p, struct thread_notes *tn)
{
	c->ntids = 0;
	c->k->ops->list_threads(c->k, p->pid, &c->tids, &c->ntids, &c->captids);
	return notes_merge(tn, c->tids, c->ntids);
}

/* Adds id (a thread of p, its note slot; or p itself, TS_ASK_TGID, slot its index in ids) to the
 * batch. */
static void push(struct collector *c, uint32_t id, struct proc *p, uint32_t slot)
{
	c->fids = xgrow(c->fids, &c->capfids, c->nf + 1, sizeof(*c->fids));
	c->fowner = xgrow(c->fowner, &c->capfowner, c->nf + 1, sizeof(*c->fowner));
	c->fslot = xgrow(c->fslot, &c->capfslot, c->nf + 1, sizeof(*c->fslot));
	c->fids[c->nf] = id;
	c->fowner[c->nf] = p;
	c->fslot[c->nf++] = slot;
}

/* A thread answered: whether it moved since its note, and (a thread seen for the first time)
 * whether it is likely to run again by the next tick: born since the last tick, or one that ran
 * about once a second or more over its life. Its longest waits go to its process. */
static void note_answer(struct collector *c, struct proc *p, struct thread_note *note, const struct ts_record *rec,
			uint64_t when)
{
	struct thread_notes *tn = p->notes;
	uint64_t sum = steady_sum(&rec->c), age = rec->c.etime_us * 1000;

	if (note->flags & NOTE_NEW) {
		note->flags |= NOTE_MOVED;
		if ((c->tt->tick > 1 && (rec->c.have & HAVE_IDS) && (when < age || when - age >= c->tt->prev_mono)) ||
		    steady_likely_hot(&rec->c))
			note->flags |= NOTE_HOT;
		tn->delta += sum;
	} else {
		if (sum != note->sum)
			note->flags |= NOTE_MOVED | NOTE_HOT;
		tn->delta += sum - note->sum;
	}
	note->flags = (uint8_t)((note->flags & ~NOTE_NEW) | NOTE_ANSWERED);
	note->sum = sum;
	tn->nanswered++;
	if (c->want_peaks)
		proc_peak_add(p, &rec->c);
}

/* An answer of a split or a pass: a process's (its reply is kept in a split), a thread's. */
static void on_answer(void *arg, size_t j, const struct ts_record *rec, uint64_t when)
{
	struct collector *c = arg;
	struct proc *p = c->fowner[j];
	struct thread_notes *tn = p->notes;
	uint32_t slot = c->fslot[j];

	if (c->fids[j] & TS_ASK_TGID) {
		tn->answered = 1;
		tn->answer_now = steady_sum(&rec->c);
		if (tn->split_tick == c->tt->tick && tn->pass_tick != c->tt->tick) {
			c->replies[slot] = rec->c;
			c->answered[slot] = 1;
			c->answered_at[slot] = when;
		}
		return;
	}
	if (slot == NO_NOTE) {
		if (c->want_peaks)
			proc_peak_add(p, &rec->c);
		return;
	}
	note_answer(c, p, &tn->note[slot], rec, when);
}

/* ---- the split ---- */

/* Adds to the batch p's hot threads (those that moved at the last tick, and new ones), then p
 * (index i of ids); returns 0, adding none, when p is not to be split: its notes do not hold at
 * the last tick, none moved then, a thread ended, or half of them are hot. */
static int pick_hot(struct collector *c, struct proc *p, size_t i)
{
	struct thread_notes *tn = p->notes;
	uint32_t tick = c->tt->tick, hot = 0;
	size_t before = c->nf;
	int listed;

	if (!tn || p->nlwp < 2 || tn->tick + 1 != tick || tn->hot_tick + 1 != tick || !tn->rest_known)
		return 0;
	listed = notes_list(c, p, tn);
	for (uint32_t k = 0; listed >= 0 && k < tn->n; k++)
		hot += (tn->note[k].flags & (NOTE_HOT | NOTE_NEW)) != 0;
	if (listed < 0 || 2 * hot > tn->n) {
		if (listed != 0)
			tn->tick = 0; /* the threads changed: every one is asked */
		return 0;
	}
	for (uint32_t k = 0; k < tn->n; k++) {
		if (tn->note[k].flags & (NOTE_HOT | NOTE_NEW))
			push(c, tn->note[k].tid, p, k);
		tn->note[k].flags &= NOTE_NEW;
	}
	push(c, p->pid | TS_ASK_TGID, p, (uint32_t)i);
	tn->split_tick = tick;
	tn->nasked = (uint32_t)(c->nf - before - 1);
	tn->nanswered = 0;
	tn->delta = 0;
	tn->answered = 0;
	return 1;
}

int threadnotes_split(struct collector *c)
{
	c->nf = 0;
	for (size_t i = 0; i < c->nids; i++) {
		struct proc *p = proctable_get(c->procs, c->ids[i]);

		if (p && p->seen + 1 == c->tt->tick)
			pick_hot(c, p, i);
	}
	return c->nf ? c->k->ops->query(c->k, TS_BY_EACH, c->fids, c->nf, on_answer, c) : 0;
}

/* The split holds: every hot thread answered, and the process's answer is what its ended threads
 * left plus its threads' answers, the others' unchanged. */
static int split_holds(const struct thread_notes *tn)
{
	return tn->answered && tn->nanswered == tn->nasked && tn->answer_now - tn->rest == tn->sum + tn->delta;
}

/* ---- the settling ---- */

/* A process of one thread: its state is its own (its stat is read when it ran); its longest
 * waits are asked of its thread when it ran since they were, or were never asked. */
static void one_thread(struct collector *c, struct proc *p, struct thread_notes *tn, uint64_t answer)
{
	uint32_t tick = c->tt->tick;
	int s = cghier_state_of(p->state);

	if (tn->n)
		notes_clear(tn);
	tn->tick = 0;
	if (c->want_states) {
		memset(p->states, 0, sizeof(p->states));
		if (s >= 0)
			p->states[s] = 1;
		p->have_states = 1;
	}
	if (c->want_peaks && !(tn->peak_tick && tn->peak_tick + 1 == tick && tn->answer == answer)) {
		c->ntids = 0;
		c->k->ops->list_threads(c->k, p->pid, &c->tids, &c->ntids, &c->captids);
		for (size_t k = 0; k < c->ntids; k++)
			push(c, c->tids[k], p, NO_NOTE);
	}
	tn->peak_tick = c->want_peaks ? tick : 0;
	tn->answer = answer;
}

/* Every thread of p is to be asked, right after p. What a split of this tick found moved stays
 * so. */
static void start_pass(struct collector *c, struct proc *p, struct thread_notes *tn)
{
	uint32_t tick = c->tt->tick;
	uint8_t keep = tn->split_tick == tick ? NOTE_NEW | NOTE_MOVED | NOTE_HOT : NOTE_NEW;

	notes_list(c, p, tn);
	push(c, p->pid | TS_ASK_TGID, p, NO_NOTE);
	for (uint32_t k = 0; k < tn->n; k++) {
		tn->note[k].flags &= keep;
		push(c, tn->note[k].tid, p, k);
	}
	tn->pass_tick = tick;
	tn->nasked = tn->n;
	tn->nanswered = 0;
	tn->answered = 0;
}

/* After the pass: the threads that did not answer are gone; what the ended threads left is
 * known when every thread answered. */
static void finish_pass(struct thread_notes *tn, uint32_t tick)
{
	uint32_t kept = 0;

	tn->sum = 0;
	for (uint32_t k = 0; k < tn->n; k++) {
		if (!(tn->note[k].flags & NOTE_ANSWERED))
			continue;
		tn->sum += tn->note[k].sum;
		tn->note[kept++] = tn->note[k];
	}
	tn->rest_known = tn->answered && tn->nanswered == tn->nasked;
	tn->n = kept;
	tn->rest = tn->answer_now - tn->sum;
	tn->tick = tn->answered ? tick : 0;
	tn->answer = tn->answer_now;
}

/* The notes hold at this tick: the hot ones make the next split. */
static void notes_hold(struct thread_notes *tn, uint32_t tick)
{
	for (uint32_t k = 0; k < tn->n; k++)
		if (tn->note[k].flags & NOTE_HOT) {
			tn->hot_tick = tick;
			break;
		}
}

/* Decides for the process of ids[i] (p): its split held, nothing moved, or every thread is to
 * be asked. Returns 1 when its notes changed at this tick (its states are to be counted). */
static int settle_one(struct collector *c, struct proc *p, size_t i)
{
	struct thread_notes *tn = notes_of(p);
	uint32_t tick = c->tt->tick;
	uint64_t answer = steady_sum(&c->replies[i]);

	if (p->nlwp < 2) {
		one_thread(c, p, tn, answer);
		return 0;
	}
	if (tn->split_tick == tick && split_holds(tn)) {
		tn->sum += tn->delta;
		tn->tick = tick;
		tn->answer = tn->answer_now;
		notes_hold(tn, tick);
		return 1;
	}
	if (tn->split_tick != tick && tn->tick + 1 == tick && tn->answer == answer &&
	    (tn->peaks_known || !c->want_peaks)) {
		tn->tick = tick; /* nothing moved */
		return c->want_states && !tn->states_known;
	}
	start_pass(c, p, tn);
	return 1;
}

/* The states of the new threads of a big pass, read on two threads beside the queries
 * (prestate.h); NULL when they are few. */
static struct prestate *start_states(struct collector *c)
{
	uint8_t *want;

	if (!c->want_states || c->nf < PRESTATE_MIN)
		return NULL;
	want = xcalloc(c->nf, 1);
	for (size_t j = 0; j < c->nf; j++)
		want[j] = c->fslot[j] != NO_NOTE && !(c->fids[j] & TS_ASK_TGID) &&
			  (c->fowner[j]->notes->note[c->fslot[j]].flags & NOTE_NEW);
	return prestate_start(c->k, c->fids, c->fowner, c->nf, want, PRESTATE_MIN);
}

static void apply_states(struct collector *c, struct prestate *pre)
{
	const uint8_t *want;
	const char *state;

	if (!pre)
		return;
	prestate_finish(pre);
	want = prestate_wanted(pre);
	state = prestate_states(pre);
	for (size_t j = 0; j < c->nf; j++) {
		struct thread_note *note;

		if (!want[j])
			continue;
		note = &c->fowner[j]->notes->note[c->fslot[j]];
		note->state = state[j];
		note->flags |= NOTE_STATED;
	}
	prestate_free(pre);
}

/* Reads the states of p's threads that moved (all of them when the states are not known yet),
 * and counts them. */
static void count_states(struct collector *c, struct proc *p, struct thread_notes *tn)
{
	int dirfd = -1, all = !tn->states_known;

	memset(p->states, 0, sizeof(p->states));
	for (uint32_t k = 0; k < tn->n; k++) {
		struct thread_note *note = &tn->note[k];
		int s;

		if ((all || (note->flags & NOTE_MOVED)) && !(note->flags & NOTE_STATED)) {
			if (dirfd < 0)
				dirfd = c->k->ops->open_threads(c->k, p->pid);
			note->state = dirfd >= 0 ? c->k->ops->thread_state(c->k, dirfd, note->tid) : 0;
		}
		note->flags &= (uint8_t)~NOTE_STATED;
		s = cghier_state_of(note->state);
		if (s >= 0)
			p->states[s]++;
	}
	if (dirfd >= 0)
		c->k->ops->close_threads(c->k, dirfd);
	tn->states_known = 1;
	p->have_states = 1;
}

int threadnotes_settle(struct collector *c)
{
	uint32_t tick = c->tt->tick;
	struct prestate *pre;
	int rc = 0;

	c->nf = 0;
	for (size_t i = 0; i < c->nids; i++) {
		struct proc *p = c->owner[i];

		if (p)
			p->notes_tick = settle_one(c, p, i) ? tick : 0;
	}
	pre = start_states(c);
	if (c->nf)
		rc = c->k->ops->query(c->k, TS_BY_EACH, c->fids, c->nf, on_answer, c);
	apply_states(c, pre);
	for (size_t i = 0; i < c->nids; i++) {
		struct proc *p = c->owner[i];
		struct thread_notes *tn = p ? p->notes : NULL;

		if (!tn || p->notes_tick != tick)
			continue;
		if (tn->pass_tick == tick) {
			finish_pass(tn, tick);
			notes_hold(tn, tick);
			tn->peaks_known = c->want_peaks;
		}
		tn->peaks_known &= (uint8_t)c->want_peaks;
		if (c->want_states)
			count_states(c, p, tn);
		else
			tn->states_known = 0;
	}
	return rc;
}
