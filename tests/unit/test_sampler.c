/* test_sampler.c — the collectors and the sampler on a fake kernel (fakekernel.h), without root:
 * the rows a reading makes of a fixture /proc tree and its taskstats replies. Ids, names and
 * users; the rates of every delay kind from two readings against values worked out by hand;
 * first readings (fresh) and tasks born since the last one (rates from zero); thread mode's
 * shortcut (a process whose answer did not move has its threads carried over, not asked);
 * threads that come and go, exit records (of tasks read before, and of a process never read),
 * departed rows; tasks gone between the walk and the query; a reused pid; delay accounting
 * switched off; limited mode from /proc without CAP_NET_ADMIN, with its partial rows; the threads'
 * states the cgroup view counts, and none read when none are wanted; a thread's I/O read again only
 * when it ran; what the tasks keep (totals, accounting fields, longest waits) as the front end
 * asks, the same numbers either way; a first reading's states read on a second thread beside the
 * queries (the threshold lowered). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exitqueue.h"
#include "fakekernel.h"
#include "sampler.h"
#include "snapcopy.h"
#include "tap.h"

#define SEC 1000000000ull
#define NOBODY 3999999u /* a uid with no entry in the user database: named by its number */

enum { LIVE, EXITED, DEPARTED };

/* The row of (pid, tid) among the snapshot's: a live one, one that exited in the interval, or a
 * departed one. */
static const struct row *row_of(const struct snapshot *s, uint32_t pid, uint32_t tid, int which)
{
	for (size_t i = 0; i < s->nrows; i++) {
		const struct row *r = &s->rows[i];
		int kind = r->departed ? DEPARTED : r->exited ? EXITED : LIVE;

		if (r->pid == pid && r->tid == tid && kind == which)
			return r;
	}
	return NULL;
}

static struct sampler *open_on(struct fake_kernel *fk, int threads)
{
	struct sampler_opts o = { .threads = threads, .listen = 1, .departed = 1 };
	struct sampler *s = NULL;
	char err[256] = "";

	if (sampler_open_kernel(&s, &o, &fk->k, err, sizeof(err)) < 0)
		ok(0, "the sampler opens on the fake kernel: %s", err);
	return s;
}

/* Moves the clock on by secs and takes a reading. */
static int tick(struct sampler *s, struct fake_kernel *fk, uint64_t secs, struct snapshot *snap)
{
	char err[256];

	fk->now += secs * SEC;
	fk->nasked_pid = fk->nasked_tgid = 0;
	return sampler_tick(s, snap, err, sizeof(err));
}

static int was_asked(const struct fake_kernel *fk, uint32_t tid)
{
	for (int i = 0; i < fk->nasked_pid; i++)
		if (fk->asked_pid[i] == tid)
			return 1;
	return 0;
}

/* Checks one kind's rates of a row: percent, average wait (ms) and waits per second. */
static void check_kind(const struct row *r, int k, double pct, double avg_ms, double per_s)
{
	char what[128];

	snprintf(what, sizeof(what), "%s: %.2f%% of the interval", delay_kinds[k].key, pct);
	is_num(r ? r->r.kind[k].pct : -1, pct, 1e-4, what);
	snprintf(what, sizeof(what), "%s: %.2f ms a wait", delay_kinds[k].key, avg_ms);
	is_num(r ? r->r.kind[k].avg_ms : -1, avg_ms, 1e-4, what);
	snprintf(what, sizeof(what), "%s: %.2f waits a second", delay_kinds[k].key, per_s);
	is_num(r ? r->r.kind[k].per_s : -1, per_s, 1e-4, what);
}

/* Server (pid 100: threads 100 and 101, root) and a sleeper (pid 200, one thread, a user with no
 * name), each thread with some history. */
static void fixture(struct fake_kernel *fk)
{
	struct fk_proc *p;
	struct fk_thread *t;

	fk_init(fk, 100);
	p = fk_add_proc(fk, 100, 1, 0, 10, "server", "server --port 80");
	t = fk_add_thread(p, 100, 10, "server");
	fk_wait(t, DK_CPU, 700, 70);
	fk_run(t, 9000);
	t = fk_add_thread(p, 101, 20, "worker");
	fk_wait(t, DK_IO, 1200, 12);
	fk_run(t, 3000);
	p = fk_add_proc(fk, 200, 1, NOBODY, 30, "sleeper", NULL);
	t = fk_add_thread(p, 200, 30, "sleeper");
	fk_wait(t, DK_CPU, 5, 1);
}

/* Process mode: one answer per process, the sums of its threads; every kind's rate over an
 * interval of 2 s. */
static void test_processes(void)
{
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s;
	const struct row *r;
	struct fk_proc *p;

	fixture(&fk);
	s = open_on(&fk, 0);
	ok(sampler_notice(s) == NULL, "process mode: no notice when taskstats answers");
	is_int(tick(s, &fk, 0, &snap), 0, "the first reading");
	is_int(snap.nrows, 2, "a row per process");
	is_num(snap.interval_s, 0, 0, "the first reading has no interval");
	ok(snap.nprocs == 2 && snap.nthreads == 3, "the walk saw 2 processes, 3 threads");
	r = row_of(&snap, 100, 0, LIVE);
	ok(r && r->fresh && isnan(r->r.kind[DK_CPU].pct) && isnan(r->r.total_pct),
	   "a first reading is fresh: no rates");

	p = &fk.p[0];
	fk_wait(&p->t[0], DK_CPU, 40, 4);
	fk_wait(&p->t[0], DK_IO, 100, 2);
	fk_wait(&p->t[0], DK_SWAPIN, 20, 1);
	fk_wait(&p->t[0], DK_RECLAIM, 10, 1);
	fk_wait(&p->t[1], DK_THRASHING, 30, 3);
	fk_wait(&p->t[1], DK_COMPACT, 6, 2);
	fk_wait(&p->t[1], DK_WPCOPY, 2, 1);
	fk_wait(&p->t[1], DK_IRQ, 1, 1);
	fk_run(&p->t[0], 300);
	fk_run(&p->t[1], 200);
	is_int(tick(s, &fk, 2, &snap), 0, "the second reading, 2 s later");
	is_num(snap.interval_s, 2.0, 1e-9, "its interval is 2 s");
	is_int(fk.nasked_tgid, 2, "one query per process, by tgid");
	r = row_of(&snap, 100, 0, LIVE);
	ok(r != NULL, "the server's row");
	if (!r)
		return;
	ok(r->tid == 0 && r->ppid == 1 && r->uid == 0 && r->nthreads == 2 && r->state == 'S' && !r->fresh,
	   "its ids: pid 100, no tid, parent 1, uid 0, 2 threads, sleeping, not fresh");
	is_str(r->comm, "server", "its name from its stat");
	is_str(r->cmdline, "server --port 80", "its command line");
	is_str(r->user, "root", "uid 0 is root");
	check_kind(r, DK_CPU, 2.0, 10.0, 2.0);
	check_kind(r, DK_IO, 5.0, 50.0, 1.0);
	check_kind(r, DK_SWAPIN, 1.0, 20.0, 0.5);
	check_kind(r, DK_RECLAIM, 0.5, 10.0, 0.5);
	check_kind(r, DK_THRASHING, 1.5, 10.0, 1.5);
	check_kind(r, DK_COMPACT, 0.3, 3.0, 1.0);
	check_kind(r, DK_WPCOPY, 0.1, 2.0, 0.5);
	check_kind(r, DK_IRQ, 0.05, 1.0, 0.5);
	is_num(r->r.total_pct, 10.45, 1e-4, "total: the sum of the kinds, 10.45%");
	is_num(r->r.run_pct, 25.0, 1e-4, "run time: 500 ms of 2 s, 25%");
	r = row_of(&snap, 200, 0, LIVE);
	ok(r && r->r.kind[DK_CPU].pct == 0 && r->r.total_pct == 0,
	   "the sleeper waited nothing: 0%%, not unavailable");
	is_str(r ? r->user : NULL, "3999999", "a uid without a name is its number");
	is_str(r ? r->cmdline : NULL, "[sleeper]",
	       "a process without a command line is its name in brackets");
	sampler_close(s);
	ok(fk.closed, "closing the sampler closes its kernel");
}

