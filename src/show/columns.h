/* columns.h — THE table of columns, shared by the screen and batch text: key, title, width,
 * alignment, what kind of value, sort direction, when it is hidden on a narrow screen, decimals;
 * the value a row has in each, and the text of each cell. The delay kinds' columns are made from
 * the kind table. Sort keys, --help's key list and the sort direction are derived from this table,
 * the list of sort keys and the order a narrow screen hides columns in from two small lists in
 * columns.c. Which columns a display shows, in which order and which fit a width
 * (struct table) is columnlayout.c's part of this interface. Pure code. */
#ifndef DELAYTOP_COLUMNS_H
#define DELAYTOP_COLUMNS_H

#include <stddef.h>
#include <stdint.h>

#include "acctfield.h"
#include "format.h"
#include "latency.h"
#include "model.h"

/* The suffix of a share above 100% per thread: a wait carried over from an earlier interval. */
#define CARRIED_MARK '+'

/* Between a unit's or container's name and the uid of the user its cgroup is delegated to, who
 * could have named it ("docker:0123456789ab~1000"); no unit or container name has one. */
#define DELEGATED_MARK '~'

/* A name its cgroup's path gives (a unit, a container, a pod) into buf (size bytes), with
 * DELEGATED_MARK and identity_uid after it when that is not 0, and cut so that the whole mark
 * fits in width columns; returns buf. */
const char *column_ident_marked(const char *name, uint32_t identity_uid, size_t width, char *buf, size_t size);

/* What the delay cells show. */
enum metric {
	METRIC_PCT,  /* percent of the interval spent waiting */
	METRIC_AVG,  /* average milliseconds per wait */
	METRIC_RATE, /* waits per second */
	METRIC_MAX,  /* longest single wait, milliseconds */
	METRIC_COUNT
};

/* The pressure columns of the cgroup view, in order: CPU some and full, memory some and full,
 * I/O some and full, IRQ full. */
#define PSI_COLS 7

/* The percentile columns of --why (CPU p50, CPU p99, IO p50, IO p99, BLK p50, BLK p99): the kinds
 * and quantiles in columns.c's table. */
#define LAT_COLS 6

/* Which views show a column: tasks, cgroups, commands (tasks summed per command name). */
enum { VIEW_TASKS = 1, VIEW_CGROUPS = 2, VIEW_COMMANDS = 4 };

/* How rows are presented. */
struct display {
	enum metric metric;
	int accumulate;   /* totals since delaytop started instead of the last interval: cells show
			     seconds waited, ms per wait, waits, the longest wait; CPU s the CPU time */
	double elapsed_s; /* since delaytop started */
	int cmdline;      /* the command column shows the full command line */
	int threads;      /* the first column is the thread id */
	int cgroups;      /* the cgroup view: rows are cgroups in a tree */
	int commands;     /* the command view: task rows summed per command name (rollup.h) */
	int tree;         /* process rows as a tree of parents and children: commands indented */
	int tree_sums;    /* in the tree, a row's numbers sum its own and its descendants' */
	int why;          /* --why was asked for: CSV has the columns of the waits' distribution */
	lat_mask why_kinds; /* the kinds of wait the snapshot measured (latency.h), for the percentile
			       columns: 0 where --why is off or unavailable */
	const int *chosen; /* --columns: the columns shown, in order (ids; those the view lacks are
			       left out, and its last column ends every row); NULL: all of the view's */
	int nchosen;
	int flat_cgroups; /* every task is in the hierarchy's root, and the columns are the defaults:
			     the CGROUP column would say "/" on every row, and is left out */
	/* The TREND column: the row's last sort values as a strip chart into buf (>= 32 bytes; NULL:
	 * none wanted), and how much the last grew over the first (NAN: no trend); NULL where there is
	 * no history (batch reports), whose cells show "-". */
	double (*trend)(const void *ctx, const struct row *r, char *buf);
	const void *trend_ctx;
};

enum column_id {
	COL_ID,    /* PID, or TID in thread mode */
	COL_PROCS, /* the command view: the processes a command's row sums */
	COL_USER,
	COL_STATE,
	COL_TASKS, /* a cgroup's live threads, in it and below */
	COL_NR,    /* COL_NR + s: a cgroup's tasks in state s (enum cg_state) */
	COL_PCPU = COL_NR + CG_STATES, /* CPU time as a percent of the interval */
	COL_KIND,  /* COL_KIND + k: delay kind k */
	COL_TOTAL = COL_KIND + DK_COUNT,
	COL_PSI,   /* COL_PSI + i: a cgroup's pressure, one of PSI_COLS */
	COL_ACCT = COL_PSI + PSI_COLS, /* COL_ACCT + f: accounting field f (acctfield.h), optional */
	COL_MAX_AT = COL_ACCT + AF_COUNT, /* when the row's longest wait happened, optional */
	COL_TREND, /* the row's sort value over its last readings, a strip chart; optional */
	COL_LAT,   /* COL_LAT + i: a percentile of one kind of wait (--why), optional */
	COL_UNIT = COL_LAT + LAT_COLS, /* the systemd unit its cgroup's path names (cgident.h), optional */
	COL_CONTAINER, /* the container its cgroup's path names, optional */
	COL_CGROUP,
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
	int decimals;         /* -1: as the metric says */
	int decimals_totals;  /* in totals since the start */
	int fit;              /* digits a number may take before it is abbreviated */
	int views;            /* VIEW_* bits: the views that show it */
	int optional;         /* shown only when chosen (--columns, the setup), never by default */
	int derived;          /* text made from the cgroup's path into the caller's buffer, not a string
				 the row keeps */
};

