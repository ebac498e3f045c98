/* detailchart.h — the detail view's strip charts over the readings kept (show/history.h): a
 * task's share of the time it waited per delay kind, with its latest share, its peak and the
 * kernel's longest wait, or the word "unavailable" in place of a kind it cannot have; a cgroup's
 * share of the time stalled per pressure line; and under them the time axis, which marks the
 * reading shown in a recording's window. The lines go to the caller's put (textline.h). */
#ifndef DELAYTOP_DETAILCHART_H
#define DELAYTOP_DETAILCHART_H

#include "history.h"
#include "model.h"
#include "textline.h"

/* The readings the charts show. */
struct chart_span {
	const struct history *h;
	int windowed; /* a recording's readings around the one shown */
	double shown; /* the time of the reading shown, seconds since the epoch */
};

/* A chart per delay kind of the task t (NULL: none kept) whose row in the reading shown is r
 * (NULL: it ended), then the time axis. */
void detailchart_kinds(const struct chart_span *c, const struct task_history *t, const struct row *r,
		       textline_put *put, void *ctx);

/* A chart per pressure line of the cgroup t (NULL: none kept) whose row is cg, then the time
 * axis; nothing when its pressure was not read. */
void detailchart_pressure(const struct chart_span *c, const struct task_history *t, const struct row *cg,
			  textline_put *put, void *ctx);

#endif
