/* rcfile.c — the settings file (see rcfile.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "columns.h"
#include "format.h"
#include "i18n.h"
#include "optvalue.h"
#include "rcfile.h"
#include "secure.h"
#include "users.h"
#include "xalloc.h"

/* The largest file read: a few lines are expected. */
#define RCFILE_MAX (64 * 1024)

/* The settings in the order of the files W wrote before the option table: W keeps it, and a
 * setting added since comes after these, in the table's order. */
static const enum option_id first_settings[] = {
	OPT_DELAY, OPT_SORT, OPT_REVERSE, OPT_GROUP, OPT_ACTIVE, OPT_COLUMNS, OPT_TREE, OPT_TREE_SUMS,
};
#define NFIRST (sizeof(first_settings) / sizeof(first_settings[0]))

/* The options the file may set, in the file's order, into ids[OPT_COUNT]; returns how many. */
static int setting_order(int *ids)
{
	int n = 0;

	for (size_t i = 0; i < NFIRST; i++)
		ids[n++] = first_settings[i];
	for (int id = 0; id < OPT_COUNT; id++) {
		size_t i = 0;

		while (i < NFIRST && first_settings[i] != (enum option_id)id)
			i++;
		if (option_def((enum option_id)id)->setting && i == NFIRST)
			ids[n++] = id;
	}
	return n;
}

int rcfile_path(char *buf, size_t size)
{
	const char *xdg = secure_env("XDG_CONFIG_HOME"), *home = secure_env("HOME");
	char pwdir[4096];
	int len;

	if (xdg && xdg[0] == '/') {
		len = snprintf(buf, size, "%s/delaytop/delaytoprc", xdg);
		return len > 0 && (size_t)len < size ? 0 : -1;
	}
	if (!home || home[0] != '/') {
		/* getpwuid_r: the screen's W runs this beside its reading thread's lookups (users.h) */
		if (users_lookup((uint32_t)getuid(), NULL, 0, pwdir, sizeof(pwdir)) < 0 || pwdir[0] != '/')
			return -1;
		home = pwdir;
	}
	len = snprintf(buf, size, "%s/.config/delaytop/delaytoprc", home);
	return len > 0 && (size_t)len < size ? 0 : -1;
}

/* Whether the user may trust what a file of owner uid says: the real user's, or root's. */
static int trusted_owner(uid_t uid)
{
	return uid == getuid() || uid == 0;
}

/* Every directory on the way to path, and path itself, that is a symlink: the real user's or
 * root's. Returns 0, -ENOENT when something on the way is missing, or -EPERM. */
static int check_links(const char *path)
{
	char prefix[4096];
	size_t len = strlen(path);

	if (len >= sizeof(prefix))
		return -ENAMETOOLONG;
	for (size_t i = 1; i <= len; i++) {
		struct stat st;

		if (path[i] != '/' && path[i] != '\0')
			continue;
		memcpy(prefix, path, i);
		prefix[i] = '\0';
		if (lstat(prefix, &st) < 0)
			return -errno;
		if (S_ISLNK(st.st_mode) && !trusted_owner(st.st_uid))
			return -EPERM;
	}
	return 0;
}

char *rcfile_read(const char *path, char *err, size_t errlen)
{
	struct stat st;
	char *text, where[256];
	ssize_t got;
	int fd, rc = check_links(path);

	err[0] = '\0';
	text_clean(where, sizeof(where), path);
	if (rc == -ENOENT || rc == -ENOTDIR)
		return NULL;
	if (rc == -EPERM) {
		snprintf(err, errlen, F_(N_("%s: not read: a symlink on the way belongs to another user")), where);
		return NULL;
	}
	fd = rc < 0 ? rc : open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		rc = rc < 0 ? rc : -errno;
		if (rc != -ENOENT)
			snprintf(err, errlen, "%s: %s", where, strerror(-rc));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !trusted_owner(st.st_uid) || st.st_size > RCFILE_MAX) {
		snprintf(err, errlen, F_(N_("%s: not read: not a regular file of yours of at most %d bytes")), where,
			 RCFILE_MAX);
		close(fd);
		return NULL;
	}
	text = xmalloc((size_t)st.st_size + 1);
	got = read(fd, text, (size_t)st.st_size);
	rc = got < 0 ? -errno : 0;
	close(fd);
	if (got < 0) {
		snprintf(err, errlen, "%s: %s", where, strerror(-rc));
		free(text);
		return NULL;
	}
	text[got] = '\0';
	/* A NUL would end the text there: its line is refused as holding a control character. */
	for (ssize_t i = 0; i < got; i++)
		if (!text[i])
			text[i] = '\x01';
	return text;
}

