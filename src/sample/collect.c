/* collect.c — the collectors of the live tasks: process mode, limited mode, and the steps they
 * share with thread mode's (collectthreads.c, through collectstep.h; the exit records' collector
 * is collectexit.c).
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
#include "collectstep.h"
#include "format.h"
#include "i18n.h"
#include "threadnotes.h"
#include "timing.h"
#include "xalloc.h"

void collector_free(struct collector *c)
{
	free(c->ids);
	free(c->owner);
	free(c->replies);
	free(c->answered);
	free(c->answered_at);
	free(c->hot_ids);
	free(c->hot_owner);
	free(c->tids);
	free(c->fids);
	free(c->fowner);
	free(c->fslot);
	free(c->sub_ids);
	free(c->sub_index);
	c->fids = c->fslot = c->sub_ids = NULL;
	c->fowner = NULL;
	c->sub_index = NULL;
	c->nf = c->capfids = c->capfowner = c->capfslot = c->capsub_ids = c->capsub_index = 0;
	c->hot_ids = c->tids = NULL;
	c->hot_owner = NULL;
	c->nhot = c->caphot_ids = c->caphot_owner = c->ntids = c->captids = 0;
	c->ids = NULL;
	c->owner = NULL;
	c->replies = NULL;
	c->answered = NULL;
	c->answered_at = NULL;
	c->nids = c->capids = c->capowner = c->capreplies = 0;
}

static uint64_t ticks_to_ns(uint64_t ticks)
{
	return ticks * (1000000000ull / (uint64_t)timing_hz());
}

uint64_t collect_activity(const struct task_counters *cnt)
{
	return task_activity(cnt);
}

int collect_walk_failed(int rc, char *err, size_t errlen)
{
	snprintf(err, errlen, F_(N_("cannot walk /proc: %s")), strerror(-rc));
	return rc;
}

/* Makes the process of the owner array's next slot p, growing it. */
void collect_set_owner(struct collector *c, size_t i, struct proc *p)
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
		collect_set_owner(c, c->nids, p);
		c->ids[c->nids++] = p->pid;
	}
	proctable_describe(c->procs, c->k, c->hier);
	return 0;
}

/* Keeps of the n thread ids of process pid those in the selection; returns how many. */
size_t collect_select_threads(const struct collector *c, uint32_t pid, uint32_t *ids, size_t n)
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
		c->nids = before + collect_select_threads(c, p->pid, c->ids + before, added);
	return c->nids - before;
}

/* Replaces the process list in ids/owner by the list of their threads. with_answer (thread mode):
 * a process of several threads is asked by tgid right before them, for its split (steady.h); with
 * LIST_ANSWER_ALL a process of one thread too, for its next steady_check. */
void collect_list_threads(struct collector *c, enum list_answer with_answer)
{
	size_t nprocs = c->nids;
	struct proc **procs = xmalloc((nprocs ? nprocs : 1) * sizeof(*procs));

	if (nprocs) /* owner may be NULL when there are none */
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
		if (with_answer && (n == 0 || (with_answer == LIST_ANSWER_SPLIT && n < 2))) {
			/* no thread, or one: nothing to split */
			memmove(c->ids + at, c->ids + at + 1, n * sizeof(*c->ids));
			c->nids--;
		} else if (with_answer) {
			p->answered = 0; /* the answer right before its threads is the one to count */
		}
		p->nlisted = (uint32_t)n;
		p->nread = 0;
		p->read_sum = 0;
		for (size_t k = at; k < c->nids; k++)
			collect_set_owner(c, k, p);
	}
	free(procs);
}

/* Thread rows, with want_acct: the I/O counters from /proc/PID/task/TID/io, exact where taskstats
 * rounds each down to a multiple of 1024 (which leaves the counts of system calls useless), read
 * again only when the thread ran since its last reading (at the last tick, or at this one when it
 * is asked twice), else kept from it. Returns the counters
 * to read: cnt itself without want_acct, else buf. */
