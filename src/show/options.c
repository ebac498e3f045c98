/* options.c — the command line: the table of options, getopt's arrays and --help made from it,
 * and the rules between options. Every bad value gets a message that names it (the values
 * themselves are parsed by optvalue.c); the caller prints it and exits with status 2. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cgpath.h"
#include "format.h"
#include "i18n.h"
#include "options.h"
#include "optvalue.h"
#include "listenaddr.h"
#include "order.h"
#include "timeparse.h"
#include "xalloc.h"

/* Where --help's texts start, and its width. */
#define HELP_INDENT 27
#define HELP_WIDTH 79

enum option_id {
	OPT_BATCH,
	OPT_ITERATIONS,
	OPT_DELAY,
	OPT_PID,
	OPT_USER,
	OPT_THREADS,
	OPT_GROUP,
	OPT_CGROUP,
	OPT_SORT,
	OPT_REVERSE,
	OPT_COLUMNS,
	OPT_ACTIVE,
	OPT_TREE,
	OPT_TREE_SUMS,
	OPT_TRIGGER,
	OPT_FORMAT,
	OPT_ACCUMULATE,
	OPT_EXIT_BUFFER,
	OPT_OUTPUT,
	OPT_LISTEN,
	OPT_TOP_COMMANDS,
	OPT_SERIES_EXPIRY,
	OPT_WRITE,
	OPT_ROTATE,
	OPT_KEEP,
	OPT_CAPTURE,
	OPT_READ,
	OPT_BEGIN,
	OPT_END,
	OPT_HELP,
	OPT_VERSION,
	OPT_COUNT
};

/* getopt's value for an option without a letter. */
#define LONG_ONLY 256

/* THE table of options: getopt's arrays, --help and the options command mode refuses are made
 * from it. A help text may read numbers (%g) from num[]. */
struct option_def {
	const char *name;  /* long name */
	char letter;       /* short name, or 0 */
	const char *arg;   /* the value's name in --help; NULL: takes no value */
	int command_mode;  /* applies with -- COMMAND too; the others choose, order or pace rows */
	const char *help;  /* N_(): what it does, one line that --help wraps */
	double num[2];     /* what the help's %g show */
};

