/* fixgen.c — the fixture recordings the tests without root replay (tests/fixtures/README.md says
 * what each holds), written through the recorder that -w uses. The same bytes at every run: the
 * readings' times, the counters (from a fixed seed) and, below, the host name and the file's
 * creation time are fixed.
 *
 *   fixgen DIR   writes DIR/procs.rec, DIR/threads.rec, DIR/cgroups.rec, DIR/long.rec,
 *                DIR/peaks.rec, DIR/hostile.rec, DIR/build.rec, DIR/why.rec and DIR/stacks.rec */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cgtree.h"
#include "model.h"
#include "recorder.h"
#include "xalloc.h"

#define T0_S 1767225600 /* 2026-01-01 00:00:00 UTC: the first reading */
#define MAX_ROWS 32
#define MAX_CGROUPS 16
#define MS 1000000ull

/* The recorder names the machine and stamps the file with the time it was made: both fixed here,
 * where this program's own definitions stand before the C library's. */
int gethostname(char *name, size_t len)
{
	snprintf(name, len, "%s", "fixture-host");
	return 0;
}

int clock_gettime(clockid_t clock, struct timespec *ts)
{
	if (clock == CLOCK_REALTIME) {
		ts->tv_sec = T0_S;
		ts->tv_nsec = 0;
		return 0;
	}
	return (int)syscall(SYS_clock_gettime, clock, ts);
}

/* A process of the fixtures, and its threads in thread mode. */
struct fix_proc {
	uint32_t pid, ppid, uid;
	int nice;
	const char *user, *comm, *cmdline, *cgroup;
	uint32_t identity_uid;  /* who its cgroup is delegated to, 0: none */
	const char *threads[4]; /* the threads' names (tids pid, pid + 1, ...); none: one thread */
	int born;               /* the reading it first shows in */
	int ends;               /* the reading it exits in (departed after it); 0: never */
	char state;
	kind_mask kinds;        /* the kinds it waits in */
	unsigned load;          /* how much it waits: ms per kind per reading, about */
	int carried;            /* the reading in which a CPU wait longer than the interval ends */
};

#define ALL_KINDS ((kind_mask)((1u << DK_COUNT) - 1))
#define K(k) ((kind_mask)(1u << (k)))

static const char long_cmdline[] =
	"/usr/lib/gcc/x86_64-linux-gnu/13/cc1 -quiet -I include -I src/base -I src/model -I src/kernel "
	"-I src/sample -I src/show -I src/report -I src/record -I src/live -I src/screen -I src/command "
	"-D_FORTIFY_SOURCE=3 -DLOCALEDIR=\"/usr/share/locale\" src/sample/collect.c -quiet -dumpbase collect.c "
	"-mtune=generic -march=x86-64 -g -O2 -Wall -Wextra -std=gnu11 -fstack-protector-strong -o /tmp/ccXXXX.s";

/* A container: the system's (orphan's, an LXC container named web: a short name, which keeps the
 * cgroup view's lines short) and one a user named the same, in the subtree of bob's app.service,
 * which is delegated to him (mallory's process runs there). */
#define FIX_CONTAINER "lxc.payload.web"
#define FIX_DELEGATED "/user.slice/user-1001.slice/app.service"

