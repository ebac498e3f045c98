/* sampler.c — a tick: gather, match with the previous reading, compute rates.
 *
 * Tasks are identified by (id, start time), so a reused pid is never diffed against the task that
 * had it before. Process metadata (user, command line) is read once per process; thread names
 * and identities come free with each taskstats reply, and a thread's state is re-read only when
 * the thread ran since the last look (a task that did not run cannot have changed state, except
 * for being woken, which shows one tick later). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "delayacct.h"
#include "format.h"
#include "i18n.h"
#include "idmap.h"
#include "procfs.h"
#include "psi.h"
#include "sampler.h"
#include "taskstats.h"
#include "timing.h"
#include "topn.h"
#include "xalloc.h"

/* Two readings of one thread whose estimated start times differ by less than this are the same
 * thread: a pid cannot be reused that fast. */
#define SAME_START_NS 20000000ull

/* Exited tasks kept one by one for the totals since the start, those that waited most; the rest
 * are summed in one row. */
#define DEPARTED_MAX 10000

/* Exit records waiting for the next tick (a long pause); more are counted as lost. */
#define PENDING_MAX 65536

/* Periods in which kernel.task_delayacct may have been 0, kept to tell which tasks may have been
 * forked without delay accounting; more are merged with the oldest. */
#define OFF_WINDOWS 8

/* From the latest reading that found the switch on (0: none) to the first that found it on
 * again (UINT64_MAX: not yet), on both clocks task start times are on. */
struct off_window {
	uint64_t lo_mono, lo_boot, hi_mono, hi_boot;
};

struct proc {
	uint32_t pid;
	uint64_t activity; /* run time + CPU count at the last read of its stat */
	uint32_t seen;   /* last tick whose rows may point here */
	uint32_t walked; /* last tick whose walk saw it */
	uint64_t start_ticks;
	uint32_t euid;
	int refs;      /* tasks pointing here */
	int detached;  /* no longer in the map: freed when refs drop to 0 */
	int nlwp;
	char state;
	int described; /* user and command line were read */
	int reread;    /* thread mode: its stat is to be read again after the queries */
	char user[64];
	char comm[64];
	char *cmdline;
};

struct task {
	uint32_t id;       /* tid in thread mode, tgid in process mode */
	uint32_t seen;     /* tick of the last reading */
	uint64_t start_ns; /* identity: start time, on the clock identity_now() gives */
	struct proc *proc;
	uint64_t activity; /* run time + CPU count at the last state read */
	char state;
	char comm[17];
	uint8_t has_base; /* base holds the previous reading (or zeros for a task born since) */
	uint8_t forked_off; /* may have been forked while kernel.task_delayacct was 0 (a process: may
			       have such threads), so its non-CPU kinds are unavailable */
	uint8_t accounted;  /* thread mode: a non-CPU wait was counted, so the kernel accounts them */
	uint8_t tids_known; /* limited mode, process rows: tids_sum/ntids hold the last reading's */
	uint8_t partial;    /* limited mode, process rows: the thread set changed since then */
	uint32_t ntids;
	uint64_t tids_sum;
	uint8_t exited;
	uint8_t start_guessed; /* made from an exit record that did not say when the task started */
	uint8_t need_state;
	struct sample base, last;
	struct task_totals acc; /* since the first reading */
};

/* An exited task kept for its totals since the start: only what its row shows, a third of the
 * size of a task with its process. */
struct departed {
	uint32_t pid, id, uid;
	const char *user; /* "?", or a name kept in the sampler's users */
	char *cmdline;
	char comm[64];
	struct task_totals acc;
};

/* An exit record waiting for the next tick. */
struct pending_exit {
	uint32_t id;  /* the task's id in the current mode */
	uint32_t pid; /* its process */
	uint64_t age_ns; /* how long it lived, UINT64_MAX when the record does not say */
	uint64_t recv_mono; /* when it was read */
	struct task_counters c;
};

/* The identity of an exited task that /proc may still list (a zombie waiting for its parent, or
 * a task late in its exit): its exit record had its final counters, so a later reading of the
 * same id and start is that task again, not a new one. */
struct gone {
	uint64_t start_ns; /* on the clock its mode's readings use */
	uint32_t tick;     /* the last tick that retired or saw it */
};

struct sampler {
	struct sampler_opts o;
	uint32_t *pids;   /* the selected processes: each listed id, a thread's resolved to its process */
	uint8_t *whole;   /* per selected process: listed itself, so thread mode shows all its threads */
	uint32_t *tids;   /* threads listed on their own, for thread mode */
	size_t ntids;
	char pids_notice[512];
	struct procfs *procfs;
	struct ts_client *ts;
	struct ts_listener *listener;
	int limited;
	char notice[512];

	struct idmap procs, tasks;
	struct topn departed;   /* exited tasks that waited most, kept for their totals since the start */
	struct departed *others; /* the totals of the other exited tasks */
	struct task **replaced; /* this tick: tasks whose id a newer task took; their exit record may come */
	size_t nreplaced, capreplaced;
	struct idmap users;     /* uid -> name, for tasks seen only in exit records and departed ones */
	struct idmap gone;      /* id -> struct gone: exited tasks that may still be listed */

	uint32_t tick;
	uint64_t now_mono, now_boot, prev_mono, prev_boot, first_mono;
	int delayacct;
	struct off_window off[OFF_WINDOWS]; /* oldest first */
	int noff, off_open; /* off_open: the last window has not ended yet */
	uint64_t on_mono, on_boot; /* the latest reading that found the switch on, 0 when none */
	uint64_t exits, exits_lost;
	struct pending_exit *pending;
	size_t npending, cappending;
	struct psi_snapshot psi_prev;

	/* scratch, reused every tick */
	uint32_t *ids;
	size_t nids, capids;
	struct proc **owner; /* the process of each id */
	size_t capowner;
	uint32_t *newpids;
	size_t nnew, capnew;
	struct task_counters *replies; /* process mode: the answer for each id, until its process is read */
	uint8_t *answered;
	uint64_t *answered_at;
	size_t capreplies;
	struct row *rows;
	size_t caprows;
};

/* ---- processes ---- */

static void proc_free(struct proc *p)
{
	free(p->cmdline);
	free(p);
}

