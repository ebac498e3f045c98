/* fakekernel.h — a fake of the kernel edge (kernelops.h) for the unit tests of the collectors and
 * the sampler, without root: a fixture /proc tree (processes with their pid, parent, user, start,
 * state, comm and command line; their threads with theirs) and the taskstats replies it makes
 * (a thread's counters by pid, a process's sum by tgid, as the kernel sums them: its live threads,
 * and of those that ended their delays and CPU time), exit records, the delay-accounting switch, the eBPF side of --why (its
 * load refused or not, the kinds it attaches, the waits its maps hold at the next read), a refusal of taskstats (no
 * CAP_NET_ADMIN: the sampler's limited mode reads the counters /proc gives anyone), tasks that are
 * listed by the walk but gone when asked, and a clock the test moves; a v2 hierarchy of cgroups
 * (paths, their directories' owners and inodes, processes in them) that cgroups can be added to,
 * removed from and chowned in. Boot and monotonic clocks are one here, and the fixture's start
 * times are clock ticks on it.
 *
 * As kernelops.h allows, open_threads, thread_state and close_threads may be called on a second
 * thread beside the sampler's (prestate.h): they only read the fixture, which the test does not
 * change during a reading, and count their calls atomically; with overlap set, a query waits
 * until a state was read beside it, so that a test sees the two threads' calls overlap. */
#ifndef DELAYTOP_FAKEKERNEL_H
#define DELAYTOP_FAKEKERNEL_H

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acctstate.h"
#include "kernelops.h"
#include "timing.h"
#include "xalloc.h"

#define FK_PROCS 16
#define FK_THREADS 8
#define FK_EXITS 16
#define FK_ASKED 64
#define FK_WHY 32
#define FK_CGROUPS 32
#define FK_ALL_KINDS ((kind_mask)((1u << DK_COUNT) - 1))

struct fk_thread {
	uint32_t tid;
	uint64_t start_ticks; /* clock ticks after boot */
	char state;
	char comm[16];
	struct task_counters c; /* what taskstats answers of it: cumulative */
	int present;
	int gone_at_query;      /* listed by the walk, gone when asked (ESRCH: no answer) */
};

struct fk_proc {
	uint32_t pid, ppid, euid;
	uint64_t start_ticks;
	char state;
	char comm[16];
	const char *cmdline;
	const char *cgroup; /* its v2 path; NULL: none (as without a hierarchy) */
	struct fk_thread t[FK_THREADS];
	int nthreads;
	struct task_counters dead; /* the sums of its threads that ended, kept by the kernel */
	int present;
	int gone_at_query; /* listed by the walk, gone when asked */
	int gone_at_stat;  /* listed by the walk, its stat gone when read */
};

/* A cgroup of the v2 hierarchy: its directory's owner and inode. */
struct fk_cgroup {
	char path[256];
	uint32_t uid;
	uint64_t ino;
	int present;
};

/* An exit message waiting for the drain. */
struct fk_exit {
	struct ts_record thread, process;
	int has_process;
};

