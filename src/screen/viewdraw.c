/* viewdraw.c — drawing the screen: the header's lines (laid out by header.c), a recording's
 * timeline, the PSI bars, the table, the footer, prompts, the menus and the help. Everything is
 * cut to the terminal's width; on a tiny terminal the parts of lowest priority (bars, footer) go
 * first. */
#include "config.h"

#include <curses.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "detail.h"
#include "format.h"
#include "header.h"
#include "i18n.h"
#include "keys.h"
#include "order.h"
#include "strip.h"
#include "viewdraw.h"

/* Bar colours by the interval's stall share, documented in delaytop(8). */
#define PSI_WARN 10.0
#define PSI_BAD 40.0

enum { PAIR_OK = 1, PAIR_WARN, PAIR_BAD, PAIR_TITLE };

/* Writes s at (y, x) as display text (see out_padded: nothing in it reaches the terminal as a
 * control character), cut to the screen's width. */
static void put(int y, int x, const char *s)
{
	struct outbuf o = { 0 };
	int room = COLS - x, width;

	if (room <= 0 || y < 0 || y >= LINES)
		return;
	width = text_width(s);
	out_padded(&o, s, width < room ? width : room, 0);
	mvaddnstr(y, x, o.data ? o.data : "", (int)o.len);
	out_free(&o);
}

/* The screen line y filled with s and padded to the full width, in attribute a. */
static void put_line(int y, const char *s, attr_t a)
{
	attron(a);
	move(y, 0);
	clrtoeol();
	put(y, 0, s);
	if (a & A_REVERSE)
		for (int x = text_width_n(s, text_fit(s, COLS)); x < COLS; x++)
			mvaddch(y, x, ' ');
	attroff(a);
}

/* The header (header.c) on at most max_lines lines from y; returns the lines used. */
static int draw_header(const struct view *v, int y, int max_lines)
{
	struct outbuf text = { 0 };
	int lines = header_layout(v, COLS, max_lines, &text);
	const char *s = text.data;

	for (int i = 0; i < lines; i++, s += strlen(s) + 1)
		put_line(y + i, s, A_BOLD);
	out_free(&text);
	return lines;
}

struct bar {
	int res;
	const struct psi_line *line;
	const char *which;
};

/* The bars to show: CPU some; memory and I/O some and full; IRQ full where the kernel has it. */
static int psi_bars(const struct snapshot *s, struct bar *bars)
{
	int n = 0;

	for (int r = 0; r < PSI_COUNT; r++) {
		const struct psi_resource *res = &s->psi.res[r];

		if (!res->present)
			continue;
		if (r != PSI_IRQ && res->some.present)
			bars[n++] = (struct bar){ r, &res->some, "some" };
		if (r != PSI_CPU && res->full.present)
			bars[n++] = (struct bar){ r, &res->full, "full" };
	}
	return n;
}

static int severity_pair(double pct)
{
	return pct >= PSI_BAD ? PAIR_BAD : pct >= PSI_WARN ? PAIR_WARN : PAIR_OK;
}

/* Without colour the fill says the severity: '-' low, '=' raised, '#' high. */
static char severity_fill(double pct)
{
	return pct >= PSI_BAD ? '#' : pct >= PSI_WARN ? '=' : '-';
}

