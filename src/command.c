/* command.c — command mode.
 *
 * delaytop registers for exit records first, makes itself the subreaper of what it starts (so an
 * orphan's parent becomes delaytop, not init), then forks and execs the command. Every exit record
 * whose process descends from the command counts, however short it lived; processes still alive
 * when the command ends are counted as far as they got. The report goes to stderr, like time(1),
 * unless --output names a file; a regular file is written as a temporary file beside it and
 * renamed when complete, so that a failed write leaves no truncated report behind. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "command.h"
#include "delayacct.h"
#include "delaykind.h"
#include "family.h"
#include "format.h"
#include "i18n.h"
#include "procfs.h"
#include "report.h"
#include "taskstats.h"
#include "timing.h"
#include "xalloc.h"

struct run {
	unsigned kinds;  /* the delay kinds the kernel accounts now (bits of 1 << DK_*) */
	struct procfs *procfs;
	struct family *family;
	struct report report;
	uint64_t lost;
	uint32_t *tids; /* scratch for the survivors */
	size_t ntids, captids;
};

static void to_exit_task(const struct ts_record *rec, unsigned kinds, struct exit_task *t)
{
	const struct task_counters *c = &rec->c;

	memset(t, 0, sizeof(*t));
	t->tid = rec->id;
	t->tgid = (c->have & HAVE_TGID) ? c->tgid : rec->id;
	t->ppid = c->ppid;
	t->start_s = c->btime;
	t->group_dead = (c->flag & TS_AGROUP) != 0;
	str_copy(t->comm, sizeof(t->comm), (c->have & HAVE_COMM) ? c->comm : "?");
	for (int k = 0; k < DK_COUNT; k++) {
		t->total_ns[k] = c->delay[k].total_ns;
		t->count[k] = c->delay[k].count;
		t->max_ns[k] = c->delay[k].max_ns;
	}
	t->kinds = c->kind_total & kinds;
	t->kinds_count = c->kind_count & kinds;
	t->kinds_max = c->kind_max & kinds;
	t->run_ns = c->run_virtual_ns;
}

static uint64_t now_s(void)
{
	return (uint64_t)time(NULL);
}

