/* options.c — the command line: THE table of options (one entry an option: names, type, bounds,
 * default, choices, where its value goes, help, refusals, whether the settings file holds it),
 * getopt's arrays, the defaults and --help made from it, and the rules between options. Every bad
 * value gets a message that names it (optvalue.c reads each value by its type); the caller prints
 * it and exits with status 2. Adding an option is one entry here, plus the code that uses it. */
#include "config.h"

#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "i18n.h"
#include "options.h"
#include "optvalue.h"
#include "listenaddr.h"
#include "order.h"

/* Where --help's texts start, and its width. */
#define HELP_INDENT 27
#define HELP_WIDTH 79

/* getopt's value for an option without a letter. */
#define LONG_ONLY 256

/* Where a field of struct options is, for the table. */
#define AT(field) offsetof(struct options, field)

_Static_assert(sizeof(enum output_format) == sizeof(int), "--format's choice is stored as an int");

/* --group: which rows, as the three fields of struct options say it. */
static void set_group(struct options *o, int choice)
{
	o->threads = choice == 1;
	o->cgroups = choice == 2;
	o->commands = choice == 3;
}

static int get_group(const struct options *o)
{
	return o->commands ? 3 : o->cgroups ? 2 : o->threads ? 1 : 0;
}

/* Whether the rows are processes: the tree's settings apply only then. */
static int process_rows(const struct options *o)
{
	return !o->threads && !o->cgroups && !o->commands;
}

/* THE table of options: getopt's arrays, --help, the refusals, the settings file and the options
 * command mode refuses are made from it (see struct option_def). */