/* The widest resource label, so that every bar starts in the same column. */
static void draw_bar(const struct view *v, int y, const struct bar *b)
{
	char numbers[96], c10[16], c60[16], c300[16], cpct[16];
	double pct = isnan(b->line->pct) ? 0 : b->line->pct;
	struct outbuf lb = { 0 };
	const char *label;
	int width, fill;

	out_padded(&lb, _(psi_label(b->res)), psi_label_width(), 0);
	out_printf(&lb, " %s ", b->which);
	out_char(&lb, '\0');
	label = lb.data;
	fmt_cell(cpct, b->line->pct, 1, 5);
	fmt_cell(c10, b->line->avg10, 1, 5);
	fmt_cell(c60, b->line->avg60, 1, 5);
	fmt_cell(c300, b->line->avg300, 1, 5);
	snprintf(numbers, sizeof(numbers), F_(N_(" %5s%%  avg10 %5s avg60 %5s avg300 %5s")), cpct, c10, c60, c300);
	move(y, 0);
	clrtoeol();
	put(y, 0, label);
	width = COLS - text_width(label) - text_width(numbers) - 2;
	if (width < 5) { /* no room for a bar: numbers only */
		put(y, text_width(label), numbers);
		out_free(&lb);
		return;
	}
	if (width >= 16) { /* half the room for the history, beside the bar */
		char strip[3 * 512 + 1];
		int sw = width / 2 > 512 ? 512 : width / 2;

		detail_psi_strip(v, b->res, b->which[0] == 'f', sw, strip, sizeof(strip));
		width -= sw + 1;
		if (v->colors)
			attron(COLOR_PAIR(severity_pair(pct)));
		put(y, text_width(label) + 3 + width, strip);
		if (v->colors)
			attroff(COLOR_PAIR(severity_pair(pct)));
		put(y, text_width(label) + 3 + width + sw, numbers);
	} else {
		put(y, text_width(label) + 1 + width, "]");
		put(y, text_width(label) + 2 + width, numbers);
	}
	fill = (int)lround(fmin(pct, 100.0) / 100.0 * width);
	put(y, text_width(label), "[");
	if (v->colors)
		attron(COLOR_PAIR(severity_pair(pct)) | A_BOLD);
	for (int i = 0; i < width; i++)
		mvaddch(y, text_width(label) + 1 + i, i < fill ? (chtype)severity_fill(pct) : ' ');
	if (v->colors)
		attroff(COLOR_PAIR(severity_pair(pct)) | A_BOLD);
	put(y, text_width(label) + 1 + width, "]");
	out_free(&lb);
}

#define TIMELINE_MAX 1024 /* cells of the timeline at most */

/* A recording's timeline: its label (and the resource it shows, when one: T), then a cell a
 * bucket (strip.h's heights, coloured by severity), '!' where triggers fired, the reading shown
 * in reverse video. Returns 0 when there is none (or no room for it). */
static int draw_timeline(struct view *v, int y)
{
	double cells[TIMELINE_MAX];
	unsigned char events[TIMELINE_MAX];
	int res = v->src->timeline_resource ? v->src->timeline_resource(v) : -1;
	char label[64];
	int x, width, cursor;

	if (res < 0)
		snprintf(label, sizeof(label), "%s", _("Timeline"));
	else
		snprintf(label, sizeof(label), F_(N_("Timeline %s")), _(psi_label(res)));
	x = text_width(label) + 1;
	width = COLS - x;

	if (width > TIMELINE_MAX)
		width = TIMELINE_MAX;
	if (!v->src->timeline || width < 10)
		return 0;
	cursor = v->src->timeline(v, width, cells, events);
	if (cursor < 0)
		return 0;
	move(y, 0);
	clrtoeol();
	put(y, 0, label);
	for (int i = 0; i < width; i++) {
		attr_t a = (i == cursor ? A_REVERSE : 0) | (events[i] ? A_BOLD : 0);
		int pair = events[i] ? PAIR_BAD : severity_pair(cells[i] * 100);

		if (v->colors && cells[i] >= 0)
			a |= COLOR_PAIR(pair);
		attron(a);
		put(y, x + i, events[i] ? "!" : strip_share_glyph(cells[i], strip_glyphs_for_locale()));
		attroff(a);
	}
	return 1;
}

/* The cgroup view's widest name with its indentation and fold mark, at most half the screen. */
static int tree_width(const struct view *v)
{
	int widest = 0;

	for (size_t i = 0; v->spec.display.cgroups && i < v->list.n; i++) {
		const struct row *r = v->list.rows[i];
		int w = 2 * r->depth + text_width(r->comm) + (v->list.folded[i] ? 4 : 0);

		if (w > widest)
			widest = w;
	}
	return widest < COLS / 2 ? widest : COLS / 2;
}

