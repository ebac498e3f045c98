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
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acctswitch.h"
#include "command.h"
#include "delaykind.h"
#include "family.h"
#include "follow.h"
#include "format.h"
#include "i18n.h"
#include "report.h"
#include "reportfile.h"
#include "sampler.h"
#include "stackrun.h"
#include "timing.h"
#include "xalloc.h"

/* How often the command's processes are looked at to learn their cgroups. */
#define CGROUP_SCAN_NS 250000000ull

/* The cgroups of the command's processes, as seen alive: tgid -> index + 1 into paths, each path
 * kept once for the whole run. A process seen only in its exit record was in its parent's
 * cgroup, where a fork puts a child (unless it moved before the next look). */
struct run_cgroups {
	struct cgroup_hier hier;
	struct idmap of;
	char **paths;
	size_t npaths, cap;
	const char *start; /* delaytop's own cgroup: the command's when it starts */
	uint64_t next_scan;
};

struct run {
	kind_mask kinds; /* the delay kinds the kernel accounts now (bits of 1 << DK_*) */
	char retried[16]; /* the comm of posix_spawn's first child when its exec failed (ENOEXEC) and
			     a second ran the file through /bin/sh; "" once its record was passed */
	struct family *family;
	struct report report;
	uint64_t lost;
	struct run_cgroups cg;
	struct stackrun *stacks; /* --why: the processes' off-CPU stacks, or NULL */
	uint32_t *ids;           /* the processes seen alive at the last scan */
	size_t nids, capids;
};

/* The path, kept once for the run. */
static const char *intern(struct run_cgroups *c, const char *path, size_t *index)
{
	size_t i = 0;

	while (i < c->npaths && strcmp(c->paths[i], path) != 0)
		i++;
	if (i == c->npaths) {
		c->paths = xgrow(c->paths, &c->cap, c->npaths + 1, sizeof(*c->paths));
		c->paths[c->npaths++] = xstrdup(path);
	}
	*index = i;
	return c->paths[i];
}

static void remember_cgroup(void *arg, uint32_t pid, const char *path)
{
	struct run_cgroups *c = arg;
	size_t i;

	intern(c, path, &i);
	idmap_put(&c->of, pid, (void *)(uintptr_t)(i + 1));
}

/* The cgroup of a process: as last seen, else its parent's, else the command's at its start. */
static const char *cgroup_of(const struct run_cgroups *c, uint32_t tgid, uint32_t ppid)
{
	uintptr_t i = (uintptr_t)idmap_get(&c->of, tgid);

	if (!i)
		i = (uintptr_t)idmap_get(&c->of, ppid);
	return i ? c->paths[i - 1] : c->start;
}

/* The hierarchy, and delaytop's own cgroup, which the command inherits. */
static void start_cgroups(struct run_cgroups *c)
{
	char path[CGROUP_PATH_MAX];
	size_t i;

	idmap_init(&c->of);
	if (follow_own_cgroup(&c->hier, path, sizeof(path)) == 0)
		c->start = intern(c, path, &i);
}

static void run_cgroups_free(struct run_cgroups *c)
{
	for (size_t i = 0; i < c->npaths; i++)
		free(c->paths[i]);
	free(c->paths);
	idmap_free(&c->of);
}

static void to_exit_task(const struct task_record *rec, const struct run *r, struct exit_task *t)
{
	const struct task_counters *c = &rec->c;
	kind_mask kinds = r->kinds;

	memset(t, 0, sizeof(*t));
	t->tid = rec->id;
	t->tgid = (c->have & HAVE_TGID) ? c->tgid : rec->id;
	t->ppid = c->ppid;
	t->start_s = c->btime;
	t->group_dead = (c->flag & COUNTERS_AGROUP) != 0;
	str_copy(t->comm, sizeof(t->comm), (c->have & HAVE_COMM) ? c->comm : "?");
	totals_from_counters(&t->delays, c, kinds);
	if (c->have & HAVE_IDS)
		totals_drop_impossible(&t->delays, c->etime_us * 1000);
	t->cgroup = cgroup_of(&r->cg, t->tgid, t->ppid);
}

