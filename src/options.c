/* options.c — parsing and validating the command line. Every bad value gets a message that
 * names it; the caller prints it and exits with status 2. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "i18n.h"
#include "options.h"
#include "order.h"
#include "xalloc.h"

#define MIN_DELAY 0.1
#define MAX_DELAY 86400.0

enum { OPT_REVERSE = 256, OPT_FORMAT, OPT_ACCUMULATE, OPT_EXIT_BUFFER };

static const struct option long_options[] = {
	{ "batch", no_argument, NULL, 'b' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "delay", required_argument, NULL, 'd' },
	{ "pid", required_argument, NULL, 'p' },
	{ "user", required_argument, NULL, 'u' },
	{ "threads", no_argument, NULL, 'H' },
	{ "sort", required_argument, NULL, 's' },
	{ "reverse", no_argument, NULL, OPT_REVERSE },
	{ "active", no_argument, NULL, 'a' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "accumulate", no_argument, NULL, OPT_ACCUMULATE },
	{ "exit-buffer", required_argument, NULL, OPT_EXIT_BUFFER },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* '+': stop at the first word that is not an option. */
static const char short_options[] = "+:bn:d:p:u:Hs:ao:hV";

/* Prints a comma-separated list indented to column indent, wrapped before column width. */
static void print_wrapped(FILE *f, const char *list, int indent, int width)
{
	int col = 0;

	while (*list) {
		size_t len = strcspn(list, ",");
		int more = list[len] == ',';

		if (col == 0 || col + (int)len + 2 > width) {
			fprintf(f, "%s%*s", col ? "\n" : "", indent, "");
			col = indent;
		} else {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s%s", (int)len, list, more ? "," : "");
		col += (int)len + more;
		list += len + more;
		while (*list == ' ')
			list++;
	}
	fputc('\n', f);
}

void options_usage(FILE *f)
{
	fprintf(f, F_(N_("Usage: %s [OPTION]... [-- COMMAND [ARG]...]\n")), PACKAGE);
	fputs(_("Show which tasks are waiting, on what, and how badly, from the kernel's delay\n"
		"accounting and pressure stall information.\n\n"), f);
	fputs(_("  -b, --batch              print reports as text instead of the full screen\n"
		"  -n, --iterations=N       stop after N reports, or quit the screen after N\n"
		"                           refreshes (default: until interrupted)\n"
		"  -d, --delay=SECS         seconds between reports, fractional, at least 0.1\n"
		"                           (default 1)\n"
		"  -p, --pid=PID[,PID...]   only these processes (may be repeated)\n"
		"  -u, --user=USER          only tasks of this user (name or uid)\n"
		"  -H, --threads            one row per thread instead of per process\n"), f);
	fputs(_("  -s, --sort=KEY           sort by KEY (default total), one of:\n"), f);
	print_wrapped(f, order_keys(), 27, 79);
	fputs(_("      --reverse            reverse the sort order\n"
		"  -a, --active             only tasks that waited during the interval\n"
		"      --format=FORMAT      batch output: text, csv or json (implies --batch)\n"
		"      --accumulate         totals since the start, exited tasks included\n"
		"      --exit-buffer=SIZE   receive buffer for exit records, such as 16M\n"
		"                           (default 4M)\n"
		"  -o, --output=FILE        command mode: write the report to FILE, not stderr\n"
		"  -h, --help               show this help and exit\n"
		"  -V, --version            show the version and exit\n\n"), f);
	fputs(_("With -- COMMAND, delaytop runs the command, follows every process it starts,\n"
		"and reports the delays of the whole run when it ends; it exits with the\n"
		"command's status, or 125 when it cannot follow the command or write the report.\n\n"), f);
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

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* The room a message gives a user's value; longer values are cut with "...". */
#define SHOWN_SIZE 64

/* s as a message may show it (see text_clean): into buf of SHOWN_SIZE bytes, which it returns. */
static const char *shown(const char *s, char *buf)
{
	text_clean(buf, SHOWN_SIZE, s);
	return buf;
}

/* Whether strto*() read s up to end from plain decimal digits (and points): they would also take
 * leading spaces, a sign, hex and exponents. */
static int plain_number(const char *s, const char *end, int point_ok)
{
	return end > s && (size_t)(end - s) == strspn(s, point_ok ? "0123456789." : "0123456789");
}

static int parse_iterations(const char *s, long *out, char *err, size_t errlen)
{
	char val[SHOWN_SIZE], *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!plain_number(s, end, 0) || *end || errno || v < 1)
		return fail(err, errlen,
		            F_(N_("invalid number of iterations '%s': expected a whole number of at least 1")),
		            shown(s, val));
	*out = v;
	return 0;
}

int options_parse_delay(const char *s, double *out, char *err, size_t errlen)
{
	char val[SHOWN_SIZE], *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!plain_number(s, end, 1) || *end || errno || !isfinite(v))
		return fail(err, errlen, F_(N_("invalid delay '%s': expected seconds, such as 1 or 0.5")),
		            shown(s, val));
	if (v < MIN_DELAY - 1e-9)
		return fail(err, errlen, F_(N_("invalid delay '%s': the minimum is 0.1 seconds")), shown(s, val));
	if (v > MAX_DELAY)
		return fail(err, errlen, F_(N_("invalid delay '%s': the maximum is 86400 seconds")),
		            shown(s, val));
	*out = v;
	return 0;
}