/* Thread mode: a row per thread, its name from its record; the threads of a process whose answer
 * did not move are carried over, not asked; threads born and ended between readings; the exit
 * record's final counters, then a departed row. */
static void test_threads(void)
{
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s;
	const struct row *r;
	struct fk_proc *p;
	struct fk_thread *born;

	fixture(&fk);
	p = &fk.p[0];
	s = open_on(&fk, 1);
	tick(s, &fk, 0, &snap);
	is_int(snap.nrows, 3, "thread mode: a row per thread");
	r = row_of(&snap, 100, 101, LIVE);
	ok(r && r->fresh && r->nthreads == 1, "a thread's first row is fresh, of one thread");
	is_str(r ? r->comm : NULL, "worker", "a thread's name from its taskstats record");
	ok(was_asked(&fk, 100) && was_asked(&fk, 101) && was_asked(&fk, 200),
	   "the first reading asks every thread");
	ok(fk.nasked_tgid == 2 && fk.nread_process == 2,
	   "and each process once, right before its threads (%d), its stat read once (%d)", fk.nasked_tgid,
	   fk.nread_process);

	fk_wait(&p->t[1], DK_IO, 300, 3);
	tick(s, &fk, 2, &snap);
	r = row_of(&snap, 100, 101, LIVE);
	ok(r && !r->fresh, "the worker's second row has rates");
	if (r)
		check_kind(r, DK_IO, 15.0, 100.0, 1.5);
	ok(was_asked(&fk, 100) && was_asked(&fk, 101), "the threads of the process that moved are asked");
	ok(!was_asked(&fk, 200), "the thread of the process that did not move is not asked");
	r = row_of(&snap, 200, 200, LIVE);
	ok(r && !r->fresh && r->r.kind[DK_CPU].pct == 0 && r->r.kind[DK_IO].pct == 0,
	   "its reading is carried over: a row with 0%%, not fresh");

	fk_wait(&p->t[1], DK_IO, 100, 1); /* then it ends */
	fk_exit(&fk, p, &p->t[1]);
	born = fk_add_thread(p, 102, 103, "helper"); /* born 1 s after the last reading */
	fk_wait(born, DK_IO, 200, 1);
	fk_wait(&fk.p[1].t[0], DK_CPU, 60, 3);
	tick(s, &fk, 2, &snap);
	r = row_of(&snap, 100, 102, LIVE);
	ok(r && !r->fresh, "a thread born since the last reading has rates at once");
	if (r)
		check_kind(r, DK_IO, 10.0, 200.0, 0.5);
	r = row_of(&snap, 100, 101, EXITED);
	ok(r && r->state == 'X' && !r->departed,
	   "the thread that ended: its exit record makes an exited row");
	if (r)
		check_kind(r, DK_IO, 5.0, 100.0, 0.5);
	ok(was_asked(&fk, 200), "the sleeper's process moved: its thread is asked again");
	r = row_of(&snap, 200, 200, LIVE);
	if (r)
		check_kind(r, DK_CPU, 3.0, 20.0, 1.5);
	ok(r != NULL, "the sleeper's row");

	tick(s, &fk, 2, &snap);
	ok(row_of(&snap, 100, 101, EXITED) == NULL, "the next reading has no exited row for it");
	r = row_of(&snap, 100, 101, DEPARTED);
	ok(r && r->acc && isnan(r->r.kind[DK_IO].pct), "but a departed row, with totals and no rates");
	ok(r && r->acc->kinds & (1u << DK_IO) && r->acc->total_ns[DK_IO] == 400000000ull,
	   "its IO total since the start: 300 ms and 100 ms");
	sampler_close(s);
}

/* Tasks the walk lists but that are gone when asked (ESRCH), or whose stat is gone: no row, and
 * the next answer is a first reading. */
static void test_vanishing(void)
{
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s;
	struct fk_proc *p, *q;
	const struct row *r;

	fixture(&fk);
	p = fk_add_proc(&fk, 300, 1, 0, 40, "gone", NULL);
	fk_add_thread(p, 300, 40, "gone");
	p->gone_at_query = 1;
	q = fk_add_proc(&fk, 400, 1, 0, 40, "statless", NULL);
	fk_add_thread(q, 400, 40, "statless");
	q->gone_at_stat = 1;
	s = open_on(&fk, 0);
	is_int(tick(s, &fk, 0, &snap), 0, "a reading with tasks gone between the walk and the query");
	ok(!row_of(&snap, 300, 0, LIVE), "a process with no answer has no row");
	ok(!row_of(&snap, 400, 0, LIVE), "a process whose stat is gone has no row");
	is_int(snap.nrows, 2, "the others have theirs");
	p->gone_at_query = 0;
	fk_wait(&p->t[0], DK_CPU, 10, 1);
	tick(s, &fk, 2, &snap);
	r = row_of(&snap, 300, 0, LIVE);
	ok(r && r->fresh && isnan(r->r.kind[DK_CPU].pct),
	   "answered at last, a process that started long before is fresh: no rates yet");
	tick(s, &fk, 2, &snap);
	r = row_of(&snap, 300, 0, LIVE);
	ok(r && !r->fresh && r->r.kind[DK_CPU].pct == 0, "and has rates at the next reading");
	sampler_close(s);

	fixture(&fk);
	fk.p[0].t[1].gone_at_query = 1;
	s = open_on(&fk, 1);
	tick(s, &fk, 0, &snap);
	ok(!row_of(&snap, 100, 101, LIVE) && row_of(&snap, 100, 100, LIVE),
	   "thread mode: a thread gone when asked has no row, its siblings have theirs");
	sampler_close(s);
}

/* A walk that lists no process (a -p selection all gone): readings with no rows, in both modes.
 * The collector then has made no room for answers; a sanitizer build fails here if any of its
 * calls is given that null room, even for 0 bytes (collect.c's memset did). */