static void proc_detach(struct sampler *s, struct proc *p)
{
	idmap_del(&s->procs, p->pid);
	p->detached = 1;
	if (p->refs == 0)
		proc_free(p);
}

static void proc_unref(struct proc *p)
{
	if (p && --p->refs == 0 && p->detached)
		proc_free(p);
}

static void task_set_proc(struct task *t, struct proc *p)
{
	if (t->proc == p)
		return;
	if (p)
		p->refs++;
	proc_unref(t->proc);
	t->proc = p;
}

/* Finds or makes the process of a walk entry; a pid now held by a newer process gets a new one.
 * A process that is new, changed its user or ran exec (its name changed) is described anew. */
static struct proc *proc_update(struct sampler *s, const struct proc_entry *e)
{
	struct proc *p = idmap_get(&s->procs, e->pid);

	if (p && p->start_ticks != e->start_ticks) {
		proc_detach(s, p);
		p = NULL;
	}
	if (!p) {
		p = xcalloc(1, sizeof(*p));
		p->pid = e->pid;
		p->start_ticks = e->start_ticks;
		idmap_put(&s->procs, p->pid, p);
	}
	if (!p->described || p->euid != e->euid || strcmp(p->comm, e->comm) != 0) {
		snprintf(p->user, sizeof(p->user), "%u", e->euid); /* until libproc2 names it */
		s->newpids = xgrow(s->newpids, &s->capnew, s->nnew + 1, sizeof(*s->newpids));
		s->newpids[s->nnew++] = p->pid;
	}
	p->seen = p->walked = s->tick;
	p->euid = e->euid;
	p->state = e->state;
	p->nlwp = e->nlwp;
	memcpy(p->comm, e->comm, sizeof(p->comm));
	return p;
}

static void describe(void *arg, uint32_t pid, const char *user, const char *cmdline)
{
	struct sampler *s = arg;
	struct proc *p = idmap_get(&s->procs, pid);

	if (!p)
		return;
	str_copy(p->user, sizeof(p->user), user);
	free(p->cmdline);
	p->cmdline = xstrdup(cmdline);
	p->described = 1;
}

/* ---- tasks ---- */

static void task_free(struct task *t)
{
	task_set_proc(t, NULL);
	free(t);
}

static struct task *task_new(uint32_t id, uint64_t start_ns)
{
	struct task *t = xcalloc(1, sizeof(*t));

	t->id = id;
	t->start_ns = start_ns;
	t->state = '?';
	t->need_state = 1;
	return t;
}

/* Finds the task with this id and start. One that held the id before is set aside for the rest
 * of the tick: the exit record that comes for the id is its. */
static struct task *task_lookup(struct sampler *s, uint32_t id, uint64_t start_ns)
{
	struct task *t = idmap_get(&s->tasks, id);
	uint64_t diff;

	if (t) {
		diff = t->start_ns > start_ns ? t->start_ns - start_ns : start_ns - t->start_ns;
		if (diff < SAME_START_NS && !t->exited)
			return t;
		idmap_del(&s->tasks, id);
		s->replaced = xgrow(s->replaced, &s->capreplaced, s->nreplaced + 1, sizeof(*s->replaced));
		s->replaced[s->nreplaced++] = t;
	}
	t = task_new(id, start_ns);
	idmap_put(&s->tasks, id, t);
	return t;
}

/* Whether a reading of (id, start) is of a task whose exit record was folded already: then it
 * is left out. A newer task with the id ends the memory of the old one. */
static int is_gone(struct sampler *s, uint32_t id, uint64_t start_ns)
{
	struct gone *g = idmap_get(&s->gone, id);
	uint64_t diff;

	if (!g)
		return 0;
	diff = g->start_ns > start_ns ? g->start_ns - start_ns : start_ns - g->start_ns;
	if (diff < SAME_START_NS) {
		g->tick = s->tick;
		return 1;
	}
	free(idmap_del(&s->gone, id));
	return 0;
}

/* Remembers an exited task that is being retired, for is_gone. */
static void remember_gone(struct sampler *s, const struct task *t)
{
	struct gone *g;

	if (t->start_guessed)
		return;
	g = idmap_get(&s->gone, t->id);
	if (!g) {
		g = xmalloc(sizeof(*g));
		idmap_put(&s->gone, t->id, g);
	}
	g->start_ns = t->start_ns;
	g->tick = s->tick;
}

/* Forgets the exited tasks that the tick just ended did not see again: /proc lists them no more. */
static void forget_gone(struct sampler *s)
{
	size_t pos = 0;
	uint32_t id;
	void *v;

	while (idmap_next(&s->gone, &pos, &id, &v)) {
		if (((struct gone *)v)->tick >= s->tick)
			continue;
		free(idmap_del(&s->gone, id));
		pos--;
	}
}

/* A non-CPU kind counted a wait: only a task the kernel accounts them for can have one. */
static int waited_non_cpu(const struct sample *x)
{
	for (int k = 0; k < DK_COUNT; k++)
		if (k != DK_CPU && (x->kind_total & (1u << k)) && (x->total[k] || x->count[k]))
			return 1;
	return 0;
}

/* Follows kernel.task_delayacct from reading to reading: a window opens at a reading that finds
 * it off and closes at the next that finds it on. */
static void track_switch(struct sampler *s)
{
	struct off_window *w;

	if (s->delayacct == DELAYACCT_ON) {
		if (s->off_open) {
			s->off[s->noff - 1].hi_mono = s->now_mono;
			s->off[s->noff - 1].hi_boot = s->now_boot;
			s->off_open = 0;
		}
		s->on_mono = s->now_mono;
		s->on_boot = s->now_boot;
		return;
	}
	if (s->delayacct != DELAYACCT_OFF || s->off_open)
		return;
	if (s->noff == OFF_WINDOWS) { /* the two oldest become one, which covers both */
		s->off[1].lo_mono = s->off[0].lo_mono;
		s->off[1].lo_boot = s->off[0].lo_boot;
		memmove(&s->off[0], &s->off[1], (OFF_WINDOWS - 1) * sizeof(s->off[0]));
		s->noff--;
	}
	w = &s->off[s->noff++];
	*w = (struct off_window){ s->on_mono, s->on_boot, UINT64_MAX, UINT64_MAX };
	s->off_open = 1;
}

