/* collect.c — the collectors of the live tasks: process mode, thread mode, limited mode (the exit
 * records' collector is collectexit.c).
 *
 * Process metadata (user, command line) is read once per process; thread names and identities
 * come free with each taskstats reply, and a thread's state is re-read only when the thread ran
 * since the last look (a task that did not run cannot have changed state, except for being
 * woken, which shows one tick later). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect.h"
#include "format.h"
#include "i18n.h"
#include "prestate.h"
#include "steady.h"
#include "timing.h"
#include "xalloc.h"

void collector_free(struct collector *c)
{
	free(c->ids);
	free(c->owner);
	free(c->replies);
	free(c->answered);
	free(c->answered_at);
	free(c->peak_ids);
	free(c->peak_owner);
	free(c->hot_ids);
	free(c->hot_owner);
	free(c->tids);
	c->hot_ids = c->tids = NULL;
	c->hot_owner = NULL;
	c->nhot = c->caphot_ids = c->caphot_owner = c->ntids = c->captids = 0;
	c->peak_ids = NULL;
	c->peak_owner = NULL;
	c->npeak = c->cappeak_ids = c->cappeak_owner = 0;
	c->ids = NULL;
	c->owner = NULL;
	c->replies = NULL;
	c->answered = NULL;
	c->answered_at = NULL;
	c->nids = c->capids = c->capowner = c->capreplies = 0;
}

static uint64_t ticks_to_ns(uint64_t ticks)
{
	return ticks * (1000000000ull / (uint64_t)procfs_hz());
}

static uint64_t activity_of(const struct task_counters *cnt)
{
	return task_activity(cnt);
}

static int walk_failed(int rc, char *err, size_t errlen)
{
	snprintf(err, errlen, F_(N_("cannot walk /proc: %s")), strerror(-rc));
	return rc;
}

/* Makes the process of the owner array's next slot p, growing it. */
static void set_owner(struct collector *c, size_t i, struct proc *p)
{
	c->owner = xgrow(c->owner, &c->capowner, i + 1, sizeof(*c->owner));
	c->owner[i] = p;
}

/* The walk of every selected process, with its stat read: ids and owner hold them. */
static int walk(struct collector *c)
{
	struct proc_entry *e;
	size_t n;
	int rc = c->k->ops->walk_processes(c->k, c->sel->pids, c->sel->npids, &e, &n);

	if (rc < 0)
		return rc;
	c->nids = 0;
	for (size_t i = 0; i < n; i++) {
		struct proc *p = proctable_update(c->procs, &e[i], c->tt->tick, c->users);

		c->ids = xgrow(c->ids, &c->capids, c->nids + 1, sizeof(*c->ids));
		set_owner(c, c->nids, p);
		c->ids[c->nids++] = p->pid;
	}
	proctable_describe(c->procs, c->k, c->hier);
	return 0;
}

/* Keeps of the n thread ids of process pid those in the selection; returns how many. */
static size_t select_threads(const struct collector *c, uint32_t pid, uint32_t *ids, size_t n)
{
	size_t kept = 0;

	for (size_t k = 0; k < n; k++)
		if (selection_has(c->sel, pid, ids[k], 1))
			ids[kept++] = ids[k];
	return kept;
}

/* Lists p's threads after ids[0..nids) (only those selected on their own, when so listed);
 * returns how many. A process whose thread count is not what its stat said is read again after
 * the queries. */
static size_t add_threads(struct collector *c, struct proc *p)
{
	size_t before = c->nids;
	size_t added = c->k->ops->list_threads(c->k, p->pid, &c->ids, &c->nids, &c->capids);

	if (added != (size_t)p->nlwp)
		p->reread = 1;
	if (c->rules->threads)
		c->nids = before + select_threads(c, p->pid, c->ids + before, added);
	return c->nids - before;
}

/* Replaces the process list in ids/owner by the list of their threads. with_answer (thread mode):
 * a process of several threads is asked by tgid right before them, for its split (steady.h). */