struct fake_kernel {
	struct kernel k; /* first: the ops see the fake through it */
	struct fk_proc p[FK_PROCS];
	int np;
	uint64_t now;  /* ns, on both clocks */
	uint64_t clock_step; /* ns the clocks move at each look (0: they stand between ticks) */
	uint64_t lag;  /* ns: answers are handed over this long after the kernel made them (a sender
			  preempted in its send), and say so (ts_record.span_ns) */
	int eperm;     /* taskstats refuses queries */
	int delayacct; /* DELAYACCT_* */
	struct fk_exit exits[FK_EXITS];
	int nexits;
	uint64_t lost; /* exit records to report lost at the next drain */
	uint32_t asked_pid[FK_ASKED]; /* the ids asked by pid since fk_forget_asked */
	int nasked_pid, nasked_tgid;
	struct proc_entry walked[FK_PROCS];
	int closed;
	int v2;      /* a v2 hierarchy is mounted (else none is), with the cgroups below to walk */
	struct fk_cgroup cg[FK_CGROUPS];
	int ncg;
	uint64_t next_ino;
	int owner_reads; /* cgroup directories stat'ed (cgroup_owner) */
	atomic_int nstates;        /* threads' states read (/proc/PID/task/TID/stat) */
	int nread_process;         /* processes' stats read (read_process) */
	atomic_int nstates_beside; /* of those, read on another thread than the one that made the fake */
	pthread_t maker;           /* the thread that made the fake (fk_init): the sampler's */
	int overlap;    /* a query first waits (2 s at most) until a state was read beside it */
	int overlapped; /* and one was */
	int nio;     /* threads' I/O counters read (/proc/PID/task/TID/io) */
	const struct tid_state *table; /* what all_states gives, sorted by tid; NULL: unavailable */
	size_t ntable;
	int all_states_calls;
	/* --why */
	int why_err;          /* why_open fails with this negative errno, saying why_msg */
	const char *why_msg;
	lat_mask why_kinds;   /* the kinds why_open attaches (fk_init: all) */
	const char *why_note; /* and what it says of those it left out, or NULL */
	struct lat_entry why[FK_WHY]; /* the waits the next why_read gives (and forgets) */
	int nwhy;
	uint64_t why_lost;    /* waits that did not fit, since the load */
	int why_loaded, why_reads;
};

static uint64_t fk_tick_ns(void)
{
	return 1000000000ull / (uint64_t)timing_hz();
}

static struct fake_kernel *fk_of(struct kernel *k)
{
	return (struct fake_kernel *)k;
}

static struct fk_proc *fk_find(struct fake_kernel *fk, uint32_t pid)
{
	for (int i = 0; i < fk->np; i++)
		if (fk->p[i].present && fk->p[i].pid == pid)
			return &fk->p[i];
	return NULL;
}

/* The thread tid of any present process, and that process in *pp. */
static struct fk_thread *fk_find_thread(struct fake_kernel *fk, uint32_t tid, struct fk_proc **pp)
{
	for (int i = 0; i < fk->np; i++)
		for (int j = 0; fk->p[i].present && j < fk->p[i].nthreads; j++)
			if (fk->p[i].t[j].present && fk->p[i].t[j].tid == tid) {
				if (pp)
					*pp = &fk->p[i];
				return &fk->p[i].t[j];
			}
	return NULL;
}

static int fk_live_threads(const struct fk_proc *p)
{
	int n = 0;

	for (int j = 0; j < p->nthreads; j++)
		n += p->t[j].present;
	return n;
}

static void fk_append(uint32_t **out, size_t *n, size_t *cap, uint32_t v)
{
	*out = xgrow(*out, cap, *n + 1, sizeof(**out));
	(*out)[(*n)++] = v;
}

static int fk_selected(uint32_t pid, const uint32_t *pids, size_t npids)
{
	for (size_t i = 0; i < npids; i++)
		if (pids[i] == pid)
			return 1;
	return npids == 0;
}

static void fk_entry(const struct fk_proc *p, struct proc_entry *e)
{
	memset(e, 0, sizeof(*e));
	e->pid = p->pid;
	e->ppid = p->ppid;
	e->start_ticks = p->start_ticks;
	e->state = p->state;
	e->nlwp = fk_live_threads(p);
	e->euid = p->euid;
	snprintf(e->comm, sizeof(e->comm), "%s", p->comm);
}

/* A thread's record as taskstats gives it: its counters, its ids, its age now. */
static void fk_thread_record(const struct fake_kernel *fk, const struct fk_proc *p, const struct fk_thread *t,
			     struct ts_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->id = t->tid;
	rec->c = t->c;
	rec->c.have |= HAVE_RUN | HAVE_CSW | HAVE_COMM | HAVE_IDS | HAVE_TGID;
	rec->c.version = 17;
	rec->c.pid = t->tid;
	rec->c.tgid = p->pid;
	rec->c.ppid = p->ppid;
	rec->c.uid = p->euid;
	rec->c.etime_us = (fk->now - t->start_ticks * fk_tick_ns()) / 1000;
	snprintf(rec->c.comm, sizeof(rec->c.comm), "%s", t->comm);
}

