/* keys.c — the key table. */
#include "config.h"

#include <curses.h>

#include "i18n.h"
#include "keys.h"

#define CTRL(c) ((c) & 0x1f)

const struct key_binding key_bindings[] = {
	{ .codes = { KEY_UP, 'k', 0 }, .label = N_("Up, k"), .action = ACT_UP, .help = N_("select the task above") },
	{ .codes = { KEY_DOWN, 'j', 0 }, .label = N_("Down, j"), .action = ACT_DOWN,
	  .help = N_("select the task below") },
	{ .codes = { KEY_PPAGE, 0 }, .label = N_("PgUp"), .action = ACT_PAGE_UP, .help = N_("one page up") },
	{ .codes = { KEY_NPAGE, 0 }, .label = N_("PgDn"), .action = ACT_PAGE_DOWN, .help = N_("one page down") },
	{ .codes = { KEY_HOME, 0 }, .label = N_("Home"), .action = ACT_HOME, .help = N_("first task") },
	{ .codes = { KEY_END, 0 }, .label = N_("End"), .action = ACT_END, .help = N_("last task") },
	{ .codes = { KEY_F(6), 's', 0 }, .label = N_("F6, s"), .action = ACT_SORT_MENU,
	  .help = N_("choose the sort column from a menu") },
	{ .codes = { '<', 0 }, .label = "<", .action = ACT_SORT_LEFT, .help = N_("sort by the next column to the left on the screen") },
	{ .codes = { '>', 0 }, .label = ">", .action = ACT_SORT_RIGHT, .help = N_("sort by the next column to the right on the screen") },
	{ .codes = { KEY_F(2), 'C', 0 }, .label = N_("F2, C"), .action = ACT_SETUP,
	  .help = N_("choose, order and sort the columns (W keeps them)") },
	{ .codes = { 'r', 0 }, .label = "r", .action = ACT_REVERSE, .help = N_("reverse the sort order") },
	{ .codes = { '/', 0 }, .label = "/", .action = ACT_FILTER_COMMAND,
	  .help = N_("show only tasks whose command name or command line contains a text (Esc clears)") },
	{ .codes = { 'u', 0 }, .label = "u", .action = ACT_FILTER_USER,
	  .help = N_("show only one user's tasks (empty: all users)") },
	{ .codes = { 'p', 0 }, .label = "p", .action = ACT_FILTER_PID,
	  .help = N_("show only some processes by pid (empty: all)") },
	{ .codes = { 27, 0 }, .label = N_("Esc"), .action = ACT_CLEAR_FILTER,
	  .help = N_("clear the command filter and the cgroup or command opened") },
	{ .codes = { 'H', 0 }, .label = "H", .action = ACT_THREADS,
	  .help = N_("switch between processes and threads") },
	{ .codes = { 'g', 0 }, .label = "g", .action = ACT_GROUP,
	  .help = N_("rows: processes, threads, cgroups (a tree with pressure), commands (processes summed by "
		     "name), in turn") },
	{ .codes = { '\n', '\r', KEY_ENTER }, .label = N_("Enter"), .action = ACT_OPEN,
	  .help = N_("cgroups, commands: show the processes of the selected cgroup or command name; "
		     "processes, threads: as i") },
	{ .codes = { 'i', 0 }, .label = "i", .action = ACT_DETAIL,
	  .help = N_("details of the selected row: its delays over the last minutes, its facts, its waits' "
		     "histograms with --why (Esc returns)") },
	{ .codes = { '-', 0 }, .label = "-", .action = ACT_FOLD,
	  .help = N_("cgroups: hide what is below the selected cgroup") },
	{ .codes = { '+', '=', 0 }, .label = "+", .action = ACT_UNFOLD,
	  .help = N_("cgroups: show what is below the selected cgroup") },
	{ .codes = { 'a', 0 }, .label = "a", .action = ACT_ACTIVE,
	  .help = N_("show only tasks that waited during the interval") },
	{ .codes = { 'x', 0 }, .label = "x", .action = ACT_EXITED,
	  .help = N_("hide or show the tasks that exited (shown at the start unless --hide-exited)") },
	{ .codes = { 't', KEY_F(5), 0 }, .label = N_("t, F5"), .action = ACT_TREE,
	  .help = N_("processes as a tree, each under its parent") },
	{ .codes = { 'S', 0 }, .label = "S", .action = ACT_TREE_SUMS,
	  .help = N_("tree: each process's numbers sum its subtree, or its own") },
	{ .codes = { 'c', 0 }, .label = "c", .action = ACT_CMDLINE,
	  .help = N_("show the command name or the full command line") },
	{ .codes = { 'm', 0 }, .label = "m", .action = ACT_METRIC,
	  /* xgettext:no-c-format */
	  .help = N_("cycle the cells: % of time, ms per wait, waits/s, longest wait") },
	{ .codes = { 'A', 0 }, .label = "A", .action = ACT_ACCUMULATE,
	  .help = N_("totals since the start (exited tasks too), or the last interval") },
	{ .codes = { ' ', 0 }, .label = N_("Space"), .action = ACT_REFRESH, .help = N_("take a reading now") },
	{ .codes = { 'z', 0 }, .label = "z", .action = ACT_PAUSE,
	  .help = N_("pause: freeze the screen (exits are still collected); replay: play or pause") },
	{ .codes = { KEY_RIGHT, 'n', 0 }, .label = N_("Right, n"), .action = ACT_NEXT_READING,
	  .help = N_("replay (-r): show the next reading") },
	{ .codes = { KEY_LEFT, 'N', 0 }, .label = N_("Left, N"), .action = ACT_PREV_READING,
	  .help = N_("replay (-r): show the reading before") },
	{ .codes = { 'J', 0 }, .label = "J", .action = ACT_JUMP,
	  .help = N_("replay (-r): go to a time typed in (the first reading at or after it)") },
	{ .codes = { ']', 0 }, .label = "]", .action = ACT_FASTER,
	  .help = N_("replay (-r): play twice as fast (up to 64x)") },
	{ .codes = { '[', 0 }, .label = "[", .action = ACT_SLOWER,
	  .help = N_("replay (-r): play half as fast (down to 1/4x)") },
	{ .codes = { 'd', 0 }, .label = "d", .action = ACT_DELAY, .help = N_("change the interval") },
	{ .codes = { 'W', 0 }, .label = "W", .action = ACT_WRITE_SETTINGS,
	  .help = N_("write the interval, sort, order, rows, a, x, y and the columns to the settings file") },
	{ .codes = { 'h', '?', 0 }, .label = N_("h, ?"), .action = ACT_HELP, .help = N_("this help") },
	{ .codes = { 'q', 0 }, .label = "q", .action = ACT_QUIT, .help = N_("quit") },
	{ .codes = { 'M', 0 }, .label = "M", .action = ACT_MOUSE,
	  .help = N_("mouse on or off (on: a click on a title sorts, on a row selects; off: the terminal's own)") },
	{ .codes = { CTRL('L'), 0 }, .label = N_("Ctrl-L"), .action = ACT_REDRAW, .help = N_("redraw the screen") },
	{ .codes = { CTRL('T'), 0 }, .label = N_("Ctrl-T"), .action = ACT_DELAYACCT,
	  .help = N_("switch kernel.task_delayacct on or off (root)") },
	{ .codes = { 'y', 0 }, .label = "y", .action = ACT_WHY,
	  .help = N_("--why on or off: how long each wait lasts, through eBPF (the p99 columns, i's histograms; "
		     "CAP_BPF and CAP_PERFMON)") },
	{ .codes = { 'w', 0 }, .label = "w", .action = ACT_STACKS,
	  .help = N_("the selected task's off-CPU stacks with --why (in the detail view: w, or the details "
		     "again; Enter folds or unfolds a stack, + all, - none)") },
	/* the timeline's keys last, so that the first page of the help still shows q and the keys
	 * every screen has */
	{ .codes = { 'e', 0 }, .label = "e", .action = ACT_NEXT_EVENT,
	  .help = N_("replay (-r): go to the next reading made when a trigger fired (! on the timeline)") },
	{ .codes = { 'E', 0 }, .label = "E", .action = ACT_PREV_EVENT,
	  .help = N_("replay (-r): go to the reading before made when a trigger fired") },
	{ .codes = { '}', 0 }, .label = "}", .action = ACT_NEXT_PEAK,
	  .help = N_("replay (-r): go to the next peak of pressure (the help's notes say what one is)") },
	{ .codes = { '{', 0 }, .label = "{", .action = ACT_PREV_PEAK,
	  .help = N_("replay (-r): go to the peak of pressure before") },
	{ .codes = { 'T', 0 }, .label = "T", .action = ACT_TIMELINE_FOCUS,
	  .help = N_("replay (-r): the timeline shows the highest pressure, then CPU, memory, I/O, IRQ alone "
		     "(its peaks follow)") },
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
