/* cgtable.c — the cgroups of the cgroup view, read each tick. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cgtable.h"
#include "xalloc.h"

void cgtable_init(struct cgtable *t)
{
	memset(t, 0, sizeof(*t));
}

static void clear(struct cgroup_facts *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(f[i].path);
}

void cgtable_free(struct cgtable *t)
{
	clear(t->f, t->n);
	clear(t->prev, t->nprev);
	free(t->f);
	free(t->prev);
	free(t->open);
	cgtable_init(t);
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct cgroup_facts *)a)->path, ((const struct cgroup_facts *)b)->path);
}

/* The last tick's facts of path, or NULL. */
static const struct cgroup_facts *previous(const struct cgtable *t, const char *path)
{
	struct cgroup_facts key = { 0 };

	key.path = (char *)path;
	return t->nprev ? bsearch(&key, t->prev, t->nprev, sizeof(*t->prev), by_path) : NULL;
}

/* A walk under way: the table, the cgroups walked into (t->open), the root's delegate, and where
 * owners are read. */
struct walk {
	struct cgtable *t;
	size_t depth;
	uint32_t root_deleg;
	struct kernel *k;
	const struct cgroup_hier *h;
};

/* The owner of f's directory: the last reading's when it is the same directory (inode), but once
 * every CGOWNER_FRESH readings (at a reading its inode picks, so that the cgroups are read again
 * a few at a time), else read; not known (0, read again next time) when the cgroup is gone
 * meanwhile. */
static void take_owner(struct walk *w, struct cgroup_facts *f)
{
	const struct cgroup_facts *old = previous(w->t, f->path);
	uint64_t ino;

	f->old = old ? (uint32_t)(old - w->t->prev) + 1 : 0; /* for fill(), after the sort */
	if (old && old->owner_read && old->ino == f->ino && (w->t->reads + f->ino) % CGOWNER_FRESH != 0) {
		f->owner = old->owner;
		f->owner_read = old->owner_read;
	} else if (w->k->ops->cgroup_owner(w->k, w->h, f->path, &f->owner, &ino) == 0 && ino == f->ino) {
		f->owner_read = w->t->reads;
	} else {
		f->owner = 0; /* gone, or made again since the walk listed it */
	}
}

/* Takes a cgroup the walk met: its parent is the innermost cgroup walked into that holds it (the
 * walk goes depth first, parents first), and it is delegated as that one is, or to its owner. */
static void collect_path(void *arg, const char *path, uint64_t ino)
{
	struct walk *w = arg;
	struct cgtable *t = w->t;
	struct cgroup_facts *f;
	uint32_t outer;

	while (w->depth && !cgpath_within(path, t->f[t->open[w->depth - 1]].path))
		w->depth--;
	outer = w->depth ? t->f[t->open[w->depth - 1]].identity_uid : w->root_deleg;
	t->f = xgrow(t->f, &t->cap, t->n + 1, sizeof(*t->f));
	f = &t->f[t->n];
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(path);
	f->ino = ino;
	take_owner(w, f);
	f->identity_uid = cgowner_below(outer, f->owner);
	t->open = xgrow(t->open, &t->capopen, w->depth + 1, sizeof(*t->open));
	t->open[w->depth++] = t->n++;
}

/* The distinct cgroups of the interval's tasks (departed ones do not count): busy[0..n). */
static size_t busy_paths(const struct row *rows, size_t nrows, const char ***out)
{
	const char **busy = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < nrows; i++) {
		size_t k = 0;

		if (!rows[i].cgroup || rows[i].departed)
			continue;
		while (k < n && strcmp(busy[k], rows[i].cgroup) != 0)
			k++;
		if (k == n) {
			busy = xgrow(busy, &cap, n + 1, sizeof(*busy));
			busy[n++] = rows[i].cgroup;
		}
	}
	*out = busy;
	return n;
}

static int is_busy(const char *path, const char *const *busy, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (cgpath_within(busy[i], path))
			return 1;
	return 0;
}

/* Fills one cgroup's facts: read, or, idle since the last reading, carried over with 0 shares. */
static void fill(struct cgroup_facts *f, const struct cgroup_facts *old, struct kernel *k,
		 const struct cgroup_hier *h, int cgroupstats, uint64_t now_ns)
{
	if (!f->busy && old && !old->busy) {
		f->psi = old->psi; /* no task, no stall: the totals have not moved */
		f->psi.when_ns = now_ns;
		for (int r = 0; r < PSI_COUNT; r++) {
			struct psi_resource *res = &f->psi.res[r];

			res->some.pct = res->some.present ? 0 : NAN;
			res->full.pct = res->full.present ? 0 : NAN;
		}
		memset(f->states, 0, sizeof(f->states));
		f->have_states = old->have_states;
		return;
	}
	k->ops->cgroup_pressure(k, h, f->path, now_ns, &f->psi);
	if (old)
		psi_interval(&old->psi, &f->psi);
	f->have_states = cgroupstats && k->ops->cgroup_states(k, h, f->path, f->states) == 0;
}

int cgtable_read(struct cgtable *t, struct kernel *k, const struct cgroup_hier *h, const char *root,
		 int cgroupstats, uint64_t now_ns, const struct row *rows, size_t nrows, struct cgowner *owners)
{
	struct cgroup_facts *swap = t->prev;
	size_t capswap = t->capprev, nbusy;
	const char **busy;
	/* the root's delegate from the directories above it; "/" has none above */
	struct walk w = { t, 0, owners && strcmp(root, "/") != 0 ? cgowner_of(owners, k, h, root) : CGOWNER_NONE,
			  k, h };
	int rc;

	clear(t->prev, t->nprev);
	t->prev = t->f;
	t->nprev = t->n;
	t->capprev = t->cap;
	t->f = swap;
	t->cap = capswap;
	t->n = 0;
	t->reads++;
	rc = k->ops->cgroup_walk(k, h, root, collect_path, &w);
	if (rc < 0)
		return rc;
	qsort(t->f, t->n, sizeof(*t->f), by_path);
	nbusy = busy_paths(rows, nrows, &busy);
	for (size_t i = 0; i < t->n; i++) {
		t->f[i].busy = is_busy(t->f[i].path, busy, nbusy);
		fill(&t->f[i], t->f[i].old ? &t->prev[t->f[i].old - 1] : NULL, k, h, cgroupstats, now_ns);
	}
	free(busy);
	return 0;
}