static void fk_add(struct task_counters *sum, const struct task_counters *c)
{
	for (int k = 0; k < DK_COUNT; k++) {
		sum->delay[k].total_ns += c->delay[k].total_ns;
		sum->delay[k].count += c->delay[k].count;
	}
	sum->run_real_ns += c->run_real_ns;
	sum->run_virtual_ns += c->run_virtual_ns;
	sum->nvcsw += c->nvcsw;
	sum->nivcsw += c->nivcsw;
}

/* A process's record as taskstats gives it by tgid: the sums over its live threads and those
 * that ended; no comm, ids, I/O or CPU times. */
static void fk_process_record(const struct fk_proc *p, struct ts_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->tgid = 1;
	rec->id = p->pid;
	rec->c = p->dead;
	for (int j = 0; j < p->nthreads; j++)
		if (p->t[j].present)
			fk_add(&rec->c, &p->t[j].c);
	rec->c.version = 17;
	rec->c.have = HAVE_RUN | HAVE_CSW;
	rec->c.kind_total = rec->c.kind_count = FK_ALL_KINDS;
}

static int fk_open_taskstats(struct kernel *k, uint32_t probe_pid, char *err, size_t errlen)
{
	(void)probe_pid;
	if (fk_of(k)->eperm)
		snprintf(err, errlen, "refused");
	return fk_of(k)->eperm ? -EPERM : 0;
}

static int fk_open_exits(struct kernel *k, int rcvbuf, char *err, size_t errlen)
{
	(void)rcvbuf;
	(void)err;
	(void)errlen;
	return fk_of(k)->eperm ? -EPERM : 0;
}

static void fk_close(struct kernel *k)
{
	fk_of(k)->closed = 1;
}

static int fk_list_processes(struct kernel *k, const uint32_t *pids, size_t npids, uint32_t **out, size_t *n,
			     size_t *cap)
{
	struct fake_kernel *fk = fk_of(k);

	for (int i = 0; i < fk->np; i++)
		if (fk->p[i].present && fk_selected(fk->p[i].pid, pids, npids))
			fk_append(out, n, cap, fk->p[i].pid);
	return 0;
}

static int fk_walk_processes(struct kernel *k, const uint32_t *pids, size_t npids, struct proc_entry **out,
			     size_t *n)
{
	struct fake_kernel *fk = fk_of(k);

	*n = 0;
	for (int i = 0; i < fk->np; i++)
		if (fk->p[i].present && !fk->p[i].gone_at_stat && fk_selected(fk->p[i].pid, pids, npids))
			fk_entry(&fk->p[i], &fk->walked[(*n)++]);
	*out = fk->walked;
	return 0;
}

static int fk_read_process(struct kernel *k, uint32_t pid, struct proc_entry *e)
{
	struct fk_proc *p = fk_find(fk_of(k), pid);

	fk_of(k)->nread_process++;
	if (!p || p->gone_at_stat)
		return -1;
	fk_entry(p, e);
	return 0;
}

static size_t fk_list_threads(struct kernel *k, uint32_t pid, uint32_t **tids, size_t *n, size_t *cap)
{
	struct fk_proc *p = fk_find(fk_of(k), pid);
	size_t before = *n;

	for (int j = 0; p && j < p->nthreads; j++)
		if (p->t[j].present)
			fk_append(tids, n, cap, p->t[j].tid);
	return *n - before;
}

static uint32_t fk_tgid_of(struct kernel *k, uint32_t id)
{
	struct fk_proc *p = NULL;

	return fk_find_thread(fk_of(k), id, &p) ? p->pid : 0;
}

static void fk_describe(struct kernel *k, const uint32_t *pids, size_t n,
			void (*fn)(void *arg, uint32_t pid, const char *cmdline), void *arg)
{
	for (size_t i = 0; i < n; i++) {
		struct fk_proc *p = fk_find(fk_of(k), pids[i]);
		char buf[64];

		if (!p)
			continue;
		snprintf(buf, sizeof(buf), "[%s]", p->comm);
		fn(arg, p->pid, p->cmdline ? p->cmdline : buf);
	}
}

