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
#include "keys.h"
#include "listing.h"
#include "model.h"
#include "options.h"
#include "reader.h"
#include "sampler.h"
#include "snapcopy.h"

/* Runs the screen until q or a stop signal (stop_fd, stopsig.h), watching the PSI triggers registered on
 * trigger_fds (o->ntriggers of them). Returns the exit status; prints a message suggesting -b and
 * returns 1 when there is no usable terminal. */
int view_run(const struct options *o, struct sampler *s, const int *trigger_fds, struct recorder *rec,
	     int stop_fd);

struct replay;
/* The screen on a recording (-r): its readings in turn at the recorded pace, or stepped, or from
 * a time typed in (viewreplay.c). Returns the exit status, as view_run; 1 also when damage was
 * met (said on the message line as it was). */
int view_replay(const struct options *o, struct replay *r, int stop_fd);

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
	PROMPT_TIME,    /* a recording: the time to go to (J) */
};

struct view;

/* Where the screen's readings come from: a live run's reading thread (view.c) or a recording
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
};

struct view_replay;

struct view {
	const struct view_source *src; /* where the readings come from */
	struct reader *reader;     /* a live run's: takes the readings, on its own thread */
	struct view_replay *replay; /* a recording's (viewreplay.c); NULL in a live run */
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
	int paused;                /* a recording: not playing */
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
/* Takes the reading the source has ready (src->take) and shows it from now on; -n counts it when
 * v->counted. Returns 1 when it took one. */
int view_take(struct view *v);
/* Rows of processes, threads or cgroups, from now (the source says when they come). */
void view_set_rows(struct view *v, int threads, int cgroups, uint64_t *deadline);
/* The row filter's pids (copied): the selection as the source made it. */
void view_set_selection(struct view *v, const uint32_t *pids, size_t n);

/* The screen's state from the options, the part every source shares; view_free frees it. */
void view_init(struct view *v, const struct options *o);
void view_free(struct view *v);
/* The key loop, until q, -n or a stop signal: stop_fd (stopsig.h) is watched with the keys, so
 * that one ends the loop at once. */
void view_loop(struct view *v, int stop_fd);

/* A recording's header and prompt (viewreplay.c): the header's first parts, the time of the
 * reading shown, the state of play ("PAUSED 1x", "PLAYING 4x"), the file and host; the answer
 * to the time prompt. */
struct outbuf;
void viewreplay_when(const struct view *v, struct outbuf *o);
void viewreplay_origin(const struct view *v, struct outbuf *o);
void viewreplay_state(const struct view *v, struct outbuf *o);
void viewreplay_jump(struct view *v, const char *text, uint64_t *deadline);

/* The prompts (prompt.c): open one with the text to edit; a key while one is open. */
void prompt_open(struct view *v, enum prompt_kind kind, const char *initial);
void prompt_open_pids(struct view *v);
void prompt_key(struct view *v, wint_t c, int is_key, uint64_t *deadline);

#endif
