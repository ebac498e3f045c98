/* collectexit.c — the exit records' collector: each record queued since the last tick (exitqueue.h)
 * folded into the task table as its task's final reading, after the tick's readings of the live
 * tasks, whose last readings it supersedes. A task never read before is made from its record
 * when it was born during the interval; a process known only from its record is made up from it
 * (proctable_ghost), in its parent's cgroup. */
#include "config.h"

#include <stdint.h>

#include "collect.h"
#include "format.h"
#include "xalloc.h"

/* A process seen only in its exit record, or that ended before its cgroup could be read, ran in
 * its parent's cgroup, where a fork puts a child (unless it moved, which delaytop did not see). */
static void inherit_cgroup(struct collector *c, struct proc *p, uint32_t ppid)
{
	const struct proc *parent = ppid ? proctable_get(c->procs, ppid) : NULL;

	if (!p->cgroup && parent && parent->cgroup) {
		p->cgroup = xstrdup(parent->cgroup);
		p->identity_uid = parent->identity_uid;
	}
}

/* Folds one exit record into the tick. */
static void fold_exit(struct collector *c, const struct pending_exit *x)
{
	struct task_counters final = x->c;
	const struct tick_times *tt = c->tt;
	int threads = c->rules->threads;
	struct task *t = tasktable_exiting(c->tasks, x->id);
	int born_since = x->age_ns != UINT64_MAX ? tt->now_mono - tt->prev_mono > x->age_ns
						 : !proctable_get(c->procs, x->pid);

	if (x->peak_only) {
		struct proc *p = proctable_get(c->procs, x->pid);

		if (p)
			proc_peak_add(p, &x->c);
		return;
	}
	if (t && t->exited)
		return;
	if (!t && !born_since)
		return;
	if (!t) { /* its start on the clock of the mode's readings: boot time for processes */
		uint64_t start = x->age_ns != UINT64_MAX && x->recv_mono > x->age_ns ? x->recv_mono - x->age_ns
										     : tt->now_mono;

		t = tasktable_add(c->tasks, x->id, threads ? start : start + (tt->now_boot - tt->now_mono));
		t->start_guessed = x->age_ns == UINT64_MAX;
	}
	if (!t->proc) /* a task read before keeps its process, even if the pid has a new one now */
		proc_repoint(&t->proc, proctable_ghost(c->procs, x->pid, &x->c, tt->tick, c->users));
	inherit_cgroup(c, t->proc, x->ppid); /* also one that ended before its cgroup was read */
	if (t->comm[0] == '\0')
		str_copy(t->comm, sizeof(t->comm), (x->c.have & HAVE_COMM) ? x->c.comm : t->proc->comm);
	if (!threads && c->want_peaks) { /* the process's longest waits, its last thread's too */
		proc_peak_add(t->proc, &final);
		proc_peak_apply(t->proc, &final);
	}
	task_read(t, &final, tt->now_mono, threads ? 1 : (uint32_t)t->proc->nlwp, born_since, !threads, tt,
		  c->rules);
	t->exited = 1;
	t->state = 'X';
	t->need_state = 0;
	t->proc->seen = tt->tick;
}

void collect_exits(struct collector *c, const struct exitqueue *q)
{
	for (size_t i = 0; i < q->n; i++)
		fold_exit(c, &q->items[i]);
}
