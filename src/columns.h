/* columns.h — THE table of columns, shared by the screen and batch text: key, title, width,
 * alignment, what kind of value, sort direction, when it is hidden on a narrow screen, decimals;
 * the value a row has in each, and the text of each cell. The delay kinds' columns are made from
 * the kind table. Sort keys, --help's key list, the sort direction and the drop order are all
 * derived from this table. Pure code. */
#ifndef DELAYTOP_COLUMNS_H
#define DELAYTOP_COLUMNS_H

#include <stddef.h>

#include "format.h"
#include "model.h"

/* The suffix of a share above 100% per thread: a wait carried over from an earlier interval. */
#define CARRIED_MARK '+'

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
	int accumulate;   /* totals since delaytop started instead of the last interval: cells show
			     seconds waited, ms per wait, waits, the longest wait; CPU s the CPU time */
	double elapsed_s; /* since delaytop started */
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

/* What a column's cells hold, which decides how it sorts. */
enum column_value_kind {
	VALUE_NUMBER, /* sorts high to low unless reversed */
	VALUE_ID,     /* a number that sorts low to high */
	VALUE_STATE,  /* a state letter, low to high */
	VALUE_TEXT,   /* a name, compared as a string, low to high */
};

/* When a column has its second title. */
enum column_alt { ALT_NEVER, ALT_THREADS, ALT_TOTALS };

/* One column's facts. */
struct column_def {
	const char *key;      /* sort key and field name: "pid", "io", "total", ... */
	const char *title;    /* N_(): the title */
	const char *alt;      /* N_(): the title when alt_when holds (TID in thread mode) */
	enum column_alt alt_when;
	int width;            /* the command column's is its minimum */
	int right;            /* right-aligned */
	enum column_value_kind value;
	int keep;             /* on a narrow screen lower ones are hidden first; 0: always shown */
	int rank;             /* place in the list of sort keys */
	int decimals;         /* -1: as the metric says */
	int decimals_totals;  /* in totals since the start */
	int fit;              /* digits a number may take before it is abbreviated */
};

/* The facts of column id (a column_id); a delay kind's come from the kind table. */
struct column_def column_def(int id);

struct column {
	const char *title; /* translated */
	int width;         /* the command column's is its minimum */
	int right;         /* right-aligned */
	const char *key;   /* sort key name: "pid", "io", "total", ... */
};

/* The column as a display shows it (its title depends on the mode: PID or TID). */
struct column column_get(int id, const struct display *d);

/* Whether a column sorts from high to low unless reversed (numbers do; ids and names do not). */
int column_descending(int id);

/* The number a row has in a numeric column under this display; NAN when unavailable. Text
 * columns (user, state, command) give NAN. */
double column_value(const struct row *r, int id, const struct display *d);

/* The delay kinds (bits 1 << k) whose share of the interval is above 100% per thread of the row
 * because a wait that began in an earlier interval ended in this one; 0 for totals since the
 * start, which have no such mark. */
unsigned column_carried(const struct row *r, const struct display *d);

/* The text of a row's cell, not padded, into buf (>= 32 bytes); strings may be returned
 * directly. A row without a reading yet (fresh) has blank numbers; "-" means unavailable; a share
 * above 100% per thread (column_carried) ends in CARRIED_MARK, within the column's width. */
const char *column_text(const struct row *r, int id, const struct display *d, char *buf);

/* The columns of a table under one display, looked up once per report rather than per cell. */
struct table {
	int n;
	int ids[COL_COUNT];
	struct column col[COL_COUNT];
};

/* All columns when width is 0; otherwise the columns that fit in width: without the delay and
 * minor columns of lowest priority, never without the id, the command or sort_col. */
void table_init(struct table *t, const struct display *d, int width, int sort_col);

/* Appends one table line to o: the titles when r is NULL, else the row's cells, separated by one
 * space, the command column last and unpadded. marker_col gets the sort marker before its title
 * (-1: none); descending picks the marker's direction. */
void column_line(struct outbuf *o, const struct row *r, const struct display *d, const struct table *t,
		 int marker_col, int descending);

/* The metric's name for people ("% of time", translated) and for the header ("%"). */
const char *metric_label(enum metric m);
/* The metric's short name for the header: "% time", "ms/wait", "waits/s", "max ms"; in totals
 * since the start "s waited", "ms/wait", "waits", "max ms". */
const char *metric_short(enum metric m, int accumulate);
/* The metric's key for options: "pct", "avg", "rate", "max"; and back (-1 when unknown). */
const char *metric_key(enum metric m);
int metric_find(const char *key);

#endif
