/* stackpane.c — the detail view's stacks pane (see stackpane.h). */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "i18n.h"
#include "stackpane.h"
#include "stackview.h"
#include "textline.h"
#include "xalloc.h"

enum { LINE_HEADING = 1, LINE_CURSOR = 2 };

/* The pane's lines, made whole before the part in sight is written. */
struct pane_lines {
	char **text;
	int *flags;
	size_t n, cap;
	size_t cursor_from, cursor_to; /* the cursor's stack: its first line and its last */
};

/* textline_put: adds a line to the pane's (struct pane_lines), flags as its attributes. */
static void add(void *ctx, unsigned flags, const char *text)
{
	struct pane_lines *l = ctx;

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 32;
		l->text = xrealloc(l->text, l->cap * sizeof(*l->text));
		l->flags = xrealloc(l->flags, l->cap * sizeof(*l->flags));
	}
	l->text[l->n] = xstrdup(text);
	l->flags[l->n++] = (int)flags;
}

static void lines_free(struct pane_lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->text[i]);
	free(l->text);
	free(l->flags);
}

void stackpane_reset(struct stackpane *p)
{
	p->cursor = 0;
	p->seen_cursor = 0;
	p->unfolded = 1u;
	p->top = 0;
}

static void clock_of(time_t t, char *buf, size_t size)
{
	struct tm tm;

	if (t <= 0 || !localtime_r(&t, &tm))
		str_copy(buf, size, "-");
	else
		strftime(buf, size, "%H:%M:%S", &tm);
}

/* The one sentence of a pane without stacks to show (none taken, or an empty list), or NULL
 * when the reading has some. */
static const char *no_stacks(const struct stackpane *p, const struct stackpane_facts *f, char *buf, size_t size)
{
	const struct why_header *w = &f->snap->why;
	char at[16];

	if (f->replay)
		return f->row && f->row->stacks && f->row->stacks->n ? NULL
								     : _("This recording holds no stacks for this reading.");
	if (!f->row)
		return _("The task has ended: its stacks are no longer taken.");
	if (w->state == WHY_OFF)
		return _("No stacks: --why is off; y switches it on (it needs CAP_BPF and CAP_PERFMON, and BTF).");
	if (w->state == WHY_UNAVAILABLE) {
		snprintf(buf, size, F_(N_("No stacks: %s")), w->reason ? w->reason : _("--why is unavailable"));
		return buf;
	}
	if (!w->stacks)
		return _("No stacks: this kernel side of --why takes none.");
	clock_of(p->since, at, sizeof(at));
	if (!f->row->stacks || (!f->row->stacks->n && f->snap->wall.tv_sec <= p->since + (time_t)f->snap->interval_s)) {
		snprintf(buf, size, F_(N_("Taking stacks since %s: no waits yet.")), at);
		return buf;
	}
	if (!f->row->stacks->n) {
		snprintf(buf, size, F_(N_("Taking stacks since %s: no waits in the last interval.")), at);
		return buf;
	}
	return NULL;
}

/* Stack i: its summary line, then, unfolded, a line a frame with the side it is on. */
static void stack_lines(struct pane_lines *l, const struct stk_stack *s, int unfolded, int cursor)
{
	char sum[1024];

	if (cursor)
		l->cursor_from = l->n;
	stackview_summary(sum, sizeof(sum), s);
	textline_printf(add, l, cursor ? LINE_CURSOR : 0, "%c%s", unfolded ? '-' : '+', sum);
	for (size_t f = 0; unfolded && f < s->nframes; f++) {
		char side = stackview_side(s, f);
		/* the side named at its first frame: "kernel", then "user" */
		const char *label = f && side == stackview_side(s, f - 1) ? ""
				    : side == 'k'			   ? _("kernel")
				    : side == 'u'			   ? _("user")
									   : "";

		textline_printf(add, l, 0, "  %-7s %s", label, s->frames[f]);
	}
	if (cursor)
		l->cursor_to = l->n - 1;
}