static void draw_table(struct view *v, int y, int rows)
{
	struct table t;
	int descending = column_descending(v->spec.sort_col) != !!v->spec.reverse;
	struct outbuf o = { 0 };

	table_layout(&t, &v->spec.display, COLS, v->spec.sort_col, tree_width(v));
	column_line(&o, NULL, &v->spec.display, &t, v->spec.sort_col, descending);
	o.data[o.len - 1] = '\0';
	v->title_y = y;
	v->layout = t;
	put_line(y++, o.data, A_REVERSE | A_BOLD);
	rows--;
	v->page = rows > 0 ? rows : 1;
	if (v->selected < v->top)
		v->top = v->selected;
	if (rows > 0 && v->selected >= v->top + (size_t)rows)
		v->top = v->selected - (size_t)rows + 1;
	if (v->top > 0 && v->top + (size_t)rows > v->list.n)
		v->top = v->list.n > (size_t)rows ? v->list.n - (size_t)rows : 0;
	for (int i = 0; i < rows; i++) {
		size_t r = v->top + (size_t)i;
		attr_t a = A_NORMAL;

		if (r >= v->list.n) {
			move(y + i, 0);
			clrtoeol();
			continue;
		}
		o.len = 0;
		column_line(&o, v->list.rows[r], &v->spec.display, &t, -1, 0);
		o.len--; /* the newline */
		if (v->list.folded[r])
			out_str(&o, _(" [+]"));
		out_char(&o, '\0');
		if (r == v->selected)
			a = A_REVERSE;
		else if (v->list.rows[r]->exited)
			a = A_DIM;
		put_line(y + i, o.data, a);
	}
	out_free(&o);
}

/* A prompt's line: its question, then what is typed and the cursor; a value offered when the
 * prompt opened is shown selected (reverse), as the first key typed replaces it. */
static void put_prompt(const struct view *v, int y, const char *question)
{
	int x = text_width(question);

	put_line(y, question, A_BOLD);
	attron(v->input_offered ? A_REVERSE : A_BOLD);
	put(y, x, v->input);
	attroff(A_REVERSE | A_BOLD);
	attron(A_BOLD);
	put(y, x + text_width(v->input), "_");
	attroff(A_BOLD);
}

static void draw_footer(const struct view *v, int y)
{
	static const char *const prompts[] = {
		[PROMPT_COMMAND] = N_("Filter by command name or line (Enter keeps, Esc clears): "),
		[PROMPT_USER] = N_("Only the tasks of user (empty: all): "),
		[PROMPT_PID] = N_("Only processes PID[,PID...] (empty: all): "),
		[PROMPT_DELAY] = N_("Seconds between readings: "),
		[PROMPT_TIME] = N_("Go to (YYYY-MM-DD HH:MM[:SS], HH:MM[:SS], @SECONDS, 10m ago): "),
	};
	char line[512];

	if (v->prompt == PROMPT_DELAYACCT) {
		snprintf(line, sizeof(line), "%s", !v->delayacct_target
			? _("Switch kernel.task_delayacct off? Non-CPU delays stop being counted. [y/N] ")
			: _("Switch kernel.task_delayacct on? Only tasks started after this get non-CPU delays. [y/N] "));
		put_line(y, line, A_BOLD);
		return;
	}
	if (v->prompt == PROMPT_PID && v->input_hides_pids) {
		put_prompt(v, y, _("Only processes PID[,PID...] (Esc keeps the current list, too long to show): "));
		return;
	}
	if (v->prompt != PROMPT_NONE && v->prompt != PROMPT_SORT && v->prompt != PROMPT_COLUMNS) {
		put_prompt(v, y, _(prompts[v->prompt]));
		return;
	}
	if (v->message[0]) {
		put_line(y, v->message, A_BOLD);
		return;
	}
	put_line(y, v->replay ? _("h help  q quit  n/N step  J go to  z play  [/] speed  s sort  / filter")
			      : _("h help  q quit  s sort  r reverse  / filter  H threads  m cells  z pause"),
		 A_REVERSE);
}