static const struct option_def option_table[OPT_COUNT] = {
	[OPT_BATCH] = { "batch", 'b', NULL, 1, N_("print reports as text instead of the full screen"), { 0 } },
	[OPT_ITERATIONS] = { "iterations", 'n', "N", 0,
			     N_("stop after N reports, or quit the screen after N refreshes (default: until "
				"interrupted)"), { 0 } },
	[OPT_DELAY] = { "delay", 'd', "SECS", 0,
			N_("seconds between reports, fractional, at least %g (default %g)"),
			{ MIN_DELAY, DEFAULT_DELAY } },
	[OPT_PID] = { "pid", 'p', "PID[,PID...]", 0, N_("only these processes (may be repeated)"), { 0 } },
	[OPT_USER] = { "user", 'u', "USER", 0, N_("only tasks of this user (name or uid)"), { 0 } },
	[OPT_THREADS] = { "threads", 'H', NULL, 0, N_("one row per thread instead of per process (--group=thread)"),
			  { 0 } },
	[OPT_GROUP] = { "group", 0, "GROUP", 0,
			N_("one row per process, thread or cgroup (a tree of cgroups with their pressure; "
			   "default process)"), { 0 } },
	[OPT_CGROUP] = { "cgroup", 'c', "PATH", 0,
			 N_("only tasks in this cgroup and below, a path as /proc/PID/cgroup shows it"), { 0 } },
	[OPT_SORT] = { "sort", 's', "KEY", 0, N_("sort by KEY (default total), one of:"), { 0 } },
	[OPT_REVERSE] = { "reverse", 0, NULL, 0, N_("reverse the sort order"), { 0 } },
	[OPT_COLUMNS] = { "columns", 0, "LIST", 0,
			  N_("show these columns in this order, names as for --sort separated by commas (the "
			     "command stays last; CSV and JSON keep every field)"), { 0 } },
	[OPT_ACTIVE] = { "active", 'a', NULL, 0, N_("only tasks that waited during the interval"), { 0 } },
	[OPT_TREE] = { "tree", 0, NULL, 0, N_("processes as a tree, each under its parent"), { 0 } },
	[OPT_TREE_SUMS] = { "tree-sums", 0, NULL, 0,
			    N_("the tree, each process's numbers summing its own and its descendants'"), { 0 } },
	[OPT_TRIGGER] = { "trigger", 0, "SPEC", 0,
			   N_("register a PSI trigger, such as 'memory some 150ms 1s' (a cgroup path may follow): "
			      "when it fires, say which tasks stalled (may be repeated)"), { 0 } },
	[OPT_FORMAT] = { "format", 0, "FORMAT", 1,
			 N_("batch output: text, csv, json or openmetrics (implies --batch; command mode: not openmetrics)"),
			 { 0 } },
	[OPT_ACCUMULATE] = { "accumulate", 0, NULL, 0, N_("totals since the start, exited tasks included"), { 0 } },
	[OPT_EXIT_BUFFER] = { "exit-buffer", 0, "SIZE", 1,
			      N_("receive buffer of each exit listener, such as 16M (default %gM)"),
			      { DEFAULT_EXIT_BUFFER / (1024.0 * 1024) } },
	[OPT_OUTPUT] = { "output", 'o', "FILE", 1, N_("command mode: write the report to FILE, not stderr"), { 0 } },
	[OPT_LISTEN] = { "listen", 0, "[ADDR:]PORT", 0,
			 N_("serve Prometheus metrics at http://ADDR:PORT/metrics (ADDR: loopback unless given); "
			    "without -b nothing else is printed"), { 0 } },
	[OPT_TOP_COMMANDS] = { "top-commands", 0, "N", 0,
			       N_("the metrics show the first N command names that wait by name, the rest as "
				  "_other (default %g)"), { DEFAULT_TOP_COMMANDS } },
	[OPT_SERIES_EXPIRY] = { "series-expiry", 0, "SECS", 0,
				N_("the metrics of a cgroup that is gone stay SECS seconds more, then go "
				   "(default %g)"), { DEFAULT_SERIES_EXPIRY } },
	[OPT_WRITE] = { "write", 'w', "FILE", 0,
			N_("record every reading to FILE (appending to a recording there); without -b and "
			   "without a terminal nothing else is done"), { 0 } },
	[OPT_ROTATE] = { "rotate", 0, "PERIOD", 0,
			 N_("-w: a new file every hour, day or PERIOD seconds, the last one renamed after its "
			    "start: FILE.YYYY-MM-DD[-HH[MMSS]]"), { 0 } },
	[OPT_KEEP] = { "keep", 0, "N", 0, N_("--rotate: keep the N newest renamed files, remove older ones"),
		       { 0 } },
	[OPT_CAPTURE] = { "capture", 0, "SECS", 0,
			  N_("-w with --trigger: keep the last SECS seconds in memory and write them, and the "
			     "next SECS, only when a trigger fires"), { 0 } },
	[OPT_READ] = { "read", 'r', "FILE", 0,
		       N_("replay a recording: the screen, or reports with -b, as a live run shows them"), { 0 } },
	[OPT_BEGIN] = { "begin", 0, "TIME", 0,
			N_("-r: start at TIME: YYYY-MM-DD HH:MM[:SS], HH:MM[:SS] (today), @SECONDS, or like "
			   "'10 minutes ago'"), { 0 } },
	[OPT_END] = { "end", 0, "TIME", 0, N_("-r: stop after TIME"), { 0 } },
	[OPT_HELP] = { "help", 'h', NULL, 1, N_("show this help and exit"), { 0 } },
	[OPT_VERSION] = { "version", 'V', NULL, 1, N_("show the version and exit"), { 0 } },
};

