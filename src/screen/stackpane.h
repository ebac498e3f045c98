/* stackpane.h — the detail view's stacks pane (w): the task's off-CPU stacks by time waited, as
 * --why took them in the reading shown (row.stacks of the screen's copy, or of a recording's
 * reading), each folded to one line or unfolded to its frames, a cursor on one, scrolled to keep
 * the cursor in sight; or the one sentence saying why there are none. The lines are made here and
 * written by the caller (detail.c), which draws the view around them. */
#ifndef DELAYTOP_STACKPANE_H
#define DELAYTOP_STACKPANE_H

#include <stddef.h>
#include <time.h>
#include <wchar.h>

#include "model.h"

struct stackpane {
	int shown;         /* in place of the detail view's charts */
	size_t cursor;     /* the stack the keys fold and unfold */
	unsigned unfolded; /* bit i: stack i shows its frames */
	size_t seen_cursor; /* the cursor when last drawn: the lines scroll to it when it moves */
	int top;           /* lines scrolled */
	int page;          /* lines in sight when last drawn */
	time_t since;      /* a live run: when the task's stacks began to be taken; 0: not yet */
};

/* What the pane shows of the reading. */
struct stackpane_facts {
	const struct snapshot *snap;
	const struct row *row; /* the task's row in it, or NULL when it is gone */
	int replay;            /* the reading is a recording's */
};

/* A line of the pane: heading (bold), cursor (reverse). */
typedef void (*stackpane_emit)(void *ctx, int heading, int cursor, const char *text);

/* Resets the pane for a task just opened: the first stack unfolded, the rest folded. */
void stackpane_reset(struct stackpane *p);

/* Writes the pane's lines from p->top on, at most rows of them, through emit. */
void stackpane_draw(struct stackpane *p, const struct stackpane_facts *f, int rows, stackpane_emit emit, void *ctx);

/* A key while the pane is shown: 1 when it took it (Up and Down move the cursor, Enter folds or
 * unfolds its stack, + unfolds every stack, - folds every one, PgUp and PgDn scroll). */
int stackpane_key(struct stackpane *p, wint_t c, int is_key);

#endif