static int fk_task_cgroup(struct kernel *k, uint32_t pid, const struct cgroup_hier *h, char *buf, size_t size)
{
	struct fk_proc *p = fk_find(fk_of(k), pid);

	if (!p || !p->cgroup || h->layout == CGROUP_NONE)
		return -1;
	snprintf(buf, size, "%s", p->cgroup);
	return 0;
}

static int fk_open_threads(struct kernel *k, uint32_t pid)
{
	return fk_find(fk_of(k), pid) ? (int)pid : -1;
}

static char fk_thread_state(struct kernel *k, int handle, uint32_t tid)
{
	struct fk_proc *p = NULL;
	struct fk_thread *t = fk_find_thread(fk_of(k), tid, &p);

	atomic_fetch_add(&fk_of(k)->nstates, 1);
	if (!pthread_equal(pthread_self(), fk_of(k)->maker))
		atomic_fetch_add(&fk_of(k)->nstates_beside, 1);
	return t && p->pid == (uint32_t)handle ? t->state : 0;
}

static void fk_close_threads(struct kernel *k, int handle)
{
	(void)k;
	(void)handle;
}

static int fk_all_states(struct kernel *k, const struct tid_state **out, size_t *n)
{
	struct fake_kernel *fk = fk_of(k);

	fk->all_states_calls++;
	if (!fk->table)
		return -ENOSYS;
	*out = fk->table;
	*n = fk->ntable;
	return 0;
}

/* What /proc gives anyone of a thread: CPU delay, its count and run time from schedstat; block
 * I/O delay in whole clock ticks, with no count, from stat. */
static int fk_thread_counters(struct kernel *k, uint32_t pid, uint32_t tid, struct task_counters *c,
			      char *state, uint64_t *start_ticks)
{
	struct fk_proc *p = NULL;
	struct fk_thread *t = fk_find_thread(fk_of(k), tid, &p);

	memset(c, 0, sizeof(*c));
	if (!t || p->pid != pid || t->gone_at_query)
		return -ESRCH;
	*state = t->state;
	*start_ticks = t->start_ticks;
	snprintf(c->comm, sizeof(c->comm), "%s", t->comm);
	c->delay[DK_CPU] = t->c.delay[DK_CPU];
	c->delay[DK_IO].total_ns = t->c.delay[DK_IO].total_ns / fk_tick_ns() * fk_tick_ns();
	c->kind_total = (kind_mask)(1u << DK_CPU | 1u << DK_IO);
	c->kind_count = (kind_mask)(1u << DK_CPU);
	c->run_virtual_ns = c->run_real_ns = t->c.run_virtual_ns;
	c->have = HAVE_RUN | HAVE_COMM;
	c->pid = tid;
	c->tgid = pid;
	return 0;
}

static void fk_process_acct(struct kernel *k, uint32_t pid, struct task_counters *c)
{
	(void)k;
	(void)pid;
	(void)c;
}

static int fk_thread_io(struct kernel *k, uint32_t pid, uint32_t tid, struct task_counters *c)
{
	fk_of(k)->nio++;
	(void)pid;
	(void)tid;
	(void)c;
	return -EACCES;
}

static int fk_query(struct kernel *k, enum ts_by by, const uint32_t *ids, size_t n, ts_reply_fn fn, void *arg)
{
	struct fake_kernel *fk = fk_of(k);
	struct ts_record rec;

	if (fk->eperm)
		return -EPERM;
	for (int ms = 0; fk->overlap && !fk->overlapped && ms < 2000; ms++) {
		struct timespec step = { 0, 1000000 };

		if (atomic_load(&fk->nstates_beside) > 0)
			fk->overlapped = 1;
		else
			nanosleep(&step, NULL);
	}
	for (size_t i = 0; i < n; i++) {
		struct fk_proc *p = NULL;
		struct fk_thread *t = NULL;

		uint32_t id = ids[i] & ~TS_ASK_TGID;

		if (by == TS_BY_TGID || (by == TS_BY_EACH && (ids[i] & TS_ASK_TGID))) {
			fk->nasked_tgid++;
			p = fk_find(fk, id);
			if (!p || p->gone_at_query)
				continue;
			fk_process_record(p, &rec);
		} else {
			if (fk->nasked_pid < FK_ASKED)
				fk->asked_pid[fk->nasked_pid++] = id;
			t = fk_find_thread(fk, id, &p);
			if (!t || t->gone_at_query || p->gone_at_query)
				continue;
			fk_thread_record(fk, p, t, &rec);
		}
		rec.span_ns = fk->lag;
		fn(arg, i, &rec, fk->now + fk->lag);
	}
	return 0;
}

