/* options.h — the command line: parsing, validation, --help and --version. */
#ifndef DELAYTOP_OPTIONS_H
#define DELAYTOP_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "columns.h"
#include "optvalue.h"
#include "trigger.h"

enum output_format { FORMAT_TEXT, FORMAT_CSV, FORMAT_JSON, FORMAT_OPENMETRICS };

struct options {
	int batch;
	long iterations;   /* reports to print; 0: until interrupted */
	double delay_s;    /* seconds between reports */
	uint32_t *pids;    /* -p, in the order given */
	size_t npids;
	int by_uid;        /* -u given */
	uint32_t uid;
	int threads;       /* -H, --group=thread */
	int cgroups;       /* --group=cgroup: rows are cgroups */
	const char *cgroup; /* -c: only tasks in this cgroup and below, as given (NULL: all) */
	int sort_col;      /* a column_id */
	int reverse;
	int chosen[COL_COUNT]; /* --columns: the columns shown, in order (column ids) */
	int nchosen;       /* 0: every column of the view */
	int active;        /* -a */
	int tree;          /* --tree: processes as a tree of parents and children */
	int tree_sums;     /* --tree-sums: the tree, each row summing its subtree */
	struct trigger_spec triggers[TRIGGER_MAX]; /* --trigger, in the order given */
	int ntriggers;
	enum output_format format;
	int accumulate;    /* totals since the start */
	int exit_buffer;   /* receive buffer for exit records, bytes */
	const char *output; /* command mode: where the report goes (NULL: stderr) */
	const char *listen; /* --listen: serve Prometheus metrics there (NULL: do not) */
	long top_commands;  /* command names the metrics show one by one */
	double series_expiry_s; /* --series-expiry: a removed cgroup's series stay this long */
	const char *write;  /* -w: the recording (NULL: none) */
	long rotate;        /* --rotate: enum rotate, or ROTATE_SECONDS + seconds (optvalue.h) */
	unsigned keep;      /* --keep: rotated files kept; 0: all */
	double capture_s;   /* --capture: seconds kept around a trigger's firing; 0: every reading */
	const char *read;   /* -r: the recording replayed (NULL: a live run) */
	int64_t begin_ns, end_ns; /* --begin, --end: ns since the epoch, when has_begin, has_end */
	int has_begin, has_end;
	char **command;    /* the command after --, or NULL */
	char task_option[24]; /* the first option given that chooses or orders tasks, as written */
};

/* Command names the metrics show by name unless --top-commands says otherwise. */
#define DEFAULT_TOP_COMMANDS 20
/* Seconds a removed cgroup's series stay unless --series-expiry says otherwise. */
#define DEFAULT_SERIES_EXPIRY 120

/* The default receive buffer for exit records: about 2,000 records. */
#define DEFAULT_EXIT_BUFFER (4 << 20)

enum { OPTIONS_OK = 0, OPTIONS_EXIT = 1, OPTIONS_ERROR = -1 };

/* The exit status of a bad command line. */
#define EXIT_USAGE 2
/* delaytop's own failure in command mode, as env(1) and timeout(1) use it, so that it is not taken
 * for the command's status: it could not follow the command, which then does not run, or the
 * command ran and its report could not be written. */
#define EXIT_CANNOT_FOLLOW 125

/* Parses argv into *o. Returns OPTIONS_OK; OPTIONS_EXIT after printing --help or --version; or
 * OPTIONS_ERROR with a one-line message naming the bad value in err. Pure except for --help and
 * --version output and the user database lookup of -u. */
int options_parse(int argc, char **argv, struct options *o, char *err, size_t errlen);
void options_free(struct options *o);

/* The values of -d, -p and -u (also for the screen's prompts) are parsed by optvalue.h. */

void options_usage(FILE *f);

#endif
