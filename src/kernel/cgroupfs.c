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

void cgroupfs_detect(struct cgroup_hier *h)
{
	struct cgroup_mount *m = xmalloc(CGROUP_MOUNTS_MAX * sizeof(*m));
	char *text = xmalloc(1 << 20);
	int n = 0;

	if (procfs_read("/proc/self/mountinfo", text, 1 << 20) >= 0)
		n = cghier_parse_mountinfo(text, m, CGROUP_MOUNTS_MAX);
	cghier_choose(m, n, h);
	free(text);
	free(m);
}

int cgroupfs_task_path(uint32_t pid, const struct cgroup_hier *h, char *buf, size_t size)
{
	char path[64], text[4096];

	snprintf(path, sizeof(path), "/proc/%u/cgroup", pid);
	if (procfs_read(path, text, sizeof(text)) < 0)
		return -1;
	return cghier_parse_task(text, h, buf, size);
}

int cgroupfs_exists(const struct cgroup_hier *h, const char *path)
{
	char dir[CGROUP_PATH_MAX + 64];
	struct stat st;

	if (cghier_dir(h, path, dir, sizeof(dir)) < 0)
		return -ENOENT;
	if (stat(dir, &st) < 0)
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

int cgroupfs_owner(const struct cgroup_hier *h, const char *path, uint32_t *uid, uint64_t *ino)
{
	char dir[CGROUP_PATH_MAX + 64];
	struct stat st;

	if (cghier_dir(h, path, dir, sizeof(dir)) < 0)
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

	if (cghier_dir(h, path, dir, sizeof(dir)) < 0 || !(dp = opendir(dir)))
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
	if (cghier_dir(h, path, dir, sizeof(dir)) == 0)
		psifile_read(dir, ".pressure", 0, when_ns, out);
}

int cgroupfs_states(struct ts_client *ts, const struct cgroup_hier *h, const char *path, uint64_t out[CG_STATES])
{
	char dir[CGROUP_PATH_MAX + 64];
	int fd, rc;

	if (h->layout == CGROUP_NONE || h->m.v2)
		return -EINVAL;
	if (cghier_dir(h, path, dir, sizeof(dir)) < 0)
		return -ENOENT;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = ts_cgroupstats(ts, fd, out);
	close(fd);
	return rc;
}
