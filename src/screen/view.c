/* view.c — the screen's event loop: readings on a deadline, keys at once (the prompts' keys in
 * prompt.c, the state both change in viewstate.c). The readings come from a source (viewstate.h):
 * the reading thread (viewlive.c) or a recording (viewreplay.c), under the same loop.
 *
 * Keys never wait for a reading: readings run on the reading thread (reader.c), and sorting,
 * filtering and drawing work on the screen's copy of the last one. While paused (z) no readings
 * are asked for, so the screen stays as it is; exit records are still collected, so the first
 * reading after the pause covers all of it. */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include "acctswitch.h"
#include "detail.h"
#include "format.h"
#include "i18n.h"
#include "keys.h"
#include "listing.h"
#include "order.h"
#include "prompt.h"
#include "terminal.h"
#include "timing.h"
#include "view.h"
#include "viewdraw.h"
#include "xalloc.h"

/* ---- rows and selection ---- */

void view_set_selection(struct view *v, const uint32_t *pids, size_t n)
{
	free(v->selection);
	v->selection = NULL;
	if (n) {
		v->selection = xmalloc(n * sizeof(*pids));
		memcpy(v->selection, pids, n * sizeof(*pids));
	}
	v->spec.filter.pids = v->selection;
	v->spec.filter.npids = n;
}

/* Takes the reading the source has ready, if any; returns 1 when it did. */
static int take_reading(struct view *v)
{
	char err[512];
	enum reader_result res;

	view_remember_selection(v);
	res = v->src->take(v, err, sizeof(err));
	if (res == READER_NONE)
		return 0;
	v->started = 1;
	v->have_snap = res == READER_SNAPSHOT;
	if (v->have_snap)
		v->snap = v->copy.snap;
	else
		view_say(v, "%s", err);
	view_rebuild(v);
	detail_feed(v);
	return 1;
}

/* follow: the selection stays on its task from now on; Home alone goes back to the top row. */
static void move_selection(struct view *v, long delta, int follow)
{
	long target = (long)v->selected + delta;

	if (target < 0 || v->list.n == 0)
		target = 0;
	else if (target >= (long)v->list.n)
		target = (long)v->list.n - 1;
	v->selected = (size_t)target;
	v->follow = follow;
	view_remember_selection(v);
}

/* A press of the mouse's first button on a column's title sorts by it (on the sort column:
 * reverses), on a row selects it; the wheel moves the selection. */
static void mouse_press(struct view *v)
{
	MEVENT ev;

	if (getmouse(&ev) != OK)
		return;
	if (ev.bstate & BUTTON4_PRESSED) {
		move_selection(v, -3, 1);
	} else if (ev.bstate & BUTTON5_PRESSED) {
		move_selection(v, 3, 1);
	} else if (!(ev.bstate & BUTTON1_PRESSED) || v->title_y < 0) {
		return;
	} else if (ev.y == v->title_y) {
		int i = table_column_at(&v->layout, ev.x);

		if (i < 0)
			return;
		if (v->layout.ids[i] == v->spec.sort_col)
			v->spec.reverse = !v->spec.reverse;
		else
			v->spec.sort_col = v->layout.ids[i];
		view_rebuild(v);
	} else if (ev.y > v->title_y && ev.y <= v->title_y + v->page) {
		size_t r = v->top + (size_t)(ev.y - v->title_y - 1);

		if (r < v->list.n)
			move_selection(v, (long)r - (long)v->selected, 1);
	}
}

static void switch_mouse(struct view *v)
{
	v->mouse = terminal_mouse(!v->mouse);
	view_say(v, "%s", v->mouse ? _("mouse on: a click on a title sorts, on a row selects")
				   : _("mouse off: the terminal selects text"));
}

/* ---- actions ---- */

static void sort_step(struct view *v, int step)
{
	v->spec.sort_col = column_step_shown(v->spec.sort_col, step, &v->spec.display);
	view_rebuild(v);
}

/* A sort column the new view lacks gives way to TOTAL; the selection goes back to the top. */
void view_set_rows(struct view *v, int threads, int cgroups, int commands, uint64_t *deadline)
{
	struct display wanted = v->spec.display;

	v->src->group(v, threads, cgroups, deadline);
	v->want_threads = threads;
	v->want_cgroups = cgroups;
	v->want_commands = commands;
	wanted.threads = threads;
	wanted.cgroups = cgroups;
	wanted.commands = commands && !cgroups;
	if (!column_in_view(v->spec.sort_col, &wanted))
		v->spec.sort_col = COL_TOTAL;
	v->sel_tid = 0;
	v->follow = 0;
	view_rebuild(v);
}

