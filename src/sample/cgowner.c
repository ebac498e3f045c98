/* cgowner.c — who a cgroup is delegated to: the owners of the directories at and above it, kept
 * per path with their inodes. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cgowner.h"
#include "xalloc.h"

void cgowner_init(struct cgowner *c)
{
	memset(c, 0, sizeof(*c));
}

void cgowner_free(struct cgowner *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->e[i].path);
	free(c->e);
	cgowner_init(c);
}

/* The index of path among the kept ones, or where it would go (*found 0). */
static size_t find(const struct cgowner *c, const char *path, int *found)
{
	size_t lo = 0, hi = c->n;

	*found = 0;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int cmp = strcmp(c->e[mid].path, path);

		if (cmp == 0) {
			*found = 1;
			return mid;
		}
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Keeps what was read of path's directory. */
static void keep(struct cgowner *c, const char *path, uint64_t ino, uint32_t owner, uint32_t deleg)
{
	int found;
	size_t at = find(c, path, &found);

	if (!found) {
		c->e = xgrow(c->e, &c->cap, c->n + 1, sizeof(*c->e));
		memmove(&c->e[at + 1], &c->e[at], (c->n - at) * sizeof(*c->e));
		c->n++;
		c->e[at].path = xstrdup(path);
	}
	c->e[at].ino = ino;
	c->e[at].owner = owner;
	c->e[at].deleg = deleg;
	c->e[at].read = c->e[at].used = c->gen;
}

/* Forgets path, gone. */
static void forget(struct cgowner *c, const char *path)
{
	int found;
	size_t at = find(c, path, &found);

	if (!found)
		return;
	free(c->e[at].path);
	memmove(&c->e[at], &c->e[at + 1], (c->n - at - 1) * sizeof(*c->e));
	c->n--;
}

/* The lengths of path's prefixes that are cgroups, from path itself up to the hierarchy's top
 * ("/", or the mounted cgroup when the mount is of a part), into ends; returns how many. */
static size_t levels(const struct cgroup_hier *h, const char *path, size_t *ends, size_t max)
{
	size_t n = 0, len = strlen(path), top = strcmp(h->m.root, "/") == 0 ? 1 : strlen(h->m.root);

	while (n < max) {
		ends[n++] = len;
		if (len <= top || len <= 1)
			break;
		while (len > 1 && path[len - 1] != '/')
			len--;
		if (len > 1)
			len--; /* "/a/b" -> "/a"; "/a" -> "/" */
	}
	return n;
}

/* One directory as read: its owner and inode, or the error. */
struct level {
	int rc;
	uint32_t owner;
	uint64_t ino;
};

uint32_t cgowner_of(struct cgowner *c, struct kernel *k, const struct cgroup_hier *h, const char *path)
{
	char buf[CGROUP_PATH_MAX];
	size_t ends[CGROUP_PATH_MAX / 2 + 1], n, i;
	struct level lv[CGROUP_PATH_MAX / 2 + 1];
	uint32_t outer = CGOWNER_NONE;
	int sure = 1; /* outer rests on directories read: what follows from it may be kept */

	if (!path || h->layout == CGROUP_NONE)
		return CGOWNER_NONE;
	cgpath_normalize(path, buf, sizeof(buf));
	n = levels(h, buf, ends, sizeof(ends) / sizeof(ends[0]));
	/* up from the cgroup, until a directory kept is as it was */
	for (i = 0; i < n; i++) {
		char save = buf[ends[i]];
		int found;
		size_t at;

		buf[ends[i]] = '\0';
		lv[i].rc = k->ops->cgroup_owner(k, h, buf, &lv[i].owner, &lv[i].ino);
		at = find(c, buf, &found);
		buf[ends[i]] = save;
		if (lv[i].rc == 0 && found && c->e[at].ino == lv[i].ino && c->e[at].owner == lv[i].owner &&
		    c->gen - c->e[at].read <= CGOWNER_FRESH) {
			c->e[at].used = c->gen;
			outer = c->e[at].deleg;
			break;
		}
	}
	/* down again from there: each directory read is delegated as its parent is, or to its owner */
	while (i-- > 0) {
		char save = buf[ends[i]];

		buf[ends[i]] = '\0';
		if (lv[i].rc == 0) {
			outer = cgowner_below(outer, lv[i].owner);
			if (sure)
				keep(c, buf, lv[i].ino, lv[i].owner, outer);
		} else {
			/* gone (removed while read): below a delegated directory still there it was the
			 * delegate's; else who made it is not known */
			forget(c, buf);
			if (outer == CGOWNER_NONE)
				sure = 0;
		}
		buf[ends[i]] = save;
	}
	return outer;
}

void cgowner_retire(struct cgowner *c, uint32_t keep_gens)
{
	size_t kept = 0;

	c->gen++;
	for (size_t i = 0; i < c->n; i++) {
		if (c->gen - c->e[i].used > keep_gens) {
			free(c->e[i].path);
			continue;
		}
		c->e[kept++] = c->e[i]; /* the order, so the search, stays */
	}
	c->n = kept;
}