/* getopt's value for an option. */
static int option_val(enum option_id id)
{
	return option_table[id].letter ? option_table[id].letter : LONG_ONLY + (int)id;
}

/* The option of a getopt value, or -1. */
static int option_of(int val)
{
	for (int id = 0; id < OPT_COUNT; id++)
		if (option_val((enum option_id)id) == val)
			return id;
	return -1;
}

/* getopt_long's arrays from the table: long options (OPT_COUNT + 1 entries) and the short ones
 * ('+': stop at the first word that is not an option; ':': report a missing value as ':'). */
static void getopt_arrays(struct option *longs, char *shorts)
{
	char *p = shorts;

	*p++ = '+';
	*p++ = ':';
	for (int id = 0; id < OPT_COUNT; id++) {
		const struct option_def *d = &option_table[id];

		longs[id] = (struct option){ d->name, d->arg ? required_argument : no_argument, NULL,
					     option_val((enum option_id)id) };
		if (d->letter) {
			*p++ = d->letter;
			if (d->arg)
				*p++ = ':';
		}
	}
	longs[OPT_COUNT] = (struct option){ NULL, 0, NULL, 0 };
	*p = '\0';
}

/* Prints text from column `col` on, in words wrapped before HELP_WIDTH, continuation lines
 * indented to HELP_INDENT; a ',' separated list also breaks after its commas. */
static void print_wrapped(FILE *f, const char *text, int col)
{
	while (*text) {
		size_t len = strcspn(text, " ");
		int w = text_width_n(text, len);

		if (col > HELP_INDENT && col + 1 + w > HELP_WIDTH) {
			fprintf(f, "\n%*s", HELP_INDENT, "");
			col = HELP_INDENT;
		} else if (col > HELP_INDENT) {
			fputc(' ', f);
			col++;
		} else {
			fprintf(f, "%*s", HELP_INDENT - col, "");
			col = HELP_INDENT;
		}
		fprintf(f, "%.*s", (int)len, text);
		col += w;
		text += len;
		while (*text == ' ')
			text++;
	}
	fputc('\n', f);
}

/* The option's help, its %g conversions filled from num[]. The format is the table's own text or
 * a translation that F_() found to read the same arguments, two doubles at most. */
static void help_text(char *buf, size_t size, const struct option_def *d)
{
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	snprintf(buf, size, F_(d->help), d->num[0], d->num[1]);
#pragma GCC diagnostic pop
}

/* One option's lines of --help. */
static void usage_option(FILE *f, enum option_id id)
{
	const struct option_def *d = &option_table[id];
	char head[64], help[512];
	int len;

	if (d->letter)
		len = snprintf(head, sizeof(head), "  -%c, --%s%s%s", d->letter, d->name, d->arg ? "=" : "",
			       d->arg ? d->arg : "");
	else
		len = snprintf(head, sizeof(head), "      --%s%s%s", d->name, d->arg ? "=" : "", d->arg ? d->arg : "");
	fputs(head, f);
	if (len >= HELP_INDENT - 1) { /* no room on the line: the help starts on the next */
		fputc('\n', f);
		len = 0;
	}
	help_text(help, sizeof(help), d);
	print_wrapped(f, help, len);
	if (id == OPT_SORT)
		print_wrapped(f, order_keys(), 0);
}