/* Every line of the pane, in rows lines on the screen (a short screen has no room for the keys'
 * line). */
static void pane_lines(struct stackpane *p, const struct stackpane_facts *f, int rows, struct pane_lines *l)
{
	char buf[1024], at[16];
	const char *none = no_stacks(p, f, buf, sizeof(buf));
	const struct stk_list *list;

	if (none) {
		add(l, 0, none);
		return;
	}
	list = f->row->stacks;
	if (p->cursor >= list->n)
		p->cursor = list->n ? list->n - 1 : 0;
	clock_of(p->since, at, sizeof(at));
	if (f->replay)
		add(l, LINE_HEADING, _("Off-CPU stacks the recording holds for this reading, by time waited:"));
	else
		textline_printf(add, l, LINE_HEADING,
				F_(N_("Off-CPU stacks of the last %.1f s by time waited (taken since %s):")),
				f->snap->interval_s, at);
	if (rows >= 8)
		add(l, 0, _("Up, Down choose a stack, Enter folds or unfolds it, + unfolds all, - folds all, w returns"));
	for (size_t i = 0; i < list->n; i++)
		stack_lines(l, &list->s[i], (p->unfolded >> i) & 1u, i == p->cursor);
	if (f->snap->why.stacks_lost)
		textline_printf(add, l, 0,
				F_(N_("(%llu off-CPU times or stacks found the kernel's maps full since the start)")),
				(unsigned long long)f->snap->why.stacks_lost);
}

/* When the cursor moved, brings its stack in sight in rows lines: its summary line always, its
 * frames as many as fit (PgDn shows the rest); never past the last line. */
static void scroll_to_cursor(struct stackpane *p, const struct pane_lines *l, int rows)
{
	long top = p->top;

	if (rows < 1)
		rows = 1;
	if (l->cursor_to >= l->cursor_from && p->cursor != p->seen_cursor) {
		p->seen_cursor = p->cursor;
		if ((long)l->cursor_to >= top + rows)
			top = (long)l->cursor_to - rows + 1;
		if ((long)l->cursor_from < top)
			top = (long)l->cursor_from;
	}
	if (top > (long)l->n - rows)
		top = (long)l->n - rows;
	p->top = top < 0 ? 0 : (int)top;
}

void stackpane_draw(struct stackpane *p, const struct stackpane_facts *f, int rows, stackpane_emit emit, void *ctx)
{
	struct pane_lines l = { 0 };

	l.cursor_to = 0;
	l.cursor_from = 1; /* none: to < from */
	pane_lines(p, f, rows, &l);
	p->page = rows;
	scroll_to_cursor(p, &l, rows);
	for (size_t i = (size_t)p->top; i < l.n && i < (size_t)p->top + (size_t)(rows > 0 ? rows : 0); i++)
		emit(ctx, l.flags[i] & LINE_HEADING, l.flags[i] & LINE_CURSOR, l.text[i]);
	lines_free(&l);
}

int stackpane_key(struct stackpane *p, wint_t c, int is_key)
{
	if (is_key && c == KEY_UP) {
		if (p->cursor > 0)
			p->cursor--;
		else
			p->top = 0; /* the lines above the first stack */
	} else if (is_key && c == KEY_DOWN) {
		p->cursor++; /* kept below the count when drawn */
	} else if (is_key && c == KEY_PPAGE) {
		p->top = p->top > p->page / 2 ? p->top - p->page / 2 : 0;
	} else if (is_key && c == KEY_NPAGE) {
		p->top += p->page / 2 > 1 ? p->page / 2 : 1; /* kept above the end when drawn */
	} else if ((!is_key && (c == '\n' || c == '\r')) || (is_key && c == KEY_ENTER)) {
		if (p->cursor < 32)
			p->unfolded ^= 1u << p->cursor;
	} else if (!is_key && (c == '+' || c == '=')) {
		p->unfolded = ~0u;
	} else if (!is_key && c == '-') {
		p->unfolded = 0;
	} else {
		return 0;
	}
	return 1;
}
