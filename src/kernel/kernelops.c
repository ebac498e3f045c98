/* kernelops.c — the one instance of the seam (kernelops.h) that calls the real kernel edge: each
 * function hands its arguments to procfs, taskstats, the exit listeners, cgroupfs, the switch,
 * the pressure files or the clocks, and adds nothing. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "delayacct.h"
#include "kernelops.h"
#include "psifile.h"
#include "taskwatch.h"
#include "timing.h"
#include "symbols.h"
#include "whybpf.h"
#include "xalloc.h"

struct kernel_live {
	struct kernel k; /* first: the ops see this struct through it */
	struct procfs *procfs;
	struct ts_client *ts;        /* open for queries and CGROUPSTATS, or NULL */
	struct exitlisten *listener;
	struct taskwatch *watch;     /* the task set followed through the connector, or NULL: walks */
	int following;               /* this reading's task set is the followed one */
	uint32_t *ids;               /* the followed processes, for a walk of their stat files */
	size_t nids, capids;
	struct whybpf *why;          /* the latency programs (--why), or NULL */
	lat_mask why_kinds;          /* the kinds they measure */
	struct symbols *syms;        /* the stacks' frame names, or NULL */
	struct stateiter *states;    /* every task's state in one read, loaded at its first use */
	struct tid_state *st;        /* its last table */
	size_t capst;
};

static struct kernel_live *live(struct kernel *k)
{
	return (struct kernel_live *)k;
}

static int live_open_taskstats(struct kernel *k, uint32_t probe_pid, char *err, size_t errlen)
{
	struct kernel_live *l = live(k);
	int rc = ts_open(&l->ts, err, errlen);

	return rc < 0 ? rc : ts_probe(l->ts, probe_pid);
}

static int live_open_exits(struct kernel *k, int rcvbuf, char *err, size_t errlen)
{
	return exitlisten_open(&live(k)->listener, rcvbuf, err, errlen);
}

static void live_close(struct kernel *k)
{
	struct kernel_live *l = live(k);

	whybpf_close(l->why);
	stateiter_close(l->states);
	free(l->st);
	symbols_close(l->syms);
	exitlisten_close(l->listener);
	taskwatch_close(l->watch);
	free(l->ids);
	ts_close(l->ts);
	procfs_close(l->procfs);
	free(l);
}

/* The task set followed through the connector, brought up to date for a reading; NULL when the
 * readings walk /proc (no connector, or it failed: then for good). */
static struct taskset *followed(struct kernel_live *l)
{
	l->following = 0;
	if (!l->watch)
		return NULL;
	if (taskwatch_update(l->watch, timing_mono_ns()) < 0) {
		taskwatch_close(l->watch);
		l->watch = NULL;
		return NULL;
	}
	l->following = 1;
	return taskwatch_set(l->watch);
}

static int live_list_processes(struct kernel *k, const uint32_t *pids, size_t npids, uint32_t **out,
			       size_t *n, size_t *cap)
{
	struct kernel_live *l = live(k);
	struct taskset *set = followed(l); /* drained even when pids are chosen: its buffer stays small */

	if (!set || npids) {
		l->following = 0;
		return procfs_list(pids, npids, out, n, cap);
	}
	taskset_list(set, NULL, 0, out, n, cap);
	return 0;
}

static int live_walk_processes(struct kernel *k, const uint32_t *pids, size_t npids, struct proc_entry **out,
			       size_t *n)
{
	struct kernel_live *l = live(k);
	struct taskset *set = followed(l);

	if (!set || npids) {
		l->following = 0;
		return procfs_walk(l->procfs, pids, npids, out, n);
	}
	l->nids = 0;
	taskset_list(set, NULL, 0, &l->ids, &l->nids, &l->capids);
	return procfs_walk(l->procfs, l->ids, l->nids, out, n);
}

static int live_read_process(struct kernel *k, uint32_t pid, struct proc_entry *e)
{
	(void)k;
	return procfs_read_process(pid, e);
}

static enum task_source live_tasks_from(const struct kernel *k, uint64_t *walks)
{
	const struct kernel_live *l = (const struct kernel_live *)k;

	*walks = l->watch ? taskwatch_stats(l->watch)->walks : 0;
	return l->following ? TASKS_FOLLOWED : TASKS_WALKED;
}

