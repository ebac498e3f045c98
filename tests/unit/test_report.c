/* test_report.c — the command report (src/command/report.h): how it counts processes and threads, and
 * its text, JSON and CSV against golden output in tests/unit/golden/. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "golden.h"
#include "report.h"
#include "tap.h"

/* The exit record (or live reading) of thread tid of process tgid. */
static struct exit_task rec(uint32_t tid, uint32_t tgid, const char *comm, uint64_t start_s, int group_dead)
{
	struct exit_task t;

	memset(&t, 0, sizeof(t));
	t.tid = tid;
	t.tgid = tgid;
	t.start_s = start_s;
	t.group_dead = group_dead;
	snprintf(t.comm, sizeof(t.comm), "%s", comm);
	return t;
}

static void add(struct report *r, uint32_t tid, uint32_t tgid, const char *comm, uint64_t start_s,
		int group_dead, int running)
{
	struct exit_task t = rec(tid, tgid, comm, start_s, group_dead);

	report_add(r, &t, running);
}

static unsigned procs_of(const struct report *r, const char *comm)
{
	for (size_t i = 0; i < r->ngroups; i++)
		if (strcmp(r->groups[i].comm, comm) == 0)
			return r->groups[i].procs;
	return 0;
}

static void plain(void)
{
	struct report r;

	report_init(&r, NULL);
	add(&r, 10, 10, "sh", 100, 1, 0);
	add(&r, 21, 20, "app", 100, 0, 0); /* a worker ends */
	add(&r, 22, 20, "app", 100, 0, 0);
	add(&r, 20, 20, "app", 100, 1, 0); /* then the leader, ending the process */
	is_int(r.procs, 2, "a single-threaded and a three-thread process: 2 processes");
	is_int(r.threads, 4, "... and 4 threads");
	/* the leader ends first (pthread_exit), a worker last */
	add(&r, 30, 30, "pool", 101, 0, 0);
	add(&r, 31, 30, "worker", 101, 1, 0);
	is_int(r.procs, 3, "a process whose leader ended before its last thread counts once");
	is_int(procs_of(&r, "pool"), 1, "... by the name of its leader");
	report_free(&r);
}

/* A thread other than the leader runs exec: the old leader exits with the process's pid (its
 * record does not end the group), the other threads are killed, and the process goes on under
 * the same pid with the new name. */
static void exec_from_thread(void)
{
	struct report r;

	report_init(&r, NULL);
	add(&r, 40, 40, "workload", 200, 0, 0); /* the old leader */
	add(&r, 41, 40, "workload", 200, 0, 0); /* a thread killed by the exec */
	add(&r, 40, 40, "true", 200, 1, 0);     /* the exec'd program ends the process */
	is_int(r.procs, 1, "exec from a non-leader thread: 1 process, not 2");
	is_int(r.threads, 3, "... of 3 thread records");
	is_int(procs_of(&r, "true"), 1, "... counted under the name it ended with");
	is_int(procs_of(&r, "workload"), 0, "... not under the name before the exec");
	/* the same at the end of the run, the exec'd program still running */
	add(&r, 50, 50, "workload", 201, 0, 0);
	add(&r, 50, 50, "sleep", 201, 0, 1);
	is_int(r.procs, 2, "exec from a thread, still running at the end: counted once");
	is_int(r.running, 1, "... as running");
	is_int(procs_of(&r, "sleep"), 1, "... under its new name");
	report_free(&r);
}

static void pid_reuse(void)
{
	struct report r;

	report_init(&r, NULL);
	add(&r, 60, 60, "a", 300, 1, 0);
	add(&r, 60, 60, "b", 300, 1, 0);
	is_int(r.procs, 2, "a pid reused after its process ended is a new process");
	add(&r, 70, 70, "c", 300, 0, 0); /* a leader's record that does not end it, then a record lost */
	add(&r, 70, 70, "d", 310, 1, 0);
	is_int(r.procs, 4, "a leader record with a later start time is a new process");
	report_free(&r);
}

/* A run of three processes: sh, a two-thread "make" and a hostile name; kinds with and without
 * counts, a maximum, and a kind the kernel did not give. */