static const struct fix_proc procs[] = {
	{ .pid = 1, .uid = 0, .user = "root", .comm = "systemd", .cmdline = "/sbin/init splash",
	  .cgroup = "/init.scope", .state = 'S', .kinds = K(DK_CPU) | K(DK_IO), .load = 1 },
	{ .pid = 210, .ppid = 1, .uid = 0, .user = "root", .comm = "sshd",
	  .cmdline = "sshd: /usr/sbin/sshd -D [listener] 0 of 10-100 startups",
	  .cgroup = "/system.slice/ssh.service", .state = 'S', .kinds = K(DK_CPU), .load = 2 },
	{ .pid = 480, .ppid = 1, .uid = 999, .nice = -5, .user = "postgres", .comm = "postgres",
	  .cmdline = "postgres: 16/main: checkpointer", .cgroup = "/system.slice/postgresql.service",
	  .state = 'D', .kinds = ALL_KINDS, .load = 40 },
	{ .pid = 1200, .ppid = 210, .uid = 1000, .user = "alice", .comm = "bash", .cmdline = "-bash",
	  .cgroup = "/user.slice/user-1000.slice/session-1.scope", .state = 'S', .kinds = K(DK_CPU), .load = 1 },
	{ .pid = 1300, .ppid = 1200, .uid = 1000, .user = "alice", .comm = "make", .cmdline = "make -j4 all",
	  .cgroup = "/user.slice/user-1000.slice/session-1.scope", .state = 'S',
	  .kinds = K(DK_CPU) | K(DK_IO) | K(DK_WPCOPY), .load = 5 },
	{ .pid = 1301, .ppid = 1300, .uid = 1000, .nice = 19, .user = "alice", .comm = "cc1", .cmdline = long_cmdline,
	  .cgroup = "/user.slice/user-1000.slice/session-1.scope", .state = 'R',
	  .kinds = K(DK_CPU) | K(DK_IO) | K(DK_IRQ), .load = 120, .carried = 2 },
	{ .pid = 1310, .ppid = 1300, .uid = 1000, .user = "alice", .comm = "as", .cmdline = "as --64 -o collect.o",
	  .cgroup = "/user.slice/user-1000.slice/session-1.scope", .state = 'R', .ends = 2,
	  .kinds = K(DK_CPU) | K(DK_IO), .load = 60 },
	{ .pid = 1320, .ppid = 1300, .uid = 1000, .user = "alice", .comm = "ld", .cmdline = "ld -o delaytop collect.o",
	  .cgroup = "/user.slice/user-1000.slice/session-1.scope", .state = 'D', .born = 2,
	  .kinds = K(DK_CPU) | K(DK_IO) | K(DK_SWAPIN), .load = 30 },
	{ .pid = 1500, .ppid = 1, .uid = 1001, .user = "bob", .comm = "java", .cmdline = "java -Xmx2g -jar /opt/app/app.jar",
	  .cgroup = FIX_DELEGATED, .identity_uid = 1001, .state = 'S',
	  .threads = { "java", "GC Thread#0", "C2 CompilerThre", "VM Thread" },
	  .kinds = K(DK_CPU) | K(DK_RECLAIM) | K(DK_THRASHING) | K(DK_COMPACT), .load = 25 },
	{ .pid = 1600, .ppid = 1200, .uid = 1001, .user = "bob", .comm = "naïve-ü✓",
	  .cmdline = "./naïve-ü✓ --étape=二 «données»", .cgroup = FIX_DELEGATED, .identity_uid = 1001,
	  .state = 'S', .kinds = K(DK_CPU) | K(DK_IO), .load = 8 },
	{ .pid = 1601, .ppid = 1200, .uid = 1002, .user = "mallory", .comm = "x\x1b[31mred\t",
	  .cmdline = "printf \x1b]0;title\x07 del\x7f c1\xc2\x9b rlo\xe2\x80\xae tab\there",
	  .cgroup = FIX_DELEGATED "/" FIX_CONTAINER, .identity_uid = 1001, .state = 'S', .kinds = K(DK_CPU),
	  .load = 3 },
	{ .pid = 1700, .ppid = 1, .uid = 4242, .user = "4242", .comm = "orphan", .cmdline = "/opt/orphan --uid-without-name",
	  .cgroup = "/" FIX_CONTAINER, .state = 'T', .kinds = K(DK_CPU) | K(DK_IO), .load = 4 },
};
#define NPROCS (sizeof(procs) / sizeof(procs[0]))

/* build.rec's processes: a build whose commands run several at once (four cc1, two of them in
 * turn, three sh of two users), beside a database whose one process waits more than any one cc1
 * but less than all of them; cc1plus, whose name holds another's. */
