/* procfs.c — the /proc readers. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <libproc2/pids.h>
#include <linux/magic.h>

#include "format.h"
#include "i18n.h"
#include "procfs.h"
#include "timing.h"
#include "xalloc.h"

/* libproc2 selects at most this many pids per call. */
#define SELECT_MAX 255

enum describe_item { D_PID, D_CMDLINE, D_CMD };
/* PIDS_CMD is unused here but libproc2 builds a kernel thread's "[comm]" command line from it. */
static enum pids_item describe_items[] = { PIDS_ID_PID, PIDS_CMDLINE, PIDS_CMD };

struct procfs {
	struct pids_info *describe;
	struct proc_entry *entries;
	size_t cap;
};

/* Whether /proc is procfs (statfs magic): an empty directory there reads as no tasks at all. */
int procfs_mounted(char *err, size_t errlen)
{
	struct statfs sf;

	if (statfs("/proc", &sf) < 0) {
		snprintf(err, errlen, F_(N_("cannot read /proc: %s")), strerror(errno));
		return -errno;
	}
	if (sf.f_type != PROC_SUPER_MAGIC) {
		snprintf(err, errlen, "%s", _("/proc is not mounted: delaytop needs it to find the tasks"));
		return -ENOENT;
	}
	return 0;
}

int procfs_open(struct procfs **out, char *err, size_t errlen)
{
	struct procfs *p;
	int rc = procfs_mounted(err, errlen);

	if (rc < 0)
		return rc;
	p = xcalloc(1, sizeof(*p));
	rc = procps_pids_new(&p->describe, describe_items,
			     (int)(sizeof(describe_items) / sizeof(describe_items[0])));
	if (rc < 0) {
		snprintf(err, errlen, F_(N_("cannot read /proc through libproc2: %s")), strerror(-rc));
		procfs_close(p);
		return rc;
	}
	*out = p;
	return 0;
}

void procfs_close(struct procfs *p)
{
	if (!p)
		return;
	if (p->describe)
		procps_pids_unref(&p->describe);
	free(p->entries);
	free(p);
}

static const char *stat_fields(const char *buf);
static const char *stat_field(const char *f, int n);
static void get_comm(const char *buf, const char *fields, char *comm, size_t size);

/* Reads a small /proc file and its owner; returns its length or a negative errno. */
static ssize_t read_file_owner(const char *path, char *buf, size_t size, uid_t *owner)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	ssize_t len;

	if (fd < 0)
		return -errno;
	len = read(fd, buf, size - 1);
	if (len >= 0 && fstat(fd, &st) == 0)
		*owner = st.st_uid;
	else
		len = -1;
	close(fd);
	if (len < 0)
		return -EIO;
	buf[len] = '\0';
	return len;
}

/* Fills e from the main thread's stat file, which belongs to the process's effective user (root
 * for a process that is not dumpable, as /proc/PID does). */
int procfs_read_process(uint32_t pid, struct proc_entry *e)
{
	char path[64], buf[1024];
	struct proc_stat st;
	uid_t owner = 0;

	snprintf(path, sizeof(path), "/proc/%u/task/%u/stat", pid, pid);
	if (read_file_owner(path, buf, sizeof(buf), &owner) < 0 || procfs_parse_stat(buf, &st) < 0)
		return -1;
	e->pid = pid;
	e->ppid = (uint32_t)st.ppid;
	e->state = st.state;
	e->nlwp = st.nlwp;
	e->nice = st.nice;
	e->start_ticks = st.start_ticks;
	e->euid = owner;
	snprintf(e->comm, sizeof(e->comm), "%s", st.comm);
	return 0;
}

/* The number a /proc directory is named by, or 0 when the name is not a number. */
static uint32_t parse_id(const char *name)
{
	uint64_t v = 0;

	if (*name < '1' || *name > '9')
		return 0;
	for (; *name; name++) {
		if (*name < '0' || *name > '9' || v > UINT32_MAX / 10)
			return 0;
		v = v * 10 + (uint64_t)(*name - '0');
	}
	return v <= UINT32_MAX ? (uint32_t)v : 0;
}

