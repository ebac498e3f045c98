/* collectthreads.c — thread mode's collector: every thread of every selected process, asked only
 * where something may have moved (steady.h): a still process's threads carry their readings over,
 * a split process has its hot threads asked and the others proved still by its own answer; the
 * states of the threads that ran; a first reading's states read beside the queries (prestate.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "collectstep.h"
#include "format.h"
#include "prestate.h"
#include "steady.h"
#include "xalloc.h"

/* Thread mode: a process that was there at the last tick keeps what its stat said; its stat is
 * read again after the queries when its main thread ran or is new (a reused pid). The others
 * are read now. Rows of threads need of their process only the user and command line. */
static int walk_threads(struct collector *c)
{
	uint32_t tick = c->tt->tick;
	size_t nprocs = 0;
	int rc;

	c->nids = 0;
	rc = c->k->ops->list_processes(c->k, c->sel->pids, c->sel->npids, &c->ids, &c->nids, &c->capids);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < c->nids; i++) {
		struct proc *p = proctable_get(c->procs, c->ids[i]);
		struct proc_entry e;

		if (p && p->seen == tick - 1) {
			p->seen = p->walked = tick;
		} else {
			if (c->k->ops->read_process(c->k, c->ids[i], &e) < 0)
				continue;
			p = proctable_update(c->procs, &e, tick, c->users);
		}
		p->reread = 0;
		collect_set_owner(c, nprocs, p);
		c->ids[nprocs++] = p->pid;
	}
	c->nids = nprocs;
	return 0;
}

/* What a thread's answer adds to its process's split (steady.h): to the hot threads' part when
 * they are asked first, else to the reading of all of them. */
static void split_add(struct collector *c, struct proc *p, const struct task *t, uint64_t sum, int was_summed)
{
	if (p->hot_tick == c->tt->tick && !c->full_pass) {
		p->hot_delta += sum - (was_summed ? t->sum : 0);
		p->nhot_answered++;
	} else {
		p->read_sum += sum;
		p->nread++;
	}
}

static void on_thread_reply(void *arg, size_t i, const struct ts_record *rec, uint64_t when)
{
	struct collector *c = arg;
	struct task_counters io;
	uint64_t age = rec->c.etime_us * 1000;
	uint64_t start = when > age ? when - age : 0;
	uint64_t sum = steady_sum(&rec->c);
	struct proc *p = c->qowner[i];
	uint32_t tick = c->tt->tick;
	struct task *t;

	if (tasktable_gone_span(c->tasks, rec->id, start, rec->span_ns, tick))
		return;
	t = tasktable_lookup_span(c->tasks, rec->id, start, rec->span_ns);
	if (t->seen && t->seen == tick - 1 && collect_activity(&rec->c) != t->activity)
		p->moved = tick; /* a thread ran since the last tick: likely to run again */
	/* the main thread is new or ran: the process may have changed, unless its stat was just read */
	if (rec->id == p->pid && p->read != tick &&
	    (t->seen != tick - 1 || collect_activity(&rec->c) != t->activity))
		p->reread = 1;
	split_add(c, p, t, sum, t->seen == tick - 1 && t->proc == p && !t->exited);
	if (t->seen && (t->seen == tick || t->seen + 1 == tick)) {
		if (t->sum != sum) /* it moved */
			t->moved = tick;
	} else if ((tick > 1 && start >= c->tt->prev_mono) || steady_likely_hot(&rec->c)) {
		t->moved = p->moved = tick; /* born since the last tick, or seen first and likely to run */
	}
	t->sum = sum;
	proc_repoint(&t->proc, p);
	if (rec->c.have & HAVE_COMM)
		str_copy(t->comm, sizeof(t->comm), rec->c.comm);
	task_read(t, collect_thread_io(c, t, p->pid, &rec->c, &io), when, 1, start >= c->tt->prev_mono, 0, c->tt,
		  c->rules);
}

/* Reads again the processes marked so. One whose pid now holds a newer process gets a new
 * entry, and this tick's threads are pointed at it. */
