/* optvalue.c — the values options take, by their type in the option table: read, checked,
 * refused with a message that names the value, stored, and written back for the settings file. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cgpath.h"
#include "columns.h"
#include "format.h"
#include "i18n.h"
#include "options.h"
#include "optvalue.h"
#include "order.h"
#include "timeparse.h"
#include "trigger.h"
#include "xalloc.h"

int optvalue_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* The field at offset at of *o. */
#define FIELD(type, o, at) ((type *)(void *)((char *)(o) + (at)))
#define CFIELD(type, o, at) ((const type *)(const void *)((const char *)(o) + (at)))

/* Refuses s with the entry's message msg (bad when NULL): msg reads s, then d->say[] as %g, or
 * one of them as %d; a below or above message reads the bound it names. */
static int refuse(const struct option_def *d, const char *msg, double bound, const char *s, char *err,
		  size_t errlen)
{
	char val[SHOWN_SIZE];

	text_shown(s, val);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	if (msg)
		return optvalue_fail(err, errlen, F_(msg), val, bound);
	if (i18n_same_args(d->bad, "%s%d"))
		return optvalue_fail(err, errlen, F_(d->bad), val, (int)d->say[0]);
	return optvalue_fail(err, errlen, F_(d->bad), val, d->say[0], d->say[1]);
#pragma GCC diagnostic pop
}

/* Refuses the column name s with the entry's message, which reads it and the names there are. */
static int refuse_column(const struct option_def *d, const char *s, char *err, size_t errlen)
{
	char val[SHOWN_SIZE];

	text_shown(s, val);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	return optvalue_fail(err, errlen, F_(d->bad), val, order_keys());
#pragma GCC diagnostic pop
}

/* Whether strto*() read s up to end from plain decimal digits (and points): they would also take
 * leading spaces, a sign, hex and exponents. */
static int plain_number(const char *s, const char *end, int point_ok)
{
	return end > s && (size_t)(end - s) == strspn(s, point_ok ? "0123456789." : "0123456789");
}

/* A COUNT, SECONDS or SIZE value: plain digits (a point but for a count, K, M or G after a
 * size), within the entry's bounds. */
static int parse_number(const struct option_def *d, const char *s, double *out, char *err, size_t errlen)
{
	static const char units[] = "KkMmGg";
	char *end;
	double v;

	errno = 0;
	if (d->type == OPTT_COUNT) {
		long n = strtol(s, &end, 10);

		if (!plain_number(s, end, 0) || *end || errno || n < d->min || n > d->max)
			return refuse(d, NULL, 0, s, err, errlen);
		*out = (double)n;
		return 0;
	}
	v = strtod(s, &end);
	if (!plain_number(s, end, 1))
		end = (char *)s; /* refused below */
	if (d->type == OPTT_SIZE && end != s && *end && strchr(units, *end)) { /* K, M, G: 1024 to the 1, 2, 3 */
		v *= pow(1024, (double)((strchr(units, *end) - units) / 2 + 1));
		end++;
	}
	if (end == s || *end || errno || !isfinite(v))
		return refuse(d, NULL, 0, s, err, errlen);
	if (v < d->min)
		return refuse(d, d->below, d->min, s, err, errlen);
	if (v > d->max)
		return refuse(d, d->above, d->max, s, err, errlen);
	*out = v;
	return 0;
}

/* A CHOICE: the index of s among the choices; a PERIOD: that + 1, or ROTATE_SECONDS + seconds. */
static int parse_choice(const struct option_def *d, const char *s, double *out, char *err, size_t errlen)
{
	char *end;
	long v;

	for (int i = 0; i < OPTION_CHOICES_MAX && d->choices[i]; i++)
		if (strcmp(s, d->choices[i]) == 0) {
			*out = d->type == OPTT_PERIOD ? i + 1 : i;
			return 0;
		}
	errno = 0;
	v = strtol(s, &end, 10);
	if (d->type == OPTT_PERIOD && plain_number(s, end, 0) && !*end && !errno && v >= d->min && v <= d->max) {
		*out = (double)(ROTATE_SECONDS + v);
		return 0;
	}
	return refuse(d, NULL, 0, s, err, errlen);
}