#define BUILD_SCOPE "/user.slice/user-1000.slice/session-2.scope"
static const struct fix_proc build_procs[] = {
	{ .pid = 1, .uid = 0, .user = "root", .comm = "systemd", .cmdline = "/sbin/init", .cgroup = "/init.scope",
	  .state = 'S', .kinds = K(DK_CPU), .load = 1 },
	{ .pid = 700, .ppid = 1, .uid = 0, .user = "root", .comm = "sh", .cmdline = "/bin/sh -c run-parts /etc/cron.hourly",
	  .cgroup = "/system.slice/cron.service", .state = 'S', .kinds = K(DK_CPU) | K(DK_IO), .load = 4 },
	{ .pid = 900, .ppid = 1, .uid = 999, .user = "postgres", .comm = "postgres", .cmdline = "postgres: 16/main: walwriter",
	  .cgroup = "/system.slice/postgresql.service", .state = 'D', .kinds = K(DK_CPU) | K(DK_IO), .load = 150 },
	{ .pid = 1200, .ppid = 1, .uid = 1000, .user = "alice", .comm = "bash", .cmdline = "-bash", .cgroup = BUILD_SCOPE,
	  .state = 'S', .kinds = K(DK_CPU), .load = 1 },
	{ .pid = 1300, .ppid = 1200, .uid = 1000, .user = "alice", .comm = "make", .cmdline = "make -j4", .cgroup = BUILD_SCOPE,
	  .state = 'S', .kinds = K(DK_CPU) | K(DK_IO), .load = 5 },
	{ .pid = 1301, .ppid = 1300, .uid = 1000, .user = "alice", .comm = "sh", .cmdline = "/bin/sh -c gcc -c a.c",
	  .cgroup = BUILD_SCOPE, .state = 'S', .kinds = K(DK_CPU), .load = 2 },
	{ .pid = 1302, .ppid = 1300, .uid = 1000, .user = "alice", .comm = "sh", .cmdline = "/bin/sh -c gcc -c b.c",
	  .cgroup = BUILD_SCOPE, .state = 'S', .kinds = K(DK_CPU), .load = 3 },
	{ .pid = 1310, .ppid = 1301, .uid = 1000, .user = "alice", .comm = "cc1", .cmdline = "cc1 -quiet a.c",
	  .cgroup = BUILD_SCOPE, .state = 'R', .threads = { "cc1", "cc1" }, .kinds = K(DK_CPU) | K(DK_IO), .load = 90 },
	{ .pid = 1311, .ppid = 1302, .uid = 1000, .user = "alice", .comm = "cc1", .cmdline = "cc1 -quiet b.c",
	  .cgroup = BUILD_SCOPE, .state = 'R', .ends = 2, .kinds = K(DK_CPU) | K(DK_IO), .load = 80 },
	{ .pid = 1312, .ppid = 1302, .uid = 1000, .user = "alice", .comm = "cc1", .cmdline = "cc1 -quiet c.c",
	  .cgroup = BUILD_SCOPE, .state = 'R', .born = 2, .kinds = K(DK_CPU) | K(DK_IO), .load = 100 },
	{ .pid = 1313, .ppid = 1301, .uid = 1000, .user = "alice", .comm = "cc1", .cmdline = "cc1 -quiet d.c",
	  .cgroup = BUILD_SCOPE, .state = 'R', .carried = 2, .kinds = K(DK_CPU) | K(DK_IO), .load = 70 },
	{ .pid = 1320, .ppid = 1301, .uid = 1000, .user = "alice", .comm = "as", .cmdline = "as -o a.o",
	  .cgroup = BUILD_SCOPE, .state = 'R', .kinds = K(DK_CPU) | K(DK_IO), .load = 20 },
	{ .pid = 1330, .ppid = 1302, .uid = 1000, .user = "alice", .comm = "cc1plus", .cmdline = "cc1plus -quiet e.cc",
	  .cgroup = BUILD_SCOPE, .state = 'R', .kinds = K(DK_CPU) | K(DK_IO), .load = 15 },
};

/* One task's counters as the readings go. */
struct fix_task {
	const struct fix_proc *p;
	uint32_t tid;     /* 0: the process row */
	const char *comm;
	uint32_t nthreads;
	struct sample base, last;
	struct acct_pair acct;
	struct peaks peak;
	struct kind_totals acc;
};

struct fixture {
	const char *name;
	int threads;  /* rows are threads */
	int cgroups;  /* the cgroup view */
	int readings;
	int small;    /* only the first few processes, no events, accounting always on */
	int peaks;    /* the system's pressure quiet but for the bursts of peak_share, and events */
	int hostile;  /* mallory's names are markup and bytes that are not UTF-8 (the HTML report's test) */
	int build;    /* build_procs rather than procs */
	int why;      /* --why on: the rows' waits by kind as log2 histograms (why_at) */
	int stacks;   /* with why: every task's off-CPU stacks taken (stacks_at), and trigger events */
};

/* The processes of fixture x, and how many into *n. */
static const struct fix_proc *procs_of(const struct fixture *x, size_t *n)
{
	if (x->build) {
		*n = sizeof(build_procs) / sizeof(build_procs[0]);
		return build_procs;
	}
	*n = x->small ? 4 : NPROCS;
	return procs;
}

/* hostile.rec's names for mallory's process (1601): what a task controls, made to break a page. */
#define HOSTILE_COMM "<img src=x onerror=alert(1)>\xff"
#define HOSTILE_CMDLINE "\"'><script>alert(2)</script>"
#define HOSTILE_CGROUP "/evil.slice/<svg onload=alert(3)>&amp;"
#define HOSTILE_USER "<b>mallory</b>\""
/* and alice's bash (1200) in a cgroup of 240 letters, with no place to break the line */
#define LONG_NAME_24 "abcdefghijklmnopqrstuvwx"
#define HOSTILE_LONG_CGROUP                                                                           \
	"/user.slice/user-1000.slice/" LONG_NAME_24 LONG_NAME_24 LONG_NAME_24 LONG_NAME_24 LONG_NAME_24 \
		LONG_NAME_24 LONG_NAME_24 LONG_NAME_24 LONG_NAME_24 LONG_NAME_24 ".service"