static void list_threads(struct collector *c, int with_answer)
{
	size_t nprocs = c->nids;
	struct proc **procs = xmalloc((nprocs ? nprocs : 1) * sizeof(*procs));

	memcpy(procs, c->owner, nprocs * sizeof(*procs));
	c->nids = 0;
	for (size_t i = 0; i < nprocs; i++) {
		struct proc *p = procs[i];
		size_t at = c->nids, n;

		if (with_answer) {
			c->ids = xgrow(c->ids, &c->capids, c->nids + 1, sizeof(*c->ids));
			c->ids[c->nids++] = p->pid | TS_ASK_TGID;
		}
		n = add_threads(c, p);
		if (with_answer && n < 2) { /* one thread: nothing to split */
			memmove(c->ids + at, c->ids + at + 1, n * sizeof(*c->ids));
			c->nids--;
		}
		if (with_answer && n >= 2)
			p->answered = 0; /* the answer right before its threads is the one to count */
		p->nlisted = (uint32_t)n;
		p->nread = 0;
		p->read_sum = 0;
		for (size_t k = at; k < c->nids; k++)
			set_owner(c, k, p);
	}
	free(procs);
}

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
		set_owner(c, nprocs, p);
		c->ids[nprocs++] = p->pid;
	}
	c->nids = nprocs;
	return 0;
}

/* Thread rows, with want_acct: the I/O counters from /proc/PID/task/TID/io, exact where taskstats
 * rounds each down to a multiple of 1024 (which leaves the counts of system calls useless), read
 * again only when the thread ran since its last reading (at the last tick, or at this one when it
 * is asked twice), else kept from it. Returns the counters
 * to read: cnt itself without want_acct, else buf. */
