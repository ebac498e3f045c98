/* test_optable.c — the option table itself: every entry is filled, names and letters are
 * unique, what an option implies exists, each message reads the arguments its type gives it;
 * each number's default parses back to itself and its bounds are taken while one past them is
 * refused with a message naming the value; each choice is taken and a word that is not one is
 * refused; and every setting round-trips through the file's writer and reader. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "i18n.h"
#include "options.h"
#include "optvalue.h"
#include "order.h"
#include "rcfile.h"
#include "tap.h"

#define FIELD(type, o, at) ((type *)(void *)((char *)(o) + (at)))

static char err[512];

/* The number option d holds in *o. */
static double number(const struct option_def *d, const struct options *o)
{
	switch (d->type) {
	case OPTT_COUNT:
	case OPTT_PERIOD: return (double)*FIELD(long, o, d->at);
	case OPTT_SECONDS: return *FIELD(double, o, d->at);
	default: return *FIELD(int, o, d->at);
	}
}

/* Whether d takes s: 1 when so (and *o holds it), 0 when refused with a message naming s. */
static int takes(const struct option_def *d, const char *s, struct options *o)
{
	char shown[SHOWN_SIZE];
	int rc;

	options_defaults(o);
	strcpy(err, "(no message)");
	rc = optvalue_take(d, s, o, err, sizeof(err));
	if (rc < 0 && !strstr(err, text_shown(s, shown)))
		printf("#   --%s=%s: refused without naming it: %s\n", d->name, s, err);
	return rc == 0 ? 1 : strstr(err, text_shown(s, shown)) ? 0 : -1;
}

static void test_entries(void)
{
	int bad = 0;

	for (int id = 0; id < OPT_COUNT; id++) {
		const struct option_def *d = option_def((enum option_id)id);

		if (!d->name || !d->help || (d->arg == NULL) != (d->type == OPTT_FLAG || d->type == OPTT_ACTION)) {
			printf("#   entry %d: no name, no help, or a value name its type does not take\n", id);
			bad++;
			continue;
		}
		for (int j = 0; j < id; j++) {
			const struct option_def *e = option_def((enum option_id)j);

			if (strcmp(e->name, d->name) == 0 || (d->letter && e->letter == d->letter)) {
				printf("#   --%s and --%s share a name or a letter\n", e->name, d->name);
				bad++;
			}
		}
		if (option_find(d->name) != id || (d->implies && option_find(d->implies) < 0) ||
		    (d->setting && d->type != OPTT_FLAG && d->type != OPTT_SECONDS && d->type != OPTT_CHOICE &&
		     d->type != OPTT_COLUMN && d->type != OPTT_COLUMNS)) {
			printf("#   --%s: not found by its name, implies an unknown option, or a setting the "
			       "file cannot write\n", d->name);
			bad++;
		}
	}
	ok(bad == 0, "each of the %d entries has a name, help and value name as its type says; names and letters "
	   "are unique; implied options exist; settings are of types the file writes", OPT_COUNT);
}

/* The refusals read what their type gives them: the value, then the numbers of say[] or the
 * column names; a bound's message the value and the bound. */
static void test_messages(void)
{
	int bad = 0;

	for (int id = 0; id < OPT_COUNT; id++) {
		const struct option_def *d = option_def((enum option_id)id);
		int column = d->type == OPTT_COLUMN || d->type == OPTT_COLUMNS;
		int number = d->type == OPTT_COUNT || d->type == OPTT_SECONDS || d->type == OPTT_SIZE ||
			     d->type == OPTT_CHOICE || d->type == OPTT_PERIOD;

		if ((column || number) && !d->bad) {
			printf("#   --%s has no message for a bad value\n", d->name);
			bad++;
		} else if (column && !i18n_same_args(d->bad, "%s%s")) {
			printf("#   --%s's message does not read the value and the names: %s\n", d->name, d->bad);
			bad++;
		} else if (number && !i18n_same_args(d->bad, "%s") && !i18n_same_args(d->bad, "%s%d") &&
			   !i18n_same_args(d->bad, "%s%g%g")) {
			printf("#   --%s's message reads other arguments: %s\n", d->name, d->bad);
			bad++;
		}
		if ((d->below && !i18n_same_args(d->below, "%s%g")) ||
		    (d->above && !i18n_same_args(d->above, "%s%g"))) {
			printf("#   --%s's bound messages do not read the value and the bound\n", d->name);
			bad++;
		}
	}
	ok(bad == 0, "every refusal reads the arguments its type gives it");
}

/* A number as text, to the precision that brings it back. */
static void as_text(char *buf, size_t size, const struct option_def *d, double v)
{
	if (d->type == OPTT_SECONDS)
		snprintf(buf, size, "%.17g", v);
	else
		snprintf(buf, size, "%.0f", v);
}