static const struct option_def option_table[OPT_COUNT] = {
	[OPT_BATCH] = { .name = "batch", .letter = 'b', .type = OPTT_FLAG, .at = AT(batch), .command_mode = 1,
			.help = N_("print reports as text instead of the full screen") },
	[OPT_ITERATIONS] = {
		.name = "iterations", .letter = 'n', .arg = "N", .type = OPTT_COUNT, .at = AT(iterations),
		.min = 1, .max = (double)LONG_MAX,
		.help = N_("stop after N reports, or quit the screen after N refreshes (default: until "
			   "interrupted)"),
		.bad = N_("invalid number of iterations '%s': expected a whole number of at least 1") },
	[OPT_DELAY] = {
		.name = "delay", .letter = 'd', .arg = "SECS", .type = OPTT_SECONDS, .at = AT(delay_s),
		.min = MIN_DELAY - 1e-9, .max = MAX_DELAY, .def = DEFAULT_DELAY, .setting = 1,
		.help = N_("seconds between reports, fractional, at least %g (default %g)"),
		.num = { MIN_DELAY, DEFAULT_DELAY },
		.bad = N_("invalid delay '%s': expected seconds, such as 1 or 0.5"),
		.below = N_("invalid delay '%s': the minimum is %g seconds"),
		.above = N_("invalid delay '%s': the maximum is %g seconds") },
	[OPT_PID] = { .name = "pid", .letter = 'p', .arg = "PID[,PID...]", .type = OPTT_PIDS, .at = AT(pids),
		      .n_at = AT(npids), .help = N_("only these processes (may be repeated; on a replay, only their rows)") },
	[OPT_USER] = { .name = "user", .letter = 'u', .arg = "USER", .type = OPTT_USER, .at = AT(uid),
		       .given = AT(by_uid), .help = N_("only tasks of this user (name or uid)") },
	[OPT_THREADS] = { .name = "threads", .letter = 'H', .type = OPTT_FLAG, .at = AT(threads),
			  .implies = "group", .implies_value = "thread",
			  .help = N_("one row per thread instead of per process (--group=thread)") },
	[OPT_GROUP] = {
		.name = "group", .arg = "GROUP", .type = OPTT_CHOICE,
		.choices = { "process", "thread", "cgroup", "command" }, .set = set_group, .get = get_group,
		.setting = 1,
		.help = N_("one row per process, thread, cgroup (a tree of cgroups with their pressure) or "
			   "command name (its processes summed); default process"),
		.bad = N_("unknown group '%s' (choose from: process, thread, cgroup, command)") },
	[OPT_CGROUP] = { .name = "cgroup", .letter = 'c', .arg = "PATH", .type = OPTT_CGROUP, .at = AT(cgroup),
			 .help = N_("only tasks in this cgroup and below, a path as /proc/PID/cgroup shows it") },
	[OPT_UNIT] = { .name = "unit", .arg = "NAME", .type = OPTT_UNIT, .at = AT(unit),
		       .help = N_("only tasks whose cgroup is in this systemd unit (the innermost service or scope "
				  "its path names; a pattern such as 'docker-*' matches)") },
	[OPT_SORT] = { .name = "sort", .letter = 's', .arg = "KEY", .type = OPTT_COLUMN, .at = AT(sort_col),
		       .def = COL_TOTAL, .setting = 1, .help = N_("sort by KEY (default total), one of:"),
		       .bad = N_("unknown sort key '%s' (choose from: %s)") },
	[OPT_REVERSE] = { .name = "reverse", .type = OPTT_FLAG, .at = AT(reverse), .setting = 1,
			  .help = N_("reverse the sort order") },
	[OPT_COLUMNS] = {
		.name = "columns", .arg = "LIST", .type = OPTT_COLUMNS, .at = AT(chosen), .n_at = AT(nchosen),
		.setting = 1,
		.help = N_("show these columns in this order, names as for --sort separated by commas (the "
			   "command stays last; CSV and JSON keep every field)"),
		.bad = N_("unknown column '%s' (choose from: %s)") },
	[OPT_ACTIVE] = { .name = "active", .letter = 'a', .type = OPTT_FLAG, .at = AT(active), .setting = 1,
			 .help = N_("only tasks that waited during the interval") },
	[OPT_HIDE_EXITED] = { .name = "hide-exited", .type = OPTT_FLAG, .at = AT(hide_exited), .setting = 1,
			      .help = N_("no rows of tasks that exited (shown by default: what they waited counts)") },
	[OPT_TREE] = { .name = "tree", .type = OPTT_FLAG, .at = AT(tree), .setting = 1, .applies = process_rows,
		       .help = N_("processes as a tree, each under its parent") },
	[OPT_TREE_SUMS] = { .name = "tree-sums", .type = OPTT_FLAG, .at = AT(tree_sums), .implies = "tree",
			    .setting = 1, .applies = process_rows,
			    .help = N_("the tree, each process's numbers summing its own and its descendants'") },
	[OPT_TRIGGER] = {
		.name = "trigger", .arg = "SPEC", .type = OPTT_TRIGGER, .at = AT(triggers), .n_at = AT(ntriggers),
		.help = N_("register a PSI trigger, such as 'memory some 150ms 1s' (a cgroup path may follow): "
			   "when it fires, say which tasks stalled (may be repeated)") },
	[OPT_FORMAT] = {
		.name = "format", .arg = "FORMAT", .type = OPTT_CHOICE, .at = AT(format),
		.choices = { "text", "csv", "json", "openmetrics", "html" }, .def = FORMAT_TEXT, .implies = "batch",
		.command_mode = 1,
		.help = N_("batch output: text, csv, json or openmetrics (implies --batch; command mode: not "
			   "openmetrics); html: one web page of a recording (-r, with charts) or of a command's run"),
		.bad = N_("unknown format '%s' (choose from: text, csv, json, openmetrics, html)") },
	[OPT_ACCUMULATE] = { .name = "accumulate", .type = OPTT_FLAG, .at = AT(accumulate),
			     .help = N_("totals since the start, exited tasks included") },
	[OPT_WHY] = { .name = "why", .type = OPTT_FLAG, .at = AT(why), .setting = 1, .command_mode = 1,
		      .help = N_("measure how long each wait lasts, through eBPF: per task, process and cgroup "
				 "and per kind (blocked too: interruptible sleep), the interval's count, total, "
				 "p50, p90, p99 and longest wait, in JSON and CSV; with -p, -u, -c or --unit also "
				 "the chosen tasks' off-CPU stacks, named, and with --trigger those of the tasks "
				 "that stalled (needs CAP_BPF and CAP_PERFMON)") },
	[OPT_EXIT_BUFFER] = {
		.name = "exit-buffer", .arg = "SIZE", .type = OPTT_SIZE, .at = AT(exit_buffer),
		.min = MIN_EXIT_BUFFER, .max = MAX_EXIT_BUFFER, .def = DEFAULT_EXIT_BUFFER, .command_mode = 1,
		.help = N_("receive buffer of each exit listener, such as 16M (default %gM)"),
		.num = { DEFAULT_EXIT_BUFFER / (1024.0 * 1024) },
		.bad = N_("invalid exit buffer size '%s': expected %gK to %gG, such as 16M"),
		.say = { MIN_EXIT_BUFFER / 1024, MAX_EXIT_BUFFER / (1024.0 * 1024 * 1024) } },
	[OPT_OUTPUT] = { .name = "output", .letter = 'o', .arg = "FILE", .type = OPTT_STRING, .at = AT(output),
			 .command_mode = 1,
			 .help = N_("command mode, and -r with --format html: write the report to FILE, not stderr "
				    "(or standard output)") },
	[OPT_LISTEN] = {
		.name = "listen", .arg = "[ADDR:]PORT", .type = OPTT_STRING, .at = AT(listen),
		.help = N_("serve Prometheus metrics at http://ADDR:PORT/metrics (ADDR: loopback unless given); "
			   "without -b nothing else is printed") },
	[OPT_WEB_CONFIG] = {
		.name = "web-config", .arg = "FILE", .type = OPTT_STRING, .at = AT(web_config),
		.help = N_("--listen: TLS and basic auth as FILE says, in the Prometheus exporters' web "
			   "configuration format (tls_server_config, basic_auth_users)") },
	[OPT_TOP_COMMANDS] = {
		.name = "top-commands", .arg = "N", .type = OPTT_COUNT, .at = AT(top_commands), .min = 0,
		.max = 100000, .def = DEFAULT_TOP_COMMANDS,
		.help = N_("the metrics show the N command names that waited most lately by name, the rest "
			   "as _other (default %g)"),
		.num = { DEFAULT_TOP_COMMANDS },
		.bad = N_("invalid number of command names '%s': expected 0 to 100000") },
	[OPT_SERIES_EXPIRY] = {
		.name = "series-expiry", .arg = "SECS", .type = OPTT_SECONDS, .at = AT(series_expiry_s), .min = 0,
		.max = SERIES_EXPIRY_MAX, .def = DEFAULT_SERIES_EXPIRY,
		.help = N_("the metrics of a cgroup that is gone stay SECS seconds more, then go "
			   "(default %g)"),
		.num = { DEFAULT_SERIES_EXPIRY },
		.bad = N_("invalid --series-expiry '%s': expected seconds from 0 to %d"), .say = { SERIES_EXPIRY_MAX } },
	[OPT_WRITE] = {
		.name = "write", .letter = 'w', .arg = "FILE", .type = OPTT_STRING, .at = AT(write),
		.help = N_("record every reading to FILE (appending to a recording there); without -b and "
			   "without a terminal nothing else is done") },
	[OPT_ROTATE] = {
		.name = "rotate", .arg = "PERIOD", .type = OPTT_PERIOD, .at = AT(rotate), .choices = { "hour", "day" },
		.min = 1, .max = 86400,
		.help = N_("-w: a new file every hour, day or PERIOD seconds, the last one renamed after its "
			   "start: FILE.YYYY-MM-DD[-HH[MMSS]]"),
		.bad = N_("invalid --rotate '%s': expected hour, day or seconds from 1 to 86400") },
	[OPT_KEEP] = { .name = "keep", .arg = "N", .type = OPTT_COUNT, .at = AT(keep), .min = 1, .max = 100000,
		       .help = N_("--rotate: keep the N newest renamed files, remove older ones"),
		       .bad = N_("invalid --keep '%s': expected a number of files from 1 to 100000") },
	[OPT_CAPTURE] = {
		.name = "capture", .arg = "SECS", .type = OPTT_SECONDS, .at = AT(capture_s), .min = 1, .max = 3600,
		.help = N_("-w with --trigger: keep the last SECS seconds in memory and write them, and the "
			   "next SECS, only when a trigger fires"),
		.bad = N_("invalid --capture '%s': expected seconds from 1 to 3600") },
	[OPT_READ] = { .name = "read", .letter = 'r', .arg = "FILE", .type = OPTT_STRING, .at = AT(read),
		       .help = N_("replay a recording: the screen, or reports with -b, as a live run shows them") },
	[OPT_BEGIN] = {
		.name = "begin", .arg = "TIME", .type = OPTT_TIME, .at = AT(begin_ns), .given = AT(has_begin),
		.help = N_("-r: start at TIME: YYYY-MM-DD HH:MM[:SS], HH:MM[:SS] (today), @SECONDS, or like "
			   "'10 minutes ago'") },
	[OPT_END] = { .name = "end", .arg = "TIME", .type = OPTT_TIME, .at = AT(end_ns), .given = AT(has_end),
		      .help = N_("-r: stop after TIME") },
	[OPT_HELP] = { .name = "help", .letter = 'h', .type = OPTT_ACTION, .command_mode = 1,
		       .help = N_("show this help and exit") },
	[OPT_VERSION] = { .name = "version", .letter = 'V', .type = OPTT_ACTION, .command_mode = 1,
			  .help = N_("show the version and exit") },
};