/* Parses one pid of a list: digits only, 1 to INT_MAX. */
static int parse_pid(const char *s, size_t len, uint32_t *out)
{
	unsigned long v = 0;

	if (len == 0 || len > 10)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if (v < 1 || v > INT_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int options_parse_pids(const char *s, uint32_t **pids, size_t *n, char *err, size_t errlen)
{
	size_t cap = *n;
	const char *p = s;

	for (;;) {
		size_t len = strcspn(p, ",");
		uint32_t pid;

		if (parse_pid(p, len, &pid) < 0) {
			char bad[SHOWN_SIZE], val[SHOWN_SIZE], list[SHOWN_SIZE];

			snprintf(bad, sizeof(bad), "%.*s", (int)(len < 40 ? len : 40), p);
			if (strchr(s, ','))
				return fail(err, errlen,
				            F_(N_("invalid pid '%s' in '%s': expected positive numbers")),
				            shown(bad, val), shown(s, list));
			return fail(err, errlen, F_(N_("invalid pid '%s': expected a positive number")),
			            shown(bad, val));
		}
		*pids = xgrow(*pids, &cap, *n + 1, sizeof(**pids));
		(*pids)[(*n)++] = pid;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

int options_parse_user(const char *s, uint32_t *uid, char *err, size_t errlen)
{
	struct passwd *pw = getpwnam(s);
	char val[SHOWN_SIZE], *end;
	unsigned long v;

	if (pw) {
		*uid = pw->pw_uid;
		return 0;
	}
	errno = 0;
	v = strtoul(s, &end, 10);
	if (plain_number(s, end, 0) && !*end && !errno && v <= UINT32_MAX - 1) {
		*uid = (uint32_t)v;
		return 0;
	}
	return fail(err, errlen, F_(N_("unknown user '%s'")), shown(s, val));
}

static int parse_sort(const char *s, int *col, char *err, size_t errlen)
{
	char val[SHOWN_SIZE];

	*col = order_find(s);
	if (*col >= 0)
		return 0;
	return fail(err, errlen, F_(N_("unknown sort key '%s' (choose from: %s)")), shown(s, val), order_keys());
}

/* Parses a byte count with an optional K, M or G (powers of 1024). */
static int parse_size(const char *s, int *out, char *err, size_t errlen)
{
	char val[SHOWN_SIZE], *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!plain_number(s, end, 1))
		end = (char *)s; /* refused below */
	if (end != s && (*end == 'K' || *end == 'k'))
		v *= 1024, end++;
	else if (end != s && (*end == 'M' || *end == 'm'))
		v *= 1024 * 1024, end++;
	else if (end != s && (*end == 'G' || *end == 'g'))
		v *= 1024.0 * 1024 * 1024, end++;
	if (end == s || *end || errno || !isfinite(v) || v < 4096 || v > 1024.0 * 1024 * 1024)
		return fail(err, errlen, F_(N_("invalid exit buffer size '%s': expected 4K to 1G, such as 16M")),
		            shown(s, val));
	*out = (int)v;
	return 0;
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
	else
		return fail(err, errlen, F_(N_("unknown format '%s' (choose from: text, csv, json)")),
		            shown(s, val));
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
	for (const struct option *l = long_options; l->name; l++) {
		size_t used = strlen(buf);

		if (strncmp(l->name, name, len) != 0)
			continue;
		snprintf(buf + used, size - used, "%s--%s", n ? ", " : "", l->name);
		n++;
	}
	return n;
}

/* Whether name is one of the long options. */
static int known_long(const char *name)
{
	for (const struct option *l = long_options; l->name; l++)
		if (strcmp(l->name, name) == 0)
			return 1;
	return 0;
}

static void defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->delay_s = 1.0;
	o->sort_col = COL_TOTAL;
	o->format = FORMAT_TEXT;
	o->exit_buffer = DEFAULT_EXIT_BUFFER;
}

/* Options that choose, order or pace the rows: command mode has none, so it refuses them. */
static void note_task_option(int c, const char *word, struct options *o)
{
	static const int task_options[] = { 'n', 'd', 'p', 'u', 'H', 's', 'a', OPT_REVERSE, OPT_ACCUMULATE };

	if (o->task_option[0])
		return;
	for (size_t i = 0; i < sizeof(task_options) / sizeof(task_options[0]); i++)
		if (c == task_options[i])
			bad_option(word, c, o->task_option, sizeof(o->task_option));
}

static int parse_one(int c, const char *word, struct options *o, char *err, size_t errlen)
{
	char opt[SHOWN_SIZE], possible[512];

	note_task_option(c, word, o);
	switch (c) {
	case 'b': o->batch = 1; return 0;
	case 'n': return parse_iterations(optarg, &o->iterations, err, errlen);
	case 'd': return options_parse_delay(optarg, &o->delay_s, err, errlen);
	case 'p': return options_parse_pids(optarg, &o->pids, &o->npids, err, errlen);
	case 'u':
		o->by_uid = 1;
		return options_parse_user(optarg, &o->uid, err, errlen);
	case 'H': o->threads = 1; return 0;
	case 's': return parse_sort(optarg, &o->sort_col, err, errlen);
	case OPT_REVERSE: o->reverse = 1; return 0;
	case 'a': o->active = 1; return 0;
	case OPT_FORMAT:
		o->batch = 1;
		return parse_format(optarg, &o->format, err, errlen);
	case OPT_ACCUMULATE: o->accumulate = 1; return 0;
	case OPT_EXIT_BUFFER: return parse_size(optarg, &o->exit_buffer, err, errlen);
	case 'o': o->output = optarg; return 0;
	case ':':
		return fail(err, errlen, F_(N_("option '%s' needs a value")), bad_option(word, optopt, opt, sizeof(opt)));
	default:
		bad_option(word, optopt, opt, sizeof(opt));
		if (strncmp(word, "--", 2) == 0 && strchr(word, '=') && known_long(opt + 2))
			return fail(err, errlen, F_(N_("option '%s' takes no value")), opt);
		if (strncmp(word, "--", 2) == 0 && strcspn(word + 2, "=") > 0 &&
		    long_matches(word + 2, strcspn(word + 2, "="), possible, sizeof(possible)) > 1)
			return fail(err, errlen, F_(N_("option '%s' is ambiguous (possible: %s)")), opt, possible);
		return fail(err, errlen, F_(N_("unknown option '%s'")), opt);
	}
}

int options_parse(int argc, char **argv, struct options *o, char *err, size_t errlen)
{
	int c, word = 1; /* optind reads 1 after getopt's first call too */

	defaults(o);
	opterr = 0;
	optind = 0; /* 0, not 1: glibc then also forgets a half-read group such as -zb */
	/* word: optind before the call is the argument getopt reads, also inside "-bx" clusters */
	while ((c = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
		if (c == 'h') {
			options_usage(stdout);
			return OPTIONS_EXIT;
		}
		if (c == 'V') {
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

			fail(err, errlen, F_(N_("unexpected argument '%s' (a command to run goes after --)")),
			     shown(argv[optind], val));
			return OPTIONS_ERROR;
		}
		o->command = argv + optind;
	} else if (optind > 1 && strcmp(argv[optind - 1], "--") == 0) {
		fail(err, errlen, "%s", _("a command to run is missing after --"));
		return OPTIONS_ERROR;
	}
	if (o->command && o->task_option[0]) {
		fail(err, errlen, F_(N_("option '%s' does not apply to command mode")), o->task_option);
		return OPTIONS_ERROR;
	}
	if (o->output && !o->command) {
		fail(err, errlen, "%s", _("--output is for command mode: add -- COMMAND"));
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
