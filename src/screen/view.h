/* view.h — the full-screen front end on ncursesw: its entry points (a live run, a recording), and
 * the key loop and the state's life that the sources (viewlive.c, viewreplay.c) share. */
#ifndef DELAYTOP_VIEW_H
#define DELAYTOP_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "viewstate.h"

/* Runs the screen until q or a stop signal (stop_fd, stopsig.h), watching the PSI triggers
 * registered on trigger_fds (o->ntriggers of them). Returns the exit status; prints a message
 * suggesting -b and returns 1 when there is no usable terminal. */
int view_run(const struct options *o, struct sampler *s, const int *trigger_fds, struct recorder *rec,
	     int stop_fd);

struct replay;
/* The screen on a recording (-r): its readings in turn at the recorded pace, or stepped, or from
 * a time typed in (viewreplay.c). Returns the exit status, as view_run; 1 also when damage was
 * met (said on the message line as it was). */
int view_replay(const struct options *o, struct replay *r, int stop_fd);

/* Takes the reading the source has ready (src->take) and shows it from now on; -n counts it when
 * v->counted. Returns 1 when it took one. */
int view_take(struct view *v);
/* Rows of processes, threads, cgroups or commands (process rows summed per command name), from
 * now (the source says when they come). */
void view_set_rows(struct view *v, int threads, int cgroups, int commands, uint64_t *deadline);
/* The row filter's pids (copied): the selection as the source made it. */
void view_set_selection(struct view *v, const uint32_t *pids, size_t n);

/* The screen's state from the options, the part every source shares; view_free frees it. */
void view_init(struct view *v, const struct options *o);
void view_free(struct view *v);
/* The key loop, until q, -n or a stop signal: stop_fd (stopsig.h) is watched with the keys, so
 * that one ends the loop at once. */
void view_loop(struct view *v, int stop_fd);

#endif