const struct option_def *option_def(enum option_id id)
{
	return &option_table[id];
}

int option_find(const char *name)
{
	for (int id = 0; id < OPT_COUNT; id++)
		if (strcmp(option_table[id].name, name) == 0)
			return id;
	return -1;
}

void options_defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	for (int id = 0; id < OPT_COUNT; id++)
		if (option_table[id].def != 0)
			optvalue_store(&option_table[id], o, option_table[id].def);
}

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
	if (d->type == OPTT_COLUMN) /* the names it takes */
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

/* Notes the first option given that command mode refuses: one that chooses, orders or paces
 * rows, which command mode has none of. */
static void note_task_option(int id, int c, const char *word, struct options *o)
{
	if (!o->task_option[0] && !option_table[id].command_mode)
		bad_option(word, c, o->task_option, sizeof(o->task_option));
}

static int parse_one(int c, const char *word, struct options *o, char *err, size_t errlen)
{
	char opt[SHOWN_SIZE], possible[512];
	int id = option_of(c);

	if (id >= 0) {
		note_task_option(id, c, word, o);
		return optvalue_take(&option_table[id], optarg, o, err, errlen);
	}
	switch (c) {
	case ':':
		return optvalue_fail(err, errlen, F_(N_("option '%s' needs a value")), bad_option(word, optopt, opt, sizeof(opt)));
	default:
		bad_option(word, optopt, opt, sizeof(opt));
		if (strncmp(word, "--", 2) == 0 && strchr(word, '=') && option_find(opt + 2) >= 0)
			return optvalue_fail(err, errlen, F_(N_("option '%s' takes no value")), opt);
		if (strncmp(word, "--", 2) == 0 && strcspn(word + 2, "=") > 0 &&
		    long_matches(word + 2, strcspn(word + 2, "="), possible, sizeof(possible)) > 1)
			return optvalue_fail(err, errlen, F_(N_("option '%s' is ambiguous (possible: %s)")), opt, possible);
		return optvalue_fail(err, errlen, F_(N_("unknown option '%s'")), opt);
	}
}

