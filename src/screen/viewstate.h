/* viewstate.h — what the screen's parts share: its state (struct view), the source of its
 * readings, and the functions of that state the prompts and the drawing call (viewstate.c).
 * Calls go one way: viewstate.c below viewdraw.c and prompt.c, those below view.c's key loop,
 * that below the sources (viewlive.c, viewreplay.c); a source's hooks are how the lower parts
 * reach a recording's facts. */
#ifndef DELAYTOP_VIEWSTATE_H
#define DELAYTOP_VIEWSTATE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "colset.h"
#include "columns.h"
#include "filter.h"
#include "keys.h"
#include "listing.h"
#include "model.h"
#include "options.h"
#include "reader.h"
#include "sampler.h"
#include "snapcopy.h"

enum prompt_kind {
	PROMPT_NONE,
	PROMPT_COMMAND,
	PROMPT_USER,
	PROMPT_PID,
	PROMPT_DELAY,
	PROMPT_DELAYACCT,
	PROMPT_SORT,
	PROMPT_COLUMNS, /* the column setup (F2) */
	PROMPT_TIME,    /* a recording: the time to go to (J) */
};

struct view;
struct outbuf;

/* Where the screen's readings come from: a live run's reading thread (viewlive.c) or a recording
 * (viewreplay.c), under one loop. A source with an fd makes readings ready to take there; one
 * without takes them itself, at once, through view_take(). */
struct view_source {
	/* The first reading; may move the first deadline. */
	void (*start)(struct view *v, uint64_t *deadline);
	/* Readable when a reading is ready to take; -1 for none. */
	int (*fd)(const struct view *v);
	/* The reading that is ready into v->copy (setting v->copy_totals), as reader_take(). */
	enum reader_result (*take)(struct view *v, char *err, size_t errlen);
	/* The deadline passed while not paused: the next reading, and the deadline after it.
	 * Returns 1 when the screen changed. */
	int (*due)(struct view *v, uint64_t now, uint64_t *deadline);
	/* The rows asked for are to change (before v->want_threads and want_cgroups do). */
	void (*group)(struct view *v, int threads, int cgroups, uint64_t *deadline);
	/* The pid prompt's answer, pids[0..n) (the caller's). */
	void (*pids)(struct view *v, const uint32_t *pids, size_t n);
	/* A key's action the source has its own way with: 1; 0 leaves it to the screen. */
	int (*act)(struct view *v, enum action a, uint64_t *deadline);
	/* A recording's (NULL in a live run): the header's first parts, the time of the reading
	 * shown, the state of play ("PAUSED 1x", "PLAYING 4x"), the file and host; the answer to
	 * the time prompt. */
	void (*when)(const struct view *v, struct outbuf *o);
	void (*state)(const struct view *v, struct outbuf *o);
	void (*origin)(const struct view *v, struct outbuf *o);
	void (*jump)(struct view *v, const char *text, uint64_t *deadline);
	/* A recording's (NULL in a live run): the readings within span_s seconds either side of the
	 * one shown, the oldest first, each to feed (the detail view's window). */
	void (*around)(struct view *v, double span_s, void (*feed)(void *ctx, const struct snapshot *s), void *ctx);
	/* A recording's timeline on a line of width cells: each bucket's pressure (0..1, -1: no
	 * reading) into cells[], whether triggers fired in it into events[]; returns the bucket of
	 * the reading shown, or -1 for no timeline. NULL in a live run. */
	int (*timeline)(struct view *v, int width, double *cells, unsigned char *events);
	/* The resource the timeline shows (a psi_resource_id), or -1 for the highest of all. */
	int (*timeline_resource)(const struct view *v);
	/* A live run's (NULL for a recording): the detail view's task, whose off-CPU stacks --why
	 * takes from now on (a tid in thread rows, else a pid; 0: none, the view closed). */
	void (*stacks)(struct view *v, uint32_t id);
};

struct view_replay;
struct detail;

struct view {
	const struct view_source *src; /* where the readings come from */
	struct reader *reader;     /* a live run's: takes the readings, on its own thread */
	struct view_replay *replay; /* a recording's (viewreplay.c); NULL in a live run */
	struct detail *detail;     /* the history and the detail view (detail.c) */
	const struct trigger_spec *triggers; /* --trigger, watched by the reader */
	int ntriggers;
	struct snapcopy copy;      /* the reading shown, the screen's own */
	int copy_totals;           /* with the task rows' totals since the start (while A shows them) */
	struct snapshot snap;      /* the copy's snapshot */
	int have_snap;
	int started;               /* the first reading was taken (the screen is drawn from then on) */
	int counted;               /* a reading asked for at a deadline is due: -n counts it */
	int want_threads;          /* the view asked for (the rows follow with its reading) */
	int want_cgroups;
	int want_commands;         /* the command view: process rows summed per command name */
	struct listing list;       /* the snapshot's rows that pass the filter, sorted */
	struct listing_spec spec;  /* how: the filter, the display, the sort */
	struct colset cols;        /* the columns shown, in order: spec.display's chosen */
	char command_filter[128];
	char comm_filter[128];     /* the command opened with Enter on its row: that name exactly */
	char cgroup_filter[1024];  /* -c, or the cgroup opened with Enter; "" for none */
	char cgroup_root[1024];    /* -c as given at the start: Esc goes back to it */
	char **folded;             /* the cgroup view: cgroups whose subtrees are hidden */
	size_t nfolded;
	char user_text[64];
	uint32_t *pids;            /* the pid selection as typed */
	size_t npids;
	uint32_t *selection;       /* and as the sampler made it (threads resolved): the row filter */
	double delay_s;
	int paused;                /* a recording: not playing */
	int listening;

	size_t selected, top;     /* index of the selected row, of the first row shown */
	int follow;                /* the user moved the selection: it stays on its task */
	uint32_t sel_pid, sel_tid; /* the selected task, kept across refreshes while it lives */
	char sel_cgroup[1024];     /* the cgroup view: the selected cgroup */
	char sel_command[128];     /* the command view: the selected command */
	int page;                  /* table rows on screen at the last draw */
	int title_y;               /* the line of the table's titles at the last draw; -1: no table */
	struct table layout;       /* the table's columns at the last draw, for mouse clicks */
	int mouse;                 /* the terminal reports mouse presses */

	int help;
	int help_top;
	enum prompt_kind prompt;
	char input[256];
	int input_too_long;        /* typing went past the end of input: refused at Enter */
	int input_offered;         /* input is the value offered when the prompt opened, shown
				      selected: the first character typed replaces it */
	int input_hides_pids;      /* the pid list was too long to offer in the prompt */
	int delayacct_target;      /* what the Ctrl-T question offers to set the switch to */
	int why;                   /* --why as asked for (y switches it in a live run; W keeps it) */
	int menu;                  /* the sort menu's or the column setup's highlighted column */

	char message[256];
	uint64_t message_until;    /* CLOCK_MONOTONIC */
	int colors;
	int quit;
	long iterations;           /* -n: quit after this many refreshes (0: never) */
	long refreshes;
};

#define KEY_ESC 27

/* Shows a message on the message line for a few seconds. */
void view_say(struct view *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* W: the settings shown now into the settings file, for the next start. */
void view_write_settings(struct view *v);
/* Filters and sorts the snapshot's rows again, after a change of filter or sort. */
void view_rebuild(struct view *v);
/* Keeps the selected row's task (or cgroup) as the one to follow across refreshes. */
void view_remember_selection(struct view *v);

#endif
