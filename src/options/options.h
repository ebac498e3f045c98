/* options.h — the command line: the table of options (struct option_def, one entry each), parsing,
 * validation, --help and --version. */
#ifndef DELAYTOP_OPTIONS_H
#define DELAYTOP_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "columns.h"
#include "optvalue.h"
#include "trigger.h"

enum output_format { FORMAT_TEXT, FORMAT_CSV, FORMAT_JSON, FORMAT_OPENMETRICS, FORMAT_HTML };

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
	int commands;      /* --group=command: process rows summed per command name */
	const char *cgroup; /* -c: only tasks in this cgroup and below, as given (NULL: all) */
	const char *unit;   /* --unit: only tasks whose cgroup's unit matches this pattern (NULL: all) */
	int sort_col;      /* a column_id */
	int reverse;
	int chosen[COL_COUNT]; /* --columns: the columns shown, in order (column ids) */
	int nchosen;       /* 0: every column of the view */
	int active;        /* -a */
	int hide_exited;   /* --hide-exited */
	int tree;          /* --tree: processes as a tree of parents and children */
	int tree_sums;     /* --tree-sums: the tree, each row summing its subtree */
	struct trigger_spec triggers[TRIGGER_MAX]; /* --trigger, in the order given */
	int ntriggers;
	enum output_format format;
	int accumulate;    /* totals since the start */
	int why;           /* --why: the eBPF side measures the waits' distribution */
	int exit_buffer;   /* receive buffer for exit records, bytes */
	const char *output; /* command mode, -r's html: where the report goes (NULL: stderr; -r: stdout) */
	const char *listen; /* --listen: serve Prometheus metrics there (NULL: do not) */
	const char *web_config; /* --web-config: TLS and basic auth for --listen (NULL: none) */
	long top_commands;  /* command names the metrics show one by one */
	double series_expiry_s; /* --series-expiry: a removed cgroup's series stay this long */
	const char *write;  /* -w: the recording (NULL: none) */
	long rotate;        /* --rotate: enum rotate, or ROTATE_SECONDS + seconds (optvalue.h) */
	long keep;          /* --keep: rotated files kept; 0: all */
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

/* The options, in the order --help lists them. */
enum option_id {
	OPT_BATCH, OPT_ITERATIONS, OPT_DELAY, OPT_PID, OPT_USER, OPT_THREADS, OPT_GROUP, OPT_CGROUP, OPT_UNIT,
	OPT_SORT,
	OPT_REVERSE, OPT_COLUMNS, OPT_ACTIVE, OPT_HIDE_EXITED, OPT_TREE, OPT_TREE_SUMS, OPT_TRIGGER, OPT_FORMAT, OPT_ACCUMULATE,
	OPT_WHY, OPT_EXIT_BUFFER, OPT_OUTPUT, OPT_LISTEN, OPT_WEB_CONFIG, OPT_TOP_COMMANDS, OPT_SERIES_EXPIRY, OPT_WRITE, OPT_ROTATE,
	OPT_KEEP, OPT_CAPTURE, OPT_READ, OPT_BEGIN, OPT_END, OPT_HELP, OPT_VERSION,
	OPT_COUNT
};

/* What an option takes, and so how its value is read, checked, stored and written back. */
enum option_type {
	OPTT_ACTION,  /* no value: --help, --version, done by the parser */
	OPTT_FLAG,    /* no value: an int set to 1; "yes" or "no" in the settings file */
	OPTT_COUNT,   /* a whole number of plain digits from min to max: a long */
	OPTT_SECONDS, /* seconds, plain digits with a point, from min to max: a double */
	OPTT_SIZE,    /* bytes, with K, M or G (powers of 1024), from min to max: an int */
	OPTT_CHOICE,  /* one of choices[]: its index, an int (or given to set) */
	OPTT_PERIOD,  /* one of choices[] (index + 1) or seconds from min to max (ROTATE_SECONDS + them): a long */
	OPTT_COLUMN,  /* a column's name, as the sort keys: its column id, an int */
	OPTT_COLUMNS, /* column names separated by commas, each once: int[COL_COUNT], the count an int at n_at */
	OPTT_PIDS,    /* pids separated by commas, appended: uint32_t *, the count a size_t at n_at */
	OPTT_USER,    /* a user name or uid: a uint32_t */
	OPTT_STRING,  /* any text: a const char * into argv */
	OPTT_CGROUP,  /* a cgroup path that does not climb out with '..': a const char * into argv */
	OPTT_UNIT,    /* a systemd unit's name or a pattern of them (fnmatch): a const char * into argv */
	OPTT_TRIGGER, /* a PSI trigger, appended: struct trigger_spec[TRIGGER_MAX], the count an int at n_at */
	OPTT_TIME,    /* a time (timeparse.h): an int64_t of ns since the epoch */
};

#define OPTION_CHOICES_MAX 5

/* One option: everything the parser, --help, the settings file and the completion (through
 * --help) know of it. Its value goes to the field at `at` of struct options (ACTION has none, a
 * CHOICE with set may have none), a list's count to the one at n_at; given, when not 0, is an int
 * made 1 when the option is given. */
struct option_def {
	const char *name;   /* long name */
	char letter;        /* short name, or 0 */
	const char *arg;    /* the value's name in --help; NULL: takes no value */
	enum option_type type;
	size_t at, n_at, given;
	double min, max;    /* a number's bounds */
	double def;         /* a number's, a choice's or a column's default (0: none, the field stays 0) */
	const char *choices[OPTION_CHOICES_MAX]; /* a CHOICE's or PERIOD's words */
	void (*set)(struct options *o, int choice); /* a CHOICE stored by hand */
	int (*get)(const struct options *o);        /* and read back (for the settings file) */
	const char *implies;       /* the long name of an option this one gives too, or NULL */
	const char *implies_value; /* the value it gives that one (NULL: a FLAG) */
	int setting;        /* the settings file may hold it, and W writes it */
	int (*applies)(const struct options *o); /* W writes the setting only when this says so (NULL: always) */
	int command_mode;   /* applies with -- COMMAND too; the others choose, order or pace rows */
	const char *help;   /* N_(): what it does, one line that --help wraps */
	double num[2];      /* what the help's %g show */
	const char *bad;    /* N_(): a value refused: %s the value, then say[] as %g (or one %d) */
	const char *below, *above; /* N_(): a number below min, above max: %s the value, %g the bound */
	double say[2];
};

/* The table's entry for an option. */
const struct option_def *option_def(enum option_id id);
/* The option of a long name, or -1. */
int option_find(const char *name);
/* The defaults the table gives, into *o (everything else zero). */
void options_defaults(struct options *o);

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

/* The rules between options (which do not go together, which need another), as options.c's table
 * holds them: how many; rule r's refusal into msg and a command line that breaks it and no rule
 * before it (the arguments after the program's name, NULL-terminated), or NULL past the last. */
size_t options_rule_count(void);
const char *const *options_rule(size_t r, char *msg, size_t size);
void options_free(struct options *o);

/* The values of -d, -p and -u (also for the screen's prompts) are parsed by optvalue.h. */

void options_usage(FILE *f);

#endif
