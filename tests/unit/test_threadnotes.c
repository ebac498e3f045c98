/* test_threadnotes.c — process mode's notes on the threads of its processes (threadnotes.h) on
 * the fake kernel: the cgroup view's counts of a process's threads by state, and a process's
 * longest waits, read only of the threads that moved. A pool of six threads whose main thread
 * runs at every tick (a timer) is split: its hot thread asked first and the others proved still
 * by its answer, one state read a tick; a cold thread waking with the hot one, a thread ending
 * and a new one each get what they need; a quiet process costs nothing. Every count is checked
 * against the states the fake kernel holds, and the queries and reads are counted. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "fakekernel.h"
#include "sampler.h"
#include "tap.h"

#define SEC 1000000000ull

/* The pool (pid 300: main thread 300, which ran about twice a second so far, then 301 to 305,
 * one of them in D) and a process of one thread (pid 400). */
static void fixture(struct fake_kernel *fk)
{
	struct fk_proc *p;
	struct fk_thread *t;

	fk_init(fk, 100);
	fk->v2 = 1;
	p = fk_add_proc(fk, 300, 1, 0, 10, "pool", NULL);
	t = fk_add_thread(p, 300, 10, "pool");
	fk_wait(t, DK_CPU, 20, 200);
	for (uint32_t tid = 301; tid <= 305; tid++) {
		t = fk_add_thread(p, tid, 20, "worker");
		fk_wait(t, DK_CPU, 1, 1);
	}
	p->t[5].state = 'D';
	p = fk_add_proc(fk, 400, 1, 0, 30, "single", NULL);
	fk_add_thread(p, 400, 30, "single");
}

static struct sampler *open_with(struct fake_kernel *fk, const struct sampler_opts *o)
{
	struct sampler *s = NULL;
	char err[256] = "";

	if (sampler_open_kernel(&s, o, &fk->k, err, sizeof(err)) < 0)
		ok(0, "the sampler opens on the fake kernel: %s", err);
	return s;
}

static const struct row *process_row(const struct snapshot *snap, uint32_t pid)
{
	for (size_t i = 0; i < snap->nrows; i++)
		if (snap->rows[i].pid == pid && !snap->rows[i].exited && !snap->rows[i].departed)
			return &snap->rows[i];
	return NULL;
}

/* Moves the clock on a second, takes a reading, counting what it asks and reads. */
static void tick(struct sampler *s, struct fake_kernel *fk, struct snapshot *snap)
{
	char err[256];

	fk->now += SEC;
	fk->nasked_pid = fk->nasked_tgid = 0;
	fk->nstates = 0;
	if (sampler_tick(s, snap, err, sizeof(err)) < 0)
		ok(0, "a reading: %s", err);
}

/* A thread runs, waits for a CPU once and is left in state st. */
static void runs(struct fk_thread *t, char st)
{
	fk_run(t, 1);
	fk_wait(t, DK_CPU, 1, 1);
	t->state = st;
}

/* The states the fake kernel holds for pid's live threads (a process of one thread: its stat's). */
static void truth(const struct fake_kernel *fk, uint32_t pid, uint32_t out[CG_STATES])
{
	memset(out, 0, CG_STATES * sizeof(out[0]));
	for (int i = 0; i < fk->np; i++) {
		const struct fk_proc *p = &fk->p[i];

		if (!p->present || p->pid != pid)
			continue;
		for (int j = 0; j < p->nthreads; j++) {
			char st = fk_live_threads(p) == 1 ? p->state : p->t[j].state;

			if (!p->t[j].present)
				continue;
			if (st == 'R')
				out[CG_RUNNING]++;
			else if (st == 'S')
				out[CG_SLEEPING]++;
			else if (st == 'D')
				out[CG_UNINTERRUPTIBLE]++;
			else if (st == 'T')
				out[CG_STOPPED]++;
		}
	}
}

/* Checks pid's row against the fake kernel: what it counts by state, how many threads were asked
 * by pid and how many states read in the reading. */
static void check(const struct snapshot *snap, const struct fake_kernel *fk, uint32_t pid, int asked, int reads,
		  const char *what)
{
	const struct row *r = process_row(snap, pid);
	uint32_t want[CG_STATES];

	truth(fk, pid, want);
	ok(r && r->have_states && memcmp(r->states, want, sizeof(want)) == 0 && fk->nasked_pid == asked &&
		   fk->nstates == reads,
	   "%s: R %u S %u D %u T %u (%u %u %u %u), %d asked by pid (%d), %d states read (%d)", what, want[0], want[1],
	   want[2], want[3], r ? r->states[0] : 99, r ? r->states[1] : 99, r ? r->states[2] : 99,
	   r ? r->states[3] : 99, asked, fk->nasked_pid, reads, fk->nstates);
}

