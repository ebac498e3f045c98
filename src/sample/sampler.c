/* sampler.c — a tick: prepare (retire the last tick, read the clocks, the delay-accounting switch
 * and PSI), collect (readings of every selected task, then the exit records queued since), build
 * (the snapshot's header and rows). The pieces: the process table (proctable.c), the task table
 * (tasktable.c), the collectors (collect.c), the exit queue (exitqueue.c), the exited tasks kept
 * for totals (departed.c), the rows (rowbuild.c), the eBPF side of --why (whyside.c). The kernel
 * is reached only through the instance of the seam the sampler was made with (kernelops.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgowner.h"
#include "cgroupfs.h"
#include "cgtable.h"
#include "cgtree.h"
#include "collect.h"
#include "departed.h"
#include "exitqueue.h"
#include "forkedoff.h"
#include "i18n.h"
#include "kernelops.h"
#include "proctable.h"
#include "rowbuild.h"
#include "sampler.h"
#include "selection.h"
#include "tasktable.h"
#include "timing.h"
#include "users.h"
#include "whyside.h"
#include "xalloc.h"

struct sampler {
	struct sampler_opts o;
	struct selection sel;
	struct kernel *k; /* the kernel edge, or a fake of it: the sampler's own */
	int listening;    /* the exit listeners are registered */
	int limited;
	char notice[512];

	struct users users;
	struct cgowner owners;    /* who cgroups are delegated to */
	struct proctable procs;
	struct tasktable tasks;
	struct departed_set departed;
	struct exitqueue exits;
	struct forkedoff off;
	struct tick_times tt;
	struct reading_rules rules;
	uint64_t first_mono;
	struct psi_snapshot psi_prev;
	struct collector collector;
	struct rowbuf rows;
	int defer;    /* the rows are made by sampler_rows, into the caller's buffer */
	int deferred; /* the last tick's rows are still to be made */
	struct cgroup_hier hier;  /* the cgroup hierarchy shown */
	char cgroup_root[CGROUP_PATH_MAX]; /* the cgroup view's root */
	struct cgtable cgroups;   /* the cgroup view's cgroups */
	struct cgtree tree;       /* and its rows */

	struct whyside why;       /* --why */
};

/* ---- prepare ---- */

/* Ticks a cgroup's owners are kept after its last lookup: processes new in it or moved to it
 * look it up, and one lookup kept costs a stat, one forgotten a stat per directory up to one
 * kept. */
#define OWNERS_KEPT 600

/* Turns an exited task that leaves the task table into a departed one, when the front end may
 * show totals since the start and it has any; else frees it. */
static void keep_departed(void *arg, struct task *t)
{
	struct sampler *s = arg;
	const struct proc *p = t->proc;
	const struct kind_totals *acc = t->acc;
	struct departed *d;

	if (!acc && s->tasks.moved_totals && t->has_base) /* still since the first reading */
		acc = tasktable_zero_totals(&s->tasks, t);
	if (!acc || !acc->kinds || !s->o.departed) { /* read only once: nothing to add up; or no totals */
		task_free(t);
		return;
	}
	d = xcalloc(1, sizeof(*d));
	d->pid = p ? p->pid : t->id;
	d->id = t->id;
	d->uid = p ? p->euid : 0;
	d->user = p && p->user ? p->user : "?";
	d->cmdline = p && p->cmdline ? xstrdup(p->cmdline) : NULL;
	d->cgroup = p && p->cgroup ? xstrdup(p->cgroup) : NULL;
	d->identity_uid = p ? p->identity_uid : 0;
	snprintf(d->comm, sizeof(d->comm), "%s", (s->o.threads || !p) && t->comm[0] ? t->comm : p ? p->comm : "?");
	d->acc = *acc;
	task_free(t);
	departed_add(&s->departed, d);
}