static uint64_t now_s(void)
{
	return (uint64_t)time(NULL);
}

static int64_t parent_of(void *arg, uint32_t pid)
{
	(void)arg;
	return follow_parent(pid);
}

static void on_member(void *arg, const struct exit_task *t)
{
	struct run *r = arg;

	report_add(&r->report, t, 0);
}

/* Only thread records count: a process aggregate repeats what its threads' records said. */
static void command_on_exit(void *arg, const struct task_record *thread, const struct task_record *process)
{
	struct run *r = arg;
	struct exit_task t;

	(void)process;
	if (!thread)
		return;
	to_exit_task(thread, r, &t);
	if (r->retried[0] && t.ppid == (uint32_t)getpid() && strcmp(t.comm, r->retried) == 0) {
		r->retried[0] = '\0'; /* a copy of delaytop that never became the command */
		return;
	}
	family_exit(r->family, &t, now_s());
}

static void on_survivor(void *arg, const struct task_record *rec)
{
	struct run *r = arg;
	struct exit_task t;

	to_exit_task(rec, r, &t);
	report_add(&r->report, &t, 1);
}

/* Whether a live process descends from the command (delaytop itself does not count). */
static int command_member(void *arg, uint32_t pid)
{
	struct run *r = arg;

	return pid != (uint32_t)getpid() && family_includes(r->family, pid);
}

/* Counts the processes that descend from the command and still run, as far as they got. */
static void count_survivors(struct run *r, struct follow *f)
{
	follow_survivors(f, command_member, r, on_survivor, r);
}

/* The file execvp would run for name: name itself when it holds a '/', else the first executable
 * regular file of that name in $PATH (or the system's default path); NULL when there is none.
 * The caller frees it. */
static char *path_of(const char *name)
{
	const char *path = getenv("PATH");
	char defpath[256];

	if (strchr(name, '/'))
		return xstrdup(name);
	if (!path) {
		confstr(_CS_PATH, defpath, sizeof(defpath));
		path = defpath;
	}
	for (const char *p = path;; p++) {
		size_t len = strcspn(p, ":");
		char *file = xmalloc(len + strlen(name) + 3);
		struct stat st;

		if (len) /* an empty entry is the current directory */
			snprintf(file, len + strlen(name) + 3, "%.*s/%s", (int)len, p, name);
		else
			snprintf(file, strlen(name) + 3, "./%s", name);
		if (stat(file, &st) == 0 && S_ISREG(st.st_mode) && access(file, X_OK) == 0)
			return file;
		free(file);
		p += len;
		if (!*p)
			return NULL;
	}
}

/* Starts the command with the signal mask and standard descriptors delaytop was given: closed_fds
 * (bits 1 << fd) were closed, and main put /dev/null there only for delaytop's sake; SIGINT,
 * SIGQUIT and SIGPIPE, which delaytop ignores, at their default. Through posix_spawn, not fork:
 * delaytop has threads by now (the exit listener's), and no code of delaytop's runs in the child
 * before the exec. A file without a #! line runs through /bin/sh, as execvp runs it: then the
 * first child, whose exec failed, ended as a copy of delaytop, and retried holds its comm. Returns
 * 0 with *pid, or the error of the start or of the exec, which posix_spawn reports. */
