/* test_rcfile.c — the settings file's lines as options: each setting applies, the command line
 * wins, a line that cannot be used is reported with its number and skipped (the rest still
 * apply), command mode takes none, and what W writes reads back as the same settings; the man
 * page's SETTINGS FILE names every option the table marks as a setting. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "columns.h"
#include "delaykind.h"
#include "options.h"
#include "rcfile.h"
#include "tap.h"

static char warned[1024];
static int nwarned;

static void warn(void *arg, int line, const char *why)
{
	size_t len = strlen(warned);

	(void)arg;
	nwarned++;
	snprintf(warned + len, sizeof(warned) - len, "%d: %s|", line, why);
}

/* The options from text and "delaytop" followed by the NULL-terminated arguments, as main makes
 * them; *keep as rcfile_apply leaves it. */
static int settle(struct options *o, struct rcfile_args *keep, const char *text, ...)
{
	static char *argv[16];
	char err[512];
	int argc = 0, rc;
	va_list ap;
	char *a;

	argv[argc++] = "delaytop";
	va_start(ap, text);
	while ((a = va_arg(ap, char *)) != NULL && argc < 15)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	warned[0] = '\0';
	nwarned = 0;
	rc = options_parse(argc, argv, o, err, sizeof(err));
	if (rc != OPTIONS_OK)
		return rc;
	rcfile_apply(text, argc, argv, o, keep, warn, NULL);
	return rc;
}

static void done(struct options *o, struct rcfile_args *keep)
{
	options_free(o);
	rcfile_free_args(keep);
}

static void test_apply(void)
{
	struct options o;
	struct rcfile_args keep;

	settle(&o, &keep, "# mine\ndelay = 0.5\nsort=pid\r\nreverse=yes\nactive=no\ncolumns=io,pid\ngroup=thread\n",
	       "-b", (char *)NULL);
	ok(o.delay_s == 0.5 && o.sort_col == COL_ID && o.reverse && !o.active && o.threads && !o.cgroups &&
		   o.nchosen == 2 && o.chosen[0] == COL_KIND + DK_IO && o.chosen[1] == COL_ID && nwarned == 0,
	   "every setting applies: delay, sort, reverse, active, columns, group (a CRLF line too)");
	done(&o, &keep);

	settle(&o, &keep, "sort=pid\ndelay=0.5\ngroup=thread\n", "-s", "io", "-d", "2", "--group=process", (char *)NULL);
	ok(o.sort_col == COL_KIND + DK_IO && o.delay_s == 2 && !o.threads && nwarned == 0,
	   "the command line wins: -s io, -d 2 and --group=process over the file's");
	done(&o, &keep);

	settle(&o, &keep, "sort=pid\ncolour=blue\ndelay=abc\nno equals sign\nreverse=maybe\ncolumns=io,io\nactive=yes\n",
	       (char *)NULL);
	ok(o.sort_col == COL_ID && o.active && nwarned == 5, "the lines that can be used apply, the 5 others do not");
	ok(strstr(warned, "2: unknown setting 'colour'|") && strstr(warned, "3: invalid delay 'abc'") &&
		   strstr(warned, "4: 'no equals sign' is not name=value|") &&
		   strstr(warned, "5: reverse must be yes or no, not 'maybe'|") &&
		   strstr(warned, "6: column 'io' is listed twice in 'io,io'|"),
	   "each is reported with its line number and why");
	if (nwarned != 5)
		printf("#   %s\n", warned);
	done(&o, &keep);

	settle(&o, &keep, "group=cgroup\nsort=pid\n", "-p", "1", (char *)NULL);
	ok(!o.cgroups && o.npids == 1 && o.sort_col == COL_ID && nwarned == 1 && strstr(warned, "1: --group=cgroup"),
	   "a setting the command line contradicts (group=cgroup with -p) is left out and reported");
	done(&o, &keep);

	settle(&o, &keep, "sort=pid\ndelay=0.5\n", "--", "true", (char *)NULL);
	ok(o.command && o.sort_col == COL_TOTAL && nwarned == 0, "command mode takes no settings, and says nothing");
	done(&o, &keep);

	settle(&o, &keep, "sort=pid\x1b[31m\n", (char *)NULL);
	ok(nwarned == 1 && !strchr(warned, '\x1b'), "a bad value is shown without its control characters");
	done(&o, &keep);

	settle(&o, &keep, "sort=pid\nreverse=yes\nsort=io\nreverse=no\n", (char *)NULL);
	ok(o.sort_col == COL_KIND + DK_IO && !o.reverse && nwarned == 0,
	   "a later line of a setting wins: sort=io after sort=pid, reverse=no after reverse=yes");
	done(&o, &keep);
	{
		/* each setting is tried once, whatever the length of the file */
		size_t n = 20000, len = strlen("sort=pid\n");
		char *big = malloc(n * len + 1);

		for (size_t i = 0; i < n; i++)
			memcpy(big + i * len, "sort=pid\n", len);
		big[n * len] = '\0';
		settle(&o, &keep, big, (char *)NULL);
		ok(o.sort_col == COL_ID && nwarned == 0 && keep.n == 1 && !strcmp(keep.opts[0], "--sort=pid"),
		   "20,000 lines of sort=pid: one option kept");
		done(&o, &keep);
		free(big);
	}

	settle(&o, &keep, NULL, "-s", "io", (char *)NULL);
	ok(o.sort_col == COL_KIND + DK_IO && keep.n == 0 && !keep.words && nwarned == 0,
	   "no file: the command line alone");
	done(&o, &keep);
}