static void read_psi(struct sampler *s, struct snapshot *snap)
{
	s->k->ops->pressure(s->k, s->tt.now_mono, &snap->psi);
	if (s->tt.tick > 1)
		psi_interval(&s->psi_prev, &snap->psi);
	s->psi_prev = snap->psi;
}

/* Ends the last tick and starts the next: its clocks, the switch, PSI. */
static void prepare(struct sampler *s, struct snapshot *snap)
{
	tasktable_retire(&s->tasks, s->tt.tick, keep_departed, s);
	proctable_retire(&s->procs, s->tt.tick);
	cgowner_retire(&s->owners, OWNERS_KEPT);
	s->tt.prev_mono = s->tt.now_mono;
	s->tt.prev_boot = s->tt.now_boot;
	s->tt.tick++;
	clock_gettime(CLOCK_REALTIME, &snap->wall);
	s->tt.now_mono = s->k->ops->mono_ns(s->k);
	s->tt.now_boot = s->k->ops->boot_ns(s->k);
	if (s->tt.tick == 1)
		s->first_mono = s->tt.now_mono;
	s->rules.delayacct = s->k->ops->delayacct(s->k);
	forkedoff_track(&s->off, s->rules.delayacct, s->tt.now_mono, s->tt.now_boot);
	read_psi(s, snap);
}

/* ---- the eBPF side (--why): whyside.c ---- */

void sampler_set_stack_task(struct sampler *s, uint32_t id)
{
	whyside_set_task(&s->why, id);
}

void sampler_set_stack_match(struct sampler *s, int (*match)(void *arg, const struct row *r), void *arg)
{
	s->why.match = match;
	s->why.match_arg = arg;
}

const char *sampler_why_notice(const struct sampler *s)
{
	return whyside_notice(&s->why);
}

void sampler_set_why(struct sampler *s, int on)
{
	if (on && !s->o.why) /* asked for anew: a load that failed is tried again */
		whyside_retry(&s->why);
	s->o.why = !!on;
}

/* ---- collect ---- */

/* Keeps the record of an exit message that the mode shows, for the selected tasks. The message
 * counts once: as received, or as lost when a record of it found the queue full (it was read,
 * but its task's waits will not be shown), so that received and lost add up to the exits. */
static void on_exit_message(void *arg, const struct ts_record *thread, const struct ts_record *process)
{
	struct sampler *s = arg;
	struct exit_choice x;
	int full = 0;

	/* a thread's longest waits go first, so that its process's final row has them */
	if ((s->o.wants & WANT_PEAKS) && exitqueue_choose_peak(thread, process, s->o.threads, &x) == 0 &&
	    selection_has(&s->sel, x.pid, x.id, 0))
		full |= exitqueue_push(&s->exits, &x, s->k->ops->mono_ns(s->k)) < 0;
	if (exitqueue_choose(thread, process, s->o.threads, &x) == 0 && selection_has(&s->sel, x.pid, x.id, s->o.threads))
		full |= exitqueue_push(&s->exits, &x, s->k->ops->mono_ns(s->k)) < 0;
	if (full)
		s->exits.lost++;
	else
		s->exits.exits++;
}

void sampler_drain(struct sampler *s)
{
	if (s->listening && s->tt.tick > 0)
		s->k->ops->exits_drain(s->k, on_exit_message, s, &s->exits.lost);
}

int sampler_listen_fd(const struct sampler *s)
{
	return s->listening ? s->k->ops->exits_fd(s->k) : -1;
}