void options_usage(FILE *f)
{
	fprintf(f, F_(N_("Usage: %s [OPTION]... [-- COMMAND [ARG]...]\n")), PACKAGE);
	fputs(_("Show which tasks are waiting, on what, and how badly, from the kernel's delay\n"
		"accounting and pressure stall information.\n\n"), f);
	for (int id = 0; id < OPT_COUNT; id++)
		usage_option(f, (enum option_id)id);
	fputc('\n', f);
	fprintf(f, F_(N_("With -- COMMAND, delaytop runs the command, follows every process it starts,\n"
			 "and reports the delays of the whole run when it ends; it exits with the\n"
			 "command's status, or %d when it cannot follow the command or write the report.\n\n")),
		EXIT_CANNOT_FOLLOW);
	fputs(_("Delays are percentages of the interval: a process with several waiting threads\n"
		"can exceed 100%. Taskstats needs CAP_NET_ADMIN; without it only CPU and I/O\n"
		"delay are shown, from /proc. See delaytop(8).\n"), f);
}

static void version(void)
{
	printf("%s %s\n", PACKAGE, VERSION);
	fputs(_("Copyright (C) 2026 the delaytop authors.\n"
		"License GPLv2+: GNU GPL version 2 or later <https://gnu.org/licenses/gpl.html>.\n"
		"This is free software: you are free to change and redistribute it.\n"
		"There is NO WARRANTY, to the extent permitted by law.\n"), stdout);
}

static int parse_sort(const char *s, int *col, char *err, size_t errlen)
{
	char val[SHOWN_SIZE];

	*col = order_find(s);
	if (*col >= 0)
		return 0;
	return optvalue_fail(err, errlen, F_(N_("unknown sort key '%s' (choose from: %s)")), text_shown(s, val), order_keys());
}

/* --columns: column names (those of the sort keys) separated by commas, each once. */
static int parse_columns(const char *s, struct options *o, char *err, size_t errlen)
{
	char val[SHOWN_SIZE], list[SHOWN_SIZE], name[SHOWN_SIZE];
	const char *p = s;

	o->nchosen = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		int col;

		if (len == 0)
			return optvalue_fail(err, errlen, F_(N_("empty column name in '%s'")), text_shown(s, list));
		snprintf(name, sizeof(name), "%.*s", (int)(len < 40 ? len : 40), p);
		col = len < 40 ? order_find(name) : -1;
		if (col < 0)
			return optvalue_fail(err, errlen, F_(N_("unknown column '%s' (choose from: %s)")), text_shown(name, val),
			            order_keys());
		for (int i = 0; i < o->nchosen; i++)
			if (o->chosen[i] == col)
				return optvalue_fail(err, errlen, F_(N_("column '%s' is listed twice in '%s'")), text_shown(name, val),
				            text_shown(s, list));
		o->chosen[o->nchosen++] = col;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* Parses a byte count with an optional K, M or G (powers of 1024). */
static int parse_group(const char *s, struct options *o, char *err, size_t errlen)
{
	char val[SHOWN_SIZE];

	if (strcmp(s, "process") == 0 || strcmp(s, "thread") == 0 || strcmp(s, "cgroup") == 0) {
		o->threads = strcmp(s, "thread") == 0;
		o->cgroups = strcmp(s, "cgroup") == 0;
		return 0;
	}
	return optvalue_fail(err, errlen, F_(N_("unknown group '%s' (choose from: process, thread, cgroup)")), text_shown(s, val));
}

static int parse_format(const char *s, enum output_format *f, char *err, size_t errlen)
{
	char val[SHOWN_SIZE];

	if (strcmp(s, "text") == 0)
		*f = FORMAT_TEXT;
	else if (strcmp(s, "csv") == 0)
		*f = FORMAT_CSV;
	else if (strcmp(s, "json") == 0)
		*f = FORMAT_JSON;
	else if (strcmp(s, "openmetrics") == 0)
		*f = FORMAT_OPENMETRICS;
	else
		return optvalue_fail(err, errlen, F_(N_("unknown format '%s' (choose from: text, csv, json, openmetrics)")),
		            text_shown(s, val));
	return 0;
}

/* The option getopt stopped at, as the user wrote it and as a message may show it (see
 * text_clean): a long option from its word (optopt holds its value, not its name), a short one
 * from optopt. word is the argument getopt was reading. */
static const char *bad_option(const char *word, int optopt_char, char *buf, size_t size)
{
	char raw[SHOWN_SIZE];

	if (strncmp(word, "--", 2) == 0) {
		snprintf(raw, sizeof(raw), "%.*s", (int)strcspn(word, "="), word);
	} else {
		raw[0] = '-';
		raw[1] = (char)optopt_char;
		raw[2] = '\0';
	}
	text_clean(buf, size, raw);
	return buf;
}

/* The long options that the len bytes of name (after "--") abbreviate, ", "-separated into buf;
 * returns how many there are. getopt refuses an abbreviation of two or more as an unknown name. */
static int long_matches(const char *name, size_t len, char *buf, size_t size)
{
	int n = 0;

	buf[0] = '\0';
	for (int id = 0; id < OPT_COUNT; id++) {
		size_t used = strlen(buf);

		if (strncmp(option_table[id].name, name, len) != 0)
			continue;
		snprintf(buf + used, size - used, "%s--%s", n ? ", " : "", option_table[id].name);
		n++;
	}
	return n;
}

/* Whether name is one of the long options. */
static int known_long(const char *name)
{
	for (int id = 0; id < OPT_COUNT; id++)
		if (strcmp(option_table[id].name, name) == 0)
			return 1;
	return 0;
}

static void defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->delay_s = DEFAULT_DELAY;
	o->sort_col = COL_TOTAL;
	o->format = FORMAT_TEXT;
	o->exit_buffer = DEFAULT_EXIT_BUFFER;
	o->top_commands = DEFAULT_TOP_COMMANDS;
	o->series_expiry_s = DEFAULT_SERIES_EXPIRY;
}

