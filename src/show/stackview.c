/* stackview.c — off-CPU stacks as the stacks pane shows them (see stackview.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "format.h"
#include "i18n.h"
#include "stackview.h"

/* The scheduler's own frames, by the start of their names: they lead every stack of a task that
 * left the CPU and say nothing of why. */
static const char *const sched_prefixes[] = {
	"__schedule", "schedule", "io_schedule", "preempt_schedule", "__cond_resched", "_cond_resched",
	"__switch_to", "finish_task_switch",
};

/* The C library's and the kernel's start of a program or thread, outside main or the thread's
 * function. */
static const char *const start_frames[] = {
	"_start", "__libc_start_main", "__libc_start_call_main", "__libc_start_main_impl", "start_thread",
	"clone", "clone3", "__clone", "__clone3", "thread_start",
};

const char *stackview_bare(const char *frame, char *buf, size_t size)
{
	const char *plus = strstr(frame, "+0x");

	if (frame[0] == '[' || !plus) /* "[unknown] 0x...": no function to name */
		str_copy(buf, size, frame);
	else
		snprintf(buf, size, "%.*s", (int)(plus - frame), frame);
	return buf;
}

/* Frame i as the summary names it: a kernel frame by its function; a user frame whole, since
 * "module+0xoff" (no symbol covers it) must not pass for a function named as the module. */
static const char *summary_frame(const struct stk_stack *s, size_t i, char *buf, size_t size)
{
	if (stackview_side(s, i) == 'k')
		return stackview_bare(s->frames[i], buf, size);
	str_copy(buf, size, s->frames[i]);
	return buf;
}

static int is_sched(const char *frame)
{
	for (size_t i = 0; i < sizeof(sched_prefixes) / sizeof(sched_prefixes[0]); i++)
		if (strncmp(frame, sched_prefixes[i], strlen(sched_prefixes[i])) == 0)
			return 1;
	return 0;
}

/* Whether frame is one named name (with or without an offset). */
static int named(const char *frame, const char *name)
{
	size_t n = strlen(name);

	return strncmp(frame, name, n) == 0 && (frame[n] == '\0' || frame[n] == '+');
}

static int is_start(const char *frame)
{
	for (size_t i = 0; i < sizeof(start_frames) / sizeof(start_frames[0]); i++)
		if (named(frame, start_frames[i]))
			return 1;
	return 0;
}

size_t stackview_innermost(const struct stk_stack *s)
{
	for (size_t i = 0; i < s->nframes; i++)
		if (!is_sched(s->frames[i]))
			return i;
	return s->nframes;
}

long stackview_near_main(const struct stk_stack *s)
{
	size_t first = s->nkernel; /* the innermost user frame */

	for (size_t i = first; i < s->nframes; i++)
		if (named(s->frames[i], "main"))
			return (long)(i > first ? i - 1 : i);
	if (!s->nkernel)
		return -1;
	for (size_t i = s->nframes; i > first; i--)
		if (!is_start(s->frames[i - 1]) && s->frames[i - 1][0] != '[')
			return (long)(i - 1);
	return -1;
}

char stackview_side(const struct stk_stack *s, size_t i)
{
	if (!s->nkernel)
		return '?';
	return i < s->nkernel ? 'k' : 'u';
}

void stackview_summary(char *buf, size_t size, const struct stk_stack *s)
{
	size_t in = stackview_innermost(s);
	long near = stackview_near_main(s);
	char what[256], where[256];

	if (s->nframes)
		summary_frame(s, in < s->nframes ? in : 0, what, sizeof(what));
	else
		str_copy(what, sizeof(what), "-");
	if (near >= 0 && (size_t)near != in) {
		char both[600];

		snprintf(both, sizeof(both), F_(N_("%s in %s")), what, summary_frame(s, (size_t)near, where, sizeof(where)));
		str_copy(what, sizeof(what), both);
	}
	snprintf(buf, size, F_(N_("%8.1f ms %5llux %s %s")), s->ms, (unsigned long long)s->count,
		 stk_state_name(s->state), what);
}