static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* What task t's counters grew by in reading r (one second), its wait in each kind near its load. */
static void grow(struct fix_task *t, int r, uint64_t *seed)
{
	const struct fix_proc *p = t->p;
	struct sample *s = &t->last;
	uint64_t *acct = t->acct.last.acct;

	t->base = *s;
	t->acct.base = t->acct.last;
	s->when_ns += 1000 * MS;
	s->age_ns += 1000 * MS;
	for (int k = 0; k < DK_COUNT; k++) {
		uint64_t ms;

		if (!((p->kinds >> k) & 1))
			continue;
		ms = p->load / (uint64_t)(k + 1) + rnd(seed) % (p->load + 1);
		if (k == DK_CPU && r == p->carried)
			ms = 1400; /* ends in this interval, began in the one before */
		s->count[k] += 1 + ms / 4;
		s->total[k] += ms * MS + (rnd(seed) % 1000) * 1000;
		if (ms * MS > t->peak.max[k]) {
			t->peak.max[k] = ms * MS;
			t->peak.max_at_ns[k] = ((int64_t)T0_S + r) * 1000 * (int64_t)MS - 250 * (int64_t)MS;
		}
	}
	t->peak.kinds = t->peak.kinds_ts = p->kinds;
	s->run_ns += (p->state == 'R' ? 700 : 20) * MS + (rnd(seed) % 1000) * 1000;
	acct[AF_READ] += rnd(seed) % (p->load * 65536 + 1);
	acct[AF_WRITE] += rnd(seed) % (p->load * 32768 + 1);
	acct[AF_CANCELLED] += rnd(seed) % 4096;
	acct[AF_RCHAR] += acct[AF_READ] / 4 + rnd(seed) % 100000;
	acct[AF_WCHAR] += rnd(seed) % 50000;
	acct[AF_SYSCR] += rnd(seed) % 200;
	acct[AF_SYSCW] += rnd(seed) % 100;
	acct[AF_VCSW] += rnd(seed) % 300;
	acct[AF_IVCSW] += rnd(seed) % 30;
	acct[AF_UTIME] += (p->state == 'R' ? 600000 : 10000) + rnd(seed) % 1000;
	acct[AF_STIME] += 50000 + rnd(seed) % 1000;
	acct[AF_MAXRSS] = 1024ull * (p->load + 10); /* KiB */
	acct[AF_MAXVM] = 4 * acct[AF_MAXRSS];
}

/* Counters as a task's first reading has them: its life so far, all fields there. */
static void first_reading(struct fix_task *t, int r)
{
	struct sample *s = &t->last;

	memset(s, 0, sizeof(*s));
	s->when_ns = (uint64_t)(r + 100) * 1000 * MS;
	s->age_ns = (uint64_t)(1000 + t->p->pid % 97) * 1000 * MS;
	s->threads = t->nthreads;
	s->kind_total = s->kind_count = ALL_KINDS;
	s->have_run = 1;
	memset(&t->acct.last, 0, sizeof(t->acct.last));
	t->acct.last.acct_have = ACCT_ALL;
}

/* The pressure at reading r of the system (div 1) or of a cgroup (its stalls a div-th of the
 * system's); irq has only a "full" line. */
static void psi_at(struct psi_snapshot *psi, int r, unsigned div)
{
	static const double avg[PSI_COUNT] = { 12.5, 3.25, 27.75, 0.5 };

	memset(psi, 0, sizeof(*psi));
	psi->when_ns = (uint64_t)(r + 100) * 1000 * MS;
	for (int i = 0; i < PSI_COUNT; i++) {
		struct psi_resource *res = &psi->res[i];

		res->present = 1;
		res->some.present = i != PSI_IRQ;
		res->full.present = 1;
		res->some.avg10 = (avg[i] + r % 5) / div;
		res->some.avg60 = avg[i] / div;
		res->some.avg300 = avg[i] / 2 / div;
		res->some.total_us = (uint64_t)(r + 10) * (uint64_t)(avg[i] * 10000) / div;
		res->full.avg10 = avg[i] / 4;
		res->full.avg60 = avg[i] / 8;
		res->full.avg300 = avg[i] / 16;
		res->full.total_us = res->some.total_us / 4;
	}
}

/* peaks.rec's I/O pressure in the interval before reading r, in percent: 2 but for a burst
 * rising to 60 at reading 25, one of 30 from reading 70 to 74 (its highest at 72) and a bump of
 * 8 (below a peak's 10) at reading 100. */
