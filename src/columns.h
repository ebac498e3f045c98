/* columns.h — the table's columns, shared by the screen and batch text: title, width, sort key,
 * the value a row has in each, and the text of each cell. Pure code. */
#ifndef DELAYTOP_COLUMNS_H
#define DELAYTOP_COLUMNS_H

#include <stddef.h>

#include "model.h"

/* What the delay cells show. */
enum metric {
	METRIC_PCT,  /* percent of the interval spent waiting */
	METRIC_AVG,  /* average milliseconds per wait */
	METRIC_RATE, /* waits per second */
	METRIC_MAX,  /* longest single wait, milliseconds */
	METRIC_COUNT
};

/* How rows are presented. */
struct display {
	enum metric metric;
	int accumulate;   /* totals since delaytop started instead of the last interval */
	double elapsed_s; /* since delaytop started, for accumulated rates */
	int cmdline;      /* the command column shows the full command line */
	int threads;      /* the first column is the thread id */
};

enum column_id {
	COL_ID,    /* PID, or TID in thread mode */
	COL_USER,
	COL_STATE,
	COL_PCPU,  /* CPU time as a percent of the interval */
	COL_KIND,  /* COL_KIND + k: delay kind k */
	COL_TOTAL = COL_KIND + DK_COUNT,
	COL_COMMAND,
	COL_COUNT
};

struct column {
	const char *title; /* translated */
	int width;         /* the command column's is its minimum */
	int right;         /* right-aligned */
	const char *key;   /* sort key name: "pid", "io", "total", ... */
};

/* The column; its title depends on the display (PID or TID). */
struct column column_get(int id, const struct display *d);

/* The number a row has in a numeric column under this display; NAN when unavailable. Text
 * columns (user, state, command) give NAN. */
double column_value(const struct row *r, int id, const struct display *d);

/* The text of a row's cell, not padded, into buf (>= 32 bytes); strings may be returned
 * directly. */
const char *column_text(const struct row *r, int id, const struct display *d, char *buf);

/* The metric's name for people ("% of time", translated) and for the header ("%"). */
const char *metric_label(enum metric m);
/* The metric's key for options: "pct", "avg", "rate", "max"; and back (-1 when unknown). */
const char *metric_key(enum metric m);
int metric_find(const char *key);

#endif