static void switch_threads(struct view *v, uint64_t *deadline)
{
	view_set_rows(v, !v->want_threads, 0, 0, deadline);
}

/* g: processes, then threads, cgroups and commands. */
static void next_group(struct view *v, uint64_t *deadline)
{
	if (v->want_commands)
		view_set_rows(v, 0, 0, 0, deadline);
	else if (v->want_cgroups)
		view_set_rows(v, 0, 0, 1, deadline);
	else if (v->want_threads)
		view_set_rows(v, 0, 1, 0, deadline);
	else
		view_set_rows(v, 1, 0, 0, deadline);
}

/* The selected row when it is a cgroup, else NULL after saying what the key is for. */
static const struct row *selected_cgroup(struct view *v)
{
	if (v->spec.display.cgroups && v->selected < v->list.n)
		return v->list.rows[v->selected];
	view_say(v, "%s", _("this key works in the cgroup view (g)"));
	return NULL;
}

/* Enter: the processes of the selected cgroup and below. */
static void open_cgroup(struct view *v, uint64_t *deadline)
{
	const struct row *r = selected_cgroup(v);

	if (!r)
		return;
	str_copy(v->cgroup_filter, sizeof(v->cgroup_filter), r->cgroup);
	view_set_rows(v, 0, 0, 0, deadline);
}

/* Enter on a command's row: the processes of that name (Esc shows them all again). */
static void open_command(struct view *v, uint64_t *deadline)
{
	if (v->selected >= v->list.n)
		return;
	str_copy(v->comm_filter, sizeof(v->comm_filter), v->list.rows[v->selected]->comm);
	view_set_rows(v, 0, 0, 0, deadline);
}

static long folded_index(const struct view *v, const char *path)
{
	for (size_t i = 0; i < v->nfolded; i++)
		if (strcmp(v->folded[i], path) == 0)
			return (long)i;
	return -1;
}

/* - and +: hide or show what is below the selected cgroup. */
static void fold(struct view *v, int hide)
{
	const struct row *r = selected_cgroup(v);
	long at;

	if (!r)
		return;
	at = folded_index(v, r->cgroup);
	if (hide && at < 0) {
		v->folded = xrealloc(v->folded, (v->nfolded + 1) * sizeof(*v->folded));
		v->folded[v->nfolded++] = xstrdup(r->cgroup);
	} else if (!hide && at >= 0) {
		free(v->folded[at]);
		v->folded[at] = v->folded[--v->nfolded];
	}
	view_rebuild(v);
}

static void toggle(struct view *v, int *flag)
{
	*flag = !*flag;
	view_rebuild(v);
}

/* t and S: the process tree, and its sums (which turn the tree on); the other views have none. */
static void switch_tree(struct view *v, int sums)
{
	struct display *d = &v->spec.display;

	if (sums) {
		d->tree_sums = !d->tree_sums;
		d->tree = d->tree || d->tree_sums;
	} else {
		d->tree = !d->tree;
		d->tree_sums = 0;
	}
	if (d->threads || d->cgroups || d->commands)
		view_say(v, "%s", _("the tree arranges processes: H or g shows them"));
	view_rebuild(v);
}

/* A: the last interval, or the totals since the start; a copy made without them asks for a
 * reading that has them. */
static void switch_totals(struct view *v)
{
	toggle(v, &v->spec.display.accumulate);
	if (v->spec.display.accumulate && !v->copy_totals && v->have_snap && v->reader) {
		reader_ask(v->reader);
		view_say(v, "%s", _("totals since the start from the next reading"));
	}
}

static void ask_delayacct(struct view *v)
{
	if (geteuid() != 0) {
		view_say(v, "%s", _("switching kernel.task_delayacct needs root"));
		return;
	}
	/* read now, not from the last reading: the question must say what answering yes does */
	v->delayacct_target = acctswitch_state() != DELAYACCT_ON;
	prompt_open(v, PROMPT_DELAYACCT, "");
}

static void paging(struct view *v, enum action a)
{
	long page = v->page > 1 ? v->page - 1 : 1;

	switch (a) {
	case ACT_UP: move_selection(v, -1, 1); break;
	case ACT_DOWN: move_selection(v, 1, 1); break;
	case ACT_PAGE_UP: move_selection(v, -page, 1); break;
	case ACT_PAGE_DOWN: move_selection(v, page, 1); break;
	case ACT_HOME: move_selection(v, -(long)v->list.n, 0); break;
	default: move_selection(v, (long)v->list.n, 1); break;
	}
}