static double peak_share(int r)
{
	static const struct {
		int from, to;
		double pct;
	} bursts[] = {
		{ 20, 24, 20 }, { 25, 25, 60 }, { 26, 29, 15 }, { 70, 71, 20 }, { 72, 72, 30 }, { 73, 74, 25 },
		{ 100, 100, 8 },
	};

	for (size_t i = 0; i < sizeof(bursts) / sizeof(bursts[0]); i++)
		if (r >= bursts[i].from && r <= bursts[i].to)
			return bursts[i].pct;
	return 2;
}

/* peaks.rec's pressure: every line stalled 1% of each second, I/O some as peak_share says. */
static void psi_peaks_at(struct psi_snapshot *psi, int r)
{
	static uint64_t io_us; /* I/O some's total so far */

	memset(psi, 0, sizeof(*psi));
	psi->when_ns = (uint64_t)(r + 100) * 1000 * MS;
	if (r == 0)
		io_us = 0;
	else
		io_us += (uint64_t)(peak_share(r) * 10000);
	for (int i = 0; i < PSI_COUNT; i++) {
		struct psi_resource *res = &psi->res[i];

		res->present = 1;
		res->some.present = i != PSI_IRQ;
		res->full.present = 1;
		res->some.total_us = (uint64_t)r * 10000;
		res->full.total_us = (uint64_t)r * 10000;
		res->some.avg10 = res->some.avg60 = res->some.avg300 = 1;
	}
	psi->res[PSI_IO].some.total_us = io_us;
}

/* psi's interval shares from the reading before. */
static void psi_shares(struct psi_snapshot *prev, struct psi_snapshot *cur, int r)
{
	if (r)
		psi_interval(prev, cur);
	else
		for (int i = 0; i < PSI_COUNT; i++)
			cur->res[i].some.pct = cur->res[i].full.pct = 0.0 / 0.0;
	*prev = *cur;
}

/* The cgroups of the cgroup view, sorted by path, the root first. */
static const char *const cgroup_paths[] = {
	"/",
	"/init.scope",
	"/" FIX_CONTAINER,
	"/system.slice",
	"/system.slice/orphan.service",
	"/system.slice/postgresql.service",
	"/system.slice/ssh.service",
	"/user.slice",
	"/user.slice/user-1000.slice",
	"/user.slice/user-1000.slice/session-1.scope",
	"/user.slice/user-1001.slice",
	FIX_DELEGATED,
	FIX_DELEGATED "/" FIX_CONTAINER,
	"/user.slice/user-1001.slice/idle.service",
};
#define NCGROUPS (sizeof(cgroup_paths) / sizeof(cgroup_paths[0]))

/* The cgroups' facts at reading r, their pressure's shares from prev (the reading before's). */
static void cgroup_facts_at(struct cgroup_facts *f, struct psi_snapshot *prev, int r, const struct row *rows,
			    size_t nrows)
{
	for (size_t i = 0; i < NCGROUPS; i++) {
		size_t len = strlen(cgroup_paths[i]);

		memset(&f[i], 0, sizeof(f[i]));
		f[i].path = (char *)cgroup_paths[i];
		f[i].identity_uid = strncmp(cgroup_paths[i], FIX_DELEGATED, strlen(FIX_DELEGATED)) == 0 ? 1001 : 0;
		psi_at(&f[i].psi, r, (unsigned)i + 1);
		f[i].psi.res[PSI_IRQ].present = i == 0; /* only the root has irq pressure */
		psi_shares(&prev[i], &f[i].psi, r);
		for (size_t k = 0; k < nrows; k++)
			if (rows[k].cgroup && !rows[k].departed &&
			    (i == 0 || (!strncmp(rows[k].cgroup, cgroup_paths[i], len) &&
					(rows[k].cgroup[len] == '/' || !rows[k].cgroup[len]))))
				f[i].busy = 1;
	}
}

/* The tasks of fixture x: one per process, or one per thread. */
static size_t make_tasks(const struct fixture *x, struct fix_task *tasks)
{
	size_t n = 0, np;
	const struct fix_proc *all = procs_of(x, &np);

	for (size_t i = 0; i < np; i++) {
		const struct fix_proc *p = &all[i];
		uint32_t nth = 0;

		while (nth < 4 && p->threads[nth])
			nth++;
		if (!x->threads || !nth) {
			tasks[n++] = (struct fix_task){ .p = p, .tid = x->threads ? p->pid : 0, .comm = p->comm,
						       .nthreads = x->threads || !nth ? 1 : nth };
			continue;
		}
		for (uint32_t k = 0; k < nth; k++)
			tasks[n++] = (struct fix_task){ .p = p, .tid = p->pid + k, .comm = p->threads[k], .nthreads = 1 };
	}
	return n;
}