/* THE rules between options: which do not go together, which need another. Each with its refusal
 * (a printf format of one %s, arg, where arg is set) and a command line that breaks it and no rule
 * before it, which the unit tests parse to see each rule refuse with its own words. Checked in
 * this order, after the values (and command mode's options, from the table above). */
enum option_rule {
	RULE_WEB_CONFIG,
	RULE_LISTEN_ROWS,
	RULE_COMMAND_OPENMETRICS,
	RULE_TRIGGER_OUTPUT,
	RULE_TREE_ROWS,
	RULE_CGROUP_SELECTION,
	RULE_FOR_WRITE,
	RULE_KEEP_ROTATE,
	RULE_CAPTURE_TRIGGER,
	RULE_FOR_READ,
	RULE_READ_SOURCES,
	RULE_READ_ROWS,
	RULE_END_BEFORE_BEGIN,
	RULE_HTML_WINDOW,
	RULE_OUTPUT,
	RULE_COUNT
};

static const struct option_rule_text {
	const char *text, *arg;
	const char *example[6]; /* the arguments after "delaytop", NULL-terminated */
} option_rules[RULE_COUNT] = {
	[RULE_WEB_CONFIG] = { N_("--web-config is for --listen"), NULL, { "-b", "--web-config", "web.yml" } },
	[RULE_LISTEN_ROWS] = { N_("--listen reads processes: -H and --group do not apply to it"), NULL,
			       { "--listen", "127.0.0.1:9", "-H" } },
	[RULE_COMMAND_OPENMETRICS] = { N_("command mode's report has no openmetrics format"), NULL,
				       { "--format", "openmetrics", "--", "true" } },
	[RULE_TRIGGER_OUTPUT] = { N_("--trigger says what stalled on the screen or in a text or JSON report"), NULL,
				  { "--trigger", "cpu some 150ms 1s", "--format", "csv" } },
	[RULE_TREE_ROWS] = { N_("--tree arranges processes: -H and --group do not apply to it"), NULL,
			     { "-b", "--tree", "--group=cgroup" } },
	[RULE_CGROUP_SELECTION] = { N_("--group=cgroup sums every task of each cgroup: -p and -u do not apply to it"),
				    NULL, { "-b", "--group=cgroup", "-p", "1" } },
	[RULE_FOR_WRITE] = { N_("--rotate, --keep and --capture are for -w"), NULL, { "-b", "--rotate", "hour" } },
	[RULE_KEEP_ROTATE] = { N_("--keep is for --rotate"), NULL, { "-w", "x.rec", "--keep", "3" } },
	[RULE_CAPTURE_TRIGGER] = { N_("--capture records around the moments a --trigger fires: add one"), NULL,
				   { "-w", "x.rec", "--capture", "60" } },
	[RULE_FOR_READ] = { N_("--begin and --end are for -r"), NULL, { "-b", "--begin", "-1h" } },
	[RULE_READ_SOURCES] = { N_("-r replays a recording: -w, --listen, --trigger and a command do not apply to it"),
				NULL, { "-r", "x.rec", "-w", "y.rec" } },
	[RULE_READ_ROWS] = { N_("-r shows the rows as they were recorded: -H and --group=thread do not apply to it"),
			     NULL, { "-r", "x.rec", "-H" } },
	[RULE_END_BEFORE_BEGIN] = { N_("--end is before --begin"), NULL,
				    { "-r", "x.rec", "--begin", "@200", "--end", "@100" } },
	/* xgettext:c-format */
	[RULE_HTML_WINDOW] = { N_("--format '%s' makes one page of a window of readings: it needs -r FILE "
				  "or -- COMMAND"), "html", { "--format", "html" } },
	[RULE_OUTPUT] = { N_("--output is for command mode: add -- COMMAND (or -r with --format html)"), NULL,
			  { "-r", "x.rec", "-o", "x.json" } },
};