static void test_nothing_listed(void)
{
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s;

	for (int threads = 0; threads <= 1; threads++) {
		fk_init(&fk, 100);
		s = open_on(&fk, threads);
		is_int(tick(s, &fk, 0, &snap), 0, threads ? "thread mode: a first reading of nothing" :
							     "a first reading of nothing");
		is_int(tick(s, &fk, 2, &snap), 0, threads ? "thread mode: and the next" : "and the next");
		is_int(snap.nrows, 0, threads ? "thread mode: no rows" : "no rows");
		sampler_close(s);
	}
}

/* A pid reused between two readings: the old process's exit record ends its row, the new one is
 * another task, with rates from zero as it was born in the interval. */
static void test_pid_reuse(void)
{
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s;
	struct fk_proc *old, *young;
	const struct row *r, *n;

	fk_init(&fk, 100);
	old = fk_add_proc(&fk, 500, 1, 0, 50, "old", NULL);
	fk_add_thread(old, 500, 50, "old");
	s = open_on(&fk, 0);
	tick(s, &fk, 0, &snap);
	fk_wait(&old->t[0], DK_CPU, 100, 1);
	tick(s, &fk, 2, &snap);
	fk_wait(&old->t[0], DK_CPU, 100, 2);
	fk_exit(&fk, old, &old->t[0]);
	young = fk_add_proc(&fk, 500, 1, 0, 103, "young", NULL);
	fk_add_thread(young, 500, 103, "young");
	fk_wait(&young->t[0], DK_IO, 50, 1);
	tick(s, &fk, 2, &snap);
	r = row_of(&snap, 500, 0, EXITED);
	n = row_of(&snap, 500, 0, LIVE);
	ok(r && n && r->start_ns != n->start_ns, "pid 500 reused: two rows, two start times");
	is_str(r ? r->comm : NULL, "old", "the old process's row keeps its name");
	if (r)
		check_kind(r, DK_CPU, 5.0, 50.0, 1.0);
	is_str(n ? n->comm : NULL, "young", "the new process has its own");
	ok(n && !n->fresh, "born in the interval: rates from zero");
	if (n)
		check_kind(n, DK_IO, 2.5, 50.0, 0.5);
	sampler_close(s);
}

/* Thread mode, answers handed over late: a reading whose send was preempted gets its answers
 * 60 ms after the kernel made them, so a start made from one (time - age) is 60 ms late. The
 * answer says how late it may be: the thread is the one seen before, with rates, not a new one. */
static void test_late_answers(void)
{
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s;
	const struct row *r;

	fixture(&fk);
	s = open_on(&fk, 1);
	tick(s, &fk, 0, &snap);
	fk.lag = 60000000; /* 60 ms, three times SAME_START_NS */
	fk_wait(&fk.p[0].t[1], DK_IO, 300, 3);
	tick(s, &fk, 2, &snap);
	r = row_of(&snap, 100, 101, LIVE);
	ok(r && !r->fresh, "a late answer: the same thread, with rates");
	if (r) /* over 2.06 s: its reading is as of the time it came with */
		check_kind(r, DK_IO, 30.0 / 2.06, 100.0, 3 / 2.06);
	ok(row_of(&snap, 100, 101, EXITED) == NULL, "and no exited row for it");
	fk.lag = 0; /* on time again: its start 60 ms earlier than the late one said */
	fk_wait(&fk.p[0].t[1], DK_IO, 100, 1);
	tick(s, &fk, 2, &snap);
	r = row_of(&snap, 100, 101, LIVE);
	ok(r && !r->fresh, "an answer on time after a late one: still the same thread");
	if (r)
		check_kind(r, DK_IO, 10.0 / 1.94, 100.0, 1 / 1.94);
	sampler_close(s);
}

/* Process mode's exit records: a process born and ended between two readings, known only from
 * its exit record; a thread that ends while its process lives on (its waits stay in the process's
 * sums); a process whose last thread ends; then their departed rows. */
static void test_process_exits(void)
{
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s;
	struct fk_proc *job, *server, *sleeper;
	const struct row *r;

	fixture(&fk);
	server = &fk.p[0];
	sleeper = &fk.p[1];
	s = open_on(&fk, 0);
	tick(s, &fk, 0, &snap);
	fk.now += 2 * SEC; /* the exits come just before the next reading */
	job = fk_add_proc(&fk, 700, 100, 0, 101, "job", NULL);
	fk_wait(fk_add_thread(job, 700, 101, "job"), DK_IO, 100, 1);
	fk_exit(&fk, job, &job->t[0]);
	fk_wait(&server->t[1], DK_IO, 60, 2);
	fk_run(&server->t[1], 5); /* a thread runs to exit */
	fk_exit(&fk, server, &server->t[1]);
	fk_wait(&sleeper->t[0], DK_CPU, 20, 1);
	fk_exit(&fk, sleeper, &sleeper->t[0]);
	tick(s, &fk, 0, &snap);
	r = row_of(&snap, 700, 0, EXITED);
	ok(r && !r->fresh && r->state == 'X',
	   "a process seen only in its exit record: an exited row with rates");
	ok(r && r->ppid == 100 && r->uid == 0, "its parent and user from the record");
	is_str(r ? r->comm : NULL, "job", "its name from the record");
	if (r)
		check_kind(r, DK_IO, 5.0, 100.0, 0.5);
	r = row_of(&snap, 100, 0, LIVE);
	ok(r && r->nthreads == 1, "the server lives on with one thread");
	if (r)
		check_kind(r, DK_IO, 3.0, 30.0, 1.0);
	r = row_of(&snap, 200, 0, EXITED);
	ok(r && !row_of(&snap, 200, 0, LIVE), "the sleeper's last thread ended: its row is an exited one");
	if (r)
		check_kind(r, DK_CPU, 1.0, 20.0, 0.5);
	tick(s, &fk, 2, &snap);
	ok(row_of(&snap, 700, 0, DEPARTED) && row_of(&snap, 200, 0, DEPARTED) &&
		   !row_of(&snap, 200, 0, EXITED),
	   "the next reading has them as departed rows");
	sampler_close(s);
}

/* kernel.task_delayacct off: only CPU delay is accounted, the other kinds are unavailable. */
static void test_delayacct_off(void)
{
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s;
	const struct row *r;

	fixture(&fk);
	s = open_on(&fk, 0);
	tick(s, &fk, 0, &snap);
	fk.delayacct = DELAYACCT_OFF;
	fk_wait(&fk.p[0].t[0], DK_CPU, 40, 4);
	tick(s, &fk, 2, &snap);
	is_int(snap.delayacct, DELAYACCT_OFF, "the snapshot says the switch is off");
	r = row_of(&snap, 100, 0, LIVE);
	ok(r && isnan(r->r.kind[DK_IO].pct) && isnan(r->r.kind[DK_SWAPIN].pct) &&
		   isnan(r->r.kind[DK_IRQ].pct),
	   "the non-CPU kinds are unavailable, not 0");
	if (r)
		check_kind(r, DK_CPU, 2.0, 10.0, 2.0);
	sampler_close(s);
}

/* No CAP_NET_ADMIN: limited mode, from what /proc gives anyone: CPU delay with its count, block
 * I/O delay in whole clock ticks without one; a process row sums its threads and is partial when
 * a thread ended. */