/* From the followed set as of the reading's listing of processes, else from /proc. */
static size_t live_list_threads(struct kernel *k, uint32_t pid, uint32_t **tids, size_t *n, size_t *cap)
{
	struct kernel_live *l = live(k);

	if (l->following)
		return taskset_threads(taskwatch_set(l->watch), pid, tids, n, cap);
	return procfs_threads(pid, tids, n, cap);
}

static uint32_t live_tgid_of(struct kernel *k, uint32_t id)
{
	(void)k;
	return procfs_tgid(id);
}

static void live_describe(struct kernel *k, const uint32_t *pids, size_t n,
			  void (*fn)(void *arg, uint32_t pid, const char *cmdline), void *arg)
{
	procfs_describe(live(k)->procfs, pids, n, fn, arg);
}

static int live_task_cgroup(struct kernel *k, uint32_t pid, const struct cgroup_hier *h, char *buf,
			    size_t size)
{
	(void)k;
	return cgroupfs_task_path(pid, h, buf, size);
}

static int live_open_threads(struct kernel *k, uint32_t pid)
{
	(void)k;
	return procfs_open_tasks(pid);
}

static char live_thread_state(struct kernel *k, int handle, uint32_t tid)
{
	(void)k;
	return procfs_thread_state_at(handle, tid);
}

static void live_close_threads(struct kernel *k, int handle)
{
	(void)k;
	close(handle);
}

static int live_thread_counters(struct kernel *k, uint32_t pid, uint32_t tid, struct task_counters *c,
				char *state, uint64_t *start_ticks)
{
	(void)k;
	return procfs_thread_counters(pid, tid, c, state, start_ticks);
}

static void live_process_acct(struct kernel *k, uint32_t pid, struct task_counters *c)
{
	(void)k;
	procfs_process_acct(pid, c);
}

static int live_thread_io(struct kernel *k, uint32_t pid, uint32_t tid, struct task_counters *c)
{
	(void)k;
	return procfs_thread_io(pid, tid, c);
}

static int live_query(struct kernel *k, enum ts_by by, const uint32_t *ids, size_t n, ts_reply_fn fn,
		      void *arg)
{
	struct kernel_live *l = live(k);

	return l->ts ? ts_query(l->ts, by, ids, n, fn, arg) : -ENOTCONN;
}

static int live_exits_fd(const struct kernel *k)
{
	const struct kernel_live *l = (const struct kernel_live *)k;

	return l->listener ? exitlisten_fd(l->listener) : -1;
}

static void live_exits_drain(struct kernel *k, ts_exit_fn fn, void *arg, uint64_t *lost)
{
	struct kernel_live *l = live(k);

	if (l->listener)
		exitlisten_drain(l->listener, fn, arg, lost);
}

static void live_cgroup_detect(struct kernel *k, struct cgroup_hier *h)
{
	(void)k;
	cgroupfs_detect(h);
}

static int live_cgroup_walk(struct kernel *k, const struct cgroup_hier *h, const char *path, cgroupfs_walk_fn fn,
			    void *arg)
{
	(void)k;
	return cgroupfs_walk(h, path, fn, arg);
}

static int live_cgroup_owner(struct kernel *k, const struct cgroup_hier *h, const char *path, uint32_t *uid,
			     uint64_t *ino)
{
	(void)k;
	return cgroupfs_owner(h, path, uid, ino);
}

static void live_cgroup_pressure(struct kernel *k, const struct cgroup_hier *h, const char *path,
				 uint64_t when_ns, struct psi_snapshot *out)
{
	(void)k;
	cgroupfs_pressure(h, path, when_ns, out);
}

static int live_cgroup_states(struct kernel *k, const struct cgroup_hier *h, const char *path,
			      uint64_t out[CG_STATES])
{
	struct kernel_live *l = live(k);

	return l->ts ? cgroupfs_states(l->ts, h, path, out) : -ENOTCONN;
}

static int live_delayacct(struct kernel *k)
{
	(void)k;
	return delayacct_read();
}

static int live_delayacct_off_at_boot(struct kernel *k)
{
	(void)k;
	return delayacct_off_at_boot();
}

static void live_pressure(struct kernel *k, uint64_t when_ns, struct psi_snapshot *out)
{
	(void)k;
	psifile_read("/proc/pressure", "", 1, when_ns, out);
}

static uint64_t live_mono_ns(struct kernel *k)
{
	(void)k;
	return timing_mono_ns();
}

static uint64_t live_boot_ns(struct kernel *k)
{
	(void)k;
	return timing_boot_ns();
}