/* Task t's row at reading r: live, exited in it, or departed (ended before it). */
static void make_row(struct row *row, struct fix_task *t, const struct fixture *x, int r)
{
	const struct fix_proc *p = t->p;
	int departed = p->ends && r > p->ends;

	memset(row, 0, sizeof(*row));
	row_fields_none(&row->fields);
	row->pid = p->pid;
	row->tid = t->tid;
	row->uid = p->uid;
	row->user = p->user;
	row->comm = t->comm;
	row->cmdline = p->cmdline;
	row->cgroup = p->cgroup;
	row->identity_uid = p->identity_uid;
	if (x->hostile && p->pid == (x->stacks ? 1600 : 1601)) { /* stacks.rec: on one its events name */
		row->comm = HOSTILE_COMM;
		row->cmdline = HOSTILE_CMDLINE;
		row->cgroup = HOSTILE_CGROUP;
		row->user = HOSTILE_USER;
	}
	if (x->hostile && p->pid == 1200)
		row->cgroup = HOSTILE_LONG_CGROUP;
	row->parent = -1;
	row->acc = &t->acc;
	if (departed) {
		row->state = 'X';
		row->exited = row->departed = 1;
		rates_unavailable(&row->r);
		return;
	}
	row->ppid = p->ppid;
	row->nice = p->nice;
	row->start_ns = (uint64_t)p->pid * 1000 * MS + t->tid;
	row->state = p->ends && r == p->ends ? 'Z' : p->state;
	row->exited = p->ends && r == p->ends;
	row->nthreads = t->nthreads;
	if (x->cgroups && !x->threads) {
		row->have_states = 1;
		row->states[p->state == 'R' ? CG_RUNNING : p->state == 'D' ? CG_UNINTERRUPTIBLE :
			    p->state == 'T' ? CG_STOPPED : CG_SLEEPING] = t->nthreads;
	}
	row->fresh = r == p->born;
	row->last = &t->last;
	row->acct = &t->acct;
	row->peak = &t->peak;
	row->base = row->fresh ? NULL : &t->base;
	if (row->fresh) {
		rates_unavailable(&row->r);
	} else {
		rates_compute(&t->base, &t->last, &t->peak, &row->r);
		rates_compute_acct(&t->base, &t->last, &t->acct.base, &t->acct.last, &row->r);
	}
}

/* A made-up wait of slot s, ns: the middle of the slot. */
static uint64_t slot_ns(int s)
{
	return (uint64_t)(1.5 * 1000 * (double)(1u << s));
}

/* Puts count waits of slot s into hist. */
static void hist_put(struct lat_hist *hist, int s, uint32_t count)
{
	hist->slot[s] += count;
	hist->count += count;
	hist->total_ns += count * slot_ns(s);
	if (count && slot_ns(s) > hist->max_ns)
		hist->max_ns = slot_ns(s);
}

/* Row row's waits of --why at reading r (why.rec), into w with its histograms in hist: CPU for
 * every task, shorter or longer by the reading; I/O for those that wait on it (mallory's 1601 the
 * most); blocked for the sleepers. None in a task's first reading, nor once it ended. */
static void why_at(struct row *row, int r, struct lat_waits *w, struct lat_hist hist[LAT_KINDS])
{
	uint32_t id = row->tid ? row->tid : row->pid;
	size_t n = 0;

	memset(w, 0, sizeof(*w));
	memset(hist, 0, sizeof(struct lat_hist) * LAT_KINDS);
	if (row->departed || row->fresh)
		return;
	hist_put(&hist[n], 2 + (int)(id % 7) + r % 3, 1 + (id % 5) * (uint32_t)r);
	hist_put(&hist[n], 6 + (int)(id % 3) + r % 4, (uint32_t)r % 3);
	w->kinds |= 1u << DK_CPU;
	n++;
	if (row->r.kind[DK_IO].pct > 0 || row->pid == 1601) {
		hist_put(&hist[n], 9 + r % 4, 2 + (uint32_t)r);
		if (row->pid == 1601)
			hist_put(&hist[n], 12 + r % 2, 50 + (uint32_t)r);
		w->kinds |= 1u << DK_IO;
		n++;
	}
	if (row->state == 'S') {
		hist_put(&hist[n], 15 + r % 5, 3);
		w->kinds |= 1u << LAT_BLOCKED;
		n++;
	}
	w->h = hist;
	row->lat = w;
}

/* ---- stacks.rec: off-CPU stacks ---- */

/* The frames of a stack, innermost first: the kernel's, then the program's. */
static const char *const frames_pipe[] = { "schedule+0x27", "anon_pipe_read+0x2c3", "vfs_read+0x2a1",
					   "ksys_read+0x6b", "do_syscall_64+0x82",
					   "entry_SYSCALL_64_after_hwframe+0x76", "read_one+0x12",
					   "wait_on_pipe+0x1a", "main+0x40" };