static enum task_source fk_tasks_from(const struct kernel *k, uint64_t *walks)
{
	(void)k;
	*walks = 0;
	return TASKS_WALKED;
}

static int fk_exits_fd(const struct kernel *k)
{
	(void)k;
	return -1;
}

static void fk_exits_drain(struct kernel *k, ts_exit_fn fn, void *arg, uint64_t *lost)
{
	struct fake_kernel *fk = fk_of(k);

	for (int i = 0; i < fk->nexits; i++)
		fn(arg, &fk->exits[i].thread, fk->exits[i].has_process ? &fk->exits[i].process : NULL);
	fk->nexits = 0;
	*lost += fk->lost;
	fk->lost = 0;
}

static void fk_cgroup_detect(struct kernel *k, struct cgroup_hier *h)
{
	memset(h, 0, sizeof(*h));
	h->layout = CGROUP_NONE;
	if (fk_of(k)->v2) {
		h->layout = CGROUP_V2;
		snprintf(h->m.dir, sizeof(h->m.dir), "/sys/fs/cgroup");
		snprintf(h->m.root, sizeof(h->m.root), "/");
		h->m.v2 = 1;
	}
}

/* The cgroup at path, present, or NULL. */
static struct fk_cgroup *fk_cgroup_find(struct fake_kernel *fk, const char *path)
{
	for (int i = 0; i < fk->ncg; i++)
		if (fk->cg[i].present && strcmp(fk->cg[i].path, path) == 0)
			return &fk->cg[i];
	return NULL;
}

static int fk_cgroup_by_path(const void *a, const void *b)
{
	return strcmp(((const struct fk_cgroup *)a)->path, ((const struct fk_cgroup *)b)->path);
}

/* The cgroups at and below path, parents first (sorted by path), each with its inode. */
static int fk_cgroup_walk(struct kernel *k, const struct cgroup_hier *h, const char *path, cgroupfs_walk_fn fn,
			  void *arg)
{
	struct fake_kernel *fk = fk_of(k);

	(void)h;
	if (!fk_cgroup_find(fk, path))
		return -ENOENT;
	qsort(fk->cg, (size_t)fk->ncg, sizeof(fk->cg[0]), fk_cgroup_by_path);
	for (int i = 0; i < fk->ncg; i++)
		if (fk->cg[i].present && cgpath_within(fk->cg[i].path, path))
			fn(arg, fk->cg[i].path, fk->cg[i].ino);
	return 0;
}

static int fk_cgroup_owner(struct kernel *k, const struct cgroup_hier *h, const char *path, uint32_t *uid,
			   uint64_t *ino)
{
	struct fake_kernel *fk = fk_of(k);
	struct fk_cgroup *c = fk_cgroup_find(fk, path);

	(void)h;
	fk->owner_reads++;
	if (!c)
		return -ENOENT;
	*uid = c->uid;
	*ino = c->ino;
	return 0;
}

static void fk_cgroup_pressure(struct kernel *k, const struct cgroup_hier *h, const char *path,
			       uint64_t when_ns, struct psi_snapshot *out)
{
	(void)k;
	(void)h;
	(void)path;
	memset(out, 0, sizeof(*out));
	out->when_ns = when_ns;
}

static int fk_cgroup_states(struct kernel *k, const struct cgroup_hier *h, const char *path,
			    uint64_t out[CG_STATES])
{
	(void)k;
	(void)h;
	(void)path;
	(void)out;
	return -EINVAL;
}

