/* test_options.c — the command line: every bad value is refused with a message that names it,
 * and valid command lines give the options they say. */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "delaykind.h"
#include "options.h"
#include "order.h"
#include "tap.h"

static char err[512];

/* Parses "delaytop" followed by the NULL-terminated arguments. */
static int parse(struct options *o, ...)
{
	static char *argv[32];
	int argc = 0;
	va_list ap;
	char *a;

	argv[argc++] = "delaytop";
	va_start(ap, o);
	while ((a = va_arg(ap, char *)) != NULL && argc < 31)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	strcpy(err, "(no message)");
	return options_parse(argc, argv, o, err, sizeof(err));
}

/* One refused command line: OPTIONS_ERROR, and the message contains what. */
#define REFUSED(what, ...)                                                                         \
	do {                                                                                       \
		struct options o_;                                                                 \
		int rc_ = parse(&o_, __VA_ARGS__, (char *)NULL);                                   \
		ok(rc_ == OPTIONS_ERROR && strstr(err, what) != NULL,                              \
		   "refused: %s -> OPTIONS_ERROR naming \"%s\"", #__VA_ARGS__, what);              \
		if (rc_ != OPTIONS_ERROR || !strstr(err, what))                                    \
			printf("#   got rc %d, message: %s\n", rc_, err);                            \
		options_free(&o_);                                                                 \
	} while (0)

static void test_refused(void)
{
	REFUSED("-r replays a recording: -w, --listen", "-r", "f.rec", "-w", "g.rec");
	REFUSED("abc", "-n", "abc");
	REFUSED("'0'", "-n", "0");
	REFUSED("-5", "-n", "-5");
	REFUSED("'0'", "-d", "0");
	REFUSED("-1", "-d", "-1");
	REFUSED("abc", "-d", "abc");
	REFUSED("0.05", "-d", "0.05");
	REFUSED("100000", "-d", "100000");
	REFUSED("nosuch", "-s", "nosuch");
	REFUSED("unknown column 'nosuch' (choose from: total,", "--columns", "pid,nosuch");
	REFUSED("empty column name in 'pid,,io'", "--columns=pid,,io");
	REFUSED("empty column name in ''", "--columns=");
	REFUSED("empty column name in 'io,'", "--columns=io,");
	REFUSED("column 'io' is listed twice in 'io,pid,io'", "--columns=io,pid,io");
	REFUSED("does not apply to command mode", "--columns=io", "--", "true");
	REFUSED("'x'", "-p", "x");
	REFUSED("'x'", "-p", "1,x");
	REFUSED("''", "-p", "");
	REFUSED("'0'", "-p", "0");
	REFUSED("-z", "-z");
	REFUSED("--no-such-option", "--no-such-option");
	REFUSED("--no-such-option", "--no-such-option=3");
	REFUSED("-d", "-d");
	REFUSED("-d", "-b", "-d");
	REFUSED("xml", "--format", "xml");
	REFUSED("no_such_user_xyz", "-u", "no_such_user_xyz");
	REFUSED("extra", "-b", "extra");
	REFUSED("extra", "extra");
	/* long options that getopt reports by their long name only */
	REFUSED("--format", "--format");
	REFUSED("--reverse", "--reverse=1");
	REFUSED("--batch", "--batch=1");
	/* strtol and strtod would take these: only plain decimal digits are numbers here */
	REFUSED("' 5'", "-n", " 5");
	REFUSED("'+5'", "-n", "+5");
	REFUSED("'0x10'", "-n", "0x10");
	REFUSED("' 1'", "-d", " 1");
	REFUSED("'0x1'", "-d", "0x1");
	REFUSED("'1e1'", "-d", "1e1");
	REFUSED("'+1'", "-d", "+1");
	REFUSED("'1..2'", "-d", "1..2");
	REFUSED("' 16M'", "--exit-buffer", " 16M");
	REFUSED("'1e6'", "--exit-buffer", "1e6");
	REFUSED("'M'", "--exit-buffer", "M");
	/* an empty item is named with the list it is in */
	REFUSED("'1,,2'", "-p", "1,,2");
	/* command mode reports one run: options that choose, order or pace rows are refused */
	REFUSED("'-H'", "-H", "--", "true");
	REFUSED("'-H'", "-bHn1", "--", "true");
	REFUSED("'--threads'", "--threads", "--", "true");
	REFUSED("'--sort'", "--sort=io", "--", "true");
	REFUSED("'-p'", "-p", "1", "--", "true");
	REFUSED("'-u'", "-u", "root", "--", "true");
	REFUSED("'-a'", "-a", "--", "true");
	REFUSED("'-d'", "-d", "2", "--", "true");
	REFUSED("'--reverse'", "--reverse", "--", "true");
	REFUSED("'--accumulate'", "--accumulate", "--", "true");
}

/* After a refused command line that stopped inside a group of short options, the next parse
 * must start afresh (getopt keeps hidden state between calls). */
static void test_getopt_state(void)
{
	struct options o;
	int rc;

	parse(&o, "-zb", (char *)NULL);
	options_free(&o);
	rc = parse(&o, "-n", "5", (char *)NULL);
	ok(rc == OPTIONS_OK && o.iterations == 5 && !o.batch,
	   "a parse after one refused inside '-zb' starts afresh (got rc %d, iterations %ld, batch %d: %s)", rc,
	   o.iterations, o.batch, rc == OPTIONS_OK ? "" : err);
	options_free(&o);
	rc = parse(&o, "-b", (char *)NULL);
	ok(rc == OPTIONS_OK && o.batch, "a second parse in the same process works");
	options_free(&o);
	rc = parse(&o, (char *)NULL);
	ok(rc == OPTIONS_OK && !o.batch, "and a third one gets the defaults again");
	options_free(&o);
}

static void test_valid(void)
{
	struct options o;
	int rc;

	rc = parse(&o, (char *)NULL);
	is_int(rc, OPTIONS_OK, "no arguments parse");
	is_num(o.delay_s, 1.0, 0, "default delay is 1 s");
	is_int(o.sort_col, COL_TOTAL, "default sort is total");
	is_int(o.format, FORMAT_TEXT, "default format is text");
	ok(!o.batch && !o.iterations && !o.npids && !o.by_uid && !o.threads && !o.reverse && !o.active,
	   "defaults: not batch, no limit, no filters, processes, not reversed");
	options_free(&o);

	rc = parse(&o, "-b", "-n", "5", "-d", "0.5", (char *)NULL);
	ok(rc == OPTIONS_OK && o.batch && o.iterations == 5 && o.delay_s == 0.5, "-b -n 5 -d 0.5");
	options_free(&o);

	rc = parse(&o, "-bn", "7", (char *)NULL);
	ok(rc == OPTIONS_OK && o.batch && o.iterations == 7, "grouped short options: -bn 7");
	options_free(&o);

	rc = parse(&o, "-p", "1,2", "-p", "3", (char *)NULL);
	ok(rc == OPTIONS_OK && o.npids == 3 && o.pids[0] == 1 && o.pids[1] == 2 && o.pids[2] == 3,
	   "-p 1,2 -p 3: three pids in the order given");
	options_free(&o);
	ok(o.pids == NULL && o.npids == 0, "options_free releases the pid list");

	rc = parse(&o, "-r", "f.rec", "-b", "-p", "210,480", "-u", "0", "-c", "/system.slice", (char *)NULL);
	ok(rc == OPTIONS_OK && o.read && o.npids == 2 && o.pids[1] == 480 && o.by_uid && o.cgroup,
	   "-r with -p, -u and -c: a replay's rows filtered");
	options_free(&o);

	rc = parse(&o, "-u", "root", (char *)NULL);
	ok(rc == OPTIONS_OK && o.by_uid && o.uid == 0, "-u root is uid 0");
	options_free(&o);
	rc = parse(&o, "-u", "0", (char *)NULL);
	ok(rc == OPTIONS_OK && o.by_uid && o.uid == 0, "-u 0 is uid 0");
	options_free(&o);
	rc = parse(&o, "-u", "54321", (char *)NULL);
	ok(rc == OPTIONS_OK && o.by_uid && o.uid == 54321, "-u 54321: a uid without a name is accepted");
	options_free(&o);

	rc = parse(&o, "-s", "io", (char *)NULL);
	ok(rc == OPTIONS_OK && o.sort_col == order_find("io") && o.sort_col == COL_KIND + DK_IO,
	   "-s io sorts by the IO column");
	options_free(&o);
	rc = parse(&o, "--sort=pid", (char *)NULL);
	ok(rc == OPTIONS_OK && o.sort_col == COL_ID, "--sort=pid sorts by the id column");
	options_free(&o);

	rc = parse(&o, "--columns=io,pid,command,wpcopy", (char *)NULL);
	ok(rc == OPTIONS_OK && o.nchosen == 4 && o.chosen[0] == COL_KIND + DK_IO && o.chosen[1] == COL_ID &&
		   o.chosen[2] == COL_COMMAND && o.chosen[3] == COL_KIND + DK_WPCOPY,
	   "--columns=io,pid,command,wpcopy: those columns, in that order");
	options_free(&o);
	rc = parse(&o, "-b", (char *)NULL);
	ok(rc == OPTIONS_OK && o.nchosen == 0, "without --columns none is chosen: the view shows all");
	options_free(&o);

	rc = parse(&o, "--format", "json", (char *)NULL);
	ok(rc == OPTIONS_OK && o.format == FORMAT_JSON && o.batch, "--format json implies batch");
	options_free(&o);
	rc = parse(&o, "--format=csv", (char *)NULL);
	ok(rc == OPTIONS_OK && o.format == FORMAT_CSV && o.batch, "--format=csv implies batch");
	options_free(&o);
	rc = parse(&o, "--format", "text", (char *)NULL);
	ok(rc == OPTIONS_OK && o.format == FORMAT_TEXT && o.batch, "--format text implies batch");
	options_free(&o);

	rc = parse(&o, "-d", ".5", "-n", "007", (char *)NULL);
	ok(rc == OPTIONS_OK && o.delay_s == 0.5 && o.iterations == 7, "-d .5 -n 007 are plain decimal numbers");
	options_free(&o);
	rc = parse(&o, "--exit-buffer", "0.5M", (char *)NULL);
	ok(rc == OPTIONS_OK && o.exit_buffer == 512 * 1024, "--exit-buffer 0.5M is 512 KiB");
	options_free(&o);
	rc = parse(&o, "-b", "--format", "json", "-o", "/dev/null", "--exit-buffer", "16M", "--", "true", (char *)NULL);
	ok(rc == OPTIONS_OK && o.command && strcmp(o.command[0], "true") == 0 && o.format == FORMAT_JSON,
	   "command mode takes -b, --format, -o and --exit-buffer");
	options_free(&o);

	rc = parse(&o, "--reverse", (char *)NULL);
	ok(rc == OPTIONS_OK && o.reverse, "--reverse");
	options_free(&o);
	rc = parse(&o, "-a", (char *)NULL);
	ok(rc == OPTIONS_OK && o.active, "-a");
	options_free(&o);
	rc = parse(&o, "-H", (char *)NULL);
	ok(rc == OPTIONS_OK && o.threads, "-H");
	options_free(&o);

	rc = parse(&o, "--batch", "--iterations=3", "--delay", "2", "--pid=4,5", "--user=root", "--threads", "--active",
		   (char *)NULL);
	ok(rc == OPTIONS_OK && o.batch && o.iterations == 3 && o.delay_s == 2 && o.npids == 2 && o.pids[1] == 5 &&
		   o.by_uid && o.uid == 0 && o.threads && o.active,
	   "the long forms of every option");
	options_free(&o);
}

static void test_parse_delay(void)
{
	double d = -7;

	ok(optvalue_parse_delay("0.1", &d, err, sizeof(err)) == 0 && d == 0.1, "delay 0.1 (the minimum) is accepted");
	ok(optvalue_parse_delay("86400", &d, err, sizeof(err)) == 0 && d == 86400, "delay 86400 (the maximum)");
	ok(optvalue_parse_delay("2.5", &d, err, sizeof(err)) == 0 && d == 2.5, "delay 2.5");
	d = 3;
	ok(optvalue_parse_delay("0.09", &d, err, sizeof(err)) == -1 && strstr(err, "0.09") && d == 3,
	   "delay 0.09 is refused, names the value, leaves the output alone");
	ok(optvalue_parse_delay("86401", &d, err, sizeof(err)) == -1 && strstr(err, "86401"), "delay 86401 is refused");
	ok(optvalue_parse_delay("", &d, err, sizeof(err)) == -1, "an empty delay is refused");
	ok(optvalue_parse_delay("1s", &d, err, sizeof(err)) == -1 && strstr(err, "1s"), "delay '1s' is refused");
	ok(optvalue_parse_delay("inf", &d, err, sizeof(err)) == -1, "delay inf is refused");
	ok(optvalue_parse_delay("nan", &d, err, sizeof(err)) == -1, "delay nan is refused");
}

static void test_parse_pids(void)
{
	uint32_t *pids = NULL;
	size_t n = 0;

	ok(optvalue_parse_pids("10,20", &pids, &n, err, sizeof(err)) == 0 && n == 2 && pids[0] == 10 && pids[1] == 20,
	   "pids 10,20");
	ok(optvalue_parse_pids("30", &pids, &n, err, sizeof(err)) == 0 && n == 3 && pids[2] == 30 && pids[0] == 10,
	   "a second list is appended");
	ok(optvalue_parse_pids("2147483647", &pids, &n, err, sizeof(err)) == 0 && n == 4 && pids[3] == 2147483647u,
	   "pid 2^31-1 is accepted");
	ok(optvalue_parse_pids("2147483648", &pids, &n, err, sizeof(err)) == -1 && strstr(err, "2147483648"),
	   "pid 2^31 is refused");
	ok(optvalue_parse_pids("99999999999", &pids, &n, err, sizeof(err)) == -1, "an 11-digit pid is refused");
	ok(optvalue_parse_pids("1,,2", &pids, &n, err, sizeof(err)) == -1 && strstr(err, "''"),
	   "an empty item in the list is refused");
	ok(optvalue_parse_pids("1,", &pids, &n, err, sizeof(err)) == -1, "a trailing comma is refused");
	ok(optvalue_parse_pids("-1", &pids, &n, err, sizeof(err)) == -1 && strstr(err, "-1"), "pid -1 is refused");
	ok(optvalue_parse_pids("+1", &pids, &n, err, sizeof(err)) == -1, "pid +1 is refused");
	ok(optvalue_parse_pids(" 1", &pids, &n, err, sizeof(err)) == -1, "pid ' 1' is refused");
	free(pids);
}

static void test_parse_user(void)
{
	uint32_t uid = 77;

	ok(optvalue_parse_user("root", &uid, err, sizeof(err)) == 0 && uid == 0, "user root");
	ok(optvalue_parse_user("0", &uid, err, sizeof(err)) == 0 && uid == 0, "user 0");
	ok(optvalue_parse_user("4294967294", &uid, err, sizeof(err)) == 0 && uid == 4294967294u, "uid 2^32-2");
	ok(optvalue_parse_user("4294967295", &uid, err, sizeof(err)) == -1 && strstr(err, "4294967295"),
	   "uid 2^32-1 (the invalid uid) is refused");
	ok(optvalue_parse_user("-1", &uid, err, sizeof(err)) == -1 && strstr(err, "-1"), "uid -1 is refused");
	ok(optvalue_parse_user("", &uid, err, sizeof(err)) == -1, "an empty user is refused");
	ok(optvalue_parse_user("no_such_user_xyz", &uid, err, sizeof(err)) == -1 && strstr(err, "no_such_user_xyz"),
	   "an unknown user name is refused and named");
}

/* Every rule between options (options.c's table) refuses the command line it gives as its example,
 * with its own words: the first rule it breaks is that one. */
static void test_rules(void)
{
	size_t n = options_rule_count();
	char want[512];

	ok(n >= 15, "the rules between options are a table (%zu rules)", n);
	ok(options_rule(n, want, sizeof(want)) == NULL, "and past its last rule there is none");
	for (size_t r = 0; r < n; r++) {
		const char *const *ex = options_rule(r, want, sizeof(want));
		char *argv[8] = { "delaytop" };
		int argc = 1, rc;
		struct options o;

		while (ex[argc - 1] && argc < 7) {
			argv[argc] = (char *)ex[argc - 1];
			argc++;
		}
		argv[argc] = NULL;
		strcpy(err, "(no message)");
		rc = options_parse(argc, argv, &o, err, sizeof(err));
		ok(argc > 1 && rc == OPTIONS_ERROR && strcmp(err, want) == 0,
		   "rule %zu (\"%s\"): its example %s %s ... is refused with it", r, want, argv[1], argc > 2 ? argv[2] : "");
		if (rc != OPTIONS_ERROR || strcmp(err, want) != 0)
			printf("#   got rc %d, message: %s\n", rc, err);
		options_free(&o);
	}
}

int main(void)
{
	test_refused();
	test_rules();
	test_getopt_state();
	test_valid();
	test_parse_delay();
	test_parse_pids();
	test_parse_user();
	return tap_done();
}