static const char *const frames_fsync[] = { "io_schedule+0x46", "folio_wait_bit_common+0x13d",
					    "folio_wait_writeback+0x2b", "__filemap_fdatawait_range+0x8b",
					    "file_write_and_wait_range+0x9a", "ext4_sync_file+0x8c",
					    "do_fsync+0x38", "__x64_sys_fsync+0x13", "do_syscall_64+0x82",
					    "entry_SYSCALL_64_after_hwframe+0x76", "sync_one+0x0d",
					    "wait_on_fsync+0x5e", "main+0x9c" };
static const char *const frames_preempt[] = { "preempt_schedule_irq+0x5c", "asm_sysvec_apic_timer_interrupt+0x1a",
					      "spin+0x9", "main+0x30" };
/* the hostile task's (1600 in stacks.rec): the program's frames named to break a page, one not
 * UTF-8 */
static const char *const frames_hostile[] = { "schedule+0x27", "do_nanosleep+0x6b", "hrtimer_nanosleep+0xd8",
					      "<script>alert(4)</script>+0x10", "main\xff&amp;\"+0x20" };

#define NFRAMES(a) (sizeof(a) / sizeof((a)[0]))

/* Row row's off-CPU stacks at reading r (stacks.rec), into l and s[0..4), by ms descending: R
 * preempted for its CPU wait, D in fsync for its I/O wait, S in a pipe read (a sleeper), or
 * nanosleep for the hostile 1600. None in a task's first
 * reading, nor once it ended. */
static void stacks_at(struct row *row, int r, struct stk_list *l, struct stk_stack s[4])
{
	uint32_t id = row->tid ? row->tid : row->pid;
	size_t n = 0;

	memset(l, 0, sizeof(*l));
	row->stacks = NULL;
	if (row->departed || row->fresh)
		return;
	if (row->pid == 1600) {
		s[n++] = (struct stk_stack){ 400 + r, 40, STK_S, NFRAMES(frames_hostile), frames_hostile, 0 };
	} else if (row->state == 'S') {
		s[n++] = (struct stk_stack){ 200 + (double)(id % 50) + r * 10, 10 + (uint64_t)r, STK_S,
					     NFRAMES(frames_pipe), frames_pipe, 0 };
	}
	if (row->r.kind[DK_IO].pct > 0)
		s[n++] = (struct stk_stack){ row->r.kind[DK_IO].pct * 10, 5 + (uint64_t)r, STK_D,
					     NFRAMES(frames_fsync), frames_fsync, 0 };
	if (row->r.kind[DK_CPU].pct > 0)
		s[n++] = (struct stk_stack){ row->r.kind[DK_CPU].pct * 10, 30 + (uint64_t)r, STK_RUNNABLE,
					     NFRAMES(frames_preempt), frames_preempt, 0 };
	for (size_t i = 1; i < n; i++) /* by ms descending */
		for (size_t j = i; j > 0 && s[j].ms > s[j - 1].ms; j--) {
			struct stk_stack t = s[j];

			s[j] = s[j - 1];
			s[j - 1] = t;
		}
	l->n = n;
	l->s = s;
	row->stacks = l;
}

/* The triggers that fired before reading r: at the fourth reading, two. */
static const char *events_at(const struct fixture *x, int r)
{
	if (x->stacks) /* io at the fourth, cpu and io again at the seventh */
		return r == 3 ? "io some 150ms 1s" : r == 6 ? "cpu some 200ms 2s\nio full 100ms 2s /system.slice" : NULL;
	if (x->peaks)
		return r == 25 || r == 90 ? "io some 150ms 1s" : NULL;
	if (x->why) /* every reading a JSON reading too, the truth of the heat maps' test */
		return NULL;
	return !x->small && r == 3 ? "memory some 150ms 1s\nio full 100ms 2s /system.slice" : NULL;
}