static void test_states(void)
{
	struct sampler_opts o = { .listen = 1, .cgroups = 1 };
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s;
	struct fk_proc *pool, *single;

	fixture(&fk);
	pool = &fk.p[0];
	single = &fk.p[1];
	s = open_with(&fk, &o);
	if (!s)
		return;
	tick(s, &fk, &snap);
	check(&snap, &fk, 300, 6, 6, "first reading: every thread of the pool asked and read");
	check(&snap, &fk, 400, 6, 6, "a process of one thread counts its own state, not read again");

	runs(&pool->t[0], 'R');
	runs(&single->t[0], 'R');
	single->state = 'R';
	tick(s, &fk, &snap);
	check(&snap, &fk, 300, 1, 1,
	      "the timer thread ran: the pool is split, only its likely hot thread asked and read");
	check(&snap, &fk, 400, 1, 1, "the single thread ran: its stat's state, no read of its own");

	runs(&pool->t[0], 'S');
	runs(&pool->t[2], 'R');
	tick(s, &fk, &snap);
	check(&snap, &fk, 300, 7, 2,
	      "a cold thread woke with the hot one: the split fails, every thread asked, the 2 that moved read");

	runs(&pool->t[0], 'S');
	fk_exit(&fk, pool, &pool->t[5]);
	tick(s, &fk, &snap);
	check(&snap, &fk, 300, 5, 1, "the thread in D ended: every thread asked, the one that moved read");

	runs(&pool->t[0], 'S');
	runs(fk_add_thread(pool, 306, 104, "new"), 'S');
	tick(s, &fk, &snap);
	check(&snap, &fk, 300, 2, 2, "a thread born since the last reading: asked with the hot one, both read");

	tick(s, &fk, &snap);
	check(&snap, &fk, 300, 2, 0, "quiet: the two hot threads asked, nothing read");
	tick(s, &fk, &snap);
	check(&snap, &fk, 300, 0, 0, "quiet again: nothing asked, nothing read, the same counts");

	runs(&pool->t[3], 'R');
	tick(s, &fk, &snap);
	check(&snap, &fk, 300, 6, 1, "a cold thread wakes alone: every thread asked, only it read");
	sampler_close(s);
}

/* The cgroup view chosen while a process-mode reading goes on (the screen's key): every state is
 * read once, then only those that move. */
static void test_switched_on(void)
{
	struct sampler_opts o = { .listen = 1 };
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s;

	fixture(&fk);
	s = open_with(&fk, &o);
	if (!s)
		return;
	tick(s, &fk, &snap);
	ok(fk.nasked_pid == 0 && fk.nstates == 0 && !process_row(&snap, 300)->have_states,
	   "process mode without the cgroup view: no thread asked or read (%d, %d)", fk.nasked_pid, fk.nstates);
	sampler_set_group(s, 0, 1);
	tick(s, &fk, &snap);
	check(&snap, &fk, 300, 6, 6, "the cgroup view chosen: every thread asked and read once");
	tick(s, &fk, &snap);
	check(&snap, &fk, 300, 1, 0, "then quiet: the likely hot thread asked, nothing read");
	tick(s, &fk, &snap);
	check(&snap, &fk, 300, 0, 0, "then nothing while nothing moves");
	sampler_close(s);
}

/* A process's longest waits are the longest of its threads', asked only of those that moved. */
static void test_peaks(void)
{
	struct sampler_opts o = { .listen = 1, .wants = WANT_PEAKS };
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s;
	struct fk_proc *pool;
	const struct row *r;

	fixture(&fk);
	pool = &fk.p[0];
	pool->t[3].c.kind_max |= 1u << DK_IO;
	pool->t[3].c.delay[DK_IO].max_ns = 400000000ull;
	fk_wait(&pool->t[3], DK_IO, 400, 1);
	s = open_with(&fk, &o);
	if (!s)
		return;
	tick(s, &fk, &snap);
	ok(fk.nasked_pid == 7 && fk.nstates == 0,
	   "first reading: every thread asked (%d, the single one too), no state read (%d)", fk.nasked_pid,
	   fk.nstates);
	runs(&pool->t[0], 'S');
	tick(s, &fk, &snap);
	r = process_row(&snap, 300);
	ok(r && r->r.kind[DK_IO].max_ms == 400.0f && fk.nasked_pid == 1,
	   "the timer ran: only it asked (%d), the longest IO wait a cold thread's 400 ms (%g)", fk.nasked_pid,
	   r ? r->r.kind[DK_IO].max_ms : -1);
	runs(&pool->t[0], 'S');
	fk_wait(&pool->t[4], DK_IO, 900, 1);
	pool->t[4].c.kind_max |= 1u << DK_IO;
	pool->t[4].c.delay[DK_IO].max_ns = 900000000ull;
	tick(s, &fk, &snap);
	r = process_row(&snap, 300);
	ok(r && r->r.kind[DK_IO].max_ms == 900.0f && fk.nasked_pid == 7,
	   "a cold thread waited 900 ms: the split fails, every thread asked (%d), the longest wait is its (%g)",
	   fk.nasked_pid, r ? r->r.kind[DK_IO].max_ms : -1);
	runs(&pool->t[0], 'S');
	tick(s, &fk, &snap);
	r = process_row(&snap, 300);
	ok(r && r->r.kind[DK_IO].max_ms == 900.0f && fk.nasked_pid == 2,
	   "then split again: the two that moved asked (%d), 900 ms kept (%g)", fk.nasked_pid,
	   r ? r->r.kind[DK_IO].max_ms : -1);
	sampler_close(s);
}

int main(void)
{
	test_states();
	test_switched_on();
	test_peaks();
	return tap_done();
}
