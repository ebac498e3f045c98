/* test_exitqueue.c — which record of an exit message each mode keeps, and that a full queue
 * says which records it had no room for. */
#include "config.h"

#include <string.h>

#include "exitlisten.h"
#include "exitqueue.h"
#include "tap.h"

static struct ts_record record(uint32_t id, uint32_t tgid, int aggregate, uint64_t etime_us, int agroup)
{
	struct ts_record r;

	memset(&r, 0, sizeof(r));
	r.tgid = aggregate;
	r.id = id;
	if (!aggregate) {
		r.c.have = HAVE_TGID | HAVE_IDS;
		r.c.tgid = tgid;
		r.c.etime_us = etime_us;
		r.c.ppid = 7;
	}
	r.c.flag = agroup ? TS_AGROUP : 0;
	return r;
}

/* Process mode: which thread records give their process its longest waits. */
static void test_peaks(void)
{
	struct ts_record worker = record(51, 50, 0, 0, 0), last = record(52, 50, 0, 0, 1);
	struct ts_record single = record(60, 60, 0, 0, 1), old = record(53, 50, 0, 0, 0);
	struct ts_record process = record(50, 50, 1, 0, 0);
	struct exit_choice x;
	struct exitqueue q;

	worker.c.kind_max = last.c.kind_max = single.c.kind_max = 1u << DK_CPU;
	ok(exitqueue_choose_peak(&worker, NULL, 0, &x) == 0 && x.peak_only && x.id == 50 && x.pid == 50 &&
		   x.rec == &worker,
	   "process mode: a thread that ends while its process lives gives its process its longest waits");
	ok(exitqueue_choose_peak(&last, &process, 0, &x) == 0 && x.peak_only && x.rec == &last,
	   "so does the last thread, whose process's aggregate has none");
	ok(exitqueue_choose_peak(&single, NULL, 0, &x) < 0,
	   "not a process of one thread, whose own record stands for the process");
	ok(exitqueue_choose_peak(&old, NULL, 0, &x) < 0, "not a thread record without longest waits");
	ok(exitqueue_choose_peak(&worker, NULL, 1, &x) < 0, "not in thread mode");
	exitqueue_init(&q);
	exitqueue_choose_peak(&worker, NULL, 0, &x);
	exitqueue_push(&q, &x, 1);
	ok(q.n == 1 && q.items[0].peak_only, "the queued record is marked for the longest waits only");
	exitqueue_free(&q);
}

/* Pushes x n times; returns how many pushes the queue refused. */
static int fill(struct exitqueue *q, const struct exit_choice *x, int n)
{
	int refused = 0;

	for (int i = 0; i < n; i++)
		refused += exitqueue_push(q, x, 2) < 0;
	return refused;
}

int main(void)
{
	struct ts_record leader = record(50, 50, 0, 3000, 1), worker = record(51, 50, 0, 1000, 0);
	struct ts_record last = record(52, 50, 0, 2000, 1), process = record(50, 50, 1, 0, 0);
	struct exitqueue q;
	struct exit_choice x;

	ok(exitqueue_choose(&worker, NULL, 1, &x) == 0 && x.rec == &worker && x.id == 51 && x.pid == 50 &&
		   x.age_ns == 1000000 && x.ppid == 7,
	   "thread mode keeps a thread's record, with its process, parent and age");
	ok(exitqueue_choose(&worker, NULL, 0, &x) < 0, "process mode skips a thread whose process lives on");
	ok(exitqueue_choose(&leader, &process, 0, &x) == 0 && x.rec == &process && x.id == 50 && x.age_ns == 3000000 &&
		   x.ppid == 7,
	   "process mode keeps the aggregate, aged as its main thread when that ended last, its parent from it");
	ok(exitqueue_choose(&last, &process, 0, &x) == 0 && x.rec == &process && x.age_ns == UINT64_MAX,
	   "an aggregate whose last thread was not the main one has no known age");
	ok(exitqueue_choose(&leader, NULL, 0, &x) == 0 && x.rec == &leader && x.id == 50 && x.age_ns == 3000000,
	   "a process that only ever had one thread: its thread record stands for it");
	ok(exitqueue_choose(NULL, &process, 1, &x) < 0, "thread mode has no use for an aggregate alone");

	exitqueue_init(&q);
	exitqueue_choose(&worker, NULL, 1, &x);
	x.age_ns = 1;
	ok(fill(&q, &x, EXITQUEUE_MAX + 5) == 5 && q.n == EXITQUEUE_MAX,
	   "a full queue refuses each record it has no room for, and says so");
	ok(q.items[0].recv_mono == 2 && q.items[0].age_ns == 1 && q.items[0].ppid == 7,
	   "a queued record keeps when it came, its age and its parent");
	exitqueue_clear(&q);
	is_int(q.n, 0, "clearing empties it");
	exitqueue_free(&q);
	test_peaks();
	return tap_done();
}