/* The width of the widest title among the view's columns: the menus show each whole. */
static int menu_title_width(const struct display *d)
{
	int w = 0;

	for (int c = 0; c < COL_COUNT; c++)
		if (column_in_view(c, d) && text_width(column_get(c, d).title) > w)
			w = text_width(column_get(c, d).title);
	return w;
}

/* The first entry a menu of n entries shows in rows lines (one its heading) to keep entry at
 * in sight. */
static int menu_first(int at, int rows)
{
	return at >= rows - 1 ? at - (rows - 2) : 0;
}

/* The sort menu in place of the table: every column of the view, its title whole, its sort key
 * and what it shows; the list scrolls to keep the highlighted one in sight. */
static void draw_sort_menu(const struct view *v, int top, int rows)
{
	struct display d = v->spec.display;
	int ids[COL_COUNT], n = 0, at = 0, tw = menu_title_width(&d);

	if (rows <= 0)
		return;
	for (int c = 0; c < COL_COUNT; c++)
		if (column_in_view(c, &d)) {
			if (c == v->menu)
				at = n;
			ids[n++] = c;
		}
	put_line(top, _("Sort by (Up/Down, Enter; Esc cancels):"), A_BOLD);
	for (int i = menu_first(at, rows), line = 1; i < n && line < rows; i++) {
		struct outbuf o = { 0 };
		struct column col = column_get(ids[i], &d);
		const char *label = column_label(ids[i]);

		out_str(&o, "  ");
		out_padded(&o, col.title, tw, 0);
		out_printf(&o, " %s", col.key);
		if (label)
			out_printf(&o, "%*s%s", 17 - (int)strlen(col.key), "", label);
		out_char(&o, '\0');
		put_line(top + line++, o.data, ids[i] == v->menu ? A_REVERSE : A_NORMAL);
		out_free(&o);
	}
}

/* The column setup (F2) in place of the table: every column of the view, shown ones first in
 * their order, [x] shown, [ ] hidden, [=] the last column, which stays; the list scrolls to keep
 * the highlighted one in sight. */
static void draw_columns_menu(const struct view *v, int top, int rows)
{
	struct display d = v->spec.display;
	int ids[COL_COUNT], n, at = colset_menu(&v->cols, &d, v->menu, ids, &n), tw = menu_title_width(&d);

	if (rows <= 0)
		return;
	put_line(top, _("Columns: Space shows or hides, [ ] move, s sorts, W saves, Enter closes"), A_BOLD);
	for (int i = menu_first(at, rows), line = 1; i < n && line < rows; i++) {
		struct outbuf o = { 0 };
		struct column col = column_get(ids[i], &d);
		const char *mark = ids[i] == column_last(&d) ? "[=]" : colset_shown(&v->cols, ids[i]) ? "[x]" : "[ ]";
		const char *label = column_label(ids[i]);

		out_printf(&o, "  %s ", mark);
		out_padded(&o, col.title, tw, 0);
		out_printf(&o, " %s", col.key);
		if (ids[i] == v->spec.sort_col)
			out_printf(&o, "  %s", _("(sort)"));
		if (label) /* beneath each other, after the longest key */
			out_printf(&o, "%*s%s", 17 - (int)strlen(col.key), "", label);
		out_char(&o, '\0');
		put_line(top + line++, o.data, ids[i] == v->menu ? A_REVERSE : A_NORMAL);
		out_free(&o);
	}
}

