/* timeparse.c — times typed by people. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "timeparse.h"

/* The times a recording can hold: from the epoch to before the year 2255 (an int64_t of
 * nanoseconds ends in 2262). A time outside them is refused, never wrapped. */
#define TIME_MAX_S 9e9
#define YEAR_MIN 1970
#define YEAR_MAX 2254

#define DAY_NS (86400 * (int64_t)1000000000)

/* What relative() and absolute() return for a time that parses but cannot be held. */
#define OUT_OF_RANGE (-2)

static const struct {
	const char *name;
	int64_t seconds;
} units[] = {
	{ .name = "s", .seconds = 1 }, { .name = "sec", .seconds = 1 },
	{ .name = "second", .seconds = 1 }, { .name = "seconds", .seconds = 1 },
	{ .name = "m", .seconds = 60 }, { .name = "min", .seconds = 60 },
	{ .name = "minute", .seconds = 60 }, { .name = "minutes", .seconds = 60 },
	{ .name = "h", .seconds = 3600 }, { .name = "hour", .seconds = 3600 },
	{ .name = "hours", .seconds = 3600 },
	{ .name = "d", .seconds = 86400 }, { .name = "day", .seconds = 86400 },
	{ .name = "days", .seconds = 86400 },
};

static int64_t unit_seconds(const char *u, size_t len)
{
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].name) == len && strncmp(units[i].name, u, len) == 0)
			return units[i].seconds;
	return -1;
}

/* "10m ago", "10 minutes ago", "-10m", "1.5h ago". Returns 0, -1 (not such a time) or
 * OUT_OF_RANGE (before the epoch). */
static int relative(const char *s, int64_t now_ns, int64_t *out)
{
	int minus = *s == '-';
	const char *p = s + minus, *u;
	char *end;
	double n;
	int64_t unit;
	size_t len;

	if (!isdigit((unsigned char)*p))
		return -1;
	errno = 0;
	n = strtod(p, &end);
	if (errno || n < 0)
		return -1;
	while (*end == ' ')
		end++;
	u = end;
	while (isalpha((unsigned char)*end))
		end++;
	len = (size_t)(end - u);
	unit = len ? unit_seconds(u, len) : 1;
	if (unit < 0)
		return -1;
	while (*end == ' ')
		end++;
	if (strcmp(end, "ago") == 0)
		minus = !minus;
	else if (*end)
		return -1;
	if (!minus)
		return -1; /* a time in the future is not in a recording */
	if (n * (double)unit * 1e9 > (double)now_ns)
		return OUT_OF_RANGE;
	*out = now_ns - (int64_t)(n * (double)unit * 1e9);
	return 0;
}

/* "@SECONDS", "YYYY-MM-DD[ HH:MM[:SS]]", "HH:MM[:SS]" (on the day of day_ns). Returns as
 * relative() does. */
static int absolute(const char *s, int64_t day_ns, int64_t *out)
{
	struct tm tm;
	time_t now = (time_t)(day_ns / 1000000000), t;
	int y, mo, d, dy, dmo, dd, h = 0, mi = 0, sec = 0, used = 0;
	double epoch;
	char *end;

	if (*s == '@') {
		epoch = strtod(s + 1, &end);
		if (end == s + 1 || *end || !isfinite(epoch))
			return -1;
		if (epoch < 0 || epoch > TIME_MAX_S)
			return OUT_OF_RANGE;
		*out = (int64_t)(epoch * 1e9);
		return 0;
	}
	localtime_r(&now, &tm);
	y = tm.tm_year + 1900;
	mo = tm.tm_mon + 1;
	d = tm.tm_mday;
	if (sscanf(s, "%4d-%2d-%2d%n", &dy, &dmo, &dd, &used) == 3) { /* not into y: "14:05" sets it */
		y = dy;
		mo = dmo;
		d = dd;
		tm.tm_year = y - 1900;
		tm.tm_mon = mo - 1;
		tm.tm_mday = d;
		s += used;
		if (*s == ' ' || *s == 'T')
			s++;
		else if (*s)
			return -1;
	}
	if (*s) {
		used = 0;
		if (sscanf(s, "%2d:%2d%n:%2d%n", &h, &mi, &used, &sec, &used) < 2 || s[used])
			return -1;
	}
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60 || h < 0 || mi < 0 || sec < 0)
		return -1;
	if (y < YEAR_MIN || y > YEAR_MAX)
		return OUT_OF_RANGE;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	tm.tm_isdst = -1;
	t = mktime(&tm);
	if (t == (time_t)-1 || tm.tm_mday != d || tm.tm_mon != mo - 1)
		return -1; /* a day the month does not have (mktime would move it on) */
	if (t < 0 || (double)t > TIME_MAX_S)
		return OUT_OF_RANGE; /* 1970-01-01 before midnight UTC, east of Greenwich */
	*out = (int64_t)t * 1000000000;
	return 0;
}

int time_parse(const char *s, int64_t now_ns, int64_t *out_ns, char *err, size_t errlen)
{
	return time_parse_on(s, now_ns, now_ns, out_ns, err, errlen);
}

int time_parse_on(const char *s, int64_t now_ns, int64_t day_ns, int64_t *out_ns, char *err, size_t errlen)
{
	int rc = -1;

	if (strcmp(s, "now") == 0) {
		*out_ns = now_ns;
		return 0;
	}
	/* not empty: absolute() would take it as today's midnight */
	if (*s) {
		rc = relative(s, now_ns, out_ns);
		if (rc == -1)
			rc = absolute(s, day_ns, out_ns);
	}
	if (rc == 0)
		return 0;
	if (rc == OUT_OF_RANGE)
		snprintf(err, errlen, "%s", _("out of range: a time is from 1970-01-01 to the end of 2254"));
	else if (day_ns / DAY_NS != now_ns / DAY_NS)
		snprintf(err, errlen, "%s",
			 _("a time is YYYY-MM-DD HH:MM[:SS], HH:MM[:SS] (that day), @SECONDS, 'now' or like '10 minutes ago'"));
	else
		snprintf(err, errlen, "%s",
			 _("a time is YYYY-MM-DD HH:MM[:SS], HH:MM[:SS] (today), @SECONDS, 'now' or like '10 minutes ago'"));
	return -1;
}

void time_format(char *buf, size_t size, int64_t t_ns)
{
	time_t t = (time_t)(t_ns / 1000000000);
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, size, "?");
}
