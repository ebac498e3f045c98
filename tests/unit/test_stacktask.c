/* test_stacktask.c — the screen's task for off-CPU stacks in the sampler (sampler_set_stack_task),
 * on the fake kernel (fakekernel.h) given a stack side of this test's own: the task is put in the
 * kernel's filter at once, not at the next reading; rows made after the reading (the screen's
 * deferred rows) get its stacks, named as the sampler read them, and the screen's copy keeps them
 * (only its); unchosen, it leaves the filter at the next reading, unless -p chose it; --why
 * switched off and on selects it again as it loads; a task that ended is not followed. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakekernel.h"
#include "rowbuild.h"
#include "sampler.h"
#include "snapcopy.h"
#include "tap.h"

#define SEC 1000000000ull

/* The fake kernel and its stack side: the filter as last set, and the interval's stacks. */
struct stack_kernel {
	struct fake_kernel fk; /* first: the ops see it through fk.k */
	uint32_t sel[16];
	size_t nsel;
	int selects; /* calls of why_select */
	struct stk_batch b;
};

static int sk_select(struct kernel *k, const uint32_t *ids, size_t n, int by_tid)
{
	struct stack_kernel *sk = (struct stack_kernel *)k;

	(void)by_tid;
	sk->nsel = n < 16 ? n : 16;
	if (sk->nsel)
		memcpy(sk->sel, ids, sk->nsel * sizeof(*ids));
	sk->selects++;
	return 0;
}

static const struct stk_batch *sk_stacks(struct kernel *k)
{
	return &((struct stack_kernel *)k)->b;
}

static const char *sk_frame(struct kernel *k, uint32_t tgid, uint64_t addr, int user, char *buf, size_t size)
{
	(void)k;
	(void)tgid;
	snprintf(buf, size, "%s%llu+0x1", user ? "user" : "kern", (unsigned long long)addr);
	return buf;
}

static void sk_warm(struct kernel *k, uint32_t tgid)
{
	(void)k;
	(void)tgid;
}

static void sk_done(struct kernel *k)
{
	(void)k;
}

static struct kernel_ops sk_ops;

/* A server (pid 100) and a sleeper (pid 200). */
static void fixture(struct stack_kernel *sk)
{
	struct fk_proc *p;

	memset(sk, 0, sizeof(*sk));
	fk_init(&sk->fk, 100);
	sk_ops = fk_ops;
	sk_ops.why_select = sk_select;
	sk_ops.why_stacks = sk_stacks;
	sk_ops.why_frame = sk_frame;
	sk_ops.why_warm = sk_warm;
	sk_ops.why_frames_done = sk_done;
	sk->fk.k.ops = &sk_ops;
	p = fk_add_proc(&sk->fk, 100, 1, 0, 10, "server", "server");
	fk_add_thread(p, 100, 10, "server");
	fk_wait(&p->t[0], DK_CPU, 7, 1);
	fk_run(&p->t[0], 100);
	p = fk_add_proc(&sk->fk, 200, 1, 0, 30, "sleeper", NULL);
	fk_add_thread(p, 200, 30, "sleeper");
}

static struct sampler *open_stacks(struct stack_kernel *sk, const uint32_t *pids, size_t npids)
{
	struct sampler_opts o = { .listen = 1, .departed = 1, .why = 1, .why_stacks = 1, .pids = pids, .npids = npids };
	struct sampler *s = NULL;
	char err[256] = "";

	if (sampler_open_kernel(&s, &o, &sk->fk.k, err, sizeof(err)) < 0)
		ok(0, "the sampler opens on the fake kernel: %s", err);
	sampler_set_defer(s, 1); /* the screen's way: rows made at the hand-over */
	return s;
}

/* A reading, its rows made into c (stacks of id copied); then the interval's stacks forgotten. */
static void reading(struct sampler *s, struct stack_kernel *sk, struct snapcopy *c, uint32_t id)
{
	struct snapshot snap;
	char err[256];

	sk->fk.now += SEC;
	sampler_tick(s, &snap, err, sizeof(err));
	c->stacks_of = id;
	snapcopy_take_made(c, s, &snap, 0);
	stk_batch_clear(&sk->b);
}

static int selected(const struct stack_kernel *sk, uint32_t id)
{
	for (size_t i = 0; i < sk->nsel; i++)
		if (sk->sel[i] == id)
			return 1;
	return 0;
}