static int fk_delayacct(struct kernel *k)
{
	return fk_of(k)->delayacct;
}

static int fk_delayacct_off_at_boot(struct kernel *k)
{
	(void)k;
	return 0;
}

static void fk_pressure(struct kernel *k, uint64_t when_ns, struct psi_snapshot *out)
{
	(void)k;
	memset(out, 0, sizeof(*out));
	out->when_ns = when_ns;
}

static uint64_t fk_clock(struct kernel *k)
{
	struct fake_kernel *fk = fk_of(k);

	fk->now += fk->clock_step;
	return fk->now;
}

static int fk_why_open(struct kernel *k, lat_mask *attached, int stacks, char *err, size_t errlen)
{
	struct fake_kernel *fk = fk_of(k);

	(void)stacks;
	if (fk->why_err) {
		snprintf(err, errlen, "%s", fk->why_msg ? fk->why_msg : "refused");
		return fk->why_err;
	}
	snprintf(err, errlen, "%s", fk->why_note ? fk->why_note : "");
	*attached = fk->why_kinds;
	fk->why_loaded = 1;
	return 0;
}

static int fk_why_read(struct kernel *k, struct lat_batch *b)
{
	struct fake_kernel *fk = fk_of(k);

	for (int i = 0; i < fk->nwhy; i++)
		*lat_batch_push(b, 0, 0, 0) = fk->why[i];
	b->not_fitted = fk->why_lost;
	fk->nwhy = 0;
	fk->why_reads++;
	return 0;
}

static void fk_why_close(struct kernel *k)
{
	fk_of(k)->why_loaded = 0;
}

static const struct kernel_ops fk_ops = {
	.open_taskstats = fk_open_taskstats,
	.open_exits = fk_open_exits,
	.close = fk_close,
	.list_processes = fk_list_processes,
	.walk_processes = fk_walk_processes,
	.read_process = fk_read_process,
	.list_threads = fk_list_threads,
	.tgid_of = fk_tgid_of,
	.tasks_from = fk_tasks_from,
	.describe = fk_describe,
	.task_cgroup = fk_task_cgroup,
	.open_threads = fk_open_threads,
	.thread_state = fk_thread_state,
	.all_states = fk_all_states,
	.close_threads = fk_close_threads,
	.thread_counters = fk_thread_counters,
	.process_acct = fk_process_acct,
	.thread_io = fk_thread_io,
	.query = fk_query,
	.exits_fd = fk_exits_fd,
	.exits_drain = fk_exits_drain,
	.cgroup_detect = fk_cgroup_detect,
	.cgroup_walk = fk_cgroup_walk,
	.cgroup_owner = fk_cgroup_owner,
	.cgroup_pressure = fk_cgroup_pressure,
	.cgroup_states = fk_cgroup_states,
	.delayacct = fk_delayacct,
	.delayacct_off_at_boot = fk_delayacct_off_at_boot,
	.pressure = fk_pressure,
	.mono_ns = fk_clock,
	.boot_ns = fk_clock,
	.why_open = fk_why_open,
	.why_read = fk_why_read,
	.why_close = fk_why_close,
};

/* An empty machine at now_s seconds after boot, delay accounting on. */
static void fk_init(struct fake_kernel *fk, uint64_t now_s)
{
	memset(fk, 0, sizeof(*fk));
	atomic_init(&fk->nstates, 0);
	atomic_init(&fk->nstates_beside, 0);
	fk->maker = pthread_self();
	fk->k.ops = &fk_ops;
	fk->now = now_s * 1000000000ull;
	fk->delayacct = DELAYACCT_ON;
	fk->why_kinds = LAT_ALL;
}

/* Makes the cgroup at path (its parents must be made first), its directory owned by uid: a new
 * inode, as the kernel gives a cgroup made again. */
static inline struct fk_cgroup *fk_mkdir(struct fake_kernel *fk, const char *path, uint32_t uid)
{
	struct fk_cgroup *c = NULL;

	for (int i = 0; i < fk->ncg && !c; i++)
		if (!fk->cg[i].present)
			c = &fk->cg[i];
	if (!c)
		c = &fk->cg[fk->ncg++];
	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "%s", path);
	c->uid = uid;
	c->ino = ++fk->next_ino + 1000;
	c->present = 1;
	return c;
}