static void test_limited(void)
{
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s;
	const struct row *r;
	struct fk_proc *p;

	fixture(&fk);
	fk.eperm = 1;
	p = &fk.p[0];
	s = open_on(&fk, 0);
	ok(sampler_notice(s) != NULL, "without the capability the sampler says so");
	tick(s, &fk, 0, &snap);
	ok(snap.limited && !snap.listening, "the snapshot is limited, with no exit records");
	r = row_of(&snap, 100, 0, LIVE);
	ok(r && r->fresh, "limited mode: a first reading is fresh");
	fk_wait(&p->t[0], DK_CPU, 40, 4);
	fk_wait(&p->t[0], DK_IO, 100, 2);
	fk_wait(&p->t[1], DK_IO, 25, 1);      /* /proc rounds it down to 20 ms */
	fk_wait(&p->t[1], DK_SWAPIN, 100, 1); /* /proc does not have it */
	tick(s, &fk, 2, &snap);
	r = row_of(&snap, 100, 0, LIVE);
	ok(r && !r->fresh && !r->partial && r->nthreads == 2, "the process row sums its 2 threads, whole");
	if (!r)
		return;
	check_kind(r, DK_CPU, 2.0, 10.0, 2.0);
	is_num(r->r.kind[DK_IO].pct, 6.0, 1e-4, "io: 120 ms of 2 s, 6%");
	ok(isnan(r->r.kind[DK_IO].per_s) && isnan(r->r.kind[DK_SWAPIN].pct),
	   "io has no count, swapin is not in /proc: unavailable");
	p->t[1].present = 0; /* the worker ends; limited mode has no exit records */
	fk_wait(&p->t[0], DK_CPU, 20, 2);
	tick(s, &fk, 2, &snap);
	r = row_of(&snap, 100, 0, LIVE);
	ok(r && r->partial && r->nthreads == 1, "a thread ended: the row is partial");
	sampler_close(s);

	fixture(&fk);
	fk.eperm = 1;
	s = open_on(&fk, 1);
	tick(s, &fk, 0, &snap);
	fk_wait(&fk.p[0].t[1], DK_IO, 50, 1);
	tick(s, &fk, 2, &snap);
	r = row_of(&snap, 100, 101, LIVE);
	ok(r && !r->fresh, "limited thread mode: a row per thread");
	is_str(r ? r->comm : NULL, "worker", "named from its stat");
	is_num(r ? r->r.kind[DK_IO].pct : -1, 2.5, 1e-4, "io: 50 ms of 2 s");
	sampler_close(s);
}

/* Thread mode's shortcuts (steady.h): a still process is steady, its threads carried; a process
 * that moved at the last tick is split, its hot threads asked before its per-process answer and
 * the others carried only when that answer proves they did not move. No delay is missed either
 * way: a cold thread that wakes in the same interval as the hot one, a hot thread that spins
 * without switching, a thread that ends between readings, a new thread, a process that goes
 * quiet and one that wakes. */
static void test_prediction(void)
{
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s;
	const struct row *r;
	struct fk_thread *w, *idle, *late;
	struct fk_proc *p;

	fixture(&fk);
	p = &fk.p[0];
	for (uint32_t tid = 102; tid <= 105; tid++)
		fk_add_thread(p, tid, 40, "idle");
	w = &p->t[1];
	idle = &p->t[2];
	s = open_on(&fk, 1);
	tick(s, &fk, 0, &snap);
	fk_run(w, 500);
	fk_wait(w, DK_CPU, 100, 10);
	tick(s, &fk, 1, &snap);
	ok(fk.nasked_tgid == 3 && was_asked(&fk, 101) && was_asked(&fk, 105) && !was_asked(&fk, 200),
	   "tick 2: both processes asked as processes, the one that moved again right before its every thread");
	fk_run(w, 500);
	fk_wait(w, DK_CPU, 200, 10);
	tick(s, &fk, 1, &snap);
	ok(fk.nasked_tgid == 2 && fk.nasked_pid == 1 && was_asked(&fk, 101),
	   "tick 3: the process that moved is split: its hot thread asked first, alone (%d asked)", fk.nasked_pid);
	r = row_of(&snap, 100, 101, LIVE);
	ok(r && fabsf(r->r.kind[DK_CPU].pct - 20.0f) < 1e-3f, "its CPU delay is all there: 200 ms of 1 s, %.3f%%",
	   r ? r->r.kind[DK_CPU].pct : -1);
	r = row_of(&snap, 100, 104, LIVE);
	ok(r && r->r.kind[DK_CPU].pct == 0 && r->r.kind[DK_IO].pct == 0, "a carried thread has its row, at 0%%");

	w->c.run_virtual_ns += 300 * 1000000ull; /* spins: CPU time, no switch */
	w->c.run_real_ns += 300 * 1000000ull;
	fk_wait(idle, DK_IO, 250, 1);
	fk_run(idle, 1);
	tick(s, &fk, 1, &snap);
	ok(was_asked(&fk, 100) && was_asked(&fk, 102) && was_asked(&fk, 105),
	   "tick 4: a cold thread woke with the hot one: the split fails, every thread asked");
	r = row_of(&snap, 100, 102, LIVE);
	ok(r && fabsf(r->r.kind[DK_IO].pct - 25.0f) < 1e-3f, "the woken thread's I/O wait: 25%% (%.3f)",
	   r ? r->r.kind[DK_IO].pct : -1);
	r = row_of(&snap, 100, 101, LIVE);
	ok(r && fabsf(r->r.run_pct - 30.0f) < 1e-3f, "the spinning thread's CPU time: 30%% (%.3f)", r ? r->r.run_pct : -1);

	fk_wait(w, DK_CPU, 100, 1);
	fk_run(w, 1);
	fk_wait(idle, DK_IO, 50, 1);
	fk_exit(&fk, p, idle);
	tick(s, &fk, 1, &snap);
	ok(was_asked(&fk, 103), "tick 5: a thread the sum counted ended: every thread asked");
	r = row_of(&snap, 100, 101, LIVE);
	ok(r && fabsf(r->r.kind[DK_CPU].pct - 10.0f) < 1e-3f, "the hot thread: 10%% (%.3f)",
	   r ? r->r.kind[DK_CPU].pct : -1);
	r = row_of(&snap, 100, 102, EXITED);
	ok(r && fabsf(r->r.kind[DK_IO].pct - 5.0f) < 1e-3f, "the ended thread's last wait, from its exit record: 5%% (%.3f)",
	   r ? r->r.kind[DK_IO].pct : -1);

	fk_wait(w, DK_CPU, 50, 1);
	fk_run(w, 1);
	tick(s, &fk, 1, &snap);
	ok(fk.nasked_pid == 1 && was_asked(&fk, 101),
	   "tick 6: split again, what the ended thread left known (%d asked)", fk.nasked_pid);
	r = row_of(&snap, 100, 101, LIVE);
	ok(r && fabsf(r->r.kind[DK_CPU].pct - 5.0f) < 1e-3f, "5%% (%.3f)", r ? r->r.kind[DK_CPU].pct : -1);

	late = fk_add_thread(p, 106, 0, "late");
	late->start_ticks = (fk.now + SEC / 2) / fk_tick_ns();
	fk_wait(late, DK_CPU, 70, 7);
	fk_run(late, 5);
	fk_wait(w, DK_CPU, 10, 1);
	fk_run(w, 1);
	tick(s, &fk, 1, &snap);
	ok(fk.nasked_pid == 2 && was_asked(&fk, 101) && was_asked(&fk, 106),
	   "tick 7: a new thread is hot: asked first with the other (%d asked)", fk.nasked_pid);
	r = row_of(&snap, 100, 106, LIVE);
	ok(r && fabsf(r->r.kind[DK_CPU].pct - 7.0f) < 1e-3f, "the new thread's waits since its start: 7%% (%.3f)",
	   r ? r->r.kind[DK_CPU].pct : -1);

	tick(s, &fk, 1, &snap);
	r = row_of(&snap, 100, 101, LIVE);
	ok(fk.nasked_pid == 2 && r && r->r.kind[DK_CPU].pct == 0, "tick 8, quiet: the hot threads asked, 0%%");
	tick(s, &fk, 1, &snap);
	ok(fk.nasked_tgid == 2 && fk.nasked_pid == 0, "tick 9: steady, nothing asked by thread (%d)", fk.nasked_pid);
	fk_wait(&p->t[3], DK_CPU, 300, 3);
	fk_run(&p->t[3], 100);
	tick(s, &fk, 1, &snap);
	r = row_of(&snap, 100, 103, LIVE);
	ok(was_asked(&fk, 103) && r && fabsf(r->r.kind[DK_CPU].pct - 30.0f) < 1e-3f,
	   "tick 10, a cold thread wakes: the process moved, its threads asked: 30%% (%.3f)",
	   r ? r->r.kind[DK_CPU].pct : -1);
	sampler_close(s);
}