static void reread_processes(struct collector *c)
{
	for (size_t i = 0; i < c->nids; i++) {
		struct proc *p = c->owner[i], *np;
		struct proc_entry e;

		if (!p->reread)
			continue;
		p->reread = 0;
		if (c->k->ops->read_process(c->k, p->pid, &e) < 0)
			continue;
		np = proctable_update(c->procs, &e, c->tt->tick, c->users);
		for (size_t k = i; np != p && k < c->nids; k++) {
			struct task *t;

			if (c->owner[k] != p)
				continue;
			c->owner[k] = np;
			t = tasktable_get(c->tasks, c->ids[k]);
			if (t && t->proc == p)
				proc_repoint(&t->proc, np);
		}
	}
	proctable_describe(c->procs, c->k, c->hier);
}

/* The state of the threads read this tick that ran since their state was read; ids are grouped
 * by process, so each process's directory of threads is opened once. */
static void read_states(struct collector *c)
{
	uint32_t pid = 0;
	int dirfd = -1; /* the handle of pid's threads */

	for (size_t k = 0; k < c->nids; k++) {
		struct task *t = tasktable_get(c->tasks, c->ids[k]);
		char st;

		if (!t || t->seen != c->tt->tick || !t->need_state || t->exited || !t->proc)
			continue;
		if (dirfd < 0 || t->proc->pid != pid) {
			if (dirfd >= 0)
				c->k->ops->close_threads(c->k, dirfd);
			pid = t->proc->pid;
			dirfd = c->k->ops->open_threads(c->k, pid);
		}
		st = dirfd >= 0 ? c->k->ops->thread_state(c->k, dirfd, t->id) : 0;
		t->state = st ? st : '?';
		t->need_state = 0;
	}
	if (dirfd >= 0)
		c->k->ops->close_threads(c->k, dirfd);
}

/* Whether p, which moved at the last tick, may be split (steady.h): what its ended threads left
 * and the sum of its threads' readings are known from the last tick. */
static int split_ready(const struct proc *p, uint32_t tick)
{
	return p->moved + 1 == tick && p->rest_tick + 1 == tick && p->sum_tick + 1 == tick;
}

static void push_hot(struct collector *c, uint32_t tid, struct proc *p)
{
	c->hot_ids = xgrow(c->hot_ids, &c->caphot_ids, c->nhot + 1, sizeof(*c->hot_ids));
	c->hot_owner = xgrow(c->hot_owner, &c->caphot_owner, c->nhot + 1, sizeof(*c->hot_owner));
	c->hot_ids[c->nhot] = tid;
	c->hot_owner[c->nhot++] = p;
}

/* Adds to hot_ids the threads of p that moved at the last tick or were not read then; returns 0
 * (adding none) when p is not to be split: a thread its sum counts is gone, or half of its
 * threads are hot, so that asking them all costs about as much. */
static int pick_hot(struct collector *c, struct proc *p)
{
	uint32_t tick = c->tt->tick;
	size_t before = c->nhot, summed = 0;

	c->ntids = 0;
	c->k->ops->list_threads(c->k, p->pid, &c->tids, &c->ntids, &c->captids);
	if (c->rules->threads)
		c->ntids = collect_select_threads(c, p->pid, c->tids, c->ntids);
	for (size_t k = 0; k < c->ntids; k++) {
		struct task *t = tasktable_get(c->tasks, c->tids[k]);
		int was_summed = t && t->seen + 1 == tick && t->proc == p && !t->exited;

		summed += (size_t)was_summed;
		if (!was_summed || t->moved + 1 == tick)
			push_hot(c, c->tids[k], p);
	}
	p->nhot = (uint32_t)(c->nhot - before);
	if (summed == p->nsum && 2 * (size_t)p->nhot <= c->ntids)
		return 1;
	c->nhot = before;
	return 0;
}

/* A per-process answer in a list asked TS_BY_EACH, right before or after some of its threads: for
 * its split, and the reference of its next steady_check (its threads are read this tick). */
static void on_process_answer(struct collector *c, struct proc *p, const struct ts_record *rec)
{
	p->answered = 1;
	p->answer_sum = steady_sum(&rec->c);
	steady_check(p, &rec->c, c->tt->tick, 0);
}