/* What a delay kind's or an accounting field's column shows, for people (translated); NULL for
 * the other columns, whose titles say it. */
const char *column_label(int id);

/* Whether the display shows column id (before a narrow screen hides any). */
int column_shown(const struct display *d, int id);
/* The accounting field (acctfield.h) column id shows, or -1 for another column. */
int column_acct(int id);

/* Whether the display shows an accounting column (which process rows read from /proc). */
int column_acct_shown(const struct display *d);

/* Every column in the order of the list of sort keys (--help's) into ids (COL_COUNT of them);
 * returns how many. */
int column_sort_order(int *ids);

/* The columns a narrow screen may hide, the first hidden first, into ids (at most COL_COUNT);
 * returns how many. The others (the id, the command) are never hidden. */
int column_hide_order(int *ids);

/* The facts of column id (a column_id); a delay kind's come from the kind table, an accounting
 * field's from the field table. */
struct column_def column_def(int id);

struct column {
	const char *title; /* translated */
	int width;         /* the command column's is its minimum */
	int right;         /* right-aligned */
	const char *key;   /* sort key name: "pid", "io", "total", ... */
	int number;        /* a cell of digits: the id or a number (not a time of day or a chart) */
	int decimals, fit; /* a number's, as the display shows it */
};

/* The column as a display shows it (its title depends on the mode: PID or TID). */
struct column column_get(int id, const struct display *d);

/* Whether a column sorts from high to low unless reversed (numbers do; ids and names do not). */
int column_descending(int id);

/* Whether the display's view (tasks or cgroups) has the column. */
int column_in_view(int id, const struct display *d);

/* The next column of the display's view after id in direction step (+1 or -1), or id when
 * there is none: the order of the sort menu, which lists every column of the view. */
int column_step(int id, int step, const struct display *d);

/* A view's last column, never hidden, never padded: the command, or the cgroup in the cgroup view. */
int column_last(const struct display *d);

/* The columns the display shows, in order, before a narrow screen hides any: those chosen
 * (--columns, the setup) in their order or else all of the view's that are not optional in the
 * table's, the view's last column last. Returns how many. */
int column_order(const struct display *d, int *cols);

/* Every column shown without --columns, of all views, in the table's order (the optional ones
 * left out) into ids; returns how many. */
int column_defaults(int *ids);

/* The same among the columns the display shows (--columns), in their order: what < and > move
 * the sort to. A sort column not shown steps to the next shown one in the view's order. */
int column_step_shown(int id, int step, const struct display *d);

/* The number a row has in a numeric column under this display; NAN when unavailable. Text
 * columns (user, state, command) give NAN. */
double column_value(const struct row *r, int id, const struct display *d);

/* The delay kinds (bits 1 << k) whose share of the interval is above 100% per thread of the row
 * because a wait that began in an earlier interval ended in this one; 0 for totals since the
 * start, which have no such mark. */
unsigned column_carried(const struct row *r, const struct display *d);

/* The text of a row's cell, not padded, into buf (>= 32 bytes); strings may be returned
 * directly (a derived column's text is buf's, cut to 31 bytes, or a constant). A row without a reading yet (fresh) has blank numbers; "-" means unavailable; a share
 * above 100% per thread (column_carried) ends in CARRIED_MARK, within the column's width. */
const char *column_text(const struct row *r, int id, const struct display *d, char *buf);

/* The kind of wait (latency.h) and the quantile of a percentile column (COL_LAT + i). */
void column_lat(int id, int *kind, double *q);

/* The pressure line of a pressure column (COL_PSI + i): its resource and whether "full". */
void column_psi(int id, int *resource, int *full);

/* The columns of a table under one display, looked up once per report rather than per cell. */
struct table {
	int n;
	int ids[COL_COUNT];
	struct column col[COL_COUNT];
};

/* The columns the display shows (--columns, else all of its view's), in order: all when width is
 * 0; otherwise those that fit in width: without the columns of lowest priority, never without
 * the id, the view's last column (the command, or the cgroup in the cgroup view) or sort_col. */
void table_init(struct table *t, const struct display *d, int width, int sort_col);

/* The column (an index into t) whose cells take screen column x of a line the table draws, or -1
 * for a space between two; the last column takes the rest of the line. */
int table_column_at(const struct table *t, int x);

/* table_init, keeping last_width columns for the last column where it can (the cgroup view's
 * widest indented name, say) rather than the least it needs. */
void table_layout(struct table *t, const struct display *d, int width, int sort_col, int last_width);

/* A number cell (the id or a number) into buf (>= 32 bytes), with decimals and at most fit digits
 * (a column's, as the display shows it); returns its length. */
size_t column_number_cell(const struct row *r, int id, const struct display *d, int decimals, int fit, char *buf);

/* Asks the CPU to bring in what column_line reads of row r: the row itself, or (strings) the names
 * it points at, whose rows were asked for earlier. A report of many rows, in an order other than
 * the rows' memory, asks a few rows ahead instead of waiting for each in turn. */
void column_prefetch(const struct row *r, int strings);

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