/* Notes the first option given that command mode refuses: one that chooses, orders or paces
 * rows, which command mode has none of. */
static void note_task_option(int id, int c, const char *word, struct options *o)
{
	if (!o->task_option[0] && !option_table[id].command_mode)
		bad_option(word, c, o->task_option, sizeof(o->task_option));
}

/* -c PATH: a path below the hierarchy's root; '..' would leave it. */
static int parse_cgroup(const char *s, struct options *o, char *err, size_t errlen)
{
	char val[SHOWN_SIZE];

	if (!s[0])
		return optvalue_fail(err, errlen, "%s", _("an empty cgroup path: give one such as /system.slice"));
	if (cgpath_climbs(s))
		return optvalue_fail(err, errlen, F_(N_("invalid cgroup path '%s': '..' would leave the hierarchy")),
				     text_shown(s, val));
	o->cgroup = s;
	return 0;
}

/* Takes option id's value into o. */
static int take_option(enum option_id id, struct options *o, char *err, size_t errlen)
{
	switch (id) {
	case OPT_BATCH: o->batch = 1; return 0;
	case OPT_ITERATIONS: return optvalue_iterations(optarg, &o->iterations, err, errlen);
	case OPT_DELAY: return options_parse_delay(optarg, &o->delay_s, err, errlen);
	case OPT_PID: return options_parse_pids(optarg, &o->pids, &o->npids, err, errlen);
	case OPT_USER:
		o->by_uid = 1;
		return options_parse_user(optarg, &o->uid, err, errlen);
	case OPT_THREADS:
		o->threads = 1;
		o->cgroups = 0;
		return 0;
	case OPT_GROUP: return parse_group(optarg, o, err, errlen);
	case OPT_CGROUP: return parse_cgroup(optarg, o, err, errlen);
	case OPT_SORT: return parse_sort(optarg, &o->sort_col, err, errlen);
	case OPT_REVERSE: o->reverse = 1; return 0;
	case OPT_COLUMNS: return parse_columns(optarg, o, err, errlen);
	case OPT_ACTIVE: o->active = 1; return 0;
	case OPT_TREE: o->tree = 1; return 0;
	case OPT_TREE_SUMS: o->tree = o->tree_sums = 1; return 0;
	case OPT_TRIGGER:
		if (o->ntriggers == TRIGGER_MAX)
			return optvalue_fail(err, errlen, F_(N_("at most %d --trigger options")), TRIGGER_MAX);
		return trigger_parse(optarg, &o->triggers[o->ntriggers++], err, errlen);
	case OPT_FORMAT:
		o->batch = 1;
		return parse_format(optarg, &o->format, err, errlen);
	case OPT_ACCUMULATE: o->accumulate = 1; return 0;
	case OPT_EXIT_BUFFER: return optvalue_size(optarg, &o->exit_buffer, err, errlen);
	case OPT_OUTPUT: o->output = optarg; return 0;
	case OPT_LISTEN: o->listen = optarg; return 0;
	case OPT_TOP_COMMANDS: return optvalue_top_commands(optarg, &o->top_commands, err, errlen);
	case OPT_SERIES_EXPIRY: return optvalue_series_expiry(optarg, &o->series_expiry_s, err, errlen);
	case OPT_WRITE: o->write = optarg; return 0;
	case OPT_ROTATE: return optvalue_rotate(optarg, &o->rotate, err, errlen);
	case OPT_KEEP: return optvalue_keep(optarg, &o->keep, err, errlen);
	case OPT_CAPTURE: return optvalue_capture(optarg, &o->capture_s, err, errlen);
	case OPT_READ: o->read = optarg; return 0;
	case OPT_BEGIN: return optvalue_time(optarg, "--begin", &o->begin_ns, &o->has_begin, err, errlen);
	case OPT_END: return optvalue_time(optarg, "--end", &o->end_ns, &o->has_end, err, errlen);
	default: return 0; /* --help and --version are handled by the caller */
	}
}