/* A big machine's second reading: a process whose timer thread ran about once a second or more
 * over its life is split at once, the timer guessed hot at the first reading; a wrong guess (a
 * cold thread ran instead) costs a full reading of the process, as before; so does a process whose
 * threads ran rarely, whose readings do not guess. */
static void test_first_guess(void)
{
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s;
	struct fk_proc *p, *q;
	const struct row *r;

	fixture(&fk);
	p = fk_add_proc(&fk, 300, 1, 0, 50, "pool", NULL);
	fk_wait(fk_add_thread(p, 300, 50, "pool"), DK_CPU, 50, 100); /* 100 waits in 50 s: a timer */
	for (uint32_t tid = 301; tid <= 304; tid++)
		fk_wait(fk_add_thread(p, tid, 50, "idle"), DK_CPU, 1, 1);
	q = fk_add_proc(&fk, 400, 1, 0, 50, "other", NULL);
	for (uint32_t tid = 400; tid <= 404; tid++)
		fk_wait(fk_add_thread(q, tid, 50, "idle"), DK_CPU, 1, 1);
	s = open_on(&fk, 1);
	tick(s, &fk, 0, &snap);
	fk_wait(&p->t[0], DK_CPU, 30, 3);
	fk_run(&p->t[0], 10);
	fk_wait(&q->t[2], DK_CPU, 40, 4);
	fk_run(&q->t[2], 10);
	tick(s, &fk, 1, &snap);
	ok(was_asked(&fk, 300) && !was_asked(&fk, 301) && !was_asked(&fk, 304),
	   "second reading: the pool is split, only its timer asked of it");
	ok(was_asked(&fk, 400) && was_asked(&fk, 402) && was_asked(&fk, 404),
	   "the process whose threads ran rarely is read whole when one runs");
	r = row_of(&snap, 300, 300, LIVE);
	ok(r && fabsf(r->r.kind[DK_CPU].pct - 3.0f) < 1e-3f, "the timer's CPU delay: 30 ms of 1 s, %.3f%%",
	   r ? r->r.kind[DK_CPU].pct : -1);
	r = row_of(&snap, 400, 402, LIVE);
	ok(r && fabsf(r->r.kind[DK_CPU].pct - 4.0f) < 1e-3f, "the other's: 4%% (%.3f)", r ? r->r.kind[DK_CPU].pct : -1);
	fk_wait(&p->t[3], DK_CPU, 20, 2);
	fk_run(&p->t[3], 10);
	fk_run(&p->t[0], 1);
	tick(s, &fk, 1, &snap);
	r = row_of(&snap, 300, 303, LIVE);
	ok(was_asked(&fk, 301) && was_asked(&fk, 304) && r && fabsf(r->r.kind[DK_CPU].pct - 2.0f) < 1e-3f,
	   "a cold thread of the pool ran with the timer: the split fails, every thread asked, its 2%% (%.3f)",
	   r ? r->r.kind[DK_CPU].pct : -1);
	sampler_close(s);
}

/* What is newly asked for (the accounting fields) has every thread asked at the next tick: the
 * threads of a still process, carried over, have none of it; then they are carried again. */
static void test_newly_wanted(void)
{
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s;
	const struct row *r;

	fixture(&fk);
	s = open_on(&fk, 1);
	tick(s, &fk, 0, &snap);
	tick(s, &fk, 1, &snap);
	ok(fk.nasked_pid == 0, "still: no thread asked (%d)", fk.nasked_pid);
	sampler_set_wants(s, WANT_ACCT);
	tick(s, &fk, 1, &snap);
	r = row_of(&snap, 200, 200, LIVE);
	ok(was_asked(&fk, 200) && was_asked(&fk, 101) && r && r->acct,
	   "the accounting fields asked for: every thread asked at the next tick, with them");
	tick(s, &fk, 1, &snap);
	ok(fk.nasked_pid == 0, "then carried again (%d asked)", fk.nasked_pid);
	sampler_close(s);
}

/* The cgroup view on v2 counts a process's threads by state, reading each thread's state when it
 * is new or ran (test_threadnotes.c follows it further); a sampler told that no states are wanted
 * (the metrics' cgroups) reads none and asks no thread. */
static void test_states(void)
{
	for (int no_states = 0; no_states <= 1; no_states++) {
		struct sampler_opts o = { .listen = 1, .cgroups = 1, .no_states = no_states };
		struct fake_kernel fk;
		struct snapshot snap;
		struct sampler *s = NULL;
		const struct row *r;
		char err[256] = "";
		uint32_t sum = 0;

		fixture(&fk);
		fk.v2 = 1;
		if (sampler_open_kernel(&s, &o, &fk.k, err, sizeof(err)) < 0) {
			ok(0, "the sampler opens on the fake kernel: %s", err);
			return;
		}
		tick(s, &fk, 1, &snap);
		fk_run(&fk.p[0].t[1], 100); /* the server's worker runs; the sleeper does not */
		tick(s, &fk, 1, &snap);
		r = row_of(&snap, 100, 0, LIVE);
		for (int i = 0; r && i < CG_STATES; i++)
			sum += r->states[i];
		if (no_states)
			ok(fk.nstates == 0 && fk.nasked_pid == 0 && r && !r->have_states,
			   "no states wanted: no thread's state read (%d) or asked (%d), the process row has none",
			   fk.nstates, fk.nasked_pid);
		else
			ok(fk.nstates == 3 && r && r->have_states && sum == 2,
			   "states wanted: the server's 2 threads read at the first reading (the sleeper of one "
			   "thread has its stat's), at the second only the one that ran (%d reads), the row counts "
			   "its 2 threads (%u)", fk.nstates, sum);
		sampler_close(s);
	}
}

