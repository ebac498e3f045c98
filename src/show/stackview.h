/* stackview.h — a row's off-CPU stacks (--why, model/stacks.h) as the screen's stacks pane shows
 * them: a stack folded to one line (its time, count, state, the innermost frame that says what it
 * waited on, and the frame of the program nearest to main), or unfolded, a line a frame, the
 * kernel's then the user's, innermost first. Pure code. */
#ifndef DELAYTOP_STACKVIEW_H
#define DELAYTOP_STACKVIEW_H

#include <stddef.h>

#include "stacks.h"

/* A frame's name without its offset ("anon_pipe_read+0x393" → "anon_pipe_read"), into buf;
 * returns buf. An address ("[unknown] 0x...") stays whole. */
const char *stackview_bare(const char *frame, char *buf, size_t size);

/* The innermost frame that says what the task waited on: the first that is not the scheduler's
 * own (schedule, __schedule, io_schedule, preempt_schedule, ...); s->nframes when none is. */
size_t stackview_innermost(const struct stk_stack *s);

/* The user frame nearest to main: the one main called (main itself when it is the innermost user
 * frame); without main, the outermost user frame that is not the C library's start (a thread's
 * function under start_thread); -1 when the stack has no user frame, or its user frames are not
 * known apart from the kernel's (nkernel 0) and main is not among them. */
long stackview_near_main(const struct stk_stack *s);

/* Whether frame i of s is the kernel's: 'k' or the user's: 'u' ('?' when not known). */
char stackview_side(const struct stk_stack *s, size_t i);

/* A stack folded to one line into buf: its time, count and state, then the innermost frame that
 * says what it waited on (a kernel frame without its offset) "in" the user frame nearest to main
 * (whole: it may be a module and offset). */
void stackview_summary(char *buf, size_t size, const struct stk_stack *s);

#endif