static const struct row *row_of(const struct snapshot *s, uint32_t pid)
{
	for (size_t i = 0; i < s->nrows; i++)
		if (s->rows[i].pid == pid && !s->rows[i].departed)
			return &s->rows[i];
	return NULL;
}

/* The sleeper's wait of an interval: 2 kernel frames, 1 user frame, 5 ms in S. */
static void sleeper_waits(struct stack_kernel *sk)
{
	uint64_t k[] = { 11, 12 }, u[] = { 21 };
	struct stk_entry *e = stk_batch_push(&sk->b, 200, 200, STK_S, k, 2, u, 1);

	e->ns = 5000000;
	e->count = 3;
}

static void test_choose(void)
{
	struct stack_kernel sk;
	struct snapcopy c;
	struct sampler *s;
	const struct row *r;
	int before;

	fixture(&sk);
	snapcopy_init(&c);
	s = open_stacks(&sk, NULL, 0);
	reading(s, &sk, &c, 0);
	ok(sk.nsel == 0, "nothing chosen: the filter is empty (%zu)", sk.nsel);
	before = sk.selects;
	sampler_set_stack_task(s, 200);
	ok(sk.selects == before + 1 && sk.nsel == 1 && selected(&sk, 200), "the task is in the filter at once");

	sleeper_waits(&sk);
	reading(s, &sk, &c, 200);
	r = row_of(&c.snap, 200);
	ok(r && r->stacks && r->stacks->n == 1, "its row, made after the reading, has its stack");
	if (r && r->stacks && r->stacks->n == 1) {
		const struct stk_stack *st = &r->stacks->s[0];

		ok(st->ms == 5 && st->count == 3 && st->state == STK_S && st->nframes == 3 && st->nkernel == 2,
		   "5 ms, 3 times, in S, 2 kernel frames and 1 user frame");
		ok(!strcmp(st->frames[0], "kern11+0x1") && !strcmp(st->frames[2], "user21+0x1"),
		   "named as the sampler read them, kernel first");
	}
	r = row_of(&c.snap, 100);
	ok(r && r->stacks == NULL, "another row has none");
	ok(selected(&sk, 200), "still chosen for the next interval");

	sampler_set_why(s, 0);
	reading(s, &sk, &c, 200);
	ok(c.snap.why.state == WHY_OFF, "--why off");
	before = sk.selects;
	sampler_set_why(s, 1);
	sk.fk.now += SEC;
	{
		struct snapshot snap;
		char err[256];

		sampler_tick(s, &snap, err, sizeof(err));
		ok(sk.selects > before && selected(&sk, 200), "--why on again: the task is selected as it loads");
		snapcopy_take_made(&c, s, &snap, 0);
	}

	sampler_set_stack_task(s, 0);
	ok(selected(&sk, 200), "unchosen: kept until the next reading");
	reading(s, &sk, &c, 0);
	ok(sk.nsel == 0, "then dropped from the filter");

	sampler_set_stack_task(s, 4242); /* no such task */
	ok(selected(&sk, 4242), "a task is put in the filter as asked");
	reading(s, &sk, &c, 4242);
	ok(!selected(&sk, 4242), "one without a row is dropped at the next reading");

	sampler_set_stack_task(s, 200);
	fk_exit(&sk.fk, &sk.fk.p[1], &sk.fk.p[1].t[0]);
	reading(s, &sk, &c, 200);
	reading(s, &sk, &c, 200);
	ok(!selected(&sk, 200), "one that ended is dropped: its pid, reused, is not followed");
	snapcopy_free(&c);
	sampler_close(s);
	stk_batch_free(&sk.b);
}

/* -p chose the task: unchoosing it on the screen keeps it. */
static void test_options_chose(void)
{
	static const uint32_t pids[] = { 200 };
	struct stack_kernel sk;
	struct snapcopy c;
	struct sampler *s;

	fixture(&sk);
	snapcopy_init(&c);
	s = open_stacks(&sk, pids, 1);
	reading(s, &sk, &c, 0);
	ok(selected(&sk, 200), "-p 200: selected from the first interval");
	sampler_set_stack_task(s, 200);
	sampler_set_stack_task(s, 0);
	reading(s, &sk, &c, 0);
	ok(selected(&sk, 200) && sk.nsel == 1, "chosen and unchosen on the screen: still selected, once");
	snapcopy_free(&c);
	sampler_close(s);
	stk_batch_free(&sk.b);
}

int main(void)
{
	test_choose();
	test_options_chose();
	return tap_done();
}
