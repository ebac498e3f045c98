/* command.c — command mode.
 *
 * delaytop registers for exit records first, makes itself the subreaper of what it starts (so an
 * orphan's parent becomes delaytop, not init), then forks and execs the command. Every exit record
 * whose process descends from the command counts, however short it lived; processes still alive
 * when the command ends are counted as far as they got. The report goes to stderr, like time(1),
 * unless --output names a file. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "command.h"
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
static void on_exit_message(void *arg, const struct ts_record *thread, const struct ts_record *process)
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
	struct procfs *pf;
	struct proc_entry *e;
	size_t n;
	char err[256];

	if (procfs_open(&pf, err, sizeof(err)) < 0)
		return;
	r->ntids = 0;
	if (procfs_walk(pf, NULL, 0, &e, &n) == 0)
		for (size_t i = 0; i < n; i++)
			if (e[i].pid != (uint32_t)getpid() && family_includes(r->family, e[i].pid))
				procfs_threads(e[i].pid, &r->tids, &r->ntids, &r->captids);
	procfs_close(pf);
	if (r->ntids)
		ts_query(ts, TS_BY_PID, r->tids, r->ntids, on_survivor, r);
}

static pid_t start(char **argv, const sigset_t *old_mask)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	sigprocmask(SIG_SETMASK, old_mask, NULL);
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	execvp(argv[0], argv);
	fprintf(stderr, _("%s: cannot run '%s': %s\n"), PACKAGE, argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
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
		ts_listen_drain(l, on_exit_message, r, &r->lost);
		while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
			if (pid == child) {
				status = st;
				done = 1;
			}
		if (pid < 0 && errno == ECHILD && !done)
			done = 1; /* cannot happen while the child lives */
	}
	/* the records of the last exits are queued before the parent hears of them */
	ts_listen_drain(l, on_exit_message, r, &r->lost);
	return status;
}

static FILE *open_output(const struct options *o)
{
	FILE *f;

	if (!o->output)
		return stderr;
	f = fopen(o->output, "we");
	if (!f)
		fprintf(stderr, _("%s: cannot write '%s': %s\n"), PACKAGE, o->output, strerror(errno));
	return f;
}

int command_run(const struct options *o, int delayacct_off)
{
	struct ts_listener *l = NULL;
	struct ts_client *ts = NULL;
	struct run r;
	char err[512];
	uint64_t t0;
	pid_t child;
	FILE *out;
	sigset_t chld, old_mask; /* chld: the signals read through sigfd */
	int rc, sigfd;

	memset(&r, 0, sizeof(r));
	/* with kernel.task_delayacct at 0 the kernel sends zeros for all but CPU delay: unavailable */
	r.kinds = delayacct_off ? 1u << DK_CPU : ~0u;
	if (ts_listen(&l, o->exit_buffer, err, sizeof(err)) < 0 || ts_open(&ts, err, sizeof(err)) < 0) {
		fprintf(stderr, _("%s: command mode needs the kernel's exit records: %s\n"), PACKAGE, err);
		ts_listen_close(l);
		return EXIT_CANNOT_FOLLOW;
	}
	out = open_output(o);
	if (!out) {
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
	child = start(o->command, &old_mask);
	if (child < 0) {
		fprintf(stderr, _("%s: cannot start the command: %s\n"), PACKAGE, strerror(errno));
		rc = EXIT_CANNOT_FOLLOW;
		goto out;
	}
	r.family = family_new((uint32_t)child, (uint32_t)getpid(), now_s(), parent_of, on_member, &r);
	r.report.wait_status = follow(&r, l, child, sigfd);
	r.report.wall_s = (timing_mono_ns() - t0) / 1e9;
	count_survivors(&r, ts);
	r.report.lost = r.lost;
	r.report.undecided = family_undecided(r.family);
	rc = report_exit_status(&r.report);
	if (report_print(&r.report, o->format, out) < 0 && errno != EPIPE)
		fprintf(stderr, _("%s: cannot write the report: %s\n"), PACKAGE, strerror(errno));
out:
	if (sigfd >= 0)
		close(sigfd);
	if (out != stderr)
		fclose(out);
	family_free(r.family);
	report_free(&r.report);
	free(r.tids);
	ts_listen_close(l);
	ts_close(ts);
	return rc;
}