/* A thread that started within a window may have been forked while the switch was 0. A process
 * that lived in one may have such threads: one that started before a window ended. */
static int maybe_forked_off(const struct sampler *s, uint64_t start, int boot, int process)
{
	for (int i = 0; i < s->noff; i++) {
		const struct off_window *w = &s->off[i];

		if (start <= (boot ? w->hi_boot : w->hi_mono) && (process || start >= (boot ? w->lo_boot : w->lo_mono)))
			return 1;
	}
	return 0;
}

/* Non-CPU delays are not accounted while kernel.task_delayacct is 0, and never for a task forked
 * while it was 0: unavailable, not 0. A thread row that ever counted a non-CPU wait proves the
 * kernel accounts it; a process row cannot, as its other threads may still be without. boot: t's
 * start is on CLOCK_BOOTTIME (from /proc), else on CLOCK_MONOTONIC (from taskstats). */
static void mask_sample(const struct sampler *s, struct task *t, struct sample *x, int boot)
{
	if (!t->forked_off && maybe_forked_off(s, t->start_ns, boot, !s->o.threads))
		t->forked_off = 1;
	if (s->o.threads && waited_non_cpu(x))
		t->accounted = 1;
	if (s->delayacct != DELAYACCT_OFF && !(t->forked_off && !t->accounted))
		return;
	x->kind_total &= 1u << DK_CPU;
	x->kind_count &= 1u << DK_CPU;
	x->kind_max &= 1u << DK_CPU;
}

/* Records a reading of t, which sums threads threads. born_since: the task started after the
 * previous reading, so zeros are its baseline. boot: as for mask_sample. */
static void task_reading(struct sampler *s, struct task *t, const struct task_counters *c, uint64_t when,
			 uint32_t threads, int born_since, int boot)
{
	sample_from_counters(&t->last, c, when, threads);
	mask_sample(s, t, &t->last, boot);
	if (!t->has_base && born_since && s->tick > 1) {
		sample_zero_like(&t->base, &t->last, s->prev_mono);
		t->has_base = 1;
	}
	t->seen = s->tick;
	if (t->last.run_ns + t->last.count[DK_CPU] != t->activity) {
		t->activity = t->last.run_ns + t->last.count[DK_CPU];
		t->need_state = 1;
	}
}

/* ---- gathering ---- */

static uint64_t ticks_to_ns(uint64_t ticks)
{
	return ticks * (1000000000ull / (uint64_t)procfs_hz());
}

static int walk(struct sampler *s)
{
	struct proc_entry *e;
	size_t n;
	int rc = procfs_walk(s->procfs, s->pids, s->o.npids, &e, &n);

	if (rc < 0)
		return rc;
	s->nnew = 0;
	s->nids = 0;
	for (size_t i = 0; i < n; i++) {
		struct proc *p = proc_update(s, &e[i]);

		s->ids = xgrow(s->ids, &s->capids, s->nids + 1, sizeof(*s->ids));
		s->owner = xgrow(s->owner, &s->capowner, s->nids + 1, sizeof(*s->owner));
		s->ids[s->nids] = p->pid;
		s->owner[s->nids++] = p;
	}
	procfs_describe(s->procfs, s->newpids, s->nnew, describe, s);
	return 0;
}

static uint64_t activity_of(const struct task_counters *c)
{
	return c->run_virtual_ns + c->delay[DK_CPU].count;
}

static int selected(const struct sampler *s, uint32_t pid, uint32_t id);

/* Keeps of the n thread ids of process pid those in the selection; returns how many. */
static size_t select_threads(const struct sampler *s, uint32_t pid, uint32_t *ids, size_t n)
{
	size_t kept = 0;

	for (size_t k = 0; k < n; k++)
		if (selected(s, pid, ids[k]))
			ids[kept++] = ids[k];
	return kept;
}

/* Replaces the process list in ids/owner by the list of their threads. A process whose thread
 * count is not what its stat said is read again after the queries. */
static void list_threads(struct sampler *s)
{
	size_t nprocs = s->nids;
	struct proc **procs = xmalloc((nprocs ? nprocs : 1) * sizeof(*procs));

	memcpy(procs, s->owner, nprocs * sizeof(*procs));
	s->nids = 0;
	for (size_t i = 0; i < nprocs; i++) {
		size_t before = s->nids;
		size_t added = procfs_threads(procs[i]->pid, &s->ids, &s->nids, &s->capids);

		if (added != (size_t)procs[i]->nlwp)
			procs[i]->reread = 1;
		if (s->o.threads) /* only the threads selected on their own, when so listed */
			s->nids = before + select_threads(s, procs[i]->pid, s->ids + before, added);
		s->owner = xgrow(s->owner, &s->capowner, s->nids, sizeof(*s->owner));
		for (size_t k = before; k < s->nids; k++)
			s->owner[k] = procs[i];
	}
	free(procs);
}

/* Thread mode: a process that was there at the last tick keeps what its stat said; its stat is
 * read again after the queries when its main thread ran or is new (a reused pid). The others
 * are read now. Rows of threads need of their process only the user and command line. */
static int walk_threads(struct sampler *s)
{
	size_t nprocs = 0;
	int rc;

	s->nids = s->nnew = 0;
	rc = procfs_list(s->pids, s->o.npids, &s->ids, &s->nids, &s->capids);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < s->nids; i++) {
		struct proc *p = idmap_get(&s->procs, s->ids[i]);
		struct proc_entry e;

		if (p && p->seen == s->tick - 1) {
			p->seen = p->walked = s->tick;
		} else {
			if (procfs_read_process(s->ids[i], &e) < 0)
				continue;
			p = proc_update(s, &e);
		}
		p->reread = 0;
		s->owner = xgrow(s->owner, &s->capowner, nprocs + 1, sizeof(*s->owner));
		s->owner[nprocs] = p;
		s->ids[nprocs++] = p->pid;
	}
	s->nids = nprocs;
	list_threads(s);
	return 0;
}