/* Readings of every selected task: from taskstats, or from /proc when it refuses. */
static int collect(struct sampler *s, char *err, size_t errlen)
{
	int rc = 0;

	if (!s->limited)
		rc = s->o.threads ? collect_threads(&s->collector, err, errlen)
				  : collect_processes(&s->collector, err, errlen);
	if (rc == -EPERM) {
		/* The capability went away (setpriv, a dropped bounding set): carry on with /proc. */
		s->limited = 1;
		snprintf(s->notice, sizeof(s->notice), "%s",
			 _("taskstats refused the query (no CAP_NET_ADMIN): showing only CPU and I/O delay, from /proc"));
	}
	if (s->limited)
		return collect_limited(&s->collector, err, errlen);
	if (rc < 0 && !err[0])
		snprintf(err, errlen, F_(N_("taskstats query failed: %s")), strerror(-rc));
	if (rc < 0)
		return rc;
	sampler_drain(s);
	collect_exits(&s->collector, &s->exits); /* after the readings: a final record supersedes them */
	exitqueue_clear(&s->exits);
	return 0;
}

/* ---- build ---- */

static void fill_header(struct sampler *s, struct snapshot *snap)
{
	snap->interval_s = s->tt.tick > 1 ? (s->tt.now_mono - s->tt.prev_mono) / 1e9 : 0;
	snap->elapsed_s = (s->tt.now_mono - s->first_mono) / 1e9;
	snap->threads = s->o.threads;
	proctable_count(&s->procs, s->tt.tick, &snap->nprocs, &snap->nthreads);
	snap->delayacct = s->rules.delayacct;
	snap->limited = s->limited;
	snap->listening = s->listening;
	snap->tasks_from = s->k->ops->tasks_from(s->k, &snap->task_walks);
	snap->cgroup_mount = s->hier.layout != CGROUP_NONE ? s->hier.m.dir : NULL;
	snap->cgroup_v2 = s->hier.m.v2;
	snap->cgroup_hybrid = s->hier.layout == CGROUP_HYBRID;
	snap->exits = s->exits.exits;
	snap->exits_lost = s->exits.lost;
}

/* Whether the cgroup view counts tasks by state from their threads (v2) rather than asking the
 * kernel (CGROUPSTATS, v1 only). */
static int states_from_tasks(const struct sampler *s)
{
	return s->hier.m.v2;
}

/* Whether the cgroup rows count their tasks by state: in the cgroup view, unless the front end
 * said it needs no states. */
static int wants_states(const struct sampler *s)
{
	return s->o.cgroups && !s->o.no_states;
}

/* The cgroup view: the cgroups at and below its root with their pressure and states, and their
 * rows summing the task rows. A root that was removed gives no rows. */
static void build_cgroups(struct sampler *s, struct snapshot *snap)
{
	snap->cgroups = 1;
	snap->cgroup_source = states_from_tasks(s) ? "tasks" : "cgroupstats";
	if (s->hier.layout == CGROUP_NONE ||
	    cgtable_read(&s->cgroups, s->k, &s->hier, s->cgroup_root, wants_states(s) && !states_from_tasks(s),
			 s->tt.now_mono, snap->rows, snap->nrows, &s->owners) < 0) {
		s->cgroups.n = 0;
		return;
	}
	snap->ncgroup_rows = cgtree_build(&s->tree, s->cgroups.f, s->cgroups.n, snap->rows, snap->nrows,
					  states_from_tasks(s));
	snap->cgroup_rows = s->tree.rows;
	if (snap->why.state == WHY_ON)
		cgtree_sum_latency(&s->tree, snap->rows, snap->nrows);
}

/* The rows of the reading, into b: a row per task read and per departed task, and the cgroup
 * view's rows summing them. */
static void build_rows(struct sampler *s, struct snapshot *snap, struct rowbuf *b)
{
	snap->nrows = rowbuild(b, &s->tasks, &s->departed, s->tt.tick, s->o.threads, _("(other exited)"));
	snap->rows = b->rows;
	whyside_give(&s->why, snap);
	if (s->o.cgroups)
		build_cgroups(s, snap);
}