static int start(char **argv, const sigset_t *old_mask, unsigned closed_fds, pid_t *pid, char retried[16])
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t dfl;
	int rc;

	posix_spawn_file_actions_init(&fa);
	for (int fd = 0; fd <= 2; fd++)
		if (closed_fds & 1u << fd)
			posix_spawn_file_actions_addclose(&fa, fd);
	posix_spawnattr_init(&at);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGQUIT);
	sigaddset(&dfl, SIGPIPE);
	posix_spawnattr_setsigdefault(&at, &dfl);
	posix_spawnattr_setsigmask(&at, old_mask);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
	rc = posix_spawnp(pid, argv[0], &fa, &at, argv, environ);
	if (rc == ENOEXEC) {
		size_t n = 0;
		char **sh, *file = path_of(argv[0]);

		prctl(PR_GET_NAME, retried, 0, 0, 0);
		while (argv[n])
			n++;
		sh = xcalloc(n + 2, sizeof(*sh));
		sh[0] = "/bin/sh";
		sh[1] = file ? file : argv[0];
		memcpy(sh + 2, argv + 1, n * sizeof(*sh)); /* argv[1..n], its NULL included */
		rc = posix_spawn(pid, sh[0], &fa, &at, sh, environ);
		free(sh);
		free(file);
	}
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	return rc;
}

/* A command that could not be run, as a shell says it: status 127 when it is not there, 126
 * when it is but cannot run. The wait status the report gives. */
static int not_run(const char *argv0, int e)
{
	char name[256];

	text_clean(name, sizeof(name), argv0);
	fprintf(stderr, F_(N_("%s: cannot run '%s': %s\n")), PACKAGE, name, strerror(e));
	return (e == ENOENT ? 127 : 126) << 8; /* as waitpid() gives an exit with that status */
}

/* A task forked while kernel.task_delayacct is 0 never gets the other delays: once the switch is
 * found off, the records read after count CPU delay only, as any of their tasks may be such. */
static void check_switch(struct run *r)
{
	if (acctswitch_state() == DELAYACCT_OFF)
		r->kinds = 1u << DK_CPU;
}

static void remember_process(void *arg, uint32_t pid, const char *path)
{
	struct run *r = arg;

	remember_cgroup(&r->cg, pid, path);
	if (!r->stacks)
		return;
	if (r->nids == r->capids) {
		r->capids = r->capids ? 2 * r->capids : 64;
		r->ids = xrealloc(r->ids, r->capids * sizeof(*r->ids));
	}
	r->ids[r->nids++] = pid;
}

/* --why: the stacks since the last scan, named while their processes live, and the processes
 * seen now followed from here on. */
static void scan_stacks(struct run *r)
{
	if (!r->stacks)
		return;
	stackrun_read(r->stacks);
	if (r->nids)
		stackrun_select(r->stacks, r->ids, r->nids);
}

/* Learns where the command's live processes run, at most every CGROUP_SCAN_NS. */
static void scan_cgroups(struct run *r)
{
	uint64_t now = timing_mono_ns();

	if (now < r->cg.next_scan || r->cg.hier.layout == CGROUP_NONE)
		return;
	r->cg.next_scan = now + CGROUP_SCAN_NS;
	r->nids = 0;
	follow_cgroups_of(&r->cg.hier, command_member, r, remember_process, r);
	scan_stacks(r);
}

/* --why in command mode: the stacks of the command's processes, followed from their birth (the
 * programs are loaded before the command starts); a sentence when it cannot. */