static void on_answer(void *arg, size_t i, const struct ts_record *rec, uint64_t when)
{
	struct collector *c = arg;

	if (c->qids[i] & TS_ASK_TGID)
		on_process_answer(c, c->qowner[i], rec);
	else
		on_thread_reply(arg, i, rec, when);
}

/* Asks ids[0..n) (threads, and processes marked TS_ASK_TGID) in their order; full: every thread
 * of their processes is in the list. */
static int ask_each(struct collector *c, const uint32_t *ids, struct proc **owner, size_t n, int full)
{
	c->qids = ids;
	c->qowner = owner;
	c->full_pass = full;
	return n ? c->k->ops->query(c->k, TS_BY_EACH, ids, n, on_answer, c) : 0;
}

/* The processes to split (steady.h) move from ids/owner to the hot list, each as its hot threads
 * and then itself, and are asked in that order. */
static int ask_split(struct collector *c, int carry)
{
	uint32_t tick = c->tt->tick;
	size_t kept = 0;

	c->nhot = 0;
	for (size_t i = 0; i < c->nids; i++) {
		struct proc *p = c->owner[i];

		if (carry && split_ready(p, tick) && pick_hot(c, p)) {
			p->hot_tick = tick;
			p->hot_delta = 0;
			p->nhot_answered = 0;
			p->answered = 0;
			push_hot(c, p->pid | TS_ASK_TGID, p);
			continue;
		}
		c->ids[kept] = c->ids[i];
		c->owner[kept++] = p;
	}
	c->nids = kept;
	return ask_each(c, c->hot_ids, c->hot_owner, c->nhot, 0);
}

/* The split holds: every hot thread answered, and the process's answer is what its ended threads
 * left plus its threads' readings, the others' unchanged. */
static int split_holds(const struct proc *p)
{
	return p->answered && p->nhot_answered == p->nhot && p->answer_sum - p->rest == p->sum + p->hot_delta;
}

/* Thread mode's shortcuts (steady.h): the processes to split asked as such, the others by their
 * per-process answers; ids/owner keep the processes whose every thread is to be asked. The
 * others are marked steady (nothing moved) or split (only the hot threads did). Where nothing
 * may be carried (the first reading), nothing is asked: every thread is, after its process. */
static int drop_steady(struct collector *c, int carry)
{
	uint32_t tick = c->tt->tick;
	size_t kept = 0;
	int rc;

	if (!carry) {
		c->nhot = 0;
		return 0;
	}
	rc = ask_split(c, carry);
	if (rc < 0)
		return rc;
	rc = collect_ask_processes(c, c->nids);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < c->nids; i++) {
		struct proc *p = c->owner[i];
		const struct task_counters *answer = c->answered[i] ? &c->replies[i] : NULL;

		p->answered = answer != NULL;
		p->answer_sum = answer ? steady_sum(answer) : 0;
		if (steady_check(p, answer, tick, carry)) {
			p->rest_tick = p->rest_tick + 1 == tick ? tick : 0;
			continue;
		}
		c->ids[kept] = c->ids[i];
		c->owner[kept++] = p;
	}
	c->nids = kept;
	for (size_t k = 0; k < c->nhot; k++) {
		struct proc *p = c->hot_owner[k];

		if (!(c->hot_ids[k] & TS_ASK_TGID))
			continue;
		if (!p->answered)
			steady_check(p, NULL, tick, 0);
		if (split_holds(p)) {
			p->split = p->rest_tick = tick;
			continue;
		}
		c->ids = xgrow(c->ids, &c->capids, c->nids + 1, sizeof(*c->ids));
		collect_set_owner(c, c->nids, p);
		c->ids[c->nids++] = p->pid;
	}
	return 0;
}

/* After every thread of the processes in ids/owner was asked, each process of several threads
 * right after its own answer: what their ended threads left in their answers, known when every
 * thread listed answered. The per-process entries leave ids/owner. */