static void on_thread_reply(void *arg, size_t i, const struct ts_record *rec, uint64_t when)
{
	struct sampler *s = arg;
	uint64_t age = rec->c.etime_us * 1000;
	uint64_t start = when > age ? when - age : 0;
	struct task *t;
	struct proc *p = s->owner[i];

	if (is_gone(s, rec->id, start))
		return;
	t = task_lookup(s, rec->id, start);

	if (rec->id == p->pid && (t->seen != s->tick - 1 || activity_of(&rec->c) != t->activity))
		p->reread = 1; /* the main thread is new or ran: the process may have changed */
	task_set_proc(t, p);
	if (rec->c.have & HAVE_COMM)
		str_copy(t->comm, sizeof(t->comm), rec->c.comm);
	task_reading(s, t, &rec->c, when, 1, start >= s->prev_mono, 0);
}

/* Reads again the processes marked so. One whose pid now holds a newer process gets a new
 * entry, and this tick's threads are pointed at it. */
static void reread_processes(struct sampler *s)
{
	for (size_t i = 0; i < s->nids; i++) {
		struct proc *p = s->owner[i], *np;
		struct proc_entry e;

		if (!p->reread)
			continue;
		p->reread = 0;
		if (procfs_read_process(p->pid, &e) < 0)
			continue;
		np = proc_update(s, &e);
		for (size_t k = i; np != p && k < s->nids; k++) {
			struct task *t;

			if (s->owner[k] != p)
				continue;
			s->owner[k] = np;
			t = idmap_get(&s->tasks, s->ids[k]);
			if (t && t->proc == p)
				task_set_proc(t, np);
		}
	}
	procfs_describe(s->procfs, s->newpids, s->nnew, describe, s);
}

/* Process mode keeps each answer until the process's identity is known. */
static void keep_reply(void *arg, size_t i, const struct ts_record *rec, uint64_t when)
{
	struct sampler *s = arg;

	s->replies[i] = rec->c;
	s->answered[i] = 1;
	s->answered_at[i] = when;
}

/* The process an answer is about. Its stat is read when it is new, was not there at the last
 * tick, or ran since: a process that did not run cannot have changed its state, threads, name
 * or user, and a new process under a reused pid has other counters, so it is read. */
static struct proc *answered_process(struct sampler *s, uint32_t pid, const struct task_counters *c)
{
	struct proc *p = idmap_get(&s->procs, pid);
	struct proc_entry e;

	if (p && p->seen == s->tick - 1 && p->activity == activity_of(c)) {
		p->seen = p->walked = s->tick;
		return p;
	}
	if (procfs_read_process(pid, &e) < 0)
		return NULL;
	p = proc_update(s, &e);
	p->activity = activity_of(c);
	return p;
}

static void apply_process_reply(struct sampler *s, struct proc *p, const struct task_counters *c, uint64_t when)
{
	struct task *t = task_lookup(s, p->pid, ticks_to_ns(p->start_ticks));

	task_set_proc(t, p);
	t->state = p->state;
	t->need_state = 0;
	task_reading(s, t, c, when, (uint32_t)p->nlwp, ticks_to_ns(p->start_ticks) >= s->prev_boot, 1);
}

/* Process mode: the pids from /proc, one query per process, the stat of the processes that ran. */
static int query_processes(struct sampler *s, char *err, size_t errlen)
{
	int rc;

	s->nids = s->nnew = 0;
	rc = procfs_list(s->pids, s->o.npids, &s->ids, &s->nids, &s->capids);
	if (rc < 0) {
		snprintf(err, errlen, F_(N_("cannot walk /proc: %s")), strerror(-rc));
		return rc;
	}
	if (s->nids > s->capreplies) {
		s->capreplies = s->nids;
		free(s->replies);
		free(s->answered_at);
		s->replies = xmalloc(s->capreplies * sizeof(*s->replies));
		s->answered_at = xmalloc(s->capreplies * sizeof(*s->answered_at));
		s->answered = xrealloc(s->answered, s->capreplies);
	}
	memset(s->answered, 0, s->nids);
	rc = ts_query(s->ts, TS_BY_TGID, s->ids, s->nids, keep_reply, s);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < s->nids; i++) {
		struct proc *p = s->answered[i] ? answered_process(s, s->ids[i], &s->replies[i]) : NULL;

		if (p && !is_gone(s, p->pid, ticks_to_ns(p->start_ticks)))
			apply_process_reply(s, p, &s->replies[i], s->answered_at[i]);
	}
	procfs_describe(s->procfs, s->newpids, s->nnew, describe, s);
	return 0;
}

static int query_threads(struct sampler *s, char *err, size_t errlen)
{
	int rc = walk_threads(s);

	if (rc < 0) {
		snprintf(err, errlen, F_(N_("cannot walk /proc: %s")), strerror(-rc));
		return rc;
	}
	rc = ts_query(s->ts, TS_BY_PID, s->ids, s->nids, on_thread_reply, s);
	if (rc == 0)
		reread_processes(s);
	return rc;
}

/* One thread's share of a process's thread set: the sum over its threads changes when one goes
 * or comes (a reused tid has another start). */
static uint64_t thread_hash(uint32_t tid, uint64_t start_ticks)
{
	uint64_t x = (tid | start_ticks << 32) * 0x9e3779b97f4a7c15ull;

	return x ^ x >> 29;
}

/* Limited mode: sums the threads' /proc counters for process rows, and marks a row partial when
 * its set of threads is not the one of the previous reading. */
