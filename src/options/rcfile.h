/* rcfile.h — the settings file, $XDG_CONFIG_HOME/delaytop/delaytoprc: where it is, reading it
 * without following another user's symlinks, its lines as command-line options (which the command
 * line overrides), and writing it from the screen's settings.
 *
 * The file has one "name=value" a line, the names those of the long options that the option
 * table (options.c) marks as settings, the values as the command line takes them and yes or no
 * for a flag; '#' starts a comment. */
#ifndef DELAYTOP_RCFILE_H
#define DELAYTOP_RCFILE_H

#include <stddef.h>

#include "options.h"

/* Where the file is: $XDG_CONFIG_HOME/delaytop/delaytoprc, or else under HOME/.config. A secure
 * run (secure.h) trusts neither variable and takes the real user's home from the user database.
 * Returns 0, or -1 when there is no home to look in. */
int rcfile_path(char *buf, size_t size);

/* The file's text, a new string (a NUL byte in it made 0x01, so that its line is refused and the
 * rest read); NULL with err empty when there is no file. NULL with a message
 * when it cannot be used: a symlink on the way (below the home) or the file itself that belongs
 * to another user than the real one and root, a file that is not regular or is another user's. */
char *rcfile_read(const char *path, char *err, size_t errlen);

/* Called for each line that is left out: its number (0: the file as a whole) and why. */
typedef void rcfile_warn_fn(void *arg, int line, const char *why);

/* What options made from the file point into: its settings as options, and the words parsed
 * (argv[0], those options, the rest of argv). */
struct rcfile_args {
	char **opts;
	int n;
	char **words;
};

/* The options after the file's settings and the command line, into *o: the command line alone
 * (which options_parse has accepted) when text is NULL or o->command is set (command mode takes
 * no settings); otherwise each setting that parses and that the command line does not contradict,
 * the command line after them. A line that cannot be used goes to warn and is skipped. The
 * strings *o points to live in *keep (free with rcfile_free_args) and in argv. Pure. */
void rcfile_apply(const char *text, int argc, char **argv, struct options *o, struct rcfile_args *keep,
		  rcfile_warn_fn *warn, void *arg);
void rcfile_free_args(struct rcfile_args *keep);

/* The file's text for the settings in *o, in the order W has always written them (a setting that
 * does not apply to *o left out, a list after the others), a new string. Pure. */
char *rcfile_text(const struct options *o);

/* The settings W writes, held apart from struct options (the screen fills struct options and
 * writes rcfile_text of it; this is for a caller, such as the unit tests, that holds the values
 * alone). */
struct rcfile_values {
	double delay_s;
	int sort_col;
	int reverse;
	int threads, cgroups, commands;
	int active;
	int hide_exited;
	int tree, tree_sums; /* written in the process view only, where they apply */
	int why;             /* --why (the screen's y) */
	const int *chosen; /* --columns, or NULL */
	int nchosen;
};

/* The file's text for these values (rcfile_text of them over the defaults), a new string. Pure. */
char *rcfile_format(const struct rcfile_values *v);

/* Writes text to path through a new file renamed over it, making the directories it needs.
 * Returns 0, or -1 with a message. */
int rcfile_write(const char *path, const char *text, char *err, size_t errlen);

#endif