const struct task_counters *collect_thread_io(const struct collector *c, const struct task *t, uint32_t pid,
					     const struct task_counters *cnt, struct task_counters *buf)
{
	const uint32_t io = HAVE_IO_BYTES | HAVE_IO_CHARS;

	if (!c->want_acct)
		return cnt;
	*buf = *cnt;
	buf->have &= ~io;
	if ((t->seen + 1 != c->tt->tick && t->seen != c->tt->tick) || collect_activity(cnt) != t->activity) {
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

/* Process mode keeps each answer until the process's identity is known. */
static void keep_reply(void *arg, size_t i, const struct ts_record *rec, uint64_t when)
{
	struct collector *c = arg;

	c->replies[i] = rec->c;
	c->answered[i] = 1;
	c->answered_at[i] = when;
}

/* The process an answer is about. Its stat is read when it is new, was not there at the last
 * tick, or ran since: a process that did not run cannot have changed its state, threads, name
 * or user, and a new process under a reused pid has other counters, so it is read. */
static struct proc *answered_process(struct collector *c, uint32_t pid, const struct task_counters *cnt)
{
	struct proc *p = proctable_get(c->procs, pid);
	uint32_t tick = c->tt->tick;
	struct proc_entry e;

	if (p && p->seen == tick - 1 && p->activity == collect_activity(cnt)) {
		p->seen = p->walked = tick;
		return p;
	}
	if (c->k->ops->read_process(c->k, pid, &e) < 0)
		return NULL;
	p = proctable_update(c->procs, &e, tick, c->users);
	p->activity = collect_activity(cnt);
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

/* Makes room for an answer per id, none answered yet. With no ids there may be no room at all
 * (answered NULL), and memset must not be given NULL even for 0 bytes. */
static void ready_replies(struct collector *c)
{
	if (c->nids > c->capreplies) {
		c->capreplies = c->nids;
		free(c->replies);
		free(c->answered_at);
		c->replies = xmalloc(c->capreplies * sizeof(*c->replies));
		c->answered_at = xmalloc(c->capreplies * sizeof(*c->answered_at));
		c->answered = xrealloc(c->answered, c->capreplies);
	}
	if (c->nids)
		memset(c->answered, 0, c->nids);
}

/* One per-process (TGID) answer for each of the first n ids, kept in replies until its process
 * is read. */
int collect_ask_processes(struct collector *c, size_t n)
{
	ready_replies(c);
	return c->k->ops->query(c->k, TS_BY_TGID, c->ids, n, keep_reply, c);
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
	if (p->acct_tick != tick - 1 || p->acct_tick == 0 || p->acct_activity != collect_activity(cnt)) {
		memset(&fresh, 0, sizeof(fresh));
		c->k->ops->process_acct(c->k, p->pid, &fresh);
		p->acct_groups = fresh.have & HAVE_THREAD_ONLY;
		for (int f = 0; f < AF_COUNT; f++)
			if (acct_fields[f].have & HAVE_THREAD_ONLY)
				p->acct[f] = acct_get(&fresh, f);
		p->acct_activity = collect_activity(cnt);
	}
	p->acct_tick = tick;
	cnt->have |= p->acct_groups;
	for (int f = 0; f < AF_COUNT; f++)
		if (acct_fields[f].have & p->acct_groups)
			acct_set(cnt, f, p->acct[f]);
}

/* Process mode keeps each answer of the processes asked by ask_rest. */
static void keep_rest_reply(void *arg, size_t i, const struct ts_record *rec, uint64_t when)
{
	struct collector *c = arg;

	keep_reply(c, c->sub_index[i], rec, when);
}

/* One per-process answer for each process of ids not answered yet (by its split). */
static int ask_rest(struct collector *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nids; i++) {
		if (c->answered[i])
			continue;
		c->sub_ids = xgrow(c->sub_ids, &c->capsub_ids, n + 1, sizeof(*c->sub_ids));
		c->sub_index = xgrow(c->sub_index, &c->capsub_index, n + 1, sizeof(*c->sub_index));
		c->sub_ids[n] = c->ids[i];
		c->sub_index[n++] = i;
	}
	return n ? c->k->ops->query(c->k, TS_BY_TGID, c->sub_ids, n, keep_rest_reply, c) : 0;
}

int collect_processes(struct collector *c, char *err, size_t errlen)
{
	int follow = c->want_states || c->want_peaks; /* what taskstats and /proc keep per thread */
	int rc;

	c->nids = 0;
	rc = c->k->ops->list_processes(c->k, c->sel->pids, c->sel->npids, &c->ids, &c->nids, &c->capids);
	if (rc < 0)
		return collect_walk_failed(rc, err, errlen);
	if (!follow)
		rc = collect_ask_processes(c, c->nids);
	else {
		ready_replies(c);
		rc = threadnotes_split(c);
		if (rc >= 0)
			rc = ask_rest(c);
	}
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < c->nids; i++)
		collect_set_owner(c, i, c->answered[i] ? answered_process(c, c->ids[i], &c->replies[i]) : NULL);
	if (follow && (rc = threadnotes_settle(c)) < 0)
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
	task_read(t, collect_thread_io(c, t, p->pid, cnt, &io), when, 1, ticks_to_ns(began) >= c->tt->prev_boot, 1,
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
		return collect_walk_failed(rc, err, errlen);
	nprocs = c->nids;
	procs = xmalloc((nprocs ? nprocs : 1) * sizeof(*procs));
	memcpy(procs, c->owner, nprocs * sizeof(*procs));
	collect_list_threads(c, LIST_NO_ANSWER);
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
			if (c->want_states && (s = cghier_state_of(state)) >= 0)
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
