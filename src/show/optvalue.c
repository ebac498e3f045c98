/* optvalue.c — the values options take, each refused with a message that names it. */
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

#include "format.h"
#include "i18n.h"
#include "optvalue.h"
#include "timeparse.h"
#include "xalloc.h"

int optvalue_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Whether strto*() read s up to end from plain decimal digits (and points): they would also take
 * leading spaces, a sign, hex and exponents. */
static int plain_number(const char *s, const char *end, int point_ok)
{
	return end > s && (size_t)(end - s) == strspn(s, point_ok ? "0123456789." : "0123456789");
}

int optvalue_iterations(const char *s, long *out, char *err, size_t errlen)
{
	char val[SHOWN_SIZE], *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!plain_number(s, end, 0) || *end || errno || v < 1)
		return optvalue_fail(err, errlen,
		            F_(N_("invalid number of iterations '%s': expected a whole number of at least 1")),
		            text_shown(s, val));
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
		return optvalue_fail(err, errlen, F_(N_("invalid delay '%s': expected seconds, such as 1 or 0.5")),
		            text_shown(s, val));
	if (v < MIN_DELAY - 1e-9)
		return optvalue_fail(err, errlen, F_(N_("invalid delay '%s': the minimum is %g seconds")), text_shown(s, val),
			    MIN_DELAY);
	if (v > MAX_DELAY)
		return optvalue_fail(err, errlen, F_(N_("invalid delay '%s': the maximum is %g seconds")), text_shown(s, val),
			    MAX_DELAY);
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
	return optvalue_fail(err, errlen, F_(N_("unknown user '%s'")), text_shown(s, val));
}

int optvalue_size(const char *s, int *out, char *err, size_t errlen)
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
	if (end == s || *end || errno || !isfinite(v) || v < MIN_EXIT_BUFFER || v > MAX_EXIT_BUFFER)
		return optvalue_fail(err, errlen, F_(N_("invalid exit buffer size '%s': expected %gK to %gG, such as 16M")),
		            text_shown(s, val), MIN_EXIT_BUFFER / 1024, MAX_EXIT_BUFFER / (1024.0 * 1024 * 1024));
	*out = (int)v;
	return 0;
}

int optvalue_top_commands(const char *s, long *out, char *err, size_t errlen)
{
	char val[SHOWN_SIZE], *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!plain_number(s, end, 0) || *end || errno || v < 0 || v > 100000)
		return optvalue_fail(err, errlen, F_(N_("invalid number of command names '%s': expected 0 to 100000")),
		            text_shown(s, val));
	*out = v;
	return 0;
}

int optvalue_series_expiry(const char *s, double *out, char *err, size_t errlen)
{
	char val[SHOWN_SIZE], *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!plain_number(s, end, 1) || *end || errno || !(v >= 0 && v <= SERIES_EXPIRY_MAX))
		return optvalue_fail(err, errlen, F_(N_("invalid --series-expiry '%s': expected seconds from 0 to %d")),
				     text_shown(s, val), SERIES_EXPIRY_MAX);
	*out = v;
	return 0;
}

int optvalue_rotate(const char *s, long *out, char *err, size_t errlen)
{
	char val[SHOWN_SIZE], *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (strcmp(s, "hour") == 0)
		*out = ROTATE_HOUR;
	else if (strcmp(s, "day") == 0)
		*out = ROTATE_DAY;
	else if (plain_number(s, end, 0) && !*end && !errno && v >= 1 && v <= 86400)
		*out = ROTATE_SECONDS + v;
	else
		return optvalue_fail(err, errlen, F_(N_("invalid --rotate '%s': expected hour, day or seconds from 1 to 86400")),
			    text_shown(s, val));
	return 0;
}

int optvalue_keep(const char *s, unsigned *out, char *err, size_t errlen)
{
	char val[SHOWN_SIZE], *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!plain_number(s, end, 0) || *end || errno || v < 1 || v > 100000)
		return optvalue_fail(err, errlen, F_(N_("invalid --keep '%s': expected a number of files from 1 to 100000")),
			    text_shown(s, val));
	*out = (unsigned)v;
	return 0;
}

int optvalue_capture(const char *s, double *out, char *err, size_t errlen)
{
	char val[SHOWN_SIZE], *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!plain_number(s, end, 1) || *end || errno || !isfinite(v) || v < 1 || v > 3600)
		return optvalue_fail(err, errlen, F_(N_("invalid --capture '%s': expected seconds from 1 to 3600")),
			    text_shown(s, val));
	*out = v;
	return 0;
}

int optvalue_time(const char *s, const char *name, int64_t *out, int *given, char *err, size_t errlen)
{
	char val[SHOWN_SIZE], why[256];
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	if (time_parse(s, (int64_t)now.tv_sec * 1000000000 + now.tv_nsec, out, why, sizeof(why)) < 0)
		return optvalue_fail(err, errlen, F_(N_("invalid %s '%s': %s")), name, text_shown(s, val), why);
	*given = 1;
	return 0;
}