static int parse_one(int c, const char *word, struct options *o, char *err, size_t errlen)
{
	char opt[SHOWN_SIZE], possible[512];
	int id = option_of(c);

	if (id >= 0) {
		note_task_option(id, c, word, o);
		return take_option((enum option_id)id, o, err, errlen);
	}
	switch (c) {
	case ':':
		return optvalue_fail(err, errlen, F_(N_("option '%s' needs a value")), bad_option(word, optopt, opt, sizeof(opt)));
	default:
		bad_option(word, optopt, opt, sizeof(opt));
		if (strncmp(word, "--", 2) == 0 && strchr(word, '=') && known_long(opt + 2))
			return optvalue_fail(err, errlen, F_(N_("option '%s' takes no value")), opt);
		if (strncmp(word, "--", 2) == 0 && strcspn(word + 2, "=") > 0 &&
		    long_matches(word + 2, strcspn(word + 2, "="), possible, sizeof(possible)) > 1)
			return optvalue_fail(err, errlen, F_(N_("option '%s' is ambiguous (possible: %s)")), opt, possible);
		return optvalue_fail(err, errlen, F_(N_("unknown option '%s'")), opt);
	}
}

/* What -w and -r take, and what does not go with them. */
static int check_recording(const struct options *o, char *err, size_t errlen)
{
	static const struct {
		int bad;
		const char *text;
	} rules[] = {
		{ 0, N_("--rotate, --keep and --capture are for -w") },
		{ 0, N_("--keep is for --rotate") },
		{ 0, N_("--capture records around the moments a --trigger fires: add one") },
		{ 0, N_("--begin and --end are for -r") },
		{ 0, N_("-r replays a recording: -w, -p, --listen, --trigger and a command do not apply to it") },
		{ 0, N_("-r shows the rows as they were recorded: -H and --group=thread do not apply to it") },
		{ 0, N_("--end is before --begin") },
	};
	int bad[sizeof(rules) / sizeof(rules[0])] = {
		!o->write && (o->rotate || o->keep || o->capture_s > 0),
		o->keep && !o->rotate,
		o->capture_s > 0 && !o->ntriggers,
		!o->read && (o->has_begin || o->has_end),
		o->read && (o->write || o->npids || o->listen || o->ntriggers || o->command),
		o->read && o->threads,
		o->has_begin && o->has_end && o->end_ns < o->begin_ns,
	};

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (bad[i])
			return optvalue_fail(err, errlen, "%s", _(rules[i].text));
	return 0;
}