static const struct task_counters *thread_io(const struct collector *c, const struct task *t, uint32_t pid,
					     const struct task_counters *cnt, struct task_counters *buf)
{
	const uint32_t io = HAVE_IO_BYTES | HAVE_IO_CHARS;

	if (!c->want_acct)
		return cnt;
	*buf = *cnt;
	buf->have &= ~io;
	if ((t->seen + 1 != c->tt->tick && t->seen != c->tt->tick) || activity_of(cnt) != t->activity) {
		c->k->ops->thread_io(c->k, pid, t->id, buf);
		return buf;
	}
	for (int f = 0; t->acct && f < AF_COUNT; f++)
		if ((acct_fields[f].have & io) && (t->acct->last.acct_have & (1u << f))) {
			acct_set(buf, f, t->acct->last.acct[f]);
			buf->have |= acct_fields[f].have;
		}
	return buf;
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

	if (tasktable_gone(c->tasks, rec->id, start, tick))
		return;
	t = tasktable_lookup(c->tasks, rec->id, start);
	if (t->seen && t->seen == tick - 1 && activity_of(&rec->c) != t->activity)
		p->moved = tick; /* a thread ran since the last tick: likely to run again */
	if (rec->id == p->pid && (t->seen != tick - 1 || activity_of(&rec->c) != t->activity))
		p->reread = 1; /* the main thread is new or ran: the process may have changed */
	split_add(c, p, t, sum, t->seen == tick - 1 && t->proc == p && !t->exited);
	if (t->sum != sum || (t->seen != tick && t->seen + 1 != tick)) /* it moved, or is new */
		t->moved = tick;
	t->sum = sum;
	proc_repoint(&t->proc, p);
	if (rec->c.have & HAVE_COMM)
		str_copy(t->comm, sizeof(t->comm), rec->c.comm);
	task_read(t, thread_io(c, t, p->pid, &rec->c, &io), when, 1, start >= c->tt->prev_mono, 0, c->tt,
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

/* Process mode keeps each answer until the process's identity is known. */
static void keep_reply(void *arg, size_t i, const struct ts_record *rec, uint64_t when)
{
	struct collector *c = arg;

	c->replies[i] = rec->c;
	c->answered[i] = 1;
	c->answered_at[i] = when;
}

/* Counts a process's threads by state: read when it ran (a process that did not run cannot have
 * changed the states of its threads, but for a wakeup, which shows one tick later). */
static void count_states(struct collector *c, struct proc *p)
{
	struct kernel *k = c->k;
	uint32_t *tids = NULL;
	size_t n = 0, cap = 0;
	int dirfd;

	memset(p->states, 0, sizeof(p->states));
	k->ops->list_threads(k, p->pid, &tids, &n, &cap);
	dirfd = n ? k->ops->open_threads(k, p->pid) : -1;
	for (size_t i = 0; dirfd >= 0 && i < n; i++) {
		int s = cgroupfs_state_of(k->ops->thread_state(k, dirfd, tids[i]));

		if (s >= 0)
			p->states[s]++;
	}
	if (dirfd >= 0)
		k->ops->close_threads(k, dirfd);
	free(tids);
	p->have_states = 1;
}

/* The process an answer is about. Its stat is read when it is new, was not there at the last
 * tick, or ran since: a process that did not run cannot have changed its state, threads, name
 * or user, and a new process under a reused pid has other counters, so it is read. */
static struct proc *answered_process(struct collector *c, uint32_t pid, const struct task_counters *cnt)
{
	struct proc *p = proctable_get(c->procs, pid);
	uint32_t tick = c->tt->tick;
	struct proc_entry e;

	if (p && p->seen == tick - 1 && p->activity == activity_of(cnt)) {
		p->seen = p->walked = tick;
		if (c->want_states && !p->have_states)
			count_states(c, p);
		return p;
	}
	if (c->k->ops->read_process(c->k, pid, &e) < 0)
		return NULL;
	p = proctable_update(c->procs, &e, tick, c->users);
	p->activity = activity_of(cnt);
	if (c->want_states)
		count_states(c, p);
	return p;
}

static void apply_process_reply(struct collector *c, struct proc *p, const struct task_counters *cnt, uint64_t when)
{
	uint64_t start = ticks_to_ns(p->start_ticks);
	struct task *t;

	if (tasktable_gone(c->tasks, p->pid, start, c->tt->tick))
		return;
	t = tasktable_lookup(c->tasks, p->pid, start);
	proc_repoint(&t->proc, p);
	t->state = p->state;
	t->need_state = 0;
	task_read(t, cnt, when, (uint32_t)p->nlwp, start >= c->tt->prev_boot, 1, c->tt, c->rules);
}

/* Makes room for an answer per id. */
static void grow_replies(struct collector *c)
{
	if (c->nids <= c->capreplies)
		return;
	c->capreplies = c->nids;
	free(c->replies);
	free(c->answered_at);
	c->replies = xmalloc(c->capreplies * sizeof(*c->replies));
	c->answered_at = xmalloc(c->capreplies * sizeof(*c->answered_at));
	c->answered = xrealloc(c->answered, c->capreplies);
}

/* One per-process (TGID) answer for each of the first n ids, kept in replies until its process
 * is read. */
static int ask_processes(struct collector *c, size_t n)
{
	grow_replies(c);
	memset(c->answered, 0, c->nids);
	return c->k->ops->query(c->k, TS_BY_TGID, c->ids, n, keep_reply, c);
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
		c->ntids = select_threads(c, p->pid, c->tids, c->ntids);
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
 * others are marked steady (nothing moved) or split (only the hot threads did). */
static int drop_steady(struct collector *c)
{
	uint32_t tick = c->tt->tick;
	int carry = tick > 1 && !c->read_all && c->rules->delayacct == c->last_delayacct;
	size_t kept = 0;
	int rc = ask_split(c, carry);

	if (rc < 0)
		return rc;
	rc = ask_processes(c, c->nids);
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
		set_owner(c, c->nids, p);
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
		set_owner(c, c->nids, c->hot_owner[k]);
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
	return prestate_start(c->k, c->ids, c->owner, c->nids, want, PRESTATE_MIN);
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
	struct prestate *pre;
	int rc = walk_threads(c);

	if (rc < 0)
		return walk_failed(rc, err, errlen);
	rc = drop_steady(c);
	if (rc < 0)
		return rc;
	list_threads(c, 1);
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

/* Process mode: the fields the per-process answer leaves at 0 (tsnl.c drops them) stay
 * unavailable, or with want_acct come from /proc, read again only when the process ran since
 * (one that did not run cannot have done I/O, used CPU or grown its memory) or when they were not
 * read at the last tick. */
static void process_acct(struct collector *c, struct proc *p, struct task_counters *cnt)
{
	uint32_t tick = c->tt->tick;
	struct task_counters fresh;

	if (!c->want_acct)
		return;
	if (p->acct_tick != tick - 1 || p->acct_tick == 0 || p->acct_activity != activity_of(cnt)) {
		memset(&fresh, 0, sizeof(fresh));
		c->k->ops->process_acct(c->k, p->pid, &fresh);
		p->acct_groups = fresh.have & HAVE_THREAD_ONLY;
		for (int f = 0; f < AF_COUNT; f++)
			if (acct_fields[f].have & HAVE_THREAD_ONLY)
				p->acct[f] = acct_get(&fresh, f);
		p->acct_activity = activity_of(cnt);
	}
	p->acct_tick = tick;
	cnt->have |= p->acct_groups;
	for (int f = 0; f < AF_COUNT; f++)
		if (acct_fields[f].have & p->acct_groups)
			acct_set(cnt, f, p->acct[f]);
}

static void on_peak_reply(void *arg, size_t i, const struct ts_record *rec, uint64_t when)
{
	struct collector *c = arg;

	(void)when;
	proc_peak_add(c->peak_owner[i], &rec->c);
}

/* Process mode, with want_peaks: the threads of the processes that ran since the last tick (or
 * were not asked then) are asked for their longest waits, which taskstats keeps per thread only;
 * a process that did not run cannot have waited longer. The owner array holds the processes. */
static int ask_peaks(struct collector *c)
{
	uint32_t tick = c->tt->tick;

	c->npeak = 0;
	for (size_t i = 0; i < c->nids; i++) {
		struct proc *p = c->owner[i];
		size_t before = c->npeak;

		if (!p)
			continue;
		if (p->peak_tick && p->peak_tick + 1 == tick &&
		    p->peak_activity == activity_of(&c->replies[i])) { /* did not run */
			p->peak_tick = tick;
			continue;
		}
		p->peak_tick = tick;
		p->peak_activity = activity_of(&c->replies[i]);
		c->k->ops->list_threads(c->k, p->pid, &c->peak_ids, &c->npeak, &c->cappeak_ids);
		c->peak_owner = xgrow(c->peak_owner, &c->cappeak_owner, c->npeak ? c->npeak : 1,
				      sizeof(*c->peak_owner));
		for (size_t k = before; k < c->npeak; k++)
			c->peak_owner[k] = p;
	}
	return c->npeak ? c->k->ops->query(c->k, TS_BY_PID, c->peak_ids, c->npeak, on_peak_reply, c) : 0;
}

int collect_processes(struct collector *c, char *err, size_t errlen)
{
	int rc;

	c->nids = 0;
	rc = c->k->ops->list_processes(c->k, c->sel->pids, c->sel->npids, &c->ids, &c->nids, &c->capids);
	if (rc < 0)
		return walk_failed(rc, err, errlen);
	rc = ask_processes(c, c->nids);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < c->nids; i++)
		set_owner(c, i, c->answered[i] ? answered_process(c, c->ids[i], &c->replies[i]) : NULL);
	if (c->want_peaks && (rc = ask_peaks(c)) < 0)
		return rc;
	for (size_t i = 0; i < c->nids; i++) {
		struct proc *p = c->owner[i];

		if (!p)
			continue;
		process_acct(c, p, &c->replies[i]);
		if (c->want_peaks)
			proc_peak_apply(p, &c->replies[i]);
		apply_process_reply(c, p, &c->replies[i], c->answered_at[i]);
	}
	proctable_describe(c->procs, c->k, c->hier);
	return 0;
}

/* One thread's share of a process's thread set: the sum over its threads changes when one goes
 * or comes (a reused tid has another start). */
static uint64_t thread_hash(uint32_t tid, uint64_t start_ticks)
{
	uint64_t x = (tid | start_ticks << 32) * 0x9e3779b97f4a7c15ull;

	return x ^ x >> 29;
}

/* Limited mode, thread rows: one thread's reading. */
static void limited_thread(struct collector *c, struct proc *p, uint32_t tid, const struct task_counters *cnt,
			   char state, uint64_t began, uint64_t when)
{
	struct task *t = tasktable_lookup(c->tasks, tid, ticks_to_ns(began));
	struct task_counters io;

	proc_repoint(&t->proc, p);
	t->state = state;
	t->need_state = 0;
	str_copy(t->comm, sizeof(t->comm), cnt->comm);
	task_read(t, thread_io(c, t, p->pid, cnt, &io), when, 1, ticks_to_ns(began) >= c->tt->prev_boot, 1,
		  c->tt, c->rules);
}

/* Limited mode, process rows: the sum of the threads' readings; the row is partial when its set
 * of threads (ntids threads, tids_sum of their thread_hash) changed, as a thread that ended took
 * its delays along. */
static void limited_process(struct collector *c, struct proc *p, const struct task_counters *sum, uint64_t when,
			    uint32_t ntids, uint64_t tids_sum)
{
	struct task *t = tasktable_lookup(c->tasks, p->pid, ticks_to_ns(p->start_ticks));

	proc_repoint(&t->proc, p);
	t->state = p->state;
	t->need_state = 0;
	task_read(t, sum, when, (uint32_t)p->nlwp, ticks_to_ns(p->start_ticks) >= c->tt->prev_boot, 1, c->tt,
		  c->rules);
	t->partial = t->tids_known && (t->ntids != ntids || t->tids_sum != tids_sum);
	t->tids_known = 1;
	t->ntids = ntids;
	t->tids_sum = tids_sum;
}

/* Adds one thread's /proc counters to a process's sum. */
static void add_thread(struct task_counters *sum, const struct task_counters *cnt)
{
	for (int k = 0; k < DK_COUNT; k++) {
		sum->delay[k].total_ns += cnt->delay[k].total_ns;
		sum->delay[k].count += cnt->delay[k].count;
	}
	sum->run_virtual_ns += cnt->run_virtual_ns;
	sum->utime_us += cnt->utime_us;
	sum->stime_us += cnt->stime_us;
	sum->kind_total = cnt->kind_total;
	sum->kind_count = cnt->kind_count;
	sum->have = cnt->have;
}

int collect_limited(struct collector *c, char *err, size_t errlen)
{
	size_t nprocs;
	struct proc **procs;
	int rc = walk(c);

	if (rc < 0)
		return walk_failed(rc, err, errlen);
	nprocs = c->nids;
	procs = xmalloc((nprocs ? nprocs : 1) * sizeof(*procs));
	memcpy(procs, c->owner, nprocs * sizeof(*procs));
	list_threads(c, 0);
	for (size_t i = 0, j = 0; i < nprocs; i++) {
		struct proc *p = procs[i];
		struct task_counters sum, cnt;
		char state;
		uint64_t began, tids_sum = 0;
		uint32_t ntids = 0;
		uint64_t when = c->k->ops->mono_ns(c->k);

		memset(&sum, 0, sizeof(sum));
		if (c->want_states) {
			memset(p->states, 0, sizeof(p->states));
			p->have_states = 1;
		}
		for (; j < c->nids && c->owner[j] == p; j++) {
			int s;

			if (c->k->ops->thread_counters(c->k, p->pid, c->ids[j], &cnt, &state, &began) < 0)
				continue;
			if (c->want_states && (s = cgroupfs_state_of(state)) >= 0)
				p->states[s]++;
			if (c->rules->threads) {
				limited_thread(c, p, c->ids[j], &cnt, state, began, when);
				continue;
			}
			tids_sum += thread_hash(c->ids[j], began);
			ntids++;
			add_thread(&sum, &cnt);
		}
		if (c->rules->threads || !ntids)
			continue;
		process_acct(c, p, &sum); /* with want_acct, /proc/PID/stat's CPU times count ended threads */
		limited_process(c, p, &sum, when, ntids, tids_sum);
	}
	free(procs);
	return 0;
}