static void settle_rest(struct collector *c)
{
	size_t kept = 0;

	for (size_t k = 0; k < c->nids; k++) {
		struct proc *p = c->owner[k];

		if (c->ids[k] & TS_ASK_TGID) {
			p->rest = p->answer_sum - p->read_sum;
			p->rest_tick = p->answered && p->nread == p->nlisted ? c->tt->tick : 0;
			continue;
		}
		if (!k || c->owner[k - 1] != p) /* a process's first entry is a thread: one asked alone */
			p->rest_tick = 0;
		c->ids[kept] = c->ids[k];
		c->owner[kept++] = p;
	}
	c->nids = kept;
}

/* Adds the hot threads of the processes split to ids/owner, as if asked with the others. */
static void add_split(struct collector *c)
{
	for (size_t k = 0; k < c->nhot; k++) {
		if (c->hot_owner[k]->split != c->tt->tick || (c->hot_ids[k] & TS_ASK_TGID))
			continue;
		c->ids = xgrow(c->ids, &c->capids, c->nids + 1, sizeof(*c->ids));
		collect_set_owner(c, c->nids, c->hot_owner[k]);
		c->ids[c->nids++] = c->hot_ids[k];
	}
}

/* The threads of the steady processes, and the others of the split ones, keep their last
 * readings; then each process's sum of its threads' readings, for the next tick's split. */
static void carry_steady(struct collector *c, uint64_t when)
{
	uint32_t tick = c->tt->tick;
	size_t pos = 0;
	struct task *t;

	while (tasktable_next(c->tasks, &pos, &t)) {
		struct proc *p = t->proc;

		if (!p || t->exited)
			continue;
		if (t->seen + 1 == tick && (p->steady == tick || p->split == tick))
			task_carry(t, when, 0, c->tt, c->rules);
		if (t->seen != tick)
			continue;
		if (p->sum_tick != tick) {
			p->sum_tick = tick;
			p->sum = 0;
			p->nsum = 0;
		}
		p->sum += t->sum;
		p->nsum++;
	}
}

/* A first reading of many threads: the states of those new since the last tick (read anyway)
 * read side by side with the queries (prestate.h); NULL when they are few. */
static struct prestate *start_states(struct collector *c)
{
	uint32_t tick = c->tt->tick;
	uint8_t *want = xcalloc(c->nids ? c->nids : 1, 1);

	for (size_t k = 0; k < c->nids; k++) {
		const struct task *t = c->ids[k] & TS_ASK_TGID ? NULL : tasktable_get(c->tasks, c->ids[k]);

		want[k] = !(c->ids[k] & TS_ASK_TGID) && (!t || t->seen + 1 != tick);
	}
	return prestate_start(c->k, c->ids, c->owner, c->nids, want, c->prestate_min ? c->prestate_min : PRESTATE_MIN);
}

/* The states start_states read, for the threads read this tick. */
static void apply_states(struct collector *c, struct prestate *p)
{
	const char *state;
	const uint8_t *want;

	if (!p)
		return;
	prestate_finish(p);
	state = prestate_states(p);
	want = prestate_wanted(p);
	for (size_t k = 0; k < c->nids; k++) {
		struct task *t = want[k] ? tasktable_get(c->tasks, c->ids[k]) : NULL;

		if (!t || t->seen != c->tt->tick || t->exited)
			continue;
		t->state = state[k] ? state[k] : '?';
		t->need_state = 0;
	}
	prestate_free(p);
}

int collect_threads(struct collector *c, char *err, size_t errlen)
{
	int carry = c->tt->tick > 1 && !c->read_all && c->rules->delayacct == c->last_delayacct;
	struct prestate *pre;
	int rc = walk_threads(c);

	if (rc < 0)
		return collect_walk_failed(rc, err, errlen);
	rc = drop_steady(c, carry);
	if (rc < 0)
		return rc;
	collect_list_threads(c, carry ? LIST_ANSWER_SPLIT : LIST_ANSWER_ALL);
	pre = start_states(c);
	rc = ask_each(c, c->ids, c->owner, c->nids, 1);
	apply_states(c, pre);
	if (rc < 0)
		return rc;
	settle_rest(c);
	add_split(c);
	reread_processes(c);
	read_states(c);
	carry_steady(c, c->k->ops->mono_ns(c->k));
	c->read_all = 0;
	c->last_delayacct = c->rules->delayacct;
	return 0;
}