int options_parse(int argc, char **argv, struct options *o, char *err, size_t errlen)
{
	int c, word = 1; /* optind reads 1 after getopt's first call too */
	struct option long_options[OPT_COUNT + 1];
	char short_options[2 + 2 * OPT_COUNT + 1];

	getopt_arrays(long_options, short_options);
	defaults(o);
	opterr = 0;
	optind = 0; /* 0, not 1: glibc then also forgets a half-read group such as -zb */
	/* word: optind before the call is the argument getopt reads, also inside "-bx" clusters */
	while ((c = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
		if (c == option_val(OPT_HELP)) {
			options_usage(stdout);
			return OPTIONS_EXIT;
		}
		if (c == option_val(OPT_VERSION)) {
			version();
			return OPTIONS_EXIT;
		}
		if (parse_one(c, argv[word < argc ? word : argc - 1], o, err, errlen) < 0)
			return OPTIONS_ERROR;
		word = optind;
	}
	if (optind < argc) {
		/* a command comes after "--", so that a typo is not run */
		if (optind == 1 || strcmp(argv[optind - 1], "--") != 0) {
			char val[SHOWN_SIZE];

			optvalue_fail(err, errlen, F_(N_("unexpected argument '%s' (a command to run goes after --)")),
			     text_shown(argv[optind], val));
			return OPTIONS_ERROR;
		}
		o->command = argv + optind;
	} else if (optind > 1 && strcmp(argv[optind - 1], "--") == 0) {
		optvalue_fail(err, errlen, "%s", _("a command to run is missing after --"));
		return OPTIONS_ERROR;
	}
	if (o->command && o->task_option[0]) {
		optvalue_fail(err, errlen, F_(N_("option '%s' does not apply to command mode")), o->task_option);
		return OPTIONS_ERROR;
	}
	if (o->listen) {
		char host[256];
		unsigned port;

		if (listenaddr_parse(o->listen, host, sizeof(host), &port, err, errlen) < 0)
			return OPTIONS_ERROR;
	}
	if (o->listen && (o->threads || o->cgroups)) {
		optvalue_fail(err, errlen, "%s", _("--listen reads processes: -H and --group do not apply to it"));
		return OPTIONS_ERROR;
	}
	if (o->command && o->format == FORMAT_OPENMETRICS) {
		optvalue_fail(err, errlen, "%s", _("command mode's report has no openmetrics format"));
		return OPTIONS_ERROR;
	}
	if (o->ntriggers && (o->format == FORMAT_CSV || o->format == FORMAT_OPENMETRICS || (o->listen && !o->batch))) {
		optvalue_fail(err, errlen, "%s", _("--trigger says what stalled on the screen or in a text or JSON report"));
		return OPTIONS_ERROR;
	}
	if (o->tree && (o->threads || o->cgroups)) {
		optvalue_fail(err, errlen, "%s", _("--tree arranges processes: -H and --group do not apply to it"));
		return OPTIONS_ERROR;
	}
	if (o->cgroups && (o->npids || o->by_uid)) {
		optvalue_fail(err, errlen, "%s", _("--group=cgroup sums every task of each cgroup: -p and -u do not apply to it"));
		return OPTIONS_ERROR;
	}
	if (check_recording(o, err, errlen) < 0)
		return OPTIONS_ERROR;
	if (o->output && !o->command) {
		optvalue_fail(err, errlen, "%s", _("--output is for command mode: add -- COMMAND"));
		return OPTIONS_ERROR;
	}
	return OPTIONS_OK;
}

void options_free(struct options *o)
{
	free(o->pids);
	o->pids = NULL;
	o->npids = 0;
}