static int64_t parent_of(void *arg, uint32_t pid)
{
	char path[64], buf[512];
	FILE *f;
	const char *p;
	long ppid;
	int ok;

	(void)arg;
	snprintf(path, sizeof(path), "/proc/%u/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	p = ok ? strrchr(buf, ')') : NULL;
	if (!p || sscanf(p + 1, " %*c %ld", &ppid) != 1)
		return -1;
	return ppid;
}

static void on_member(void *arg, const struct exit_task *t)
{
	struct run *r = arg;

	report_add(&r->report, t, 0);
}

/* Only thread records count: a process aggregate repeats what its threads' records said. */
static void command_on_exit(void *arg, const struct ts_record *thread, const struct ts_record *process)
{
	struct run *r = arg;
	struct exit_task t;

	(void)process;
	if (!thread)
		return;
	to_exit_task(thread, r->kinds, &t);
	family_exit(r->family, &t, now_s());
}

static void on_survivor(void *arg, size_t index, const struct ts_record *rec, uint64_t when)
{
	struct run *r = arg;
	struct exit_task t;

	(void)index;
	(void)when;
	to_exit_task(rec, r->kinds, &t);
	report_add(&r->report, &t, 1);
}

/* Counts the processes that descend from the command and still run, as far as they got. */
static void count_survivors(struct run *r, struct ts_client *ts)
{
	struct proc_entry *e;
	size_t n;

	r->ntids = 0;
	if (procfs_walk(r->procfs, NULL, 0, &e, &n) == 0)
		for (size_t i = 0; i < n; i++)
			if (e[i].pid != (uint32_t)getpid() && family_includes(r->family, e[i].pid))
				procfs_threads(e[i].pid, &r->tids, &r->ntids, &r->captids);
	if (r->ntids)
		ts_query(ts, TS_BY_PID, r->tids, r->ntids, on_survivor, r);
}

/* Starts the command with the signal mask and standard descriptors delaytop was given: closed_fds
 * (bits 1 << fd) were closed, and main put /dev/null there only for delaytop's sake. */
static pid_t start(char **argv, const sigset_t *old_mask, unsigned closed_fds)
{
	pid_t pid = fork();
	char name[256];
	int e;

	if (pid != 0)
		return pid;
	for (int fd = 0; fd <= 2; fd++)
		if (closed_fds & 1u << fd)
			close(fd);
	sigprocmask(SIG_SETMASK, old_mask, NULL);
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	execvp(argv[0], argv);
	e = errno;
	text_clean(name, sizeof(name), argv[0]);
	fprintf(stderr, F_(N_("%s: cannot run '%s': %s\n")), PACKAGE, name, strerror(e));
	_exit(e == ENOENT ? 127 : 126);
}

/* A task forked while kernel.task_delayacct is 0 never gets the other delays: once the switch is
 * found off, the records read after count CPU delay only, as any of their tasks may be such. */
static void check_switch(struct run *r)
{
	if (delayacct_read() == DELAYACCT_OFF)
		r->kinds = 1u << DK_CPU;
}

/* Waits for the command, reading exit records as they come and reaping adopted orphans. sigfd
 * reads SIGCHLD, so that the end of the command is seen at once, and SIGTERM and SIGHUP, which are
 * passed on to the command: delaytop stays to write the report when it ends. */
static int follow(struct run *r, struct ts_listener *l, pid_t child, int sigfd)
{
	int status = 0, done = 0;

	while (!done) {
		struct pollfd pfd[2] = { { ts_listen_fd(l), POLLIN, 0 }, { sigfd, POLLIN, 0 } };
		struct signalfd_siginfo si;
		pid_t pid;
		int st;

		poll(pfd, 2, 1000);
		if (pfd[1].revents & POLLIN)
			while (read(sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
				if (si.ssi_signo != SIGCHLD)
					kill(child, (int)si.ssi_signo);
		check_switch(r);
		ts_listen_drain(l, command_on_exit, r, &r->lost);
		while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
			if (pid == child) {
				status = st;
				done = 1;
			}
		if (pid < 0 && errno == ECHILD && !done)
			done = 1; /* cannot happen while the child lives */
	}
	/* the records of the last exits are queued before the parent hears of them */
	check_switch(r);
	ts_listen_drain(l, command_on_exit, r, &r->lost);
	return status;
}

/* Where the report goes. A regular file (or a new one) is written as tmp, a hidden file in the same
 * directory, created before the command runs and renamed over the file when the report is
 * complete; a symbolic link is followed, so that the file it points to is replaced. /dev/stdout,
 * /dev/stderr and /dev/fd/N name a descriptor delaytop was given: the report goes to it, after
 * what the command wrote there. A device or a FIFO is written directly. */
struct output {
	FILE *f;
	const char *path; /* as given; NULL: stderr */
	char *target;     /* the file tmp replaces: path with symbolic links resolved */
	char *tmp;
};

/* The descriptor that a name such as /dev/stdout or /dev/fd/3 stands for, or -1. */
static int fd_alias(const char *path)
{
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/" };

	if (strcmp(path, "/dev/stdout") == 0)
		return STDOUT_FILENO;
	if (strcmp(path, "/dev/stderr") == 0)
		return STDERR_FILENO;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t len = strlen(dirs[i]);

		const char *num = path + len;

		if (strncmp(path, dirs[i], len) == 0 && *num && strspn(num, "0123456789") == strlen(num) &&
		    strlen(num) < 6)
			return atoi(num);
	}
	return -1;
}

/* The new file gets the mode (and, where allowed, the owner) of the file it replaces, or
 * 0666 less the umask, as fopen() would create it. */
static void set_mode(int fd, const struct stat *old)
{
	mode_t mask;

	if (old) {
		if (fchown(fd, old->st_uid, old->st_gid) < 0) {
			/* not allowed: the file becomes the caller's, as a new one would */
		}
		fchmod(fd, old->st_mode & 07777);
		return;
	}
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
}

/* Creates the temporary file beside out->target; returns the stream or NULL with errno set. A
 * file one may not write is not replaced either, as fopen() would not truncate it. */
static FILE *open_tmp(struct output *out)
{
	const char *slash = strrchr(out->target, '/');
	size_t dirlen = slash ? (size_t)(slash + 1 - out->target) : 0;
	size_t size = strlen(out->target) + sizeof(".XXXXXX") + 1;
	struct stat st;
	int exists = stat(out->target, &st) == 0, fd, e;
	FILE *f;

	if (exists && faccessat(AT_FDCWD, out->target, W_OK, AT_EACCESS) < 0)
		return NULL;
	out->tmp = xmalloc(size);
	snprintf(out->tmp, size, "%.*s.%s.XXXXXX", (int)dirlen, out->target, out->target + dirlen);
	fd = mkostemp(out->tmp, O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		free(out->tmp);
		out->tmp = NULL;
		errno = e;
		return NULL;
	}
	set_mode(fd, exists ? &st : NULL);
	f = fdopen(fd, "w");
	if (!f) {
		e = errno;
		unlink(out->tmp);
		close(fd);
		free(out->tmp);
		out->tmp = NULL;
		errno = e;
	}
	return f;
}

/* Opens the report's destination before the command runs; returns 0, or -1 after printing why. */
static int open_output(const struct options *o, unsigned closed_fds, struct output *out)
{
	struct stat st;
	int fd;

	memset(out, 0, sizeof(*out));
	if (!o->output) {
		if (closed_fds & 1u << STDERR_FILENO) {
			fprintf(stderr, "%s: %s\n", PACKAGE,
				_("standard error is closed: the report has nowhere to go (use -o FILE)"));
			return -1;
		}
		out->f = stderr;
		return 0;
	}
	out->path = o->output;
	fd = fd_alias(o->output);
	if (fd >= 0) {
		errno = EBADF;
		if (!(fd <= 2 && (closed_fds & 1u << fd)) && (fd = fcntl(fd, F_DUPFD_CLOEXEC, 3)) >= 0 &&
		    !(out->f = fdopen(fd, "w")))
			close(fd);
	} else if (!o->output[0]) {
		errno = ENOENT;
	} else if (stat(o->output, &st) == 0 && !S_ISREG(st.st_mode)) {
		out->f = fopen(o->output, "we");
	} else if (lstat(o->output, &st) == 0 && S_ISLNK(st.st_mode) &&
		   !(out->target = realpath(o->output, NULL))) {
		out->f = fopen(o->output, "we"); /* a link to a file yet to be made */
	} else {
		if (!out->target)
			out->target = xstrdup(o->output);
		out->f = open_tmp(out);
	}
	if (!out->f) {
		char name[256];
		int e = errno;

		text_clean(name, sizeof(name), o->output);
		fprintf(stderr, F_(N_("%s: cannot write '%s': %s\n")), PACKAGE, name, strerror(e));
		free(out->target);
		out->target = NULL;
		return -1;
	}
	return 0;
}

/* Completes the report: closes the file and renames the temporary file into place, or, when
 * written is 0 (the report is incomplete), removes it. Returns 0, or -1 with errno set. */
static int close_output(struct output *out, int written)
{
	int rc = written ? 0 : -1, e = 0;

	if (out->f && out->f != stderr) {
		if (written && out->tmp && fsync(fileno(out->f)) < 0 && errno != EINVAL) {
			rc = -1;
			e = errno;
		}
		if (fclose(out->f) != 0 && rc == 0) {
			rc = -1;
			e = errno;
		}
	}
	out->f = NULL;
	if (out->tmp) {
		if (rc == 0 && rename(out->tmp, out->target) < 0) {
			rc = -1;
			e = errno;
		}
		if (rc < 0)
			unlink(out->tmp);
		free(out->tmp);
		out->tmp = NULL;
	}
	free(out->target);
	out->target = NULL;
	if (e)
		errno = e;
	return rc;
}

/* Prints the report and completes the output. The command has run, so a report that could not
 * be written ends delaytop with EXIT_CANNOT_FOLLOW, not with the command's status, and the
 * message gives that status. A reader that went away (EPIPE) is not an error. */
static int write_report(struct run *r, const struct options *o, struct output *out, int status)
{
	int written = report_print(&r->report, o->format, out->f) == 0;
	int e = errno;

	if (close_output(out, written) == 0 || (!written && e == EPIPE))
		return status;
	if (!written)
		errno = e;
	if (out->path) {
		char name[256];

		e = errno;
		text_clean(name, sizeof(name), out->path);
		fprintf(stderr,
			F_(N_("%s: cannot write the report to '%s': %s; the command ran and exited with status %d\n")),
			PACKAGE, name, strerror(e), status);
	} else
		fprintf(stderr,
			F_(N_("%s: cannot write the report to standard error: %s; "
			  "the command ran and exited with status %d\n")),
			PACKAGE, strerror(errno), status);
	return EXIT_CANNOT_FOLLOW;
}

int command_run(const struct options *o, int delayacct_off, unsigned closed_fds)
{
	struct ts_listener *l = NULL;
	struct ts_client *ts = NULL;
	struct run r;
	char err[512];
	uint64_t t0;
	pid_t child;
	struct output out;
	sigset_t chld, old_mask; /* chld: the signals read through sigfd */
	int rc, sigfd;

	memset(&r, 0, sizeof(r));
	/* with kernel.task_delayacct at 0 the kernel sends zeros for all but CPU delay: unavailable */
	r.kinds = delayacct_off ? 1u << DK_CPU : ~0u;
	if (ts_listen(&l, o->exit_buffer, err, sizeof(err)) < 0 || ts_open(&ts, err, sizeof(err)) < 0) {
		fprintf(stderr, F_(N_("%s: command mode needs the kernel's exit records: %s\n")), PACKAGE, err);
		ts_listen_close(l);
		return EXIT_CANNOT_FOLLOW;
	}
	if (procfs_open(&r.procfs, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", PACKAGE, err);
		ts_listen_close(l);
		ts_close(ts);
		return EXIT_CANNOT_FOLLOW;
	}
	if (open_output(o, closed_fds, &out) < 0) {
		procfs_close(r.procfs);
		ts_listen_close(l);
		ts_close(ts);
		return EXIT_CANNOT_FOLLOW;
	}
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	/* like time(1): Ctrl-C is for the command; delaytop stays to report */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigaddset(&chld, SIGTERM);
	sigaddset(&chld, SIGHUP);
	sigprocmask(SIG_BLOCK, &chld, &old_mask);
	sigfd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC);
	report_init(&r.report, o->command);
	t0 = timing_mono_ns();
	child = start(o->command, &old_mask, closed_fds);
	if (child < 0) {
		fprintf(stderr, F_(N_("%s: cannot start the command: %s\n")), PACKAGE, strerror(errno));
		close_output(&out, 0);
		rc = EXIT_CANNOT_FOLLOW;
		goto out;
	}
	r.family = family_new((uint32_t)child, (uint32_t)getpid(), now_s(), parent_of, on_member, &r);
	r.report.wait_status = follow(&r, l, child, sigfd);
	r.report.wall_s = (timing_mono_ns() - t0) / 1e9;
	count_survivors(&r, ts);
	r.report.lost = r.lost;
	r.report.undecided = family_undecided(r.family);
	rc = write_report(&r, o, &out, report_exit_status(&r.report));
out:
	if (sigfd >= 0)
		close(sigfd);
	procfs_close(r.procfs);
	family_free(r.family);
	report_free(&r.report);
	free(r.tids);
	ts_listen_close(l);
	ts_close(ts);
	return rc;
}