/* The prestate tests' fixture: FK_PROCS processes of FK_THREADS threads each, all new, in the
 * states R, S, D and T in turn. */
static void prestate_fixture(struct fake_kernel *fk)
{
	static const char states[] = "RSDT";

	fk_init(fk, 100);
	for (int i = 0; i < FK_PROCS; i++) {
		struct fk_proc *p = fk_add_proc(fk, 1000 + 10 * (uint32_t)i, 1, 0, 10, "busy", NULL);

		for (int j = 0; j < FK_THREADS; j++)
			fk_add_thread(p, p->pid + (uint32_t)j, 10, "busy")->state = states[(i + j) % 4];
	}
}

/* A sampler in thread mode on the fixture, whose first reading of many threads reads their
 * states beside the queries from min new threads on, and that reading into snap; NULL (said)
 * when it does not open. */
static struct sampler *prestate_read(struct fake_kernel *fk, size_t min, struct snapshot *snap)
{
	struct sampler_opts o = { .threads = 1, .listen = 1, .prestate_min = min };
	struct sampler *s = NULL;
	char err[256] = "";

	if (sampler_open_kernel(&s, &o, &fk->k, err, sizeof(err)) < 0) {
		ok(0, "the sampler opens on the fake kernel: %s", err);
		return NULL;
	}
	tick(s, fk, 1, snap);
	return s;
}

/* A first reading of many threads reads their states on a second thread while the sampler's asks
 * taskstats (prestate.h); the threshold, 2,048 new threads on a real machine, is lowered to 8 so
 * that the fake's 128 threads take that path. Every thread's state is read once, the reads and
 * the queries overlap (the fake's query waits until a state was read on the other thread), and
 * the rows have the states the fixture gives, as in a reading that reads them after the queries
 * (a threshold above the 128). */
static void test_prestate(void)
{
	for (int two = 0; two <= 1; two++) {
		struct fake_kernel fk;
		struct snapshot snap;
		struct sampler *s;
		int rows = 0, right = 0;

		prestate_fixture(&fk);
		fk.overlap = two;
		s = prestate_read(&fk, two ? 8 : 100000, &snap);
		if (!s)
			return;
		for (int i = 0; i < FK_PROCS; i++)
			for (int j = 0; j < FK_THREADS; j++) {
				const struct row *r = row_of(&snap, fk.p[i].pid, fk.p[i].t[j].tid, LIVE);

				rows += r != NULL;
				right += r && r->state == fk.p[i].t[j].state;
			}
		if (!two) {
			ok(rows == 128 && right == 128 && fk.nstates == 128 && fk.nstates_beside == 0,
			   "128 new threads, under the threshold: every state read once after the queries, on the "
			   "sampler's thread (%d rows, %d right, %d reads, %d beside)",
			   rows, right, (int)fk.nstates, (int)fk.nstates_beside);
		} else if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
			tap_skip(1, "one CPU: the states are read after the queries");
		} else {
			ok(rows == 128 && right == 128 && fk.nstates == 128 && fk.nstates_beside > 0 && fk.overlapped,
			   "128 new threads, over a threshold of 8: every state read once (%d), on the second thread "
			   "(%d) while the queries ran (%s), the rows' states right (%d of %d)",
			   (int)fk.nstates, (int)fk.nstates_beside, fk.overlapped ? "they waited for one" : "no",
			   right, rows);
		}
		sampler_close(s);
	}
}

/* Whether the table of test_prestate_table lacks the thread j of process i. */
static int table_lacks(int i, int j)
{
	return (i == 3 && j == 2) || (i == 7 && j == 0) || (i == 15 && j == 7);
}

/* With the kernel's table of every task's state (kernelops.h's all_states), the first reading of
 * many threads takes their states from it: the table says I for every thread but three it lacks,
 * whose states are read from /proc (the fixture's letters), and nothing else is read there. */
static void test_prestate_table(void)
{
	struct tid_state table[FK_PROCS * FK_THREADS];
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s;
	int rows = 0, from_table = 0, from_proc = 0;
	size_t nt = 0;

	prestate_fixture(&fk);
	for (int i = 0; i < FK_PROCS; i++)
		for (int j = 0; j < FK_THREADS; j++)
			if (!table_lacks(i, j))
				table[nt++] = (struct tid_state){ .tid = fk.p[i].t[j].tid, .state = 'I' };
	fk.table = table;
	fk.ntable = nt;
	s = prestate_read(&fk, 8, &snap);
	if (!s)
		return;
	for (int i = 0; i < FK_PROCS; i++)
		for (int j = 0; j < FK_THREADS; j++) {
			const struct row *r = row_of(&snap, fk.p[i].pid, fk.p[i].t[j].tid, LIVE);

			rows += r != NULL;
			from_table += r && !table_lacks(i, j) && r->state == 'I';
			from_proc += r && table_lacks(i, j) && r->state == fk.p[i].t[j].state;
		}
	ok(rows == 128 && from_table == 125 && from_proc == 3 && fk.nstates == 3 && fk.all_states_calls == 1,
	   "128 new threads with a table of 125 states: 125 taken from it (%d), the 3 it lacks read from "
	   "/proc (%d right, %d reads), the table asked once (%d)",
	   from_table, from_proc, (int)fk.nstates, fk.all_states_calls);
	sampler_close(s);
}

/* Thread mode with the accounting fields: a thread's I/O counters are read again only when it ran
 * since its last reading, also when its CPU time is not a whole number of microseconds (a
 * reading keeps it rounded down, the answer has it exact). */
static void test_io_reread(void)
{
	struct sampler_opts o = { .threads = 1, .listen = 1, .wants = WANT_ACCT };
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s = NULL;
	char err[256] = "";
	struct fk_thread *w;

	fixture(&fk);
	w = &fk.p[0].t[1];
	w->c.run_virtual_ns += 1234567; /* 1.234567 ms */
	w->c.run_real_ns += 1234567;
	if (sampler_open_kernel(&s, &o, &fk.k, err, sizeof(err)) < 0) {
		ok(0, "the sampler opens on the fake kernel: %s", err);
		return;
	}
	tick(s, &fk, 1, &snap);
	ok(fk.nio == 3, "the first reading reads the I/O of every thread (%d)", fk.nio);
	fk.nio = 0;
	fk_run(&fk.p[0].t[0], 1); /* the main thread runs: the process moved, its threads are asked */
	tick(s, &fk, 1, &snap);
	ok(fk.nio == 1 && was_asked(&fk, 101),
	   "the main thread ran, the worker did not: the worker asked, but only the main thread's I/O read (%d)",
	   fk.nio);
	fk.nio = 0;
	fk_run(w, 1);
	tick(s, &fk, 1, &snap);
	ok(fk.nio == 1 && was_asked(&fk, 101), "then the worker ran: its I/O read again, and only its (%d)", fk.nio);
	sampler_close(s);
}