static void test_round_trip(void)
{
	static const int chosen[] = { COL_KIND + DK_CPU, COL_TOTAL, COL_COMMAND };
	struct rcfile_values v = { .delay_s = 0.25, .sort_col = COL_KIND + DK_SWAPIN, .reverse = 1, .threads = 0,
				   .cgroups = 1, .active = 1, .why = 1, .chosen = chosen, .nchosen = 3 };
	struct options o;
	struct rcfile_args keep;
	char *text = rcfile_format(&v);

	settle(&o, &keep, text, (char *)NULL);
	ok(o.delay_s == 0.25 && o.sort_col == COL_KIND + DK_SWAPIN && o.reverse && o.cgroups && o.active &&
		   o.why && o.nchosen == 3 && o.chosen[2] == COL_COMMAND && nwarned == 0,
	   "what W writes reads back as the same settings (why=yes too)");
	if (nwarned)
		printf("#   %s\n#   %s\n", warned, text);
	done(&o, &keep);
	free(text);
	v.nchosen = 0;
	text = rcfile_format(&v);
	ok(!strstr(text, "columns="), "without --columns the file names no columns");
	free(text);
	v.cgroups = 0;
	v.commands = 1;
	v.tree = 1;
	v.why = 0;
	text = rcfile_format(&v);
	settle(&o, &keep, text, (char *)NULL);
	ok(strstr(text, "group=command\n") && o.commands && !o.cgroups && !o.threads && !o.tree && nwarned == 0,
	   "the command view reads back as group=command, and the tree, which it has not, is not written");
	ok(strstr(text, "why=no\n") && !o.why, "--why off is written why=no and reads back off");
	done(&o, &keep);
	free(text);
}

/* A NUL byte in the file: its line is reported and skipped, and the lines after it still apply. */
static void test_nul_byte(void)
{
	static const char file[] = "sort=pid\nde\0lay=0.5\nreverse=yes\n";
	char path[] = "/tmp/test_rcfile.XXXXXX", err[512], *text;
	struct options o;
	struct rcfile_args keep;
	int fd = mkstemp(path);

	ok(fd >= 0 && write(fd, file, sizeof(file) - 1) == (ssize_t)sizeof(file) - 1, "a settings file with a NUL byte is written");
	if (fd >= 0)
		close(fd);
	text = rcfile_read(path, err, sizeof(err));
	unlink(path);
	ok(text != NULL, "it is read (%s)", text ? "" : err);
	if (!text)
		return;
	settle(&o, &keep, text, (char *)NULL);
	ok(o.sort_col == COL_ID && o.reverse && o.delay_s != 0.5 && nwarned == 1 && strstr(warned, "2: ") &&
		   strstr(warned, "NUL"),
	   "line 2 is reported for its NUL byte and skipped; lines 1 and 3 apply");
	if (nwarned != 1)
		printf("#   %s\n", warned);
	done(&o, &keep);
	free(text);
}

/* The man page's SETTINGS FILE section, troff's \- as -, or NULL. */
static char *settings_section(void)
{
	const char *top = getenv("top_builddir");
	char path[4096], line[1024];
	static char text[65536];
	size_t len = 0;
	int in = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/man/delaytop.8", top ? top : ".");
	f = fopen(path, "r");
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, ".SH ", 4) == 0)
			in = strncmp(line, ".SH SETTINGS FILE", 17) == 0;
		for (char *p = line; in && *p && len + 1 < sizeof(text); p++)
			if (!(p[0] == '\\' && p[1] == '-'))
				text[len++] = *p;
	}
	fclose(f);
	text[len] = '\0';
	return len ? text : NULL;
}

/* Whether the section names the setting as a word of its own. */
static int names(const char *section, const char *name)
{
	size_t n = strlen(name);

	for (const char *at = section; at && (at = strstr(at, name)) != NULL; at += n) {
		int before = at == section || !(at[-1] == '-' || (at[-1] >= 'a' && at[-1] <= 'z'));
		int after = !(at[n] == '-' || (at[n] >= 'a' && at[n] <= 'z'));

		if (before && after)
			return 1;
	}
	return 0;
}

static void test_documented(void)
{
	const char *section = settings_section();

	ok(section != NULL, "the man page has a SETTINGS FILE section");
	for (int id = 0; id < OPT_COUNT; id++) {
		const struct option_def *def = option_def((enum option_id)id);

		if (def->setting)
			ok(section && names(section, def->name), "the man page's SETTINGS FILE names the setting %s",
			   def->name);
	}
}

int main(void)
{
	test_documented();
	test_apply();
	test_round_trip();
	test_nul_byte();
	return tap_done();
}