/* The help's lines after the keys. */
static const char *const help_notes[] = {
	"",
	/* xgettext:no-c-format */
	N_("Delay cells: % of the interval spent waiting (a process can exceed 100%),"),
	N_("or, with m, ms per wait, waits per second, the longest wait. '-': unavailable."),
	/* xgettext:no-c-format */
	N_("'+' after a share: above 100% per thread, as a wait that began in an earlier"),
	N_("interval ended in this one (waits count when they end)."),
	N_("<partial> (without privileges): threads ended during the interval, and their"),
	N_("delays are missing from the process's numbers."),
	/* xgettext:no-c-format */
	N_("PSI bars: the share of the interval with stalls; green below 10%,"),
	/* xgettext:no-c-format */
	N_("yellow below 40%, red above; without colour drawn with '-', '=' and '#'."),
	N_("Beside each bar its share in each reading of the last minutes, the newest"),
	/* xgettext:no-c-format */
	N_("right, 0 to 100%; TREND (C) draws a row's sort value the same way."),
	N_("Enter (i) shows the selected row's delays over the last minutes; Esc returns."),
	N_("Pause (z) freezes the screen; exits are still collected, and the"),
	N_("next reading covers the whole pause."),
	N_("A recording (-r) shows its readings as they were taken: n and N step, J goes"),
	N_("to a time, z plays at the recorded pace, [ and ] change the speed."),
	N_("Its timeline spans the whole recording: each cell the highest pressure (the"),
	N_("largest bar's share) of the readings in it, '!' where triggers fired, the"),
	N_("reading shown in reverse. e and E go to the next and previous trigger event,"),
	/* xgettext:no-c-format */
	N_("} and { to the next and previous peak: the reading of highest pressure in"),
	/* xgettext:no-c-format */
	N_("each stretch of readings at 10% or more, parted by readings below 10%."),
	"",
	N_("Press any key to return."),
};

static void draw_help(struct view *v)
{
	size_t nnotes = sizeof(help_notes) / sizeof(help_notes[0]);
	size_t total = key_binding_count + nnotes;
	int y = 1;

	erase();
	put_line(0, _("delaytop help (Up/Down scroll)"), A_REVERSE | A_BOLD);
	if (v->help_top > (int)total - 1)
		v->help_top = (int)total - 1;
	for (size_t i = (size_t)v->help_top; i < total && y < LINES; i++) {
		struct outbuf o = { 0 };

		if (i < key_binding_count) {
			out_str(&o, "  ");
			out_padded(&o, _(key_bindings[i].label), 10, 0);
			out_char(&o, ' ');
			out_str(&o, _(key_bindings[i].help));
		} else if (help_notes[i - key_binding_count][0]) {
			out_str(&o, _(help_notes[i - key_binding_count]));
		}
		out_char(&o, '\0');
		put_line(y++, o.data, A_NORMAL);
		out_free(&o);
	}
}

void view_draw(struct view *v)
{
	struct bar bars[8];
	int nbars = v->have_snap ? psi_bars(&v->snap, bars) : 0;
	int y = 0, footer = LINES >= 3, rows;

	v->title_y = -1;
	if (v->help) {
		draw_help(v);
		refresh();
		return;
	}
	erase();
	/* a second header line only when the table keeps at least three rows without the bars */
	y += draw_header(v, y, LINES - 2 - footer - 1 >= 3 ? 2 : 1);
	/* a recording's timeline when the table keeps at least three rows */
	if (v->have_snap && LINES - y - 1 - footer - 1 >= 3)
		y += draw_timeline(v, y);
	/* the bars only when the table keeps at least three rows */
	if (LINES - y - nbars - footer - 1 < 3)
		nbars = 0;
	for (int i = 0; i < nbars; i++)
		draw_bar(v, y++, &bars[i]);
	rows = LINES - y - footer;
	if (v->prompt == PROMPT_SORT)
		draw_sort_menu(v, y, rows);
	else if (v->prompt == PROMPT_COLUMNS)
		draw_columns_menu(v, y, rows);
	else if (rows > 0 && detail_is_open(v))
		detail_draw(v, y, rows);
	else if (rows > 0)
		draw_table(v, y, rows);
	if (footer)
		draw_footer(v, LINES - 1);
	refresh();
}