/* Which rules o breaks, by rule. */
static void rules_broken(const struct options *o, int bad[RULE_COUNT])
{
	int rows = o->threads || o->cgroups || o->commands; /* -H or --group: not processes */

	bad[RULE_WEB_CONFIG] = o->web_config && !o->listen;
	bad[RULE_LISTEN_ROWS] = o->listen && rows;
	bad[RULE_COMMAND_OPENMETRICS] = o->command && o->format == FORMAT_OPENMETRICS;
	bad[RULE_TRIGGER_OUTPUT] = o->ntriggers && (o->format == FORMAT_CSV || o->format == FORMAT_OPENMETRICS ||
						    (o->listen && !o->batch));
	bad[RULE_TREE_ROWS] = o->tree && rows;
	bad[RULE_CGROUP_SELECTION] = o->cgroups && (o->npids || o->by_uid);
	bad[RULE_FOR_WRITE] = !o->write && (o->rotate || o->keep || o->capture_s > 0);
	bad[RULE_KEEP_ROTATE] = o->keep && !o->rotate;
	bad[RULE_CAPTURE_TRIGGER] = o->capture_s > 0 && !o->ntriggers;
	bad[RULE_FOR_READ] = !o->read && (o->has_begin || o->has_end);
	bad[RULE_READ_SOURCES] = o->read && (o->write || o->listen || o->ntriggers || o->command);
	bad[RULE_READ_ROWS] = o->read && o->threads;
	bad[RULE_END_BEFORE_BEGIN] = o->has_begin && o->has_end && o->end_ns < o->begin_ns;
	bad[RULE_HTML_WINDOW] = o->format == FORMAT_HTML && !o->command && !o->read;
	bad[RULE_OUTPUT] = o->output && !o->command && !(o->read && o->format == FORMAT_HTML);
}

/* The refusal of rule r into err. */
static int rule_fail(int r, char *err, size_t errlen)
{
	const struct option_rule_text *t = &option_rules[r];

	if (t->arg) { /* the table's formats take one %s, and F_ keeps a translation to the msgid's */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		return optvalue_fail(err, errlen, F_(t->text), t->arg);
#pragma GCC diagnostic pop
	}
	return optvalue_fail(err, errlen, "%s", _(t->text));
}

/* 0, or the refusal of the first rule between options that o breaks. */
static int check_rules(const struct options *o, char *err, size_t errlen)
{
	int bad[RULE_COUNT];

	rules_broken(o, bad);
	for (int r = 0; r < RULE_COUNT; r++)
		if (bad[r])
			return rule_fail(r, err, errlen);
	return 0;
}

size_t options_rule_count(void)
{
	return RULE_COUNT;
}

const char *const *options_rule(size_t r, char *msg, size_t size)
{
	if (r >= RULE_COUNT)
		return NULL;
	rule_fail((int)r, msg, size);
	return option_rules[r].example;
}

int options_parse(int argc, char **argv, struct options *o, char *err, size_t errlen)
{
	int c, word = 1; /* optind reads 1 after getopt's first call too */
	struct option long_options[OPT_COUNT + 1];
	char short_options[2 + 2 * OPT_COUNT + 1];

	getopt_arrays(long_options, short_options);
	options_defaults(o);
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
	if (check_rules(o, err, errlen) < 0)
		return OPTIONS_ERROR;
	return OPTIONS_OK;
}

void options_free(struct options *o)
{
	free(o->pids);
	o->pids = NULL;
	o->npids = 0;
}