/* A COLUMN: a column's name. */
static int parse_column(const struct option_def *d, const char *s, double *out, char *err, size_t errlen)
{
	int col = order_find(s);

	if (col >= 0) {
		*out = col;
		return 0;
	}
	return refuse_column(d, s, err, errlen);
}

/* COLUMNS: column names separated by commas, each once. */
static int parse_columns(const struct option_def *d, const char *s, struct options *o, char *err, size_t errlen)
{
	char val[SHOWN_SIZE], list[SHOWN_SIZE], name[SHOWN_SIZE];
	int *chosen = FIELD(int, o, d->at), *n = FIELD(int, o, d->n_at);
	const char *p = s;

	*n = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		int col;

		if (len == 0)
			return optvalue_fail(err, errlen, F_(N_("empty column name in '%s'")),
					     text_shown(s, list));
		snprintf(name, sizeof(name), "%.*s", (int)(len < 40 ? len : 40), p);
		col = len < 40 ? order_find(name) : -1;
		if (col < 0)
			return refuse_column(d, name, err, errlen);
		for (int i = 0; i < *n; i++)
			if (chosen[i] == col)
				return optvalue_fail(err, errlen, F_(N_("column '%s' is listed twice in '%s'")),
						     text_shown(name, val), text_shown(s, list));
		chosen[(*n)++] = col;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

int optvalue_parse_delay(const char *s, double *out, char *err, size_t errlen)
{
	return parse_number(option_def(OPT_DELAY), s, out, err, errlen);
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

int optvalue_parse_pids(const char *s, uint32_t **pids, size_t *n, char *err, size_t errlen)
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
				return optvalue_fail(err, errlen,
						     F_(N_("invalid pid '%s' in '%s': expected positive numbers")),
						     text_shown(bad, val), text_shown(s, list));
			return optvalue_fail(err, errlen, F_(N_("invalid pid '%s': expected a positive number")),
					     text_shown(bad, val));
		}
		*pids = xgrow(*pids, &cap, *n + 1, sizeof(**pids));
		(*pids)[(*n)++] = pid;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

int optvalue_parse_user(const char *s, uint32_t *uid, char *err, size_t errlen)
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
	return optvalue_fail(err, errlen, F_(N_("unknown user '%s'")), text_shown(s, val));
}

/* A CGROUP: a path below the hierarchy's root; '..' would leave it. */
static int parse_cgroup(const char *s, char *err, size_t errlen)
{
	char val[SHOWN_SIZE];

	if (!s[0])
		return optvalue_fail(err, errlen, "%s", _("an empty cgroup path: give one such as /system.slice"));
	if (cgpath_climbs(s))
		return optvalue_fail(err, errlen, F_(N_("invalid cgroup path '%s': '..' would leave the hierarchy")),
				     text_shown(s, val));
	return 0;
}