static void build_run(struct report *r, char **argv)
{
	struct exit_task t;

	report_init(r, argv);
	r->wait_status = 2 << 8; /* exited with status 2 */
	r->wall_s = 3.5;
	r->lost = 1;
	t = rec(10, 10, "sh", 100, 1);
	t.cgroup = "/user.slice/session-3.scope";
	t.delays.kinds = t.delays.kinds_count = 1u << DK_CPU | 1u << DK_IO;
	t.delays.total_ns[DK_CPU] = 50000000;
	t.delays.count[DK_CPU] = 40;
	t.delays.counted_ns[DK_CPU] = 50000000;
	t.delays.run_ns = 200000000;
	report_add(r, &t, 0);
	t = rec(21, 20, "make", 101, 0);
	t.cgroup = "/system.slice/build.service";
	t.delays.kinds = t.delays.kinds_count = t.delays.kinds_max = 1u << DK_CPU | 1u << DK_IO;
	t.delays.total_ns[DK_IO] = 1500000000;
	t.delays.count[DK_IO] = 3;
	t.delays.counted_ns[DK_IO] = 1500000000;
	t.delays.max_ns[DK_IO] = 900000000;
	t.delays.run_ns = 1000000000;
	/* its I/O and switches: summed per command, the high-water mark the highest */
	t.delays.acct_have = 1u << AF_READ | 1u << AF_WRITE | 1u << AF_WCHAR | 1u << AF_VCSW | 1u << AF_UTIME |
			     1u << AF_MAXRSS;
	t.delays.acct[AF_READ] = 4096;
	t.delays.acct[AF_WRITE] = 1048576;
	t.delays.acct[AF_WCHAR] = 1048576;
	t.delays.acct[AF_VCSW] = 12;
	t.delays.acct[AF_UTIME] = 250000;
	t.delays.acct[AF_MAXRSS] = 2048;
	report_add(r, &t, 0);
	t.tid = 20;
	t.delays.acct[AF_MAXRSS] = 1024;
	t.group_dead = 1;
	report_add(r, &t, 0);
	t = rec(30, 30, "a,b\"c\xc2\x9b\xff", 102, 0);
	t.cgroup = "/system.slice/build.service";
	t.delays.kinds = 1u << DK_CPU; /* a total without a count */
	t.delays.total_ns[DK_CPU] = 7000000;
	report_add(r, &t, 1);
}

static char *print_run(enum output_format format)
{
	char *argv[] = { "sh", "-c", "make -j2 \x1b[2J", NULL };
	struct report r;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	build_run(&r, argv);
	if (f) {
		report_print(&r, format, f);
		fclose(f);
	}
	report_free(&r);
	return text ? text : strdup("");
}

/* A sum that adds a task without a kind to tasks with it is partial; a kind no task of a sum has
 * is unavailable, not partial. */
static void partial_sums(void)
{
	char *argv[] = { "sh", NULL };
	struct report r;

	build_run(&r, argv); /* "a,b..." has CPU delay only */
	is_int(report_partial(&r.sum, r.unknown), 1u << DK_IO, "the run's I/O sum is partial, its CPU sum not");
	for (size_t i = 0; i < r.ngroups; i++)
		ok(report_partial(&r.groups[i].sum, r.groups[i].unknown) == 0,
		   "a command's sums are whole when its tasks have the same kinds (%s)", r.groups[i].comm);
	for (size_t i = 0; i < r.ncgroups; i++) {
		int mixed = strcmp(r.cgroups[i].path, "/system.slice/build.service") == 0;

		ok(report_partial(&r.cgroups[i].sum, r.cgroups[i].unknown) == (mixed ? 1u << DK_IO : 0),
		   "a cgroup's I/O sum is partial only where a task without I/O ran beside one with it (%s)",
		   r.cgroups[i].path);
	}
	report_free(&r);
}

static void printed(void)
{
	golden("report.txt", print_run(FORMAT_TEXT));
	golden("report.json", print_run(FORMAT_JSON));
	golden("report.csv", print_run(FORMAT_CSV));
}

int main(void)
{
	plain();
	exec_from_thread();
	pid_reuse();
	partial_sums();
	printed();
	return tap_done();
}