static void act(struct view *v, enum action a, uint64_t *deadline)
{
	if (v->src->act(v, a, deadline))
		return;
	switch (a) {
	case ACT_UP: case ACT_DOWN: case ACT_PAGE_UP: case ACT_PAGE_DOWN: case ACT_HOME: case ACT_END:
		paging(v, a);
		break;
	case ACT_SORT_LEFT: sort_step(v, -1); break;
	case ACT_SORT_RIGHT: sort_step(v, 1); break;
	case ACT_SORT_MENU:
		v->menu = v->spec.sort_col;
		prompt_open(v, PROMPT_SORT, "");
		break;
	case ACT_REVERSE: toggle(v, &v->spec.reverse); break;
	case ACT_FILTER_COMMAND: prompt_open(v, PROMPT_COMMAND, v->command_filter); break;
	case ACT_FILTER_USER: prompt_open(v, PROMPT_USER, v->user_text); break;
	case ACT_FILTER_PID: prompt_open_pids(v); break;
	case ACT_CLEAR_FILTER:
		v->command_filter[0] = '\0';
		v->comm_filter[0] = '\0';
		str_copy(v->cgroup_filter, sizeof(v->cgroup_filter), v->cgroup_root);
		view_rebuild(v);
		break;
	case ACT_THREADS: switch_threads(v, deadline); break;
	case ACT_GROUP: next_group(v, deadline); break;
	case ACT_OPEN:
		if (v->spec.display.cgroups)
			open_cgroup(v, deadline);
		else if (v->spec.display.commands)
			open_command(v, deadline);
		else
			detail_open(v);
		break;
	case ACT_DETAIL: detail_open(v); break;
	case ACT_STACKS: detail_open_stacks(v); break;
	case ACT_FOLD: fold(v, 1); break;
	case ACT_UNFOLD: fold(v, 0); break;
	case ACT_ACTIVE: toggle(v, &v->spec.filter.active); break;
	case ACT_EXITED: toggle(v, &v->spec.filter.hide_exited); break;
	case ACT_TREE: switch_tree(v, 0); break;
	case ACT_TREE_SUMS: switch_tree(v, 1); break;
	case ACT_CMDLINE: toggle(v, &v->spec.display.cmdline); break;
	case ACT_ACCUMULATE: switch_totals(v); break;
	case ACT_METRIC:
		v->spec.display.metric = (enum metric)((v->spec.display.metric + 1) % METRIC_COUNT);
		view_rebuild(v);
		break;
	case ACT_PAUSE: v->paused = !v->paused; break;
	case ACT_DELAY: {
		char d[32];

		snprintf(d, sizeof(d), "%g", v->delay_s);
		prompt_open(v, PROMPT_DELAY, d);
		break;
	}
	case ACT_HELP:
		v->help = 1;
		v->help_top = 0;
		break;
	case ACT_QUIT: v->quit = 1; break;
	case ACT_REDRAW: clearok(curscr, TRUE); break;
	case ACT_DELAYACCT: ask_delayacct(v); break;
	case ACT_WRITE_SETTINGS: view_write_settings(v); break;
	case ACT_MOUSE: switch_mouse(v); break;
	case ACT_SETUP: {
		int ids[COL_COUNT];

		colset_entries(&v->cols, &v->spec.display, ids);
		v->menu = ids[0];
		prompt_open(v, PROMPT_COLUMNS, "");
		break;
	}
	default: break;
	}
}

static void help_key(struct view *v, wint_t c, int is_key)
{
	if (is_key && c == KEY_DOWN)
		v->help_top++;
	else if (is_key && c == KEY_UP)
		v->help_top = v->help_top > 0 ? v->help_top - 1 : 0;
	else if (is_key && c == KEY_NPAGE)
		v->help_top += 10;
	else if (is_key && c == KEY_PPAGE)
		v->help_top = v->help_top > 10 ? v->help_top - 10 : 0;
	else if (!(is_key && c == KEY_RESIZE))
		v->help = 0; /* any other key closes the help */
}