static int write_fixture(const char *dir, const struct fixture *x, char *err, size_t errlen)
{
	struct fix_task tasks[MAX_ROWS];
	struct row rows[MAX_ROWS];
	static struct lat_waits waits[MAX_ROWS];
	static struct lat_hist hists[MAX_ROWS][LAT_KINDS];
	static struct stk_list lists[MAX_ROWS];
	static struct stk_stack stacks[MAX_ROWS][4];
	struct cgroup_facts facts[MAX_CGROUPS];
	struct cgtree tree = { 0 };
	struct psi_snapshot prev = { 0 }, cgprev[NCGROUPS];
	struct recorder *rec;
	struct recorder_opts ro = { 0 };
	char path[4096];
	uint64_t seed = 88172645463325252ull;
	size_t ntasks = make_tasks(x, tasks), nprocs;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, x->name);
	if (unlink(path) < 0 && errno != ENOENT) {
		snprintf(err, errlen, "%.400s: %s", path, strerror(errno));
		return -1;
	}
	ro.path = path;
	if (recorder_open(&rec, &ro, err, errlen) < 0)
		return -1;
	for (int r = 0; r < x->readings && rc == 0; r++) {
		struct snapshot snap = { 0 };
		size_t n = 0;
		int off = !x->small && r == x->readings - 1; /* the last reading: accounting switched off */

		snap.wall.tv_sec = (time_t)(T0_S + r);
		snap.wall.tv_nsec = 5 * (long)MS;
		snap.interval_s = r ? 1.0 : 0.0;
		snap.elapsed_s = r;
		snap.reading_s = 0.004;
		snap.threads = x->threads;
		snap.delayacct = off ? DELAYACCT_OFF : DELAYACCT_ON;
		snap.listening = 1;
		snap.exits = (uint64_t)r * 3;
		snap.events = events_at(x, r);
		if (x->peaks)
			psi_peaks_at(&snap.psi, r);
		else
			psi_at(&snap.psi, r, 1);
		psi_shares(&prev, &snap.psi, r);
		for (size_t i = 0; i < ntasks; i++) {
			struct fix_task *t = &tasks[i];

			if (r < t->p->born || (t->p->ends && r > t->p->ends + 2))
				continue; /* not born yet, or its departed row has gone */
			if (r == t->p->born)
				first_reading(t, r);
			else if (!t->p->ends || r <= t->p->ends)
				grow(t, r, &seed);
			if (off) { /* no more waits counted */
				memcpy(t->last.count, t->base.count, sizeof(t->last.count));
				memcpy(t->last.total, t->base.total, sizeof(t->last.total));
			}
			if (r > t->p->born && (!t->p->ends || r <= t->p->ends)) {
				totals_add_delta(&t->acc, &t->base, &t->last, &t->peak, 0);
				totals_add_acct_delta(&t->acc, &t->acct.base, &t->acct.last);
			}
			make_row(&rows[n], t, x, r);
			if (x->why)
				why_at(&rows[n], r, &waits[n], hists[n]);
			if (x->stacks)
				stacks_at(&rows[n], r, &lists[n], stacks[n]);
			n++;
		}
		snap.rows = rows;
		snap.nrows = n;
		if (x->why) {
			snap.why.state = WHY_ON;
			snap.why.attached = snap.why.measured = 1u << DK_CPU | 1u << DK_IO | 1u << LAT_BLOCKED;
			snap.why.stacks = x->stacks;
			snap.why.stacks_lost = x->stacks ? 2 + (uint64_t)r : 0;
		}
		procs_of(x, &nprocs);
		snap.nprocs = (unsigned)nprocs;
		snap.nthreads = (unsigned)ntasks + 3;
		if (x->cgroups) {
			cgroup_facts_at(facts, cgprev, r, rows, n);
			snap.cgroups = 1;
			snap.cgroup_source = "tasks";
			snap.ncgroup_rows = cgtree_build(&tree, facts, NCGROUPS, rows, n, 1);
			if (x->why)
				cgtree_sum_latency(&tree, rows, n);
			snap.cgroup_rows = tree.rows;
		}
		rc = recorder_write(rec, &snap, snap.events, err, errlen);
	}
	cgtree_free(&tree);
	if (rc < 0) {
		char ignored[64];

		recorder_close(rec, ignored, sizeof(ignored));
		return -1;
	}
	return recorder_close(rec, err, errlen) < 0 ? -1 : 0;
}

static const struct fixture fixtures[] = {
	{ .name = "procs.rec", .readings = 6 },
	{ .name = "threads.rec", .threads = 1, .readings = 6 },
	{ .name = "cgroups.rec", .cgroups = 1, .readings = 6 },
	{ .name = "long.rec", .small = 1, .readings = 600 },
	{ .name = "peaks.rec", .small = 1, .peaks = 1, .readings = 120 },
	{ .name = "hostile.rec", .hostile = 1, .readings = 6 },
	{ .name = "build.rec", .build = 1, .readings = 6 },
	{ .name = "why.rec", .cgroups = 1, .hostile = 1, .why = 1, .readings = 8 },
	{ .name = "stacks.rec", .hostile = 1, .why = 1, .stacks = 1, .readings = 8 },
};

int main(int argc, char **argv)
{
	char err[512];

	if (argc != 2) {
		fprintf(stderr, "usage: fixgen DIR\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		if (write_fixture(argv[1], &fixtures[i], err, sizeof(err)) < 0) {
			fprintf(stderr, "fixgen: %s\n", err);
			return 1;
		}
	}
	return 0;
}