/* Whitespace off both ends of s, in place. */
static char *trim(char *s)
{
	char *end = s + strlen(s);

	while (*s == ' ' || *s == '\t')
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

/* A line's setting: its option (one the table marks a setting) and, in *opt, the option as the
 * command line would give it ("--sort=io", "--reverse"; NULL for a flag set to no). Returns -1 for
 * a line that sets nothing (empty, a comment) and -2, with a message in why, for one that cannot
 * be used. */
static int line_setting(char *line, char **opt, char *why, size_t whylen)
{
	char *eq, *name, *value, buf[SHOWN_SIZE];
	int i;

	*opt = NULL;
	for (const char *c = line; *c; c++)
		if (((unsigned char)*c < 0x20 && *c != '\t' && *c != '\r') || *c == 0x7f) {
			snprintf(why, whylen, "%s", _("the line holds a NUL byte or another control character"));
			return -2;
		}
	line[strcspn(line, "#")] = '\0';
	line = trim(line);
	if (!*line)
		return -1;
	eq = strchr(line, '=');
	if (!eq) {
		snprintf(why, whylen, F_(N_("'%s' is not name=value")), text_shown(line, buf));
		return -2;
	}
	*eq = '\0';
	name = trim(line);
	value = trim(eq + 1);
	i = option_find(name);
	if (i >= 0 && option_def((enum option_id)i)->setting) {
		if (option_def((enum option_id)i)->type != OPTT_FLAG) {
			*opt = xmalloc(strlen(name) + strlen(value) + 4);
			sprintf(*opt, "--%s=%s", name, value);
		} else if (strcmp(value, "yes") == 0) {
			*opt = xmalloc(strlen(name) + 3);
			sprintf(*opt, "--%s", name);
		} else if (strcmp(value, "no") != 0) {
			snprintf(why, whylen, F_(N_("%s must be yes or no, not '%s'")), name, text_shown(value, buf));
			return -2;
		}
		return i;
	}
	snprintf(why, whylen, F_(N_("unknown setting '%s'")), text_shown(name, buf));
	return -2;
}

/* argv[0], then the n options, then the rest of argv: a new array (the strings are shared). */
static char **joined(int argc, char **argv, char **opts, int n)
{
	char **out = xcalloc((size_t)(argc + n + 1), sizeof(*out));

	out[0] = argv[0];
	memcpy(out + 1, opts, (size_t)n * sizeof(*opts));
	memcpy(out + 1 + n, argv + 1, (size_t)(argc - 1) * sizeof(*argv));
	return out;
}

/* Whether the command line parses after the options kept and opt; else the message in err. */
static int parses_with(int argc, char **argv, char **kept, int nkept, char *opt, char *err, size_t errlen)
{
	struct options trial;
	char **words;
	int rc;

	kept[nkept] = opt;
	words = joined(argc, argv, kept, nkept + 1);
	rc = options_parse(argc + nkept + 1, words, &trial, err, errlen);
	options_free(&trial);
	free(words);
	return rc == OPTIONS_OK;
}

/* The last line of each setting in the file (a later line wins, as a later option does), its
 * number 0 when none; lines that cannot be used go to warn. */
struct pending {
	int line;
	char *opt;
};

static void collect(const char *text, struct pending *last, rcfile_warn_fn *warn, void *arg)
{
	char *copy = xstrdup(text), *line, *next, *opt, why[512];
	int lineno = 0;

	for (line = copy; line; line = next) {
		int i;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		i = line_setting(line, &opt, why, sizeof(why));
		if (i == -2)
			warn(arg, lineno, why);
		if (i < 0)
			continue;
		free(last[i].opt);
		last[i].line = lineno;
		last[i].opt = opt;
	}
	free(copy);
}

void rcfile_apply(const char *text, int argc, char **argv, struct options *o, struct rcfile_args *keep,
		  rcfile_warn_fn *warn, void *arg)
{
	struct pending last[OPT_COUNT] = { { 0, NULL } };
	char **kept, why[512];
	int nkept = 0;

	memset(keep, 0, sizeof(*keep));
	if (!text || o->command)
		return;
	collect(text, last, warn, arg);
	kept = xcalloc(OPT_COUNT + 1, sizeof(*kept)); /* room for one being tried */
	for (;;) { /* in the file's order */
		struct pending *p = NULL;

		for (size_t i = 0; i < OPT_COUNT; i++)
			if (last[i].line > 0 && (!p || last[i].line < p->line))
				p = &last[i];
		if (!p)
			break;
		p->line = -p->line;
		if (!p->opt) /* a flag set to no */
			continue;
		if (parses_with(argc, argv, kept, nkept, p->opt, why, sizeof(why))) {
			kept[nkept++] = p->opt;
		} else {
			warn(arg, -p->line, why);
			free(p->opt);
		}
		p->opt = NULL;
	}
	keep->opts = kept;
	keep->n = nkept;
	if (nkept) {
		keep->words = joined(argc, argv, kept, nkept);
		options_free(o);
		/* accepted above with these very options, so it parses again */
		options_parse(argc + nkept, keep->words, o, why, sizeof(why));
	}
}

void rcfile_free_args(struct rcfile_args *keep)
{
	for (int i = 0; i < keep->n; i++)
		free(keep->opts[i]);
	free(keep->opts);
	free(keep->words);
	memset(keep, 0, sizeof(*keep));
}

/* The file's first lines: what it is, the names of the settings (ids, n of them) wrapped at 81
 * columns. */
static void format_header(struct outbuf *out, const int *ids, int n)
{
	const char *intro = "# values of its long options (";
	int col = (int)strlen(intro);

	out_str(out, "# delaytop's settings, written by its W key: one name=value a line, the names and\n");
	out_str(out, intro);
	for (int i = 0; i < n; i++) {
		const char *name = option_def((enum option_id)ids[i])->name;
		int w = (int)strlen(name) + 1; /* and the ',' or ')' after it */

		if (i && col + 1 + w > 81) {
			out_char(out, '\n');
			out_char(out, '#');
			col = 1;
		}
		if (i) {
			out_char(out, ' ');
			col++;
		}
		out_printf(out, "%s%c", name, i + 1 < n ? ',' : ')');
		col += w;
	}
	out_str(out, ". Options\n# on the command line win over these.\n");
}

/* One setting's line, unless it does not apply to *o or has nothing to write. */
static void format_setting(struct outbuf *out, enum option_id id, const struct options *o)
{
	const struct option_def *d = option_def(id);
	size_t len = out->len;

	if (d->applies && !d->applies(o))
		return;
	out_printf(out, "%s=", d->name);
	if (optvalue_format(d, o, out) < 0)
		out->len = len;
	else
		out_char(out, '\n');
}

/* Whether option d takes a list. */
static int is_list(const struct option_def *d)
{
	return d->type == OPTT_COLUMNS || d->type == OPTT_PIDS || d->type == OPTT_TRIGGER;
}

char *rcfile_text(const struct options *o)
{
	struct outbuf out = { 0 };
	int ids[OPT_COUNT], n = setting_order(ids);

	format_header(&out, ids, n);
	for (int list = 0; list < 2; list++) /* a list, long, comes after the others */
		for (int i = 0; i < n; i++)
			if (is_list(option_def((enum option_id)ids[i])) == list)
				format_setting(&out, (enum option_id)ids[i], o);
	out_char(&out, '\0');
	return out.data;
}

char *rcfile_format(const struct rcfile_values *v)
{
	struct options o;
	int n = v->nchosen < COL_COUNT ? v->nchosen : COL_COUNT;

	options_defaults(&o);
	o.delay_s = v->delay_s;
	o.sort_col = v->sort_col;
	o.reverse = v->reverse;
	o.threads = v->threads;
	o.cgroups = v->cgroups;
	o.commands = v->commands;
	o.active = v->active;
	o.hide_exited = v->hide_exited;
	o.tree = v->tree;
	o.tree_sums = v->tree_sums;
	o.why = v->why;
	o.nchosen = v->chosen ? n : 0;
	if (o.nchosen)
		memcpy(o.chosen, v->chosen, (size_t)n * sizeof(*o.chosen));
	return rcfile_text(&o);
}

/* Makes the directories of path that are missing, private to the user. */
static int make_dirs(const char *path)
{
	char dir[4096];
	size_t len = strlen(path);

	if (len >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, len + 1);
	for (char *p = dir + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		if (mkdir(dir, 0700) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return 0;
}

int rcfile_write(const char *path, const char *text, char *err, size_t errlen)
{
	char tmp[4096 + 16];
	size_t len = strlen(text);
	int fd, rc = make_dirs(path);

	if (rc == 0 && (size_t)snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= sizeof(tmp))
		rc = -ENAMETOOLONG;
	fd = rc < 0 ? -1 : mkstemp(tmp);
	if (rc == 0 && fd < 0)
		rc = -errno;
	if (fd >= 0) {
		errno = 0;
		if (write(fd, text, len) != (ssize_t)len)
			rc = errno ? -errno : -EIO;
		else if (fsync(fd) < 0)
			rc = -errno;
		if (close(fd) < 0 && rc == 0)
			rc = -errno;
		if (rc == 0 && rename(tmp, path) < 0)
			rc = -errno;
		if (rc < 0)
			unlink(tmp);
	}
	if (rc < 0) {
		char where[256];

		text_clean(where, sizeof(where), path);
		snprintf(err, errlen, F_(N_("cannot write the settings to %s: %s")), where, strerror(-rc));
	}
	return rc < 0 ? -1 : 0;
}