static void read_limited(struct sampler *s)
{
	size_t nprocs = s->nids;
	struct proc **procs = xmalloc((nprocs ? nprocs : 1) * sizeof(*procs));

	memcpy(procs, s->owner, nprocs * sizeof(*procs));
	list_threads(s);
	for (size_t i = 0, j = 0; i < nprocs; i++) {
		struct proc *p = procs[i];
		struct task_counters sum, c;
		char state;
		uint64_t began, tids_sum = 0;
		uint32_t ntids = 0;
		int any = 0;
		uint64_t when = timing_mono_ns();

		memset(&sum, 0, sizeof(sum));
		for (; j < s->nids && s->owner[j] == p; j++) {
			if (procfs_thread_counters(p->pid, s->ids[j], &c, &state, &began) < 0)
				continue;
			if (s->o.threads) {
				struct task *t = task_lookup(s, s->ids[j], ticks_to_ns(began));

				task_set_proc(t, p);
				t->state = state;
				t->need_state = 0;
				str_copy(t->comm, sizeof(t->comm), c.comm);
				task_reading(s, t, &c, when, 1, ticks_to_ns(began) >= s->prev_boot, 1);
				continue;
			}
			tids_sum += thread_hash(s->ids[j], began);
			ntids++;
			for (int k = 0; k < DK_COUNT; k++) {
				sum.delay[k].total_ns += c.delay[k].total_ns;
				sum.delay[k].count += c.delay[k].count;
			}
			sum.run_virtual_ns += c.run_virtual_ns;
			sum.kind_total = c.kind_total;
			sum.kind_count = c.kind_count;
			sum.have = c.have;
			any = 1;
		}
		if (!s->o.threads && any) {
			struct task *t = task_lookup(s, p->pid, ticks_to_ns(p->start_ticks));

			task_set_proc(t, p);
			t->state = p->state;
			t->need_state = 0;
			task_reading(s, t, &sum, when, (uint32_t)p->nlwp, ticks_to_ns(p->start_ticks) >= s->prev_boot, 1);
			/* a thread that ended took its delays along: the row is short of them */
			t->partial = t->tids_known && (t->ntids != ntids || t->tids_sum != tids_sum);
			t->tids_known = 1;
			t->ntids = ntids;
			t->tids_sum = tids_sum;
		}
	}
	free(procs);
}

static void read_states(struct sampler *s)
{
	size_t pos = 0;
	void *v;

	while (idmap_next(&s->tasks, &pos, NULL, &v)) {
		struct task *t = v;

		if (t->seen == s->tick && t->need_state && !t->exited && t->proc) {
			char st = procfs_thread_state(t->proc->pid, t->id);

			t->state = st ? st : '?';
			t->need_state = 0;
		}
	}
}

/* ---- exits ---- */

static const char *user_name(struct sampler *s, uint32_t uid)
{
	char *name = idmap_get(&s->users, uid + 1);
	struct passwd *pw;
	char num[16];

	if (name)
		return name;
	pw = getpwuid(uid);
	snprintf(num, sizeof(num), "%u", uid);
	name = xstrdup(pw ? pw->pw_name : num);
	idmap_put(&s->users, uid + 1, name);
	return name;
}

/* A process seen only in an exit record: made up from the record, kept until the next tick. */
static struct proc *ghost_proc(struct sampler *s, const struct task_counters *c, uint32_t pid)
{
	struct proc *p = idmap_get(&s->procs, pid);

	if (p)
		return p;
	p = xcalloc(1, sizeof(*p));
	p->pid = pid;
	p->seen = s->tick;
	p->state = 'X';
	p->euid = c->uid;
	str_copy(p->user, sizeof(p->user), (c->have & HAVE_IDS) ? user_name(s, c->uid) : "?");
	str_copy(p->comm, sizeof(p->comm), (c->have & HAVE_COMM) ? c->comm : "?");
	idmap_put(&s->procs, pid, p);
	return p;
}

static int listed(const uint32_t *ids, size_t n, uint32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] == id)
			return 1;
	return 0;
}

/* Whether task id of process pid is in the selection: in thread mode a process listed only
 * through some of its threads gives just those threads. */
static int selected(const struct sampler *s, uint32_t pid, uint32_t id)
{
	if (s->o.npids == 0)
		return 1;
	for (size_t i = 0; i < s->o.npids; i++)
		if (s->pids[i] == pid)
			return !s->o.threads || s->whole[i] || listed(s->tids, s->ntids, id);
	return 0;
}

/* Folds one exit record into the tick: the task's final counters replace its last reading. A
 * task delaytop never read has a baseline only if it was born during the interval: for a thread
 * its age says so; a process that the previous walk did not see was born since. */
/* The task an exit record is about: one set aside this tick when a newer task took its id, or
 * the one that has the id. */
static struct task *exiting_task(struct sampler *s, uint32_t id)
{
	for (size_t i = 0; i < s->nreplaced; i++)
		if (s->replaced[i]->id == id && !s->replaced[i]->exited)
			return s->replaced[i];
	return idmap_get(&s->tasks, id);
}

static void fold_exit(struct sampler *s, const struct pending_exit *x)
{
	struct task *t = exiting_task(s, x->id);
	int born_since = x->age_ns != UINT64_MAX ? s->now_mono - s->prev_mono > x->age_ns
						 : !idmap_get(&s->procs, x->pid);
	if (t && t->exited)
		return;
	if (!t && !born_since)
		return;
	if (!t) { /* its start on the clock of the mode's readings: boot time for processes */
		uint64_t start = x->age_ns != UINT64_MAX && x->recv_mono > x->age_ns ? x->recv_mono - x->age_ns : s->now_mono;

		t = task_new(x->id, s->o.threads ? start : start + (s->now_boot - s->now_mono));
		t->start_guessed = x->age_ns == UINT64_MAX;
		idmap_put(&s->tasks, x->id, t);
	}
	if (!t->proc) /* a task read before keeps its process, even if the pid has a new one now */
		task_set_proc(t, ghost_proc(s, &x->c, x->pid));
	if (t->comm[0] == '\0')
		str_copy(t->comm, sizeof(t->comm), (x->c.have & HAVE_COMM) ? x->c.comm : t->proc->comm);
	task_reading(s, t, &x->c, s->now_mono, s->o.threads ? 1 : (uint32_t)t->proc->nlwp, born_since,
		     !s->o.threads);
	t->exited = 1;
	t->state = 'X';
	t->need_state = 0;
	t->proc->seen = s->tick;
}

static void fold_exits(struct sampler *s)
{
	for (size_t i = 0; i < s->npending; i++)
		fold_exit(s, &s->pending[i]);
	s->npending = 0;
}

static void queue_exit(struct sampler *s, uint32_t id, const struct ts_record *rec, uint64_t age_ns)
{
	uint32_t pid = (rec->c.have & HAVE_TGID) ? rec->c.tgid : id;
	struct pending_exit *x;

	if (!selected(s, pid, id))
		return;
	if (s->npending >= PENDING_MAX) {
		s->exits_lost++;
		return;
	}
	s->pending = xgrow(s->pending, &s->cappending, s->npending + 1, sizeof(*s->pending));
	x = &s->pending[s->npending++];
	x->id = id;
	x->pid = pid;
	x->age_ns = age_ns;
	x->recv_mono = timing_mono_ns();
	x->c = rec->c;
}