int sampler_tick(struct sampler *s, struct snapshot *snap, char *err, size_t errlen)
{
	uint64_t t0;
	int rc;

	memset(snap, 0, sizeof(*snap));
	err[0] = '\0';
	s->deferred = 0;
	prepare(s, snap);
	t0 = s->tt.now_mono;
	whyside_follow(&s->why);
	rc = collect(s, err, errlen);
	if (rc < 0)
		return rc;
	whyside_collect(&s->why); /* the same interval as the readings' */
	fill_header(s, snap);
	whyside_header(&s->why, s->rules.delayacct, snap);
	s->deferred = s->defer && !s->o.cgroups; /* the cgroup view reads the cgroups the rows name */
	if (s->deferred)
		rowbuf_free(&s->rows);
	else
		build_rows(s, snap, &s->rows);
	snap->reading_s = (s->k->ops->mono_ns(s->k) - t0) / 1e9;
	return 0;
}

void sampler_set_defer(struct sampler *s, int defer)
{
	s->defer = defer;
}

int sampler_rows(struct sampler *s, struct snapshot *snap, struct rowbuf *b)
{
	uint64_t t0;

	if (!s->deferred)
		return 0;
	s->deferred = 0;
	t0 = s->k->ops->mono_ns(s->k);
	build_rows(s, snap, b);
	snap->reading_s += (s->k->ops->mono_ns(s->k) - t0) / 1e9; /* what the reading cost, its rows too */
	return 1;
}

/* ---- set-up ---- */

static void open_taskstats(struct sampler *s)
{
	char err[256] = "";
	int rc;

	rc = s->k->ops->open_taskstats(s->k, (uint32_t)getpid(), err, sizeof(err));
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
	if (s->k->ops->open_exits(s->k, s->o.exit_rcvbuf, err, sizeof(err)) < 0)
		snprintf(s->notice, sizeof(s->notice), F_(N_("%s: tasks that exit between refreshes are not shown")), err);
	else
		s->listening = 1;
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

	if (!s->k->ops->delayacct_off_at_boot(s->k))
		return;
	if (s->k->ops->read_process(s->k, 2, &e) < 0 || e.ppid != 0 || strcmp(e.comm, "kthreadd") != 0)
		return;
	forkedoff_since_boot(&s->off, (e.start_ticks + 1) * (1000000000ull / (uint64_t)timing_hz()) + SAME_START_NS);
}

/* What o.wants asks the collector to read, and the tasks to keep (the longest waits also where
 * they keep totals). */
static void apply_wants(struct sampler *s)
{
	s->collector.want_acct = (s->o.wants & WANT_ACCT) != 0;
	s->collector.want_peaks = (s->o.wants & WANT_PEAKS) != 0;
	s->rules.acct = s->collector.want_acct;
	/* totals keep the longest waits: every task's, or (moved_totals) those of the tasks that have
	 * their own */
	s->rules.peaks = s->collector.want_peaks || (!s->o.no_totals && !s->o.moved_totals);
	s->rules.peaks_moved = s->tasks.moved_totals;
}

static void wire_collector(struct sampler *s)
{
	struct collector *c = &s->collector;

	c->k = s->k;
	c->procs = &s->procs;
	c->tasks = &s->tasks;
	c->sel = &s->sel;
	c->users = &s->users;
	c->tt = &s->tt;
	c->rules = &s->rules;
	c->hier = &s->hier;
	c->want_states = wants_states(s) && states_from_tasks(s);
	c->prestate_min = s->o.prestate_min;
	apply_wants(s);
	s->rules.off = &s->off;
	s->rules.threads = s->o.threads;
}

int sampler_open(struct sampler **out, const struct sampler_opts *o, char *err, size_t errlen)
{
	struct kernel *k;
	int rc = kernel_open(&k, err, errlen);

	if (rc < 0)
		return rc;
	return sampler_open_kernel(out, o, k, err, errlen);
}

