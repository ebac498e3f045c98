/* proctable.c — the process table. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "proctable.h"
#include "threadnotes.h"
#include "xalloc.h"

void proctable_init(struct proctable *t)
{
	memset(t, 0, sizeof(*t));
	idmap_init(&t->map);
}

static void proc_free(struct proc *p)
{
	free(p->cmdline);
	free(p->cgroup);
	threadnotes_free(p->notes);
	free(p);
}

void proctable_free(struct proctable *t)
{
	size_t pos = 0;
	void *v;

	while (idmap_next(&t->map, &pos, NULL, &v))
		proc_free(v);
	idmap_free(&t->map);
	free(t->fresh);
	free(t->moved);
	memset(t, 0, sizeof(*t));
}

struct proc *proctable_get(const struct proctable *t, uint32_t pid)
{
	return idmap_get(&t->map, pid);
}

static void proc_detach(struct proctable *t, struct proc *p)
{
	idmap_del(&t->map, p->pid);
	p->detached = 1;
	if (p->refs == 0)
		proc_free(p);
}

void proc_repoint(struct proc **slot, struct proc *p)
{
	struct proc *old = *slot;

	if (old == p)
		return;
	if (p)
		p->refs++;
	if (old && --old->refs == 0 && old->detached)
		proc_free(old);
	*slot = p;
}

struct proc *proctable_update(struct proctable *t, const struct proc_entry *e, uint32_t tick, struct users *users)
{
	struct proc *p = idmap_get(&t->map, e->pid);

	if (p && p->start_ticks != e->start_ticks) {
		proc_detach(t, p);
		p = NULL;
	}
	if (!p) {
		p = xcalloc(1, sizeof(*p));
		p->pid = e->pid;
		p->start_ticks = e->start_ticks;
		idmap_put(&t->map, p->pid, p);
	}
	if (p->seen + 1 < tick || p->euid != e->euid || p->ppid != e->ppid || p->nice != e->nice ||
	    strcmp(p->comm, e->comm) != 0)
		p->changed = tick;
	if (!p->described || p->euid != e->euid || strcmp(p->comm, e->comm) != 0) {
		p->user = users_name(users, e->euid);
		t->fresh = xgrow(t->fresh, &t->capfresh, t->nfresh + 1, sizeof(*t->fresh));
		t->fresh[t->nfresh++] = p->pid;
	}
	t->moved = xgrow(t->moved, &t->capmoved, t->nmoved + 1, sizeof(*t->moved));
	t->moved[t->nmoved++] = p->pid;
	p->seen = p->walked = p->read = tick;
	p->euid = e->euid;
	p->state = e->state;
	p->nlwp = e->nlwp;
	p->ppid = e->ppid;
	p->nice = e->nice;
	memcpy(p->comm, e->comm, sizeof(p->comm));
	return p;
}

static void describe(void *arg, uint32_t pid, const char *cmdline)
{
	struct proctable *t = arg;
	struct proc *p = idmap_get(&t->map, pid);

	if (!p)
		return;
	if (!p->cmdline || strcmp(p->cmdline, cmdline) != 0)
		p->changed = p->seen;
	free(p->cmdline);
	p->cmdline = xstrdup(cmdline);
	p->described = 1;
}

void proctable_describe(struct proctable *t, struct kernel *k, const struct cgroup_hier *hier)
{
	char path[CGROUP_PATH_MAX];

	k->ops->describe(k, t->fresh, t->nfresh, describe, t);
	t->nfresh = 0;
	for (size_t i = 0; hier->layout != CGROUP_NONE && i < t->nmoved; i++) {
		struct proc *p = idmap_get(&t->map, t->moved[i]);

		if (!p || k->ops->task_cgroup(k, p->pid, hier, path, sizeof(path)) < 0)
			continue;
		if (!p->cgroup || strcmp(p->cgroup, path) != 0) {
			p->changed = p->seen;
			free(p->cgroup);
			p->cgroup = xstrdup(path);
			p->identity_uid = t->owners ? cgowner_of(t->owners, k, hier, path) : CGOWNER_NONE;
		}
	}
	t->nmoved = 0;
}

struct proc *proctable_ghost(struct proctable *t, uint32_t pid, const struct task_counters *c, uint32_t tick,
			     struct users *users)
{
	struct proc *p = idmap_get(&t->map, pid);

	if (p)
		return p;
	p = xcalloc(1, sizeof(*p));
	p->pid = pid;
	p->seen = tick;
	p->state = 'X';
	p->euid = c->uid;
	p->ppid = (c->have & HAVE_IDS) ? c->ppid : 0;
	p->nice = ROW_NICE_NONE;
	p->user = (c->have & HAVE_IDS) ? users_name(users, c->uid) : "?";
	str_copy(p->comm, sizeof(p->comm), (c->have & HAVE_COMM) ? c->comm : "?");
	idmap_put(&t->map, pid, p);
	return p;
}

void proctable_retire(struct proctable *t, uint32_t tick)
{
	size_t pos = 0;
	void *v;

	while (idmap_next(&t->map, &pos, NULL, &v)) {
		struct proc *p = v;

		if (p->seen != tick) {
			proc_detach(t, p);
			pos--; /* the deletion may have shifted a later entry into this slot */
		}
	}
}

void proctable_count(const struct proctable *t, uint32_t tick, unsigned *procs, unsigned *threads)
{
	size_t pos = 0;
	void *v;

	*procs = *threads = 0;
	while (idmap_next(&t->map, &pos, NULL, &v)) {
		const struct proc *p = v;

		if (p->walked == tick) {
			(*procs)++;
			*threads += (unsigned)p->nlwp;
		}
	}
}

void proc_peak_add(struct proc *p, const struct task_counters *c)
{
	for (int k = 0; k < DK_COUNT; k++) {
		kind_mask bit = (kind_mask)(1u << k);

		if (!(c->kind_max & bit))
			continue;
		if (!(p->peak_kinds & bit) || c->delay[k].max_ns > p->peak_ns[k]) {
			p->peak_ns[k] = c->delay[k].max_ns;
			p->peak_at_ns[k] = (c->kind_max_ts & bit) ? c->delay[k].max_ts_sec * 1000000000ll +
									c->delay[k].max_ts_nsec
								  : 0;
			p->peak_kinds_ts = (kind_mask)((p->peak_kinds_ts & ~bit) | (c->kind_max_ts & bit));
		}
		p->peak_kinds |= bit;
	}
}

void proc_peak_apply(const struct proc *p, struct task_counters *c)
{
	c->kind_max = p->peak_kinds;
	c->kind_max_ts = p->peak_kinds_ts;
	for (int k = 0; k < DK_COUNT; k++) {
		c->delay[k].max_ns = p->peak_ns[k];
		c->delay[k].max_ts_sec = p->peak_at_ns[k] / 1000000000ll;
		c->delay[k].max_ts_nsec = p->peak_at_ns[k] % 1000000000ll;
	}
}