/* Keeps the record the current mode shows: the thread's in thread mode; in process mode the
 * process aggregate, or the thread record of a process that only ever had one thread. */
static void sampler_on_exit(void *arg, const struct ts_record *thread, const struct ts_record *process)
{
	struct sampler *s = arg;

	s->exits++;
	if (s->o.threads) {
		if (thread)
			queue_exit(s, thread->id, thread, thread->c.etime_us * 1000);
	} else if (process) { /* the process's age is its main thread's, when that ended last */
		queue_exit(s, process->id, process,
			   thread && thread->id == process->id ? thread->c.etime_us * 1000 : UINT64_MAX);
	} else if (thread && (thread->c.flag & TS_AGROUP)) {
		uint32_t pid = (thread->c.have & HAVE_TGID) ? thread->c.tgid : thread->id;

		queue_exit(s, pid, thread, thread->id == pid ? thread->c.etime_us * 1000 : UINT64_MAX);
	}
}

void sampler_drain(struct sampler *s)
{
	if (s->listener && s->tick > 0)
		ts_listen_drain(s->listener, sampler_on_exit, s, &s->exits_lost);
}

int sampler_listen_fd(const struct sampler *s)
{
	return s->listener ? ts_listen_fd(s->listener) : -1;
}

/* ---- totals since the start ---- */

/* Adds the interval to the totals since the start, without the kinds whose delta was impossible. */
static void accumulate(struct task *t, kind_mask impossible)
{
	struct task_totals *a = &t->acc;

	if (!t->has_base)
		return;
	for (int k = 0; k < DK_COUNT; k++) {
		unsigned bit = 1u << k;

		if (impossible & bit)
			continue;
		if (t->base.kind_total & t->last.kind_total & bit) {
			a->total_ns[k] += t->last.total[k] >= t->base.total[k] ? t->last.total[k] - t->base.total[k] : 0;
			a->kinds |= (kind_mask)bit;
		}
		if (t->base.kind_count & t->last.kind_count & bit) {
			a->count[k] += t->last.count[k] >= t->base.count[k] ? t->last.count[k] - t->base.count[k] : 0;
			a->kinds_count |= (kind_mask)bit;
		}
		if ((t->last.kind_max & bit) && t->last.max[k] > a->max_ns[k])
			a->max_ns[k] = t->last.max[k];
	}
	if (t->base.have_run && t->last.have_run && t->last.run_ns >= t->base.run_ns)
		a->run_ns += t->last.run_ns - t->base.run_ns;
}

static uint64_t task_waited(const struct task *t)
{
	uint64_t sum = 0;

	for (int k = 0; k < DK_COUNT; k++)
		sum += t->acc.total_ns[k];
	return sum;
}

static void add_totals(struct task_totals *sum, const struct task_totals *a)
{
	for (int k = 0; k < DK_COUNT; k++) {
		sum->total_ns[k] += a->total_ns[k];
		sum->count[k] += a->count[k];
		if (a->max_ns[k] > sum->max_ns[k])
			sum->max_ns[k] = a->max_ns[k];
	}
	sum->run_ns += a->run_ns;
	sum->kinds |= a->kinds;
	sum->kinds_count |= a->kinds_count;
}

static void departed_free(struct departed *d)
{
	if (d)
		free(d->cmdline);
	free(d);
}

/* Turns an exited task into what its row needs later, and frees the task. */
static struct departed *departed_from(struct sampler *s, struct task *t)
{
	struct departed *d = xcalloc(1, sizeof(*d));
	const struct proc *p = t->proc;

	d->pid = p ? p->pid : t->id;
	d->id = t->id;
	d->uid = p ? p->euid : 0;
	d->user = !p || strcmp(p->user, "?") == 0 ? "?" : user_name(s, p->euid);
	d->cmdline = p && p->cmdline ? xstrdup(p->cmdline) : NULL;
	str_copy(d->comm, sizeof(d->comm), (s->o.threads || !p) && t->comm[0] ? t->comm : p ? p->comm : "?");
	d->acc = t->acc;
	task_free(t);
	return d;
}

/* Keeps the DEPARTED_MAX exited tasks that waited most, when the front end may show totals
 * since the start, and sums the others into one row. */
static void keep_departed(struct sampler *s, struct task *t)
{
	struct departed *d;
	uint64_t key = task_waited(t);

	if (!t->acc.kinds || !s->o.departed) { /* read only once: nothing to add up; or no totals */
		task_free(t);
		return;
	}
	d = topn_offer(&s->departed, departed_from(s, t), key);
	if (!d)
		return;
	if (!s->others)
		s->others = xcalloc(1, sizeof(*s->others));
	add_totals(&s->others->acc, &d->acc);
	departed_free(d);
}

/* ---- the tick ---- */

/* Frees what the previous tick's rows needed but the next readings do not, and makes every
 * task's last reading its baseline. */
static void retire(struct sampler *s)
{
	size_t pos = 0;
	uint32_t id;
	void *v;

	forget_gone(s);
	while (idmap_next(&s->tasks, &pos, &id, &v)) {
		struct task *t = v;

		if (t->seen == s->tick && !t->exited) {
			t->base = t->last;
			t->has_base = 1;
			continue;
		}
		idmap_del(&s->tasks, id);
		pos--; /* the deletion may have shifted a later entry into this slot */
		if (t->exited) {
			remember_gone(s, t);
			keep_departed(s, t);
		} else {
			task_free(t);
		}
	}
	for (size_t i = 0; i < s->nreplaced; i++) {
		if (s->replaced[i]->exited)
			keep_departed(s, s->replaced[i]);
		else
			task_free(s->replaced[i]);
	}
	s->nreplaced = 0;
	pos = 0;
	while (idmap_next(&s->procs, &pos, &id, &v)) {
		struct proc *p = v;

		if (p->seen != s->tick) {
			proc_detach(s, p);
			pos--;
		}
	}
}