int sampler_open_kernel(struct sampler **out, const struct sampler_opts *o, struct kernel *k, char *err,
			size_t errlen)
{
	struct sampler *s = xcalloc(1, sizeof(*s));

	(void)err;
	(void)errlen;
	s->o = *o;
	s->k = k;
	users_init(&s->users);
	cgowner_init(&s->owners);
	proctable_init(&s->procs);
	s->procs.owners = &s->owners;
	tasktable_init(&s->tasks);
	s->tasks.no_totals = o->no_totals;
	s->tasks.moved_totals = !o->no_totals && o->moved_totals;
	departed_init(&s->departed, o->departed);
	exitqueue_init(&s->exits);
	forkedoff_init(&s->off);
	selection_init(&s->sel);
	whyside_init(&s->why, k, &s->o);
	cgtable_init(&s->cgroups);
	k->ops->cgroup_detect(k, &s->hier);
	cgpath_normalize(o->cgroup_root ? o->cgroup_root : "/", s->cgroup_root, sizeof(s->cgroup_root));
	if (o->cgroups)
		s->o.threads = 0; /* the cgroup view sums process rows */
	sampler_set_pids(s, o->pids, o->npids);
	open_taskstats(s);
	open_listener(s);
	boot_window(s);
	wire_collector(s);
	whyside_follow(&s->why); /* now, so that its notice is there before the first reading */
	*out = s;
	return 0;
}

const char *sampler_notice(const struct sampler *s)
{
	return s->notice[0] ? s->notice : NULL;
}

void sampler_set_group(struct sampler *s, int threads, int cgroups)
{
	s->o.cgroups = !!cgroups;
	s->collector.want_states = wants_states(s) && states_from_tasks(s);
	if (!s->o.cgroups)
		s->cgroups.n = 0;
	sampler_set_threads(s, threads && !cgroups);
}

void sampler_set_wants(struct sampler *s, unsigned wants)
{
	if (wants & ~s->o.wants & (WANT_ACCT | WANT_PEAKS))
		s->collector.read_all = 1; /* the threads carried over have none of what is now wanted */
	s->o.wants = wants;
	apply_wants(s);
}

void sampler_set_threads(struct sampler *s, int threads)
{
	if (s->o.threads == !!threads)
		return;
	s->o.threads = !!threads;
	s->rules.threads = s->o.threads;
	s->collector.read_all = 1;
	tasktable_clear(&s->tasks);
	departed_clear(&s->departed);
	exitqueue_clear(&s->exits); /* records of the other mode */
}

/* The process of a task id, for the selection; 0 when it is gone. */
static uint32_t tgid_of(void *arg, uint32_t id)
{
	struct sampler *s = arg;

	return s->k->ops->tgid_of(s->k, id);
}

void sampler_set_pids(struct sampler *s, const uint32_t *pids, size_t npids)
{
	selection_set(&s->sel, pids, npids, s->o.threads, tgid_of, s);
	s->collector.read_all = 1;
	s->o.pids = s->sel.pids;
	s->o.npids = s->sel.npids;
}

const char *sampler_pids_notice(const struct sampler *s)
{
	return s->sel.notice[0] ? s->sel.notice : NULL;
}

const uint32_t *sampler_pids(const struct sampler *s, size_t *n)
{
	*n = s->sel.npids;
	return s->sel.pids;
}

const struct cgroup_hier *sampler_cgroup_hier(const struct sampler *s)
{
	return &s->hier;
}

const char *sampler_user_name(struct sampler *s, uint32_t uid)
{
	return users_name(&s->users, uid);
}

void sampler_close(struct sampler *s)
{
	if (!s)
		return;
	tasktable_free(&s->tasks);
	departed_clear(&s->departed);
	proctable_free(&s->procs);
	cgowner_free(&s->owners);
	users_free(&s->users);
	exitqueue_free(&s->exits);
	selection_free(&s->sel);
	collector_free(&s->collector);
	rowbuf_free(&s->rows);
	cgtable_free(&s->cgroups);
	cgtree_free(&s->tree);
	whyside_free(&s->why);
	if (s->k)
		s->k->ops->close(s->k);
	free(s);
}