static void start_stacks(struct run *r, const struct options *o)
{
	char err[512];

	r->report.why = o->why;
	if (!o->why)
		return;
	if (stackrun_open(&r->stacks, (uint32_t)getpid(), err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", PACKAGE, err);
		r->report.why_off = 1;
	}
}

/* Waits for the command, reading exit records as they come and reaping adopted orphans. sigfd
 * reads SIGCHLD, so that the end of the command is seen at once, and SIGTERM and SIGHUP, which are
 * passed on to the command: delaytop stays to write the report when it ends. */
static int follow(struct run *r, struct follow *f, pid_t child, int sigfd)
{
	int status = 0, done = 0;

	while (!done) {
		struct pollfd pfd[2] = { { follow_fd(f), POLLIN, 0 }, { sigfd, POLLIN, 0 } };
		struct signalfd_siginfo si;
		pid_t pid;
		int st;

		poll(pfd, 2, (int)(CGROUP_SCAN_NS / 1000000));
		if (pfd[1].revents & POLLIN)
			while (read(sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
				if (si.ssi_signo != SIGCHLD)
					kill(child, (int)si.ssi_signo);
		check_switch(r);
		scan_cgroups(r); /* before the exit records: what is alive now is seen */
		follow_drain(f, command_on_exit, r, &r->lost);
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
	follow_drain(f, command_on_exit, r, &r->lost);
	return status;
}

/* Prints the report and completes the output. The command has run, so a report that could not
 * be written ends delaytop with EXIT_CANNOT_FOLLOW, not with the command's status, and the
 * message gives that status. A reader that went away (EPIPE) is not an error. */
static int write_report(struct run *r, const struct options *o, struct output *out, int status,
			command_page_fn page)
{
	int written = (page ? page(&r->report, out->f) : report_print(&r->report, o->format, out->f)) == 0;
	int e = errno;

	if (reportfile_close(out, written) == 0 || (!written && e == EPIPE))
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

int command_run(const struct options *o, int delayacct_off, unsigned closed_fds, command_page_fn page)
{
	struct follow *f = NULL;
	struct run r;
	char err[512];
	uint64_t t0;
	pid_t child;
	struct output out;
	sigset_t chld, old_mask; /* chld: the signals read through sigfd */
	int rc, sigfd;

	memset(&r, 0, sizeof(r));
	/* with kernel.task_delayacct at 0 the kernel sends zeros for all but CPU delay: unavailable */
	r.kinds = delayacct_off ? 1u << DK_CPU : (kind_mask)~0u;
	if (follow_open(&f, o->exit_buffer, err, sizeof(err)) < 0) {
		fprintf(stderr, F_(N_("%s: command mode needs the kernel's exit records: %s\n")), PACKAGE, err);
		return EXIT_CANNOT_FOLLOW;
	}
	if (follow_check_proc(err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", PACKAGE, err);
		follow_close(f);
		return EXIT_CANNOT_FOLLOW;
	}
	if (reportfile_open(&out, o->output, closed_fds) < 0) {
		follow_close(f);
		return EXIT_CANNOT_FOLLOW;
	}
	start_cgroups(&r.cg);
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
	start_stacks(&r, o);
	t0 = timing_mono_ns();
	rc = start(o->command, &old_mask, closed_fds, &child, r.retried);
	if (rc == EAGAIN || rc == ENOMEM) { /* no process to run it in */
		fprintf(stderr, F_(N_("%s: cannot start the command: %s\n")), PACKAGE, strerror(rc));
		reportfile_close(&out, 0);
		rc = EXIT_CANNOT_FOLLOW;
		goto out;
	}
	if (rc != 0) { /* it did not run: reported as a shell's child would have ended */
		r.report.wait_status = not_run(o->command[0], rc);
		r.report.wall_s = (timing_mono_ns() - t0) / 1e9;
	} else {
		r.family = family_new((uint32_t)child, (uint32_t)getpid(), now_s(), parent_of, on_member, &r);
		scan_cgroups(&r);
		r.report.wait_status = follow(&r, f, child, sigfd);
		r.report.wall_s = (timing_mono_ns() - t0) / 1e9;
		count_survivors(&r, f);
		r.report.lost = r.lost;
		r.report.undecided = family_undecided(r.family);
		if (r.stacks) {
			stackrun_read(r.stacks); /* the last waits; frames of ended processes unnamed */
			r.report.stacks = stackrun_stacks(r.stacks, &r.report.nstacks, &r.report.stacks_lost);
		}
	}
	rc = write_report(&r, o, &out, report_exit_status(&r.report), page);
out:
	if (sigfd >= 0)
		close(sigfd);
	family_free(r.family);
	report_free(&r.report);
	stackrun_close(r.stacks);
	free(r.ids);
	run_cgroups_free(&r.cg);
	follow_close(f);
	return rc;
}
