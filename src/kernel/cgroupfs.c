/* cgroupfs.c — the cgroup hierarchies. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroupfs.h"
#include "procfs.h"
#include "psifile.h"
#include "xalloc.h"

/* Copies a mountinfo field of len bytes, undoing its octal escapes, into buf. */
static void unescape(const char *s, size_t len, char *buf, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i < len && o + 1 < size; i++) {
		if (s[i] == '\\' && i + 3 < len && s[i + 1] >= '0' && s[i + 1] <= '3' && s[i + 2] >= '0' &&
		    s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
			buf[o++] = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
			i += 3;
		} else {
			buf[o++] = s[i];
		}
	}
	buf[o] = '\0';
}

/* The n-th space-separated field of a line (0-based) and its length; NULL when there is none. */
static const char *field(const char *line, const char *end, int n, size_t *len)
{
	const char *p = line;

	for (int i = 0; i < n; i++) {
		p = memchr(p, ' ', (size_t)(end - p));
		if (!p)
			return NULL;
		p++;
	}
	{
		const char *space = memchr(p, ' ', (size_t)(end - p));

		*len = (size_t)((space ? space : end) - p);
	}
	return p;
}

/* Parses one mountinfo line: "ID PARENT MAJ:MIN ROOT DIR OPTS [OPTIONAL...] - FSTYPE SOURCE SUPER". */
static int parse_mount(const char *line, const char *end, struct cgroup_mount *m)
{
	const char *sep = line, *root, *dir, *type, *super;
	size_t rootlen, dirlen, typelen, superlen;

	while ((sep = memchr(sep, '-', (size_t)(end - sep))) &&
	       !(sep > line && sep[-1] == ' ' && sep + 1 < end && sep[1] == ' '))
		sep++;
	if (!sep || !(root = field(line, end, 3, &rootlen)) || !(dir = field(line, end, 4, &dirlen)) ||
	    !(type = field(sep + 2, end, 0, &typelen)) || !(super = field(sep + 2, end, 2, &superlen)))
		return -1;
	if (typelen == 7 && memcmp(type, "cgroup2", 7) == 0)
		m->v2 = 1;
	else if (typelen == 6 && memcmp(type, "cgroup", 6) == 0)
		m->v2 = 0;
	else
		return -1;
	unescape(root, rootlen, m->root, sizeof(m->root));
	unescape(dir, dirlen, m->dir, sizeof(m->dir));
	unescape(super, superlen, m->opts, sizeof(m->opts));
	return 0;
}

int cgroupfs_parse_mountinfo(const char *text, struct cgroup_mount *out, int max)
{
	int n = 0;

	while (*text && n < max) {
		const char *end = strchr(text, '\n');

		if (!end)
			end = text + strlen(text);
		if (parse_mount(text, end, &out[n]) == 0)
			n++;
		text = *end ? end + 1 : end;
	}
	return n;
}

/* Whether a v1 mount's options name the controller or name= item. */
static int has_option(const struct cgroup_mount *m, const char *item, size_t len)
{
	const char *p = m->opts;

	while (*p) {
		size_t n = strcspn(p, ",");

		if (n == len && memcmp(p, item, len) == 0)
			return 1;
		p += n + (p[n] == ',');
	}
	return 0;
}

void cgroupfs_choose(const struct cgroup_mount *m, int n, struct cgroup_hier *h)
{
	int v1 = -1, systemd = -1, v2 = -1;

	memset(h, 0, sizeof(*h));
	for (int i = 0; i < n; i++) {
		if (m[i].v2 && v2 < 0)
			v2 = i;
		else if (!m[i].v2 && v1 < 0)
			v1 = i;
		if (!m[i].v2 && systemd < 0 && has_option(&m[i], "name=systemd", 12))
			systemd = i;
	}
	if (v2 >= 0) {
		h->layout = v1 >= 0 ? CGROUP_HYBRID : CGROUP_V2;
		h->m = m[v2];
	} else if (v1 >= 0) {
		h->layout = CGROUP_V1;
		h->m = m[systemd >= 0 ? systemd : v1];
	}
}

void cgroupfs_detect(struct cgroup_hier *h)
{
	struct cgroup_mount *m = xmalloc(CGROUP_MOUNTS_MAX * sizeof(*m));
	char *text = xmalloc(1 << 20);
	int n = 0;

	if (procfs_read("/proc/self/mountinfo", text, 1 << 20) >= 0)
		n = cgroupfs_parse_mountinfo(text, m, CGROUP_MOUNTS_MAX);
	cgroupfs_choose(m, n, h);
	free(text);
	free(m);
}

const char *cgroupfs_describe(const struct cgroup_hier *h, char *buf, size_t size)
{
	const char *what = h->m.opts;

	if (h->layout == CGROUP_NONE)
		snprintf(buf, size, "none");
	else if (h->m.v2)
		snprintf(buf, size, "cgroup v2");
	else {
		if (strncmp(what, "rw,", 3) == 0 || strncmp(what, "ro,", 3) == 0)
			what += 3;
		snprintf(buf, size, "cgroup v1 (%s)", what);
	}
	return buf;
}

/* Whether a /proc/PID/cgroup line's controller field (len bytes) is the chosen hierarchy's. */
static int line_is_chosen(const struct cgroup_hier *h, const char *ctl, size_t len)
{
	if (h->m.v2)
		return len == 0;
	if (len == 0)
		return 0;
	while (len) {
		size_t n = 0;

		while (n < len && ctl[n] != ',')
			n++;
		if (!has_option(&h->m, ctl, n))
			return 0;
		ctl += n + (n < len);
		len -= n + (n < len);
	}
	return 1;
}