static int live_all_states(struct kernel *k, const struct tid_state **out, size_t *n)
{
	struct kernel_live *l = live(k);
	long rc = stateiter_read(&l->states, &l->st, &l->capst);

	if (rc < 0)
		return (int)rc;
	*out = l->st;
	*n = (size_t)rc;
	return 0;
}

static int live_why_open(struct kernel *k, lat_mask *attached, int stacks, char *err, size_t errlen)
{
	struct kernel_live *l = live(k);

	int rc = l->why ? 0 : whybpf_open(&l->why, &l->why_kinds, stacks, err, errlen);

	*attached = l->why ? l->why_kinds : 0;
	return rc;
}

static int live_why_read(struct kernel *k, struct lat_batch *b)
{
	struct kernel_live *l = live(k);

	return l->why ? whybpf_read(l->why, b) : -ENOTCONN;
}

static void live_why_close(struct kernel *k)
{
	struct kernel_live *l = live(k);

	whybpf_close(l->why);
	l->why = NULL;
	symbols_close(l->syms);
	l->syms = NULL;
}

static int live_why_select(struct kernel *k, const uint32_t *ids, size_t n, int by_tid)
{
	struct kernel_live *l = live(k);

	return l->why ? whybpf_select(l->why, ids, n, by_tid) : -ENOTCONN;
}

static const struct stk_batch *live_why_stacks(struct kernel *k)
{
	return whybpf_stacks(live(k)->why);
}

static const char *live_why_frame(struct kernel *k, uint32_t tgid, uint64_t addr, int user, char *buf,
				  size_t size)
{
	struct kernel_live *l = live(k);

	if (!l->syms)
		l->syms = symbols_open();
	return user ? symbols_user(l->syms, tgid, addr, buf, size) : symbols_kernel(l->syms, addr, buf, size);
}

static void live_why_warm(struct kernel *k, uint32_t tgid)
{
	struct kernel_live *l = live(k);

	if (!l->syms)
		l->syms = symbols_open();
	symbols_warm(l->syms, tgid);
}

static void live_why_frames_done(struct kernel *k)
{
	struct kernel_live *l = live(k);

	if (l->syms)
		symbols_sweep(l->syms);
}

static const struct kernel_ops live_ops = {
	.open_taskstats = live_open_taskstats,
	.open_exits = live_open_exits,
	.close = live_close,
	.list_processes = live_list_processes,
	.walk_processes = live_walk_processes,
	.read_process = live_read_process,
	.list_threads = live_list_threads,
	.tgid_of = live_tgid_of,
	.tasks_from = live_tasks_from,
	.describe = live_describe,
	.task_cgroup = live_task_cgroup,
	.open_threads = live_open_threads,
	.thread_state = live_thread_state,
	.close_threads = live_close_threads,
	.thread_counters = live_thread_counters,
	.process_acct = live_process_acct,
	.thread_io = live_thread_io,
	.query = live_query,
	.exits_fd = live_exits_fd,
	.exits_drain = live_exits_drain,
	.cgroup_detect = live_cgroup_detect,
	.cgroup_walk = live_cgroup_walk,
	.cgroup_owner = live_cgroup_owner,
	.cgroup_pressure = live_cgroup_pressure,
	.cgroup_states = live_cgroup_states,
	.delayacct = live_delayacct,
	.delayacct_off_at_boot = live_delayacct_off_at_boot,
	.pressure = live_pressure,
	.mono_ns = live_mono_ns,
	.boot_ns = live_boot_ns,
	.all_states = live_all_states,
	.why_open = live_why_open,
	.why_read = live_why_read,
	.why_close = live_why_close,
	.why_select = live_why_select,
	.why_stacks = live_why_stacks,
	.why_frame = live_why_frame,
	.why_warm = live_why_warm,
	.why_frames_done = live_why_frames_done,
};

int kernel_open(struct kernel **out, char *err, size_t errlen)
{
	struct kernel_live *l = xcalloc(1, sizeof(*l));
	int rc = procfs_open(&l->procfs, err, errlen);
	char why[256];

	if (rc < 0) {
		free(l);
		*out = NULL;
		return rc;
	}
	l->k.ops = &live_ops;
	if (!getenv("DELAYTOP_TASK_WALK") && taskwatch_open(&l->watch, why, sizeof(why)) < 0)
		l->watch = NULL; /* walks, as before the connector */
	*out = &l->k;
	return 0;
}
