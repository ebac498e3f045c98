/* view.h — the full-screen front end: state, keys and drawing on ncursesw. */
#ifndef DELAYTOP_VIEW_H
#define DELAYTOP_VIEW_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "colset.h"
#include "columns.h"
#include "filter.h"
#include "listing.h"
#include "model.h"
#include "options.h"
#include "reader.h"
#include "sampler.h"
#include "snapcopy.h"

/* Runs the screen until q or a signal sets *stop, watching the PSI triggers registered on
 * trigger_fds (o->ntriggers of them). Returns the exit status; prints a message suggesting -b and
 * returns 1 when there is no usable terminal. */
int view_run(const struct options *o, struct sampler *s, const int *trigger_fds, struct recorder *rec,
	     volatile sig_atomic_t *stop);

struct replay;
/* The screen on a recording (-r): its readings in turn at the recorded pace, or stepped, or from
 * a time typed in. Returns the exit status, as view_run. */
int view_replay(const struct options *o, struct replay *r, volatile sig_atomic_t *stop);

/* ---- shared by view.c, viewdraw.c and prompt.c ---- */

enum prompt_kind {
	PROMPT_NONE,
	PROMPT_COMMAND,
	PROMPT_USER,
	PROMPT_PID,
	PROMPT_DELAY,
	PROMPT_DELAYACCT,
	PROMPT_SORT,
	PROMPT_COLUMNS, /* the column setup (F2) */
};

struct view {
	struct reader *reader;     /* takes the readings, on its own thread */
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
	struct listing list;       /* the snapshot's rows that pass the filter, sorted */
	struct listing_spec spec;  /* how: the filter, the display, the sort */
	struct colset cols;        /* the columns shown, in order: spec.display's chosen */
	char command_filter[128];
	char cgroup_filter[1024];  /* -c, or the cgroup opened with Enter; "" for none */
	char cgroup_root[1024];    /* -c as given at the start: Esc goes back to it */
	char **folded;             /* the cgroup view: cgroups whose subtrees are hidden */
	size_t nfolded;
	char user_text[64];
	uint32_t *pids;            /* the pid selection as typed */
	size_t npids;
	uint32_t *selection;       /* and as the sampler made it (threads resolved): the row filter */
	double delay_s;
	int paused;
	int listening;

	size_t selected, top;     /* index of the selected row, of the first row shown */
	int follow;                /* the user moved the selection: it stays on its task */
	uint32_t sel_pid, sel_tid; /* the selected task, kept across refreshes while it lives */
	char sel_cgroup[1024];     /* the cgroup view: the selected cgroup */
	int page;                  /* table rows on screen at the last draw */
	int title_y;               /* the line of the table's titles at the last draw; -1: no table */
	struct table layout;       /* the table's columns at the last draw, for mouse clicks */
	int mouse;                 /* the terminal reports mouse presses */

	int help;
	int help_top;
	enum prompt_kind prompt;
	char input[256];
	int input_too_long;        /* typing went past the end of input: refused at Enter */
	int input_hides_pids;      /* the pid list was too long to offer in the prompt */
	int delayacct_target;      /* what the Ctrl-T question offers to set the switch to */
	int menu;                  /* the sort menu's or the column setup's highlighted column */

	char message[256];
	uint64_t message_until;    /* CLOCK_MONOTONIC */
	int colors;
	int quit;
	long iterations;           /* -n: quit after this many refreshes (0: never) */
	long refreshes;
};

#define KEY_ESC 27

/* Draws everything for the current state (viewdraw.c). */
void view_draw(struct view *v);

/* Shows a message on the message line for a few seconds. */
void view_say(struct view *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* W: the settings shown now into the settings file, for the next start. */
void view_write_settings(struct view *v);
/* Filters and sorts the snapshot's rows again, after a change of filter or sort. */
void view_rebuild(struct view *v);

/* The prompts (prompt.c): open one with the text to edit; a key while one is open. */
void prompt_open(struct view *v, enum prompt_kind kind, const char *initial);
void prompt_open_pids(struct view *v);
void prompt_key(struct view *v, wint_t c, int is_key, uint64_t *deadline);

#endif