/* Appends the numbered entries of a /proc directory to *out; returns 0 or a negative errno. */
static int list_ids(const char *dir, uint32_t **out, size_t *n, size_t *cap)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return -errno;
	while ((e = readdir(d)) != NULL) {
		uint32_t id = parse_id(e->d_name);

		if (!id)
			continue;
		*out = xgrow(*out, cap, *n + 1, sizeof(**out));
		(*out)[(*n)++] = id;
	}
	closedir(d);
	return 0;
}

int procfs_list(const uint32_t *pids, size_t npids, uint32_t **out, size_t *n, size_t *cap)
{
	if (!npids)
		return list_ids("/proc", out, n, cap);
	*out = xgrow(*out, cap, *n + npids, sizeof(**out));
	memcpy(*out + *n, pids, npids * sizeof(*pids));
	*n += npids;
	return 0;
}

int procfs_walk(struct procfs *p, const uint32_t *pids, size_t npids, struct proc_entry **out, size_t *n)
{
	uint32_t *list = NULL;
	size_t nlist = 0, cap = 0;
	int rc = procfs_list(pids, npids, &list, &nlist, &cap);

	*n = 0;
	if (rc == 0) {
		p->entries = xgrow(p->entries, &p->cap, nlist + 1, sizeof(*p->entries));
		for (size_t i = 0; i < nlist; i++)
			if (procfs_read_process(list[i], &p->entries[*n]) == 0)
				(*n)++;
	}
	free(list);
	*out = p->entries;
	return rc;
}

void procfs_describe(struct procfs *p, const uint32_t *pids, size_t n,
		     void (*fn)(void *arg, uint32_t pid, const char *cmdline), void *arg)
{
	for (size_t i = 0; i < n; i += SELECT_MAX) {
		int chunk = (int)(n - i < SELECT_MAX ? n - i : SELECT_MAX);
		struct pids_fetch *f = procps_pids_select(p->describe, (unsigned *)(pids + i), chunk, PIDS_SELECT_PID);

		if (!f)
			continue;
		for (int k = 0; k < f->counts->total; k++) {
			struct pids_stack *s = f->stacks[k];

			fn(arg, (uint32_t)PIDS_VAL(D_PID, s_int, s, p->describe), PIDS_VAL(D_CMDLINE, str, s, p->describe));
		}
	}
}

uint32_t procfs_tgid(uint32_t id)
{
	char path[64], buf[1024];
	const char *t;
	unsigned tgid;

	snprintf(path, sizeof(path), "/proc/%u/status", id);
	if (procfs_read(path, buf, sizeof(buf)) < 0 || !(t = strstr(buf, "\nTgid:")) ||
	    sscanf(t + 6, "%u", &tgid) != 1)
		return 0;
	return tgid;
}

size_t procfs_threads(uint32_t pid, uint32_t **tids, size_t *n, size_t *cap)
{
	char path[64];
	size_t before = *n;

	snprintf(path, sizeof(path), "/proc/%u/task", pid);
	list_ids(path, tids, n, cap);
	return *n - before;
}

/* Reads a file at path under dirfd (AT_FDCWD: as it stands) into buf, NUL-terminated. */
static ssize_t read_at(int dirfd, const char *path, char *buf, size_t size)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	ssize_t len;

	if (fd < 0)
		return -errno;
	len = read(fd, buf, size - 1);
	close(fd);
	if (len < 0)
		return -errno;
	buf[len] = '\0';
	return len;
}

ssize_t procfs_read(const char *path, char *buf, size_t size)
{
	return read_at(AT_FDCWD, path, buf, size);
}

/* The fields after "pid (comm)" in a stat line: the comm may hold spaces and parentheses. */
static const char *stat_fields(const char *buf)
{
	const char *p = strrchr(buf, ')');

	return p && p[1] == ' ' ? p + 2 : NULL;
}