static void test_numbers(void)
{
	struct options o;

	for (int id = 0; id < OPT_COUNT; id++) {
		const struct option_def *d = option_def((enum option_id)id);
		double step = d->type == OPTT_SECONDS ? 0.001 : 1;
		char lo[64], hi[64], below[64], above[64], def[64];

		if (d->type != OPTT_COUNT && d->type != OPTT_SECONDS && d->type != OPTT_SIZE)
			continue;
		options_defaults(&o);
		ok(number(d, &o) == d->def, "options_defaults gives --%s the table's default %g", d->name, d->def);
		if (d->def >= d->min && d->def <= d->max) {
			as_text(def, sizeof(def), d, d->def);
			ok(takes(d, def, &o) == 1 && number(d, &o) == d->def,
			   "--%s's default %s parses back to itself", d->name, def);
		} else {
			ok(d->def == 0, "--%s's default 0 is 'not given', outside its bounds", d->name);
		}
		as_text(lo, sizeof(lo), d, d->min);
		as_text(hi, sizeof(hi), d, d->max);
		as_text(below, sizeof(below), d, d->min - step);
		snprintf(above, sizeof(above), d->type == OPTT_SECONDS ? "%.3f" : "%.0f", d->max + step);
		if (d->type == OPTT_COUNT && d->max >= (double)LONG_MAX) { /* the largest long, and one more */
			snprintf(hi, sizeof(hi), "%ld", LONG_MAX);
			snprintf(above, sizeof(above), "%lu", (unsigned long)LONG_MAX + 1);
		}
		ok(takes(d, lo, &o) == 1 && takes(d, hi, &o) == 1, "--%s takes its bounds %s and %s", d->name, lo,
		   hi);
		ok(takes(d, below, &o) == 0 && takes(d, above, &o) == 0,
		   "--%s refuses %s and %s, one past them, naming each", d->name, below, above);
		ok(takes(d, "x1", &o) == 0 && takes(d, "", &o) == 0, "--%s refuses x1 and an empty value",
		   d->name);
	}
}

static void test_choices(void)
{
	struct options o;

	for (int id = 0; id < OPT_COUNT; id++) {
		const struct option_def *d = option_def((enum option_id)id);
		int all = 1, n = 0;

		if (d->type == OPTT_CHOICE || d->type == OPTT_PERIOD) {
			for (; n < OPTION_CHOICES_MAX && d->choices[n]; n++)
				all &= takes(d, d->choices[n], &o) == 1 &&
				       (d->get ? d->get(&o) : number(d, &o)) == n + (d->type == OPTT_PERIOD);
			ok(n > 0 && all && takes(d, "nosuch", &o) == 0,
			   "--%s takes each of its %d choices as its index and refuses nosuch", d->name, n);
		} else if (d->type == OPTT_COLUMN) {
			char def[64];

			snprintf(def, sizeof(def), "%s", column_def((int)d->def).key);
			ok(takes(d, def, &o) == 1 && number(d, &o) == d->def && takes(d, "nosuch", &o) == 0,
			   "--%s's default %s parses back to itself; nosuch is refused", d->name, def);
		}
	}
}

static int nwarned;

static void warn(void *arg, int line, const char *why)
{
	(void)arg;
	printf("#   line %d: %s\n", line, why);
	nwarned++;
}

/* Each setting, given a value other than its default, written by W and read back. */
static void test_settings(void)
{
	static const char *const values[OPTT_TIME + 1] = {
		[OPTT_FLAG] = "yes", [OPTT_SECONDS] = "2.5", [OPTT_COLUMN] = "pid", [OPTT_COLUMNS] = "io,pid",
	};
	char *argv[] = { "delaytop", NULL };
	int nsettings = 0;

	for (int id = 0; id < OPT_COUNT; id++) {
		const struct option_def *d = option_def((enum option_id)id);
		struct options o, back;
		struct rcfile_args keep;
		const char *v;
		char line[128], *text;
		int same;

		if (!d->setting)
			continue;
		nsettings++;
		v = d->type == OPTT_CHOICE ? d->choices[1] : values[d->type];
		options_defaults(&o);
		if (d->type != OPTT_FLAG)
			takes(d, v, &o);
		else
			optvalue_take(d, NULL, &o, err, sizeof(err));
		text = rcfile_text(&o);
		snprintf(line, sizeof(line), "\n%s=%s\n", d->name, v);
		options_defaults(&back);
		nwarned = 0;
		rcfile_apply(text, 1, argv, &back, &keep, warn, NULL);
		if (d->type == OPTT_COLUMNS)
			same = back.nchosen == o.nchosen && !memcmp(back.chosen, o.chosen, sizeof(o.chosen));
		else if (d->type == OPTT_CHOICE)
			same = d->get(&back) == d->get(&o);
		else
			same = number(d, &back) == number(d, &o);
		ok(strstr(text, line) && same && !nwarned && strstr(text, d->name) < strstr(text, "Options"),
		   "setting %s: W writes %s=%s, named in the header, and it reads back", d->name, d->name, v);
		if (!strstr(text, line))
			printf("#   %s", text);
		free(text);
		rcfile_free_args(&keep);
		options_free(&back);
		options_free(&o);
	}
	ok(nsettings >= 8, "the table marks %d settings", nsettings);
}

int main(void)
{
	test_entries();
	test_messages();
	test_numbers();
	test_choices();
	test_settings();
	return tap_done();
}
