/* detail.h — the screen's history and its detail view: the last minutes of readings kept as they
 * are taken (show/history.h), the PSI lines' strip charts, the TREND column's cells, and the
 * detail view of the selected row (Enter on a process or thread, i anywhere; Esc returns): its
 * delays per kind over the last minutes, its facts, its threads, its longest waits, its
 * accounting fields, and (w) its off-CPU stacks (stackpane.h), which a live run takes of the task
 * while the view is open; a cgroup's pressure, busiest tasks and task states. The view follows its
 * task across re-sorts and says when it ended. */
#ifndef DELAYTOP_DETAIL_H
#define DELAYTOP_DETAIL_H

#include <stddef.h>
#include <wchar.h>

#include "viewstate.h"

struct detail;

/* Makes v's history and detail state, and hooks the TREND column to it. */
void detail_attach(struct view *v);
void detail_detach(struct view *v);

/* Keeps the reading just taken (v->snap). */
void detail_feed(struct view *v);

/* Opens the detail view on the selected row; says why not when there is none. */
void detail_open(struct view *v);
/* Opens it with its stacks pane shown (w on the table). */
void detail_open_stacks(struct view *v);
/* Shows the stacks pane of the task open (w); a cgroup's view says it has none. */
void detail_show_stacks(struct view *v);
/* Closes it (Esc): its task's stacks are no longer taken for it. */
void detail_close(struct view *v);
/* Whether the detail view is open. */
int detail_is_open(const struct view *v);
/* A key while the detail view is open: 1 when it took it (Esc closes, Up/Down scroll). */
int detail_key(struct view *v, wint_t c, int is_key);
/* Draws the detail view in rows lines from y, in place of the table. */
void detail_draw(struct view *v, int y, int rows);

/* A pressure line's last width shares as a strip chart into buf (size bytes). */
void detail_psi_strip(const struct view *v, int res, int full, int width, char *buf, size_t size);

#endif