/* A UNIT: a unit's name or a pattern of them, of the bytes unit names and patterns have. */
static int parse_unit(const char *s, char *err, size_t errlen)
{
	char val[SHOWN_SIZE];

	if (!s[0])
		return optvalue_fail(err, errlen, "%s", _("an empty unit: give one such as nginx.service"));
	if (s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:-_.\\@*?[]!^")])
		return optvalue_fail(err, errlen,
				     F_(N_("invalid unit '%s': give a unit's name such as nginx.service, or a "
					   "pattern such as 'docker-*'")),
				     text_shown(s, val));
	return 0;
}

/* A TRIGGER, appended to the list. */
static int parse_trigger(const struct option_def *d, const char *s, struct options *o, char *err, size_t errlen)
{
	struct trigger_spec *list = FIELD(struct trigger_spec, o, d->at);
	int *n = FIELD(int, o, d->n_at);

	if (*n == TRIGGER_MAX)
		return optvalue_fail(err, errlen, F_(N_("at most %d --trigger options")), TRIGGER_MAX);
	return trigger_parse(s, &list[(*n)++], err, errlen);
}

/* A TIME, ns since the epoch, relative ones from now. */
static int parse_time(const struct option_def *d, const char *s, int64_t *out, char *err, size_t errlen)
{
	char val[SHOWN_SIZE], why[256], name[32];
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	if (time_parse(s, (int64_t)now.tv_sec * 1000000000 + now.tv_nsec, out, why, sizeof(why)) < 0) {
		snprintf(name, sizeof(name), "--%s", d->name);
		return optvalue_fail(err, errlen, F_(N_("invalid %s '%s': %s")), name, text_shown(s, val), why);
	}
	return 0;
}

void optvalue_store(const struct option_def *d, struct options *o, double v)
{
	switch (d->type) {
	case OPTT_COUNT:
	case OPTT_PERIOD: *FIELD(long, o, d->at) = (long)v; break;
	case OPTT_SECONDS: *FIELD(double, o, d->at) = v; break;
	case OPTT_CHOICE:
		if (d->set) {
			d->set(o, (int)v);
			break;
		}
		/* fall through */
	case OPTT_FLAG:
	case OPTT_SIZE:
	case OPTT_COLUMN: *FIELD(int, o, d->at) = (int)v; break;
	default: break; /* the others are not numbers */
	}
}

/* The value of option d given as s, into *o. */
static int take_value(const struct option_def *d, const char *s, struct options *o, char *err, size_t errlen)
{
	double v = 1; /* a FLAG's */
	int rc = 0;

	switch (d->type) {
	case OPTT_ACTION: return 0; /* --help and --version are the parser's */
	case OPTT_FLAG: break;
	case OPTT_COUNT:
	case OPTT_SECONDS:
	case OPTT_SIZE: rc = parse_number(d, s, &v, err, errlen); break;
	case OPTT_CHOICE:
	case OPTT_PERIOD: rc = parse_choice(d, s, &v, err, errlen); break;
	case OPTT_COLUMN: rc = parse_column(d, s, &v, err, errlen); break;
	case OPTT_COLUMNS: return parse_columns(d, s, o, err, errlen);
	case OPTT_PIDS:
		return optvalue_parse_pids(s, FIELD(uint32_t *, o, d->at), FIELD(size_t, o, d->n_at), err, errlen);
	case OPTT_USER: return optvalue_parse_user(s, FIELD(uint32_t, o, d->at), err, errlen);
	case OPTT_CGROUP:
		if (parse_cgroup(s, err, errlen) < 0)
			return -1;
		/* fall through */
	case OPTT_UNIT:
		if (d->type == OPTT_UNIT && parse_unit(s, err, errlen) < 0)
			return -1;
		/* fall through */
	case OPTT_STRING: *FIELD(const char *, o, d->at) = s; return 0;
	case OPTT_TRIGGER: return parse_trigger(d, s, o, err, errlen);
	case OPTT_TIME: return parse_time(d, s, FIELD(int64_t, o, d->at), err, errlen);
	}
	if (rc == 0)
		optvalue_store(d, o, v);
	return rc;
}

int optvalue_take(const struct option_def *d, const char *s, struct options *o, char *err, size_t errlen)
{
	if (d->implies && optvalue_take(option_def((enum option_id)option_find(d->implies)), d->implies_value, o,
					err, errlen) < 0)
		return -1;
	if (take_value(d, s, o, err, errlen) < 0)
		return -1;
	if (d->given)
		*FIELD(int, o, d->given) = 1;
	return 0;
}

int optvalue_format(const struct option_def *d, const struct options *o, struct outbuf *out)
{
	const int *chosen = CFIELD(int, o, d->at);
	int n;

	switch (d->type) {
	case OPTT_FLAG: out_str(out, *CFIELD(int, o, d->at) ? "yes" : "no"); return 0;
	case OPTT_SECONDS: out_printf(out, "%g", *CFIELD(double, o, d->at)); return 0;
	case OPTT_CHOICE: out_str(out, d->choices[d->get ? d->get(o) : *CFIELD(int, o, d->at)]); return 0;
	case OPTT_COLUMN: out_str(out, column_def(*CFIELD(int, o, d->at)).key); return 0;
	case OPTT_COLUMNS:
		n = *CFIELD(int, o, d->n_at);
		for (int i = 0; i < n; i++)
			out_printf(out, "%s%s", i ? "," : "", column_def(chosen[i]).key);
		return n ? 0 : -1;
	default: return -1; /* not a setting the file holds */
	}
}