int cgroupfs_parse_task(const char *text, const struct cgroup_hier *h, char *buf, size_t size)
{
	if (h->layout == CGROUP_NONE)
		return -1;
	while (*text) {
		const char *end = strchr(text, '\n'), *c1 = strchr(text, ':'), *c2;

		if (!end)
			end = text + strlen(text);
		c2 = c1 && c1 < end ? memchr(c1 + 1, ':', (size_t)(end - c1 - 1)) : NULL;
		if (c2 && line_is_chosen(h, c1 + 1, (size_t)(c2 - c1 - 1))) {
			char path[CGROUP_PATH_MAX];

			snprintf(path, sizeof(path), "%.*s", (int)(end - c2 - 1), c2 + 1);
			cgpath_normalize(path, buf, size);
			return 0;
		}
		text = *end ? end + 1 : end;
	}
	return -1;
}

int cgroupfs_task_path(uint32_t pid, const struct cgroup_hier *h, char *buf, size_t size)
{
	char path[64], text[4096];

	snprintf(path, sizeof(path), "/proc/%u/cgroup", pid);
	if (procfs_read(path, text, sizeof(text)) < 0)
		return -1;
	return cgroupfs_parse_task(text, h, buf, size);
}

int cgroupfs_dir(const struct cgroup_hier *h, const char *path, char *buf, size_t size)
{
	const char *rest;
	int n;

	if (h->layout == CGROUP_NONE || !cgpath_within(path, h->m.root))
		return -1;
	rest = path + (strcmp(h->m.root, "/") == 0 ? 0 : strlen(h->m.root));
	n = snprintf(buf, size, "%s%s", h->m.dir, strcmp(rest, "/") == 0 ? "" : rest);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

int cgroupfs_exists(const struct cgroup_hier *h, const char *path)
{
	char dir[CGROUP_PATH_MAX + 64];
	struct stat st;

	if (cgroupfs_dir(h, path, dir, sizeof(dir)) < 0)
		return -ENOENT;
	if (stat(dir, &st) < 0)
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

int cgroupfs_owner(const struct cgroup_hier *h, const char *path, uint32_t *uid, uint64_t *ino)
{
	char dir[CGROUP_PATH_MAX + 64];
	struct stat st;

	if (cgroupfs_dir(h, path, dir, sizeof(dir)) < 0)
		return -ENOENT;
	if (stat(dir, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	*uid = (uint32_t)st.st_uid;
	*ino = (uint64_t)st.st_ino;
	return 0;
}

/* Walks the directory of path (its inode ino), depth first, calling fn for it and each cgroup
 * below. */
static void walk_dir(const struct cgroup_hier *h, char *path, uint64_t ino, size_t len, size_t size,
		     cgroupfs_walk_fn fn, void *arg)
{
	char dir[CGROUP_PATH_MAX + 64];
	struct dirent *d;
	DIR *dp;

	if (cgroupfs_dir(h, path, dir, sizeof(dir)) < 0 || !(dp = opendir(dir)))
		return; /* removed meanwhile */
	fn(arg, path, ino);
	while ((d = readdir(dp)) != NULL) {
		size_t n = strlen(d->d_name);

		if (d->d_type != DT_DIR || d->d_name[0] == '.' || len + 1 + n + 1 > size)
			continue;
		snprintf(path + len, size - len, "%s%s", len == 1 ? "" : "/", d->d_name);
		walk_dir(h, path, (uint64_t)d->d_ino, strlen(path), size, fn, arg);
		path[len] = '\0';
	}
	closedir(dp);
}

int cgroupfs_walk(const struct cgroup_hier *h, const char *path, cgroupfs_walk_fn fn, void *arg)
{
	char buf[CGROUP_PATH_MAX];
	uint32_t uid;
	uint64_t ino;
	int rc = cgroupfs_owner(h, path, &uid, &ino);

	if (rc < 0)
		return rc;
	cgpath_normalize(path, buf, sizeof(buf));
	walk_dir(h, buf, ino, strlen(buf), sizeof(buf), fn, arg);
	return 0;
}

void cgroupfs_pressure(const struct cgroup_hier *h, const char *path, uint64_t when_ns, struct psi_snapshot *out)
{
	char dir[CGROUP_PATH_MAX + 64];

	memset(out, 0, sizeof(*out));
	out->when_ns = when_ns;
	if (cgroupfs_dir(h, path, dir, sizeof(dir)) == 0)
		psifile_read(dir, ".pressure", 0, when_ns, out);
}

int cgroupfs_state_of(char letter)
{
	switch (letter) {
	case 'R': return CG_RUNNING;
	case 'S': return CG_SLEEPING;
	case 'D': return CG_UNINTERRUPTIBLE;
	case 'T': return CG_STOPPED;
	default: return -1;
	}
}

int cgroupfs_states(struct ts_client *ts, const struct cgroup_hier *h, const char *path, uint64_t out[CG_STATES])
{
	char dir[CGROUP_PATH_MAX + 64];
	int fd, rc;

	if (h->layout == CGROUP_NONE || h->m.v2)
		return -EINVAL;
	if (cgroupfs_dir(h, path, dir, sizeof(dir)) < 0)
		return -ENOENT;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = ts_cgroupstats(ts, fd, out);
	close(fd);
	return rc;
}