/* Copies the comm between the first '(' and the ')' that precedes the fields. */
static void get_comm(const char *buf, const char *fields, char *comm, size_t size)
{
	const char *open = strchr(buf, '(');
	size_t len;

	if (!open || fields < open + 3) {
		comm[0] = '\0';
		return;
	}
	len = (size_t)(fields - 2 - (open + 1));
	if (len >= size)
		len = size - 1;
	memcpy(comm, open + 1, len);
	comm[len] = '\0';
}

int procfs_open_tasks(uint32_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%u/task", pid);
	return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

char procfs_thread_state_at(int dirfd, uint32_t tid)
{
	char name[32], buf[1024];
	const char *f;

	snprintf(name, sizeof(name), "%u/stat", tid);
	if (read_at(dirfd, name, buf, sizeof(buf)) < 0 || !(f = stat_fields(buf)))
		return 0;
	return f[0];
}

char procfs_thread_state(uint32_t pid, uint32_t tid)
{
	char path[64], buf[1024];
	const char *f;

	snprintf(path, sizeof(path), "/proc/%u/task/%u/stat", pid, tid);
	if (procfs_read(path, buf, sizeof(buf)) < 0 || !(f = stat_fields(buf)))
		return 0;
	return f[0];
}

/* Field n (1-based, as in proc(5)) of a stat line, counted from field 3 at f. */
static const char *stat_field(const char *f, int n)
{
	for (int i = 3; i < n && f; i++) {
		f = strchr(f, ' ');
		if (f)
			f++;
	}
	return f;
}

int procfs_parse_stat(const char *text, struct proc_stat *st)
{
	const char *f = stat_fields(text), *f14, *f19, *f20, *f22, *f42;

	memset(st, 0, sizeof(*st));
	if (!f || !f[0]) /* the parent is read after the state */
		return -EINVAL;
	f14 = stat_field(f, 14);
	f19 = stat_field(f, 19);
	f20 = stat_field(f, 20);
	f22 = stat_field(f, 22);
	f42 = stat_field(f, 42);
	if (sscanf(f + 1, " %d", &st->ppid) != 1 || !f19 || sscanf(f19, "%d", &st->nice) != 1 || !f20 ||
	    !f22 || sscanf(f20, "%d", &st->nlwp) != 1 || sscanf(f22, "%llu", &st->start_ticks) != 1)
		return -EINVAL;
	st->state = f[0];
	st->have_times = f14 && sscanf(f14, "%llu %llu", &st->utime, &st->stime) == 2;
	st->have_blkio = f42 && sscanf(f42, "%llu", &st->blkio) == 1;
	get_comm(text, f, st->comm, sizeof(st->comm));
	return 0;
}

static uint64_t ticks_to_us(unsigned long long ticks)
{
	return ticks * (1000000ull / (unsigned long long)timing_hz());
}

/* User and system CPU time of a stat line, when it has them, into c. */
static void stat_times(const struct proc_stat *st, struct task_counters *c)
{
	if (!st->have_times)
		return;
	c->utime_us = ticks_to_us(st->utime);
	c->stime_us = ticks_to_us(st->stime);
	c->have |= HAVE_CPUTIME;
}

/* The number after "name" at the start of a line of text; returns 0 when there is one. */
static int line_value(const char *text, const char *name, uint64_t *v)
{
	size_t len = strlen(name);
	unsigned long long n;

	for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		if (strncmp(line, name, len) == 0 && sscanf(line + len, "%llu", &n) == 1) {
			*v = n;
			return 0;
		}
	return -EINVAL;
}

int procfs_parse_io(const char *text, struct task_counters *c)
{
	static const struct {
		const char *name;
		size_t at;
	} fields[] = {
		{ "rchar:", offsetof(struct task_counters, read_char) },
		{ "wchar:", offsetof(struct task_counters, write_char) },
		{ "syscr:", offsetof(struct task_counters, read_syscalls) },
		{ "syscw:", offsetof(struct task_counters, write_syscalls) },
		{ "read_bytes:", offsetof(struct task_counters, read_bytes) },
		{ "write_bytes:", offsetof(struct task_counters, write_bytes) },
		{ "cancelled_write_bytes:", offsetof(struct task_counters, cancelled_write_bytes) },
	};
	uint64_t v[7];

	for (size_t i = 0; i < 7; i++)
		if (line_value(text, fields[i].name, &v[i]) < 0)
			return -EINVAL;
	for (size_t i = 0; i < 7; i++)
		memcpy((char *)c + fields[i].at, &v[i], sizeof(v[i]));
	c->have |= HAVE_IO_BYTES | HAVE_IO_CHARS;
	return 0;
}

int procfs_parse_memory(const char *text, struct task_counters *c)
{
	uint64_t rss, vm;

	if (line_value(text, "VmHWM:", &rss) < 0 || line_value(text, "VmPeak:", &vm) < 0)
		return -EINVAL;
	c->hiwater_rss_kb = rss;
	c->hiwater_vm_kb = vm;
	c->have |= HAVE_MEM;
	return 0;
}

int procfs_thread_io(uint32_t pid, uint32_t tid, struct task_counters *c)
{
	char path[64], buf[1024];
	ssize_t rc;

	snprintf(path, sizeof(path), "/proc/%u/task/%u/io", pid, tid);
	rc = procfs_read(path, buf, sizeof(buf));
	if (rc < 0)
		return (int)rc;
	return procfs_parse_io(buf, c);
}

void procfs_process_acct(uint32_t pid, struct task_counters *c)
{
	char path[64], buf[4096];
	struct proc_stat st;

	c->have &= ~(uint32_t)HAVE_THREAD_ONLY;
	snprintf(path, sizeof(path), "/proc/%u/io", pid);
	if (procfs_read(path, buf, sizeof(buf)) >= 0)
		procfs_parse_io(buf, c);
	snprintf(path, sizeof(path), "/proc/%u/stat", pid);
	if (procfs_read(path, buf, sizeof(buf)) >= 0 && procfs_parse_stat(buf, &st) == 0)
		stat_times(&st, c);
	snprintf(path, sizeof(path), "/proc/%u/status", pid);
	if (procfs_read(path, buf, sizeof(buf)) >= 0)
		procfs_parse_memory(buf, c);
}

int procfs_thread_counters(uint32_t pid, uint32_t tid, struct task_counters *c, char *state,
			   uint64_t *start_ticks)
{
	char path[64], buf[1024];
	unsigned long long run, wait, slices;
	struct proc_stat st;

	memset(c, 0, sizeof(*c));
	snprintf(path, sizeof(path), "/proc/%u/task/%u/schedstat", pid, tid);
	if (procfs_read(path, buf, sizeof(buf)) < 0 || sscanf(buf, "%llu %llu %llu", &run, &wait, &slices) != 3)
		return -ESRCH;
	snprintf(path, sizeof(path), "/proc/%u/task/%u/stat", pid, tid);
	if (procfs_read(path, buf, sizeof(buf)) < 0 || procfs_parse_stat(buf, &st) < 0 || !st.have_blkio)
		return -ESRCH;
	*state = st.state;
	*start_ticks = st.start_ticks;
	memcpy(c->comm, st.comm, sizeof(c->comm) - 1); /* truncated as the kernel's comm is */
	c->comm[sizeof(c->comm) - 1] = '\0';
	c->delay[DK_CPU].total_ns = wait;
	c->delay[DK_CPU].count = slices;
	c->delay[DK_IO].total_ns = st.blkio * (1000000000ull / (unsigned long long)timing_hz());
	c->kind_total = (kind_mask)(1u << DK_CPU | 1u << DK_IO);
	c->kind_count = (kind_mask)(1u << DK_CPU);
	c->run_virtual_ns = c->run_real_ns = run;
	c->have = HAVE_RUN | HAVE_COMM;
	stat_times(&st, c);
	c->pid = tid;
	c->tgid = pid;
	return 0;
}

