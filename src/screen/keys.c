/* keys.c — the key table. */
#include "config.h"

#include <curses.h>

#include "i18n.h"
#include "keys.h"

#define CTRL(c) ((c) & 0x1f)

const struct key_binding key_bindings[] = {
	{ { KEY_UP, 'k', 0 }, N_("Up, k"), ACT_UP, N_("select the task above") },
	{ { KEY_DOWN, 'j', 0 }, N_("Down, j"), ACT_DOWN, N_("select the task below") },
	{ { KEY_PPAGE, 0 }, N_("PgUp"), ACT_PAGE_UP, N_("one page up") },
	{ { KEY_NPAGE, 0 }, N_("PgDn"), ACT_PAGE_DOWN, N_("one page down") },
	{ { KEY_HOME, 0 }, N_("Home"), ACT_HOME, N_("first task") },
	{ { KEY_END, 0 }, N_("End"), ACT_END, N_("last task") },
	{ { '<', 0 }, "<", ACT_SORT_LEFT, N_("sort by the column to the left") },
	{ { '>', 0 }, ">", ACT_SORT_RIGHT, N_("sort by the column to the right") },
	{ { KEY_F(6), 's', 0 }, N_("F6, s"), ACT_SORT_MENU, N_("choose the sort column from a menu") },
	{ { KEY_F(2), 'C', 0 }, N_("F2, C"), ACT_SETUP, N_("choose, order and sort the columns (W keeps them)") },
	{ { 'r', 0 }, "r", ACT_REVERSE, N_("reverse the sort order") },
	{ { '/', 0 }, "/", ACT_FILTER_COMMAND, N_("show only commands containing a text (Esc clears)") },
	{ { 'u', 0 }, "u", ACT_FILTER_USER, N_("show only one user's tasks (empty: all users)") },
	{ { 'p', 0 }, "p", ACT_FILTER_PID, N_("show only some processes by pid (empty: all)") },
	{ { 27, 0 }, N_("Esc"), ACT_CLEAR_FILTER, N_("clear the command filter and the cgroup opened") },
	{ { 'H', 0 }, "H", ACT_THREADS, N_("switch between processes and threads") },
	{ { 'g', 0 }, "g", ACT_GROUP, N_("rows: processes, threads, cgroups (a tree with pressure), in turn") },
	{ { '\n', '\r', KEY_ENTER }, N_("Enter"), ACT_OPEN, N_("cgroups: show the processes of the selected cgroup") },
	{ { '-', 0 }, "-", ACT_FOLD, N_("cgroups: hide what is below the selected cgroup") },
	{ { '+', '=', 0 }, "+", ACT_UNFOLD, N_("cgroups: show what is below the selected cgroup") },
	{ { 'a', 0 }, "a", ACT_ACTIVE, N_("show only tasks that waited during the interval") },
	{ { 't', KEY_F(5), 0 }, N_("t, F5"), ACT_TREE, N_("processes as a tree, each under its parent") },
	{ { 'S', 0 }, "S", ACT_TREE_SUMS, N_("tree: each process's numbers sum its subtree, or its own") },
	{ { 'c', 0 }, "c", ACT_CMDLINE, N_("show the command name or the full command line") },
	/* xgettext:no-c-format */
	{ { 'm', 0 }, "m", ACT_METRIC, N_("cycle the cells: % of time, ms per wait, waits/s, longest wait") },
	{ { 'A', 0 }, "A", ACT_ACCUMULATE, N_("totals since the start (exited tasks too), or the last interval") },
	{ { ' ', 0 }, N_("Space"), ACT_REFRESH, N_("take a reading now") },
	{ { 'z', 0 }, "z", ACT_PAUSE, N_("pause: freeze the screen (exits are still collected); replay: play or pause") },
	{ { KEY_RIGHT, 'n', 0 }, N_("Right, n"), ACT_NEXT_READING, N_("replay (-r): show the next reading") },
	{ { KEY_LEFT, 'N', 0 }, N_("Left, N"), ACT_PREV_READING, N_("replay (-r): show the reading before") },
	{ { 'J', 0 }, "J", ACT_JUMP, N_("replay (-r): go to a time typed in (the first reading at or after it)") },
	{ { ']', 0 }, "]", ACT_FASTER, N_("replay (-r): play twice as fast (up to 64x)") },
	{ { '[', 0 }, "[", ACT_SLOWER, N_("replay (-r): play half as fast (down to 1/4x)") },
	{ { 'd', 0 }, "d", ACT_DELAY, N_("change the interval") },
	{ { 'W', 0 }, "W", ACT_WRITE_SETTINGS,
	  N_("write the interval, sort, order, rows, a and the columns to the settings file") },
	{ { 'h', '?', 0 }, N_("h, ?"), ACT_HELP, N_("this help") },
	{ { 'q', 0 }, "q", ACT_QUIT, N_("quit") },
	{ { 'M', 0 }, "M", ACT_MOUSE,
	  N_("mouse on or off (on: a click on a title sorts, on a row selects; off: the terminal's own)") },
	{ { CTRL('L'), 0 }, N_("Ctrl-L"), ACT_REDRAW, N_("redraw the screen") },
	{ { CTRL('T'), 0 }, N_("Ctrl-T"), ACT_DELAYACCT, N_("switch kernel.task_delayacct on or off (root)") },
};

const size_t key_binding_count = sizeof(key_bindings) / sizeof(key_bindings[0]);

enum action keys_action(int code)
{
	for (size_t i = 0; i < key_binding_count; i++)
		for (int j = 0; j < 3 && key_bindings[i].codes[j]; j++)
			if (key_bindings[i].codes[j] == code)
				return key_bindings[i].action;
	return ACT_NONE;
}