static int same_num(float a, float b)
{
	return a == b || (isnan(a) && isnan(b));
}

/* Whether two rows have the same rates of the delays (the longest waits too, with max). */
static int same_delay_rates(const struct row *a, const struct row *b, int max)
{
	for (int k = 0; k < DK_COUNT; k++)
		if (!same_num(a->r.kind[k].pct, b->r.kind[k].pct) ||
		    !same_num(a->r.kind[k].avg_ms, b->r.kind[k].avg_ms) || !same_num(a->r.kind[k].per_s, b->r.kind[k].per_s) ||
		    (max && !same_num(a->r.kind[k].max_ms, b->r.kind[k].max_ms)))
			return 0;
	return same_num(a->r.total_pct, b->r.total_pct) && same_num(a->r.run_pct, b->r.run_pct) &&
	       a->r.impossible == b->r.impossible && a->r.carried == b->r.carried;
}

/* Whether two totals have the same delays and CPU time (their accounting fields aside). */
static int same_delay_totals(const struct kind_totals *a, const struct kind_totals *b)
{
	return memcmp(a->total_ns, b->total_ns, sizeof(a->total_ns)) == 0 &&
	       memcmp(a->count, b->count, sizeof(a->count)) == 0 &&
	       memcmp(a->counted_ns, b->counted_ns, sizeof(a->counted_ns)) == 0 &&
	       memcmp(a->max_ns, b->max_ns, sizeof(a->max_ns)) == 0 &&
	       memcmp(a->max_at_ns, b->max_at_ns, sizeof(a->max_at_ns)) == 0 && a->run_ns == b->run_ns &&
	       a->kinds == b->kinds && a->kinds_count == b->kinds_count && a->kinds_max == b->kinds_max;
}

enum { FULL, LEAN, PLAIN, MOVED, KEPT_RUNS };

/* The same waits on each fake kernel, then a reading of each sampler 2 s later. */
static void kept_step(struct fake_kernel *fk, struct sampler **s, struct snapshot *snap, int round)
{
	for (int i = 0; i < KEPT_RUNS; i++) {
		struct fk_thread *main_thread = &fk[i].p[0].t[0], *worker = &fk[i].p[0].t[1];

		if (round > 0) {
			fk_wait(worker, DK_IO, 300 * (uint64_t)round, 3);
			worker->c.kind_max |= 1u << DK_IO;
			worker->c.delay[DK_IO].max_ns = 150000000ull * (uint64_t)round;
			fk_wait(main_thread, DK_CPU, 40, 4);
			fk_run(main_thread, 100);
		}
		tick(s[i], &fk[i], round ? 2 : 0, &snap[i]);
	}
}

/* What the tasks keep as a front end asks: a sampler that keeps everything (the totals since the
 * start, the accounting fields, the longest waits), one that keeps neither totals nor anything
 * asked (sampler_opts.no_totals, as batch text keeps) and one with totals only, on the same fake
 * kernel: the rates of the delays and the totals are the same numbers whichever keeps them, what
 * is not kept is unavailable (acc NULL, NAN), and the accounting fields come and go with
 * sampler_set_wants. */
static void test_kept(void)
{
	const struct sampler_opts opts[KEPT_RUNS] = {
		[FULL] = { .threads = 1, .listen = 1, .departed = 1, .wants = WANT_ACCT | WANT_PEAKS },
		[LEAN] = { .threads = 1, .listen = 1, .no_totals = 1 },
		[PLAIN] = { .threads = 1, .listen = 1, .departed = 1 },
		[MOVED] = { .threads = 1, .listen = 1, .departed = 1, .moved_totals = 1 },
	};
	struct fake_kernel fk[KEPT_RUNS];
	struct sampler *s[KEPT_RUNS] = { NULL };
	struct snapshot snap[KEPT_RUNS];
	int rates = 1, totals = 1, none = 1, moved = 1, first_max = 0;
	char err[256] = "";

	for (int i = 0; i < KEPT_RUNS; i++) {
		fixture(&fk[i]);
		if (sampler_open_kernel(&s[i], &opts[i], &fk[i].k, err, sizeof(err)) < 0) {
			ok(0, "the sampler opens on the fake kernel: %s", err);
			return;
		}
	}
	for (int round = 0; round < 3; round++) {
		kept_step(fk, s, snap, round);
		for (size_t j = 0; j < snap[FULL].nrows; j++) {
			const struct row *f = &snap[FULL].rows[j];
			const struct row *l = row_of(&snap[LEAN], f->pid, f->tid, LIVE);
			const struct row *p = row_of(&snap[PLAIN], f->pid, f->tid, LIVE);

			const struct row *m = row_of(&snap[MOVED], f->pid, f->tid, LIVE);

			rates = rates && l && p && same_delay_rates(f, l, 0) && same_delay_rates(f, p, 1);
			totals = totals && p && f->acc && p->acc && same_delay_totals(f->acc, p->acc);
			none = none && l && !l->acc;
			moved = moved && m && p && m->acc && same_delay_totals(p->acc, m->acc) && same_delay_rates(p, m, 0);
		}
		if (round == 1) { /* the worker's first move: its longest wait is read there already */
			const struct row *m = row_of(&snap[MOVED], 100, 101, LIVE);

			first_max = m && m->acc && (m->acc->kinds_max & (1u << DK_IO)) && m->acc->max_ns[DK_IO] == 150000000ull;
		}
	}
	ok(moved, "totals kept only once a task moves: the same numbers as kept from the start");
	ok(first_max, "a task that moves keeps the longest wait of the reading it first moved at");
	{
		const struct row *m = row_of(&snap[MOVED], 200, 200, LIVE);

		ok(m && m->acc && m->acc->kinds && !totals_waited(m->acc) && !m->acc->run_ns,
		   "a task still since the first reading has zero totals, of the kinds it has");
	}
	is_int(snap[LEAN].nrows, snap[FULL].nrows, "without totals: the same rows");
	ok(rates, "the rates of the delays are the same numbers whether the tasks keep totals and fields or not");
	ok(totals, "the totals since the start are the same numbers with the accounting fields kept or not");
	ok(none, "without totals a row has none (acc NULL)");
	{
		const struct row *f = row_of(&snap[FULL], 100, 101, LIVE), *l = row_of(&snap[LEAN], 100, 101, LIVE);
		const struct row *p = row_of(&snap[PLAIN], 100, 101, LIVE);

		ok(f && f->acc && f->acc->total_ns[DK_IO] == 900000000ull && f->acc->max_ns[DK_IO] == 300000000ull,
		   "the worker's IO total since the first reading: 300 and 600 ms; its longest wait 300 ms");
		ok(f && p && l && f->r.kind[DK_IO].max_ms == 300.0f && p->r.kind[DK_IO].max_ms == 300.0f &&
			   isnan(l->r.kind[DK_IO].max_ms),
		   "the longest wait is kept with the totals or when asked for, else unavailable");
	}
	{
		const struct row *f = row_of(&snap[FULL], 100, 100, LIVE), *l = row_of(&snap[LEAN], 100, 100, LIVE);
		const struct row *p = row_of(&snap[PLAIN], 100, 100, LIVE);

		ok(f && l && p && f->r.acct[AF_VCSW] == 0.5f && isnan(l->r.acct[AF_VCSW]) &&
			   isnan(p->r.acct[AF_VCSW]) && f->acct && !l->acct && !p->acct,
		   "the accounting fields only where asked for: a switch in 2 s, 0.5/s; else unavailable, not kept");
		ok(f && p && (f->acc->acct_have & (1u << AF_VCSW)) && f->acc->acct[AF_VCSW] == 2 && !p->acc->acct_have,
		   "and in the totals: 2 switches since the start");
	}
	sampler_set_wants(s[LEAN], WANT_ACCT);
	kept_step(fk, s, snap, 3);
	{
		const struct row *l = row_of(&snap[LEAN], 100, 100, LIVE);

		ok(l && l->acct && isnan(l->r.acct[AF_VCSW]),
		   "asked for from now on: the fields are read, a counter has no rate before a second reading");
	}
	kept_step(fk, s, snap, 4);
	{
		const struct row *f = row_of(&snap[FULL], 100, 100, LIVE), *l = row_of(&snap[LEAN], 100, 100, LIVE);

		ok(f && l && l->r.acct[AF_VCSW] == 0.5f && f->r.acct[AF_VCSW] == 0.5f,
		   "then the same rate as a run that kept them");
	}
	sampler_set_wants(s[LEAN], 0);
	kept_step(fk, s, snap, 5);
	{
		const struct row *l = row_of(&snap[LEAN], 100, 100, LIVE);

		ok(l && !l->acct && isnan(l->r.acct[AF_VCSW]), "asked for no more: given up, unavailable");
	}
	for (int i = 0; i < KEPT_RUNS; i++)
		sampler_close(s[i]);
}

