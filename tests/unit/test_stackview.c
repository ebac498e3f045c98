/* test_stackview.c — the stacks pane's one-line summary of an off-CPU stack (show/stackview.h):
 * the innermost frame past the scheduler's own, "in" the user frame main called (main itself when
 * it is the innermost user frame; a thread's function under start_thread; none for a kernel
 * thread), kernel frames without their offsets, a user frame whole (a module and offset must not
 * pass for a function), the time, count and state; which side each frame is on, and the kernel
 * frame count of rows made by stackrows.h. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "stackrows.h"
#include "stackview.h"
#include "tap.h"

/* A stack of n frames, the first nk the kernel's. */
static struct stk_stack stack(const char *const *frames, size_t n, size_t nk)
{
	struct stk_stack s = { .ms = 983.46, .count = 97, .state = STK_S, .nframes = n, .frames = frames, .nkernel = nk };

	return s;
}

static void test_summary(void)
{
	static const char *const pipe[] = { "__schedule+0x628", "schedule+0x23", "anon_pipe_read+0x393",
					    "vfs_read+0x397", "entry_SYSCALL_64_after_hwframe+0x76", "read+0xd",
					    "wait_on_pipe+0x12", "main+0xd2", "__libc_start_call_main+0x7a" };
	static const char *const in_main[] = { "schedule+0x23", "do_nanosleep+0x5e", "clock_nanosleep+0x23",
					       "main+0x9e", "_start+0x25" };
	static const char *const thread[] = { "__schedule+0x1", "futex_wait_queue+0x5", "__futex_abstimed_wait+0x1",
					      "worker+0x40", "start_thread+0x9", "clone3+0x2c" };
	static const char *const kthread[] = { "__schedule+0x1", "schedule+0x2", "worker_thread+0x10",
					       "kthread+0xe", "ret_from_fork+0x31" };
	static const char *const module[] = { "schedule+0x23", "do_epoll_wait+0x40", "libfoo.so.1+0x11e8a",
					      "sw (deleted)+0x1234", "[unknown] 0x7f00" };
	static const char *const sched_only[] = { "__schedule+0x1", "schedule+0x2" };
	struct stk_stack s = stack(pipe, 9, 5);
	char buf[256], b[64];

	is_int((long)stackview_innermost(&s), 2, "the innermost frame past __schedule and schedule");
	is_int(stackview_near_main(&s), 6, "the user frame nearest to main: the one main called");
	stackview_summary(buf, sizeof(buf), &s);
	is_str(buf, "   983.5 ms    97x S anon_pipe_read in wait_on_pipe+0x12",
	       "folded: time, count, state, the kernel frame bare, the user frame whole");
	is_int(stackview_side(&s, 4), 'k', "frame 4 of 5 kernel frames is the kernel's");
	is_int(stackview_side(&s, 5), 'u', "the next one the user's");

	s = stack(in_main, 5, 3);
	is_int(stackview_near_main(&s), 3, "main itself when it is the innermost user frame");
	s = stack(thread, 6, 3);
	is_int(stackview_near_main(&s), 3, "without main: a thread's function, under start_thread and clone3");
	stackview_summary(buf, sizeof(buf), &s);
	ok(strstr(buf, " futex_wait_queue in worker+0x40") != NULL, "its summary names both (%s)", buf);
	s = stack(kthread, 5, 5);
	is_int(stackview_near_main(&s), -1, "a kernel thread has no user frame");
	stackview_summary(buf, sizeof(buf), &s);
	ok(strstr(buf, " S worker_thread") && !strstr(buf, " in "), "its summary names the kernel frame alone (%s)", buf);
	s = stack(module, 5, 2);
	is_int(stackview_near_main(&s), 3, "without main: the outermost user frame that is not an address");
	stackview_summary(buf, sizeof(buf), &s);
	ok(strstr(buf, "do_epoll_wait in sw (deleted)+0x1234") != NULL, "a module and offset stays whole (%s)", buf);
	s = stack(pipe, 9, 0);
	is_int(stackview_near_main(&s), 6, "sides not known: main still found among the frames");
	is_int(stackview_side(&s, 0), '?', "and no frame said to be the kernel's");
	s = stack(kthread, 5, 0);
	is_int(stackview_near_main(&s), -1, "sides not known and no main: no user frame claimed");
	s = stack(sched_only, 2, 2);
	is_int((long)stackview_innermost(&s), 2, "a stack of the scheduler's frames alone: none past them");
	stackview_summary(buf, sizeof(buf), &s);
	ok(strstr(buf, " S __schedule") != NULL, "its summary falls back to the first frame (%s)", buf);
	s = stack(NULL, 0, 0);
	stackview_summary(buf, sizeof(buf), &s);
	ok(strstr(buf, " S -") != NULL, "a stack without frames says '-' (%s)", buf);

	is_str(stackview_bare("anon_pipe_read+0x393", b, sizeof(b)), "anon_pipe_read", "a frame's name without offset");
	is_str(stackview_bare("[unknown] 0xffff", b, sizeof(b)), "[unknown] 0xffff", "an address stays whole");
	is_str(stackview_bare("pipe_read", b, sizeof(b)), "pipe_read", "a name without offset stays");
}

static const char *fake_name(void *arg, uint32_t tgid, uint64_t addr, int user, char *buf, size_t size)
{
	(void)arg;
	(void)tgid;
	snprintf(buf, size, "%s%llx+0x1", user ? "u" : "k", (unsigned long long)addr);
	return buf;
}

/* The rows' stacks know their kernel frames: lost-stack marks count on their side. */
static void test_nkernel(void)
{
	struct stk_batch b = { 0 };
	struct stackrows sr = { 0 };
	struct row rows[1] = { { .pid = 5, .tid = 5 } };
	uint32_t sel[] = { 5 };
	uint64_t k[] = { 1, 2, 3 }, u[] = { 4, 5 };
	struct stk_entry *e;

	e = stk_batch_push(&b, 5, 5, STK_S, k, 3, u, 2);
	e->ns = 2000000;
	e = stk_batch_push(&b, 5, 5, STK_D, k, 0, u, 1);
	e->ns = 1000000;
	e->klost = 1;
	stackrows_attach(&sr, &b, rows, 1, 0, sel, 1, fake_name, NULL);
	ok(rows[0].stacks && rows[0].stacks->n == 2, "the row has both stacks");
	if (rows[0].stacks && rows[0].stacks->n == 2) {
		is_int((long)rows[0].stacks->s[0].nkernel, 3, "three kernel frames, then the user's");
		is_int((long)rows[0].stacks->s[1].nkernel, 1, "a lost kernel stack's mark is on the kernel's side");
		is_str(rows[0].stacks->s[1].frames[1], "u4+0x1", "and the user's frame follows it");
	}
	stackrows_free(&sr);
	stk_batch_free(&b);
}

int main(void)
{
	test_summary();
	test_nkernel();
	return tap_done();
}
