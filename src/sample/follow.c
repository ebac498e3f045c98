/* follow.c — command mode's side of the sampler: the exit listeners, a taskstats client for the
 * survivors, and the /proc reads command mode needs. */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>

#include "cgroupfs.h"
#include "exitlisten.h"
#include "follow.h"
#include "procfs.h"
#include "taskstats.h"
#include "xalloc.h"

struct follow {
	struct exitlisten *l;
	struct ts_client *ts;
};

int follow_open(struct follow **out, int exit_buffer, char *err, size_t errlen)
{
	struct follow *f = xcalloc(1, sizeof(*f));

	if (exitlisten_open(&f->l, exit_buffer, err, errlen) < 0 || ts_open(&f->ts, err, errlen) < 0) {
		follow_close(f);
		*out = NULL;
		return -1;
	}
	*out = f;
	return 0;
}

void follow_close(struct follow *f)
{
	if (!f)
		return;
	exitlisten_close(f->l);
	ts_close(f->ts);
	free(f);
}

int follow_fd(const struct follow *f)
{
	return exitlisten_fd(f->l);
}

/* The kernel edge's record as the model's. */
static void to_record(const struct ts_record *in, struct task_record *out)
{
	out->process = in->tgid;
	out->id = in->id;
	out->c = in->c;
}

/* The caller's function and argument, for the edge's callbacks to call with the model's records. */
struct relay {
	follow_exit_fn on_exit;
	follow_task_fn on_task;
	void *arg;
};

static void relay_exit(void *arg, const struct ts_record *thread, const struct ts_record *process)
{
	const struct relay *r = arg;
	struct task_record t, p;

	if (thread)
		to_record(thread, &t);
	if (process)
		to_record(process, &p);
	r->on_exit(r->arg, thread ? &t : NULL, process ? &p : NULL);
}

static void relay_task(void *arg, size_t index, const struct ts_record *rec, uint64_t when_ns)
{
	const struct relay *r = arg;
	struct task_record t;

	(void)index;
	(void)when_ns;
	to_record(rec, &t);
	r->on_task(r->arg, &t);
}

void follow_drain(struct follow *f, follow_exit_fn fn, void *arg, uint64_t *lost)
{
	struct relay r = { .on_exit = fn, .arg = arg };

	exitlisten_drain(f->l, relay_exit, &r, lost);
}

int follow_own_cgroup(struct cgroup_hier *h, char *buf, size_t size)
{
	cgroupfs_detect(h);
	return cgroupfs_task_path((uint32_t)getpid(), h, buf, size);
}

int follow_check_proc(char *err, size_t errlen)
{
	return procfs_mounted(err, errlen);
}

int64_t follow_parent(uint32_t pid)
{
	struct proc_entry e;

	return procfs_read_process(pid, &e) == 0 ? (int64_t)e.ppid : -1;
}

int follow_survivors(struct follow *f, int (*keep)(void *arg, uint32_t pid), void *arg, follow_task_fn fn,
		     void *fnarg)
{
	struct relay r = { .on_task = fn, .arg = fnarg };
	uint32_t *pids = NULL, *tids = NULL;
	size_t npids = 0, cappids = 0, ntids = 0, captids = 0;
	int rc = procfs_list(NULL, 0, &pids, &npids, &cappids);

	for (size_t i = 0; rc == 0 && i < npids; i++)
		if (keep(arg, pids[i]))
			procfs_threads(pids[i], &tids, &ntids, &captids);
	if (rc == 0 && ntids)
		rc = ts_query(f->ts, TS_BY_PID, tids, ntids, relay_task, &r);
	free(pids);
	free(tids);
	return rc;
}

void follow_cgroups_of(const struct cgroup_hier *h, int (*keep)(void *arg, uint32_t pid), void *arg,
		       void (*fn)(void *fnarg, uint32_t pid, const char *path), void *fnarg)
{
	uint32_t *pids = NULL;
	size_t n = 0, cap = 0;
	char path[CGROUP_PATH_MAX];

	if (h->layout == CGROUP_NONE || procfs_list(NULL, 0, &pids, &n, &cap) < 0) {
		free(pids);
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (keep(arg, pids[i]) && cgroupfs_task_path(pids[i], h, path, sizeof(path)) == 0)
			fn(fnarg, pids[i], path);
	free(pids);
}