/* Removes the cgroup at path. */
static inline void fk_rmdir(struct fake_kernel *fk, const char *path)
{
	struct fk_cgroup *c = fk_cgroup_find(fk, path);

	if (c)
		c->present = 0;
}

/* Adds a process (no threads yet) that started start_s seconds after boot. */
static struct fk_proc *fk_add_proc(struct fake_kernel *fk, uint32_t pid, uint32_t ppid, uint32_t euid,
				   uint64_t start_s, const char *comm, const char *cmdline)
{
	struct fk_proc *p = &fk->p[fk->np++];

	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->ppid = ppid;
	p->euid = euid;
	p->start_ticks = start_s * (uint64_t)timing_hz();
	p->state = 'S';
	snprintf(p->comm, sizeof(p->comm), "%s", comm);
	p->cmdline = cmdline;
	p->present = 1;
	return p;
}

/* Adds a thread to p that started start_s seconds after boot, sleeping, with no counts yet. */
static struct fk_thread *fk_add_thread(struct fk_proc *p, uint32_t tid, uint64_t start_s, const char *comm)
{
	struct fk_thread *t = &p->t[p->nthreads++];

	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->start_ticks = start_s * (uint64_t)timing_hz();
	t->state = 'S';
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->c.kind_total = t->c.kind_count = FK_ALL_KINDS;
	t->present = 1;
	return t;
}

/* The thread waited count times, ms milliseconds in all, on delay kind k. */
static void fk_wait(struct fk_thread *t, int k, uint64_t ms, uint64_t count)
{
	t->c.delay[k].total_ns += ms * 1000000ull;
	t->c.delay[k].count += count;
}

/* The thread ran ms milliseconds (its waits for a CPU are fk_wait's DK_CPU). */
static void fk_run(struct fk_thread *t, uint64_t ms)
{
	t->c.run_virtual_ns += ms * 1000000ull;
	t->c.run_real_ns += ms * 1000000ull;
	t->c.nvcsw++;
}

/* Thread t of p exits: its exit message waits for the drain (with the process's record when it
 * was the last of several), its counters go to the process's sums of ended threads, and the
 * process is gone with its last thread. */
static void fk_exit(struct fake_kernel *fk, struct fk_proc *p, struct fk_thread *t)
{
	struct fk_exit *x = &fk->exits[fk->nexits++];
	int last = fk_live_threads(p) == 1;

	memset(x, 0, sizeof(*x));
	fk_thread_record(fk, p, t, &x->thread);
	t->present = 0;
	fk_add(&p->dead, &t->c);
	p->dead.nvcsw -= t->c.nvcsw; /* the kernel keeps an ended thread's delays and CPU time, not its switches */
	p->dead.nivcsw -= t->c.nivcsw;
	if (last) {
		x->thread.c.flag |= TS_AGROUP;
		if (p->nthreads > 1) {
			fk_process_record(p, &x->process);
			x->has_process = 1;
		}
		p->present = 0;
	}
}

/* The eBPF side saw task tid (of process tgid) wait ns on kind (latency.h), for the next read:
 * added to the entry of (tid, kind), as the kernel's programs add it. */
static inline void fk_why_wait(struct fake_kernel *fk, uint32_t tid, uint32_t tgid, uint32_t kind, uint64_t ns)
{
	struct lat_entry *e = NULL;

	for (int i = 0; i < fk->nwhy && !e; i++)
		if (fk->why[i].tid == tid && fk->why[i].kind == kind)
			e = &fk->why[i];
	if (!e) {
		e = &fk->why[fk->nwhy++];
		memset(e, 0, sizeof(*e));
		e->tid = tid;
		e->tgid = tgid;
		e->kind = kind;
	}
	e->h.count++;
	e->h.total_ns += ns;
	if (ns > e->h.max_ns)
		e->h.max_ns = ns;
	e->h.slot[lat_slot_of(ns)]++;
}

#endif