/* Reads every pending key; returns 1 when something changed. */
static int handle_keys(struct view *v, uint64_t *deadline)
{
	int changed = 0;
	wint_t c;
	int rc;

	while ((rc = get_wch(&c)) != ERR) {
		int is_key = rc == KEY_CODE_YES;

		changed = 1;
		if (is_key && c == KEY_RESIZE)
			continue;
		if (is_key && c == KEY_MOUSE) { /* only on the table */
			if (!v->help && v->prompt == PROMPT_NONE)
				mouse_press(v);
			continue;
		}
		if (v->help)
			help_key(v, c, is_key);
		else if (v->prompt == PROMPT_NONE && detail_is_open(v) && detail_key(v, c, is_key))
			continue;
		else if (v->prompt != PROMPT_NONE)
			prompt_key(v, c, is_key, deadline);
		else
			act(v, keys_action(is_key ? (int)c : c < 0x80 ? (int)c : 0), deadline);
		if (v->quit)
			break;
	}
	return changed;
}

/* ---- set-up and loop ---- */

void view_init(struct view *v, const struct options *o)
{
	memset(v, 0, sizeof(*v));
	snapcopy_init(&v->copy);
	v->spec.display.threads = v->want_threads = o->threads;
	v->spec.display.cgroups = v->want_cgroups = o->cgroups;
	v->spec.display.commands = v->want_commands = o->commands;
	if (o->cgroup) {
		str_copy(v->cgroup_filter, sizeof(v->cgroup_filter), o->cgroup);
		str_copy(v->cgroup_root, sizeof(v->cgroup_root), o->cgroup);
	}
	v->spec.display.metric = METRIC_PCT;
	v->spec.display.accumulate = o->accumulate;
	v->triggers = o->triggers;
	v->ntriggers = o->ntriggers;
	v->spec.display.tree = o->tree;
	v->spec.display.tree_sums = o->tree_sums;
	colset_init(&v->cols, o->chosen, o->nchosen);
	v->spec.display.chosen = v->cols.ids;
	v->spec.display.nchosen = v->cols.n;
	v->spec.filter.unit = o->unit;
	v->spec.filter.by_uid = o->by_uid;
	v->spec.filter.uid = o->uid;
	v->spec.filter.active = o->active;
	v->spec.filter.hide_exited = o->hide_exited;
	v->why = o->why;
	if (o->by_uid)
		snprintf(v->user_text, sizeof(v->user_text), "%u", o->uid);
	if (o->npids) {
		v->pids = xmalloc(o->npids * sizeof(*v->pids));
		memcpy(v->pids, o->pids, o->npids * sizeof(*v->pids));
		v->npids = o->npids;
	}
	v->spec.sort_col = o->sort_col;
	v->spec.reverse = o->reverse;
	v->delay_s = o->delay_s;
	v->iterations = o->iterations;
	detail_attach(v);
}

void view_free(struct view *v)
{
	detail_detach(v);
	listing_free(&v->list);
	snapcopy_free(&v->copy);
	free(v->pids);
	free(v->selection);
	for (size_t i = 0; i < v->nfolded; i++)
		free(v->folded[i]);
	free(v->folded);
}

static int wait_ms(const struct view *v, uint64_t deadline)
{
	uint64_t now = timing_mono_ns();
	uint64_t until = v->paused ? now + 1000000000ull : deadline;

	if (v->message[0] && v->message_until < until)
		until = v->message_until;
	return until > now ? (int)((until - now + 999999) / 1000000) : 0;
}

int view_take(struct view *v)
{
	if (!take_reading(v))
		return 0;
	if (v->counted) {
		v->counted = 0;
		if (v->iterations && ++v->refreshes >= v->iterations) { /* -n: as top does */
			view_draw(v);
			v->quit = 1;
		}
	}
	return 1;
}

void view_loop(struct view *v, int stop_fd)
{
	uint64_t deadline;
	int dirty = 1;

	deadline = timing_mono_ns() + (uint64_t)(v->delay_s * 1e9);
	v->src->start(v, &deadline);
	while (!v->quit) {
		struct pollfd fds[3] = { { STDIN_FILENO, POLLIN, 0 }, { v->src->fd(v), POLLIN, 0 }, { stop_fd, POLLIN, 0 } };
		uint64_t now;

		if (dirty && v->started) /* the first screen shows the first reading */
			view_draw(v);
		dirty = 0;
		poll(fds, 3, wait_ms(v, deadline)); /* a negative fd is left out */
		if (fds[2].revents & POLLIN)
			break; /* a stop signal (left pending: stopsig.h) */
		dirty |= handle_keys(v, &deadline);
		if (!v->quit && (fds[1].revents & POLLIN))
			dirty |= view_take(v);
		now = timing_mono_ns();
		if (v->message[0] && now >= v->message_until) {
			v->message[0] = '\0';
			dirty = 1;
		}
		if (!v->quit && !v->paused && now >= deadline)
			dirty |= v->src->due(v, now, &deadline);
	}
}