static void fill_row(struct row *r, const struct task *t, int threads)
{
	memset(r, 0, sizeof(*r));
	r->pid = t->proc ? t->proc->pid : t->id;
	r->tid = threads ? t->id : 0;
	r->uid = t->proc ? t->proc->euid : 0;
	r->state = t->state ? t->state : '?';
	r->exited = t->exited;
	r->partial = t->partial;
	r->user = t->proc ? t->proc->user : "-";
	r->comm = (threads || !t->proc) && t->comm[0] ? t->comm : t->proc ? t->proc->comm : "?";
	r->cmdline = t->proc ? t->proc->cmdline : NULL;
	r->acc = &t->acc;
}

static void build_rows(struct sampler *s, struct snapshot *snap)
{
	size_t n = 0;

	s->rows = xgrow(s->rows, &s->caprows, s->tasks.len + s->nreplaced + s->departed.len + 2, sizeof(*s->rows));
	for (size_t i = 0; i < s->tasks.cap + s->nreplaced; i++) {
		struct task *t;
		struct row *r = &s->rows[n];

		if (i < s->tasks.cap) {
			if (!s->tasks.keys[i])
				continue;
			t = s->tasks.vals[i];
		} else {
			t = s->replaced[i - s->tasks.cap];
		}
		if (t->seen != s->tick)
			continue;
		fill_row(r, t, s->o.threads);
		if (t->has_base) {
			rates_compute(&t->base, &t->last, &r->r);
			accumulate(t, r->r.impossible);
		} else {
			rates_unavailable(&r->r);
			r->fresh = 1;
		}
		n++;
	}
	for (size_t i = 0; i <= s->departed.len; i++) {
		const struct departed *d = i < s->departed.len ? s->departed.item[i] : s->others;
		struct row *r = &s->rows[n];

		if (!d)
			continue;
		n++;
		memset(r, 0, sizeof(*r));
		r->pid = d->pid;
		r->tid = s->o.threads ? d->id : 0;
		r->uid = d->uid;
		r->state = 'X';
		r->user = d == s->others ? "-" : d->user;
		r->comm = d == s->others ? _("(other exited)") : d->comm;
		r->cmdline = d->cmdline;
		r->acc = &d->acc;
		rates_unavailable(&r->r);
		r->exited = r->departed = 1;
	}
	snap->rows = s->rows;
	snap->nrows = n;
}

static void fill_header(struct sampler *s, struct snapshot *snap)
{
	size_t pos = 0;
	void *v;

	snap->interval_s = s->tick > 1 ? (s->now_mono - s->prev_mono) / 1e9 : 0;
	snap->elapsed_s = (s->now_mono - s->first_mono) / 1e9;
	snap->threads = s->o.threads;
	snap->nprocs = 0;
	snap->nthreads = 0;
	while (idmap_next(&s->procs, &pos, NULL, &v)) {
		const struct proc *p = v;

		if (p->walked == s->tick) {
			snap->nprocs++;
			snap->nthreads += (unsigned)p->nlwp;
		}
	}
	snap->delayacct = s->delayacct;
	snap->limited = s->limited;
	snap->listening = s->listener != NULL;
	snap->exits = s->exits;
	snap->exits_lost = s->exits_lost;
}

static void read_psi(struct sampler *s, struct snapshot *snap)
{
	psi_read("/proc/pressure", 1, s->now_mono, &snap->psi);
	if (s->tick > 1)
		psi_interval(&s->psi_prev, &snap->psi);
	s->psi_prev = snap->psi;
}

static int gather(struct sampler *s, char *err, size_t errlen)
{
	int rc = 0;

	if (!s->limited)
		rc = s->o.threads ? query_threads(s, err, errlen) : query_processes(s, err, errlen);
	if (rc == -EPERM) {
		/* The capability went away (setpriv, a dropped bounding set): carry on with /proc. */
		s->limited = 1;
		snprintf(s->notice, sizeof(s->notice), "%s",
			 _("taskstats refused the query (no CAP_NET_ADMIN): showing only CPU and I/O delay, from /proc"));
	}
	if (s->limited) {
		rc = walk(s);
		if (rc < 0) {
			snprintf(err, errlen, F_(N_("cannot walk /proc: %s")), strerror(-rc));
			return rc;
		}
		read_limited(s);
		return 0;
	}
	if (rc < 0) {
		if (!err[0])
			snprintf(err, errlen, F_(N_("taskstats query failed: %s")), strerror(-rc));
		return rc;
	}
	if (s->o.threads)
		read_states(s);
	return 0;
}

int sampler_tick(struct sampler *s, struct snapshot *snap, char *err, size_t errlen)
{
	int rc;

	memset(snap, 0, sizeof(*snap));
	err[0] = '\0';
	retire(s);
	s->prev_mono = s->now_mono;
	s->prev_boot = s->now_boot;
	s->tick++;
	clock_gettime(CLOCK_REALTIME, &snap->wall);
	s->now_mono = timing_mono_ns();
	s->now_boot = timing_boot_ns();
	if (s->tick == 1)
		s->first_mono = s->now_mono;
	s->delayacct = delayacct_read();
	track_switch(s);
	read_psi(s, snap);
	rc = gather(s, err, errlen);
	if (rc < 0)
		return rc;
	sampler_drain(s);
	fold_exits(s); /* after the readings: a final record supersedes a reading of the same tick */
	fill_header(s, snap);
	build_rows(s, snap);
	return 0;
}

/* ---- set-up ---- */

static void open_taskstats(struct sampler *s)
{
	char err[256] = "";
	int rc;

	rc = ts_open(&s->ts, err, sizeof(err));
	if (rc == 0)
		rc = ts_probe(s->ts, (uint32_t)getpid());
	if (rc == 0)
		return;
	s->limited = 1;
	if (rc == -EPERM)
		snprintf(s->notice, sizeof(s->notice), "%s",
			 _("taskstats needs CAP_NET_ADMIN: showing only CPU and I/O delay, from /proc. "
			   "Run delaytop as root, or allow it once with: setcap cap_net_admin+ep $(command -v delaytop)"));
	else
		snprintf(s->notice, sizeof(s->notice), F_(N_("%s: showing only CPU and I/O delay, from /proc")),
			 rc == -ESRCH ? _("taskstats did not answer") : err[0] ? err : strerror(-rc));
}

