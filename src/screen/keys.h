/* keys.h — the screen's keys: one table of key, action and help text, from which the dispatch,
 * the help screen and the footer are made. Pure code. */
#ifndef DELAYTOP_KEYS_H
#define DELAYTOP_KEYS_H

#include <stddef.h>

enum action {
	ACT_NONE,
	ACT_UP,
	ACT_DOWN,
	ACT_PAGE_UP,
	ACT_PAGE_DOWN,
	ACT_HOME,
	ACT_END,
	ACT_SORT_LEFT,
	ACT_SORT_RIGHT,
	ACT_SORT_MENU,
	ACT_REVERSE,
	ACT_FILTER_COMMAND,
	ACT_FILTER_USER,
	ACT_FILTER_PID,
	ACT_CLEAR_FILTER,
	ACT_THREADS,
	ACT_GROUP,
	ACT_OPEN,
	ACT_FOLD,
	ACT_UNFOLD,
	ACT_ACTIVE,
	ACT_EXITED,
	ACT_TREE,
	ACT_TREE_SUMS,
	ACT_CMDLINE,
	ACT_METRIC,
	ACT_ACCUMULATE,
	ACT_REFRESH,
	ACT_PAUSE,
	ACT_DELAY,
	ACT_HELP,
	ACT_QUIT,
	ACT_REDRAW,
	ACT_DELAYACCT,
	ACT_WHY,           /* --why on or off (a live run) */
	ACT_WRITE_SETTINGS,
	ACT_SETUP,
	ACT_MOUSE,
	ACT_NEXT_READING,  /* a recording (-r): step, jump, speed */
	ACT_PREV_READING,
	ACT_JUMP,
	ACT_FASTER,
	ACT_SLOWER,
	ACT_DETAIL,        /* the detail view of the selected row */
	ACT_STACKS,        /* the detail view with its stacks pane (w) */
	ACT_NEXT_EVENT,    /* a recording: its timeline's trigger events and peaks of pressure */
	ACT_PREV_EVENT,
	ACT_NEXT_PEAK,
	ACT_PREV_PEAK,
	ACT_TIMELINE_FOCUS,
	ACT_COUNT
};

struct key_binding {
	int codes[3];      /* curses key codes or characters; 0 ends the list */
	const char *label; /* as the help screen shows it: "<", "PgUp", "Ctrl-T" */
	enum action action;
	const char *help;  /* N_(): what it does */
};

extern const struct key_binding key_bindings[];
extern const size_t key_binding_count;

/* The action of a key code, or ACT_NONE. */
enum action keys_action(int code);

#endif