/* The screen's way (sampler_set_defer): a reading leaves its task rows out, and they are made
 * once, into the copy the screen shows; the same rows, rates and totals as a sampler that made
 * them at its tick, reading after reading. */
static void test_deferred_rows(void)
{
	const struct sampler_opts o = { .threads = 1, .listen = 1, .departed = 1, .moved_totals = 1 };
	struct fake_kernel fk[2];
	struct sampler *s[2] = { NULL };
	struct snapshot snap[2];
	struct snapcopy c;
	int left_out = 1, same = 1, made = 1;
	char err[256] = "";

	for (int i = 0; i < 2; i++) {
		fixture(&fk[i]);
		if (sampler_open_kernel(&s[i], &o, &fk[i].k, err, sizeof(err)) < 0) {
			ok(0, "the sampler opens on the fake kernel: %s", err);
			return;
		}
	}
	sampler_set_defer(s[1], 1);
	snapcopy_init(&c);
	for (int round = 0; round < 4; round++) {
		for (int i = 0; i < 2; i++) {
			if (round > 0) {
				fk_wait(&fk[i].p[0].t[1], DK_IO, 300 * (uint64_t)round, 3);
				fk_run(&fk[i].p[0].t[0], 100 * (uint64_t)round);
			}
			tick(s[i], &fk[i], round ? 2 : 0, &snap[i]);
		}
		left_out = left_out && snap[1].nrows == 0 && snap[0].nrows > 0;
		snapcopy_take_made(&c, s[1], &snap[1], 1);
		made = made && c.snap.nrows == snap[0].nrows;
		for (size_t j = 0; j < snap[0].nrows; j++) {
			const struct row *a = &snap[0].rows[j];
			const struct row *b = row_of(&c.snap, a->pid, a->tid, LIVE);

			same = same && b && same_delay_rates(a, b, 1) && a->acc && b->acc && same_delay_totals(a->acc, b->acc);
		}
	}
	ok(left_out, "deferred: the tick's snapshot has no task rows");
	ok(made, "they are made into the copy: as many as the sampler that made them at its tick");
	ok(same, "with the same rates and totals, reading after reading");
	fk[1].clock_step = 1000000; /* a clock that moves 1 ms at each look */
	tick(s[1], &fk[1], 2, &snap[1]);
	snapcopy_take_made(&c, s[1], &snap[1], 1);
	ok(c.snap.reading_s >= snap[1].reading_s + 0.001,
	   "the time the rows took counts in the reading's (%.3f s, %.3f s without them)", c.snap.reading_s,
	   snap[1].reading_s);
	snapcopy_free(&c);
	for (int i = 0; i < 2; i++)
		sampler_close(s[i]);
}

/* An exit storm between two readings: more exit messages than the queue keeps. Each message
 * counts once, as received or as lost, whether the kernel dropped it or it found the queue full:
 * received and lost add up to the exits, as the kernel's count of tasks created can check. */
static void test_exits_counted_once(void)
{
	enum { BATCHES = EXITQUEUE_MAX / FK_EXITS + 10, KERNEL_DROPS = 3 };
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s;
	uint64_t exits0, lost0, sent = 0;

	fixture(&fk);
	s = open_on(&fk, 1);
	tick(s, &fk, 0, &snap);
	exits0 = snap.exits;
	lost0 = snap.exits_lost;
	for (int b = 0; b < BATCHES; b++) {
		for (int i = 0; i < FK_EXITS; i++, sent++) {
			struct fk_exit *x = &fk.exits[fk.nexits++];

			memset(x, 0, sizeof(*x));
			fk_thread_record(&fk, &fk.p[0], &fk.p[0].t[1], &x->thread);
			x->thread.id = x->thread.c.pid = 1000 + (uint32_t)(sent % 1000);
		}
		if (b == BATCHES - 1)
			fk.lost = KERNEL_DROPS;
		sampler_drain(s);
	}
	tick(s, &fk, 2, &snap);
	printf("# sent %llu, received %llu, lost %llu\n", (unsigned long long)sent, (unsigned long long)(snap.exits - exits0),
	     (unsigned long long)(snap.exits_lost - lost0));
	is_int((int)(snap.exits - exits0), EXITQUEUE_MAX, "the messages whose records were kept count as received");
	is_int((int)(snap.exits_lost - lost0), (int)sent - EXITQUEUE_MAX + KERNEL_DROPS,
	       "those that found the queue full count as lost, beside those the kernel dropped");
	is_int((int)(snap.exits - exits0 + snap.exits_lost - lost0), (int)sent + KERNEL_DROPS,
	       "received and lost add up to the messages the kernel sent, none counted twice");
	sampler_close(s);
}

int main(void)
{
	test_processes();
	test_threads();
	test_prediction();
	test_first_guess();
	test_newly_wanted();
	test_vanishing();
	test_nothing_listed();
	test_pid_reuse();
	test_late_answers();
	test_process_exits();
	test_exits_counted_once();
	test_delayacct_off();
	test_limited();
	test_states();
	test_prestate();
	test_prestate_table();
	test_io_reread();
	test_kept();
	test_deferred_rows();
	return tap_done();
}