static void open_listener(struct sampler *s)
{
	char err[256];

	if (s->limited || !s->o.listen)
		return;
	if (ts_listen(&s->listener, s->o.exit_rcvbuf, err, sizeof(err)) < 0)
		snprintf(s->notice, sizeof(s->notice), F_(N_("%s: tasks that exit between refreshes are not shown")), err);
}

/* Without the boot parameter delayacct the switch was 0 at boot, and nothing can switch it on
 * before user space runs (the sysctl itself appears in a late initcall): kthreadd (pid 2, child of
 * pid 0 in the initial pid namespace) and the tasks that started with it, init among them, were
 * forked without delay accounting. The first window ends one clock tick (/proc's resolution) and
 * the start-time slack of a taskstats reading after kthreadd's start; at boot the monotonic and
 * the boot clock agree. */
static void boot_window(struct sampler *s)
{
	struct proc_entry e;
	uint64_t hi;

	if (!delayacct_off_at_boot())
		return;
	if (procfs_read_process(2, &e) < 0 || e.ppid != 0 || strcmp(e.comm, "kthreadd") != 0)
		return;
	hi = ticks_to_ns(e.start_ticks + 1) + SAME_START_NS;
	s->off[0] = (struct off_window){ 0, 0, hi, hi };
	s->noff = 1;
}

int sampler_open(struct sampler **out, const struct sampler_opts *o, char *err, size_t errlen)
{
	struct sampler *s = xcalloc(1, sizeof(*s));
	int rc;

	s->o = *o;
	sampler_set_pids(s, o->pids, o->npids);
	idmap_init(&s->procs);
	idmap_init(&s->tasks);
	idmap_init(&s->users);
	idmap_init(&s->gone);
	topn_init(&s->departed, o->departed ? DEPARTED_MAX : 0);
	rc = procfs_open(&s->procfs, err, errlen);
	if (rc < 0) {
		sampler_close(s);
		return rc;
	}
	open_taskstats(s);
	open_listener(s);
	boot_window(s);
	*out = s;
	return 0;
}

const char *sampler_notice(const struct sampler *s)
{
	return s->notice[0] ? s->notice : NULL;
}

static void forget_tasks(struct sampler *s)
{
	size_t pos = 0;
	void *v;

	while (idmap_next(&s->tasks, &pos, NULL, &v))
		task_free(v);
	idmap_free(&s->tasks);
	idmap_init(&s->tasks);
	pos = 0;
	while (idmap_next(&s->gone, &pos, NULL, &v))
		free(v);
	idmap_free(&s->gone);
	idmap_init(&s->gone);
	for (size_t i = 0; i < s->departed.len; i++)
		departed_free(s->departed.item[i]);
	topn_free(&s->departed);
	for (size_t i = 0; i < s->nreplaced; i++)
		task_free(s->replaced[i]);
	s->nreplaced = 0;
	departed_free(s->others);
	s->others = NULL;
}

void sampler_set_threads(struct sampler *s, int threads)
{
	if (s->o.threads == !!threads)
		return;
	s->o.threads = !!threads;
	forget_tasks(s);
	s->npending = 0; /* records of the other mode */
}

/* Appends to the notice that a listed id is a thread of another process. */
static void note_thread(struct sampler *s, uint32_t tid, uint32_t pid)
{
	size_t len = strlen(s->pids_notice);

	if (len)
		snprintf(s->pids_notice + len, sizeof(s->pids_notice) - len, "; ");
	len = strlen(s->pids_notice);
	snprintf(s->pids_notice + len, sizeof(s->pids_notice) - len,
		 F_(N_("%u is a thread of process %u: showing the process")), tid, pid);
}

/* Selects processes by the ids listed: a thread that is not its process's main thread selects
 * its process, and in thread mode only itself unless the process is listed too. An id listed
 * twice counts once; one that is gone stays as it is (it shows nothing). */
void sampler_set_pids(struct sampler *s, const uint32_t *pids, size_t npids)
{
	size_t n = 0;

	free(s->pids);
	free(s->whole);
	free(s->tids);
	s->pids = s->tids = NULL;
	s->whole = NULL;
	s->ntids = 0;
	s->pids_notice[0] = '\0';
	if (npids) {
		s->pids = xmalloc(npids * sizeof(*s->pids));
		s->whole = xcalloc(npids, 1);
		s->tids = xmalloc(npids * sizeof(*s->tids));
	}
	for (size_t i = 0; i < npids; i++) {
		uint32_t tgid = procfs_tgid(pids[i]), pid = tgid ? tgid : pids[i];
		size_t k = 0;

		while (k < n && s->pids[k] != pid)
			k++;
		if (k == n)
			s->pids[n++] = pid;
		if (pid == pids[i])
			s->whole[k] = 1;
		else if (!listed(s->tids, s->ntids, pids[i])) {
			s->tids[s->ntids++] = pids[i];
			if (!s->o.threads)
				note_thread(s, pids[i], pid);
		}
	}
	s->o.pids = s->pids;
	s->o.npids = n;
}

const char *sampler_pids_notice(const struct sampler *s)
{
	return s->pids_notice[0] ? s->pids_notice : NULL;
}

const uint32_t *sampler_pids(const struct sampler *s, size_t *n)
{
	*n = s->o.npids;
	return s->pids;
}

void sampler_close(struct sampler *s)
{
	size_t pos = 0;
	void *v;

	if (!s)
		return;
	forget_tasks(s);
	while (idmap_next(&s->procs, &pos, NULL, &v))
		proc_free(v);
	idmap_free(&s->procs);
	pos = 0;
	while (idmap_next(&s->users, &pos, NULL, &v))
		free(v);
	idmap_free(&s->users);
	idmap_free(&s->gone);
	ts_listen_close(s->listener);
	ts_close(s->ts);
	procfs_close(s->procfs);
	free(s->pids);
	free(s->whole);
	free(s->tids);
	free(s->ids);
	free(s->owner);
	free(s->newpids);
	free(s->pending);
	free(s->replaced);
	free(s->replies);
	free(s->answered);
	free(s->answered_at);
	free(s->rows);
	free(s);
}
