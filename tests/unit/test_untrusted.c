/* test_untrusted.c — values a user or a file gives that must be refused, not wrapped or followed:
 * times out of the range a recording holds, cgroup paths that climb out of the hierarchy (in -c
 * and in a trigger). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cgpath.h"
#include "tap.h"
#include "timeparse.h"
#include "trigger.h"

static void test_time_range(void)
{
	const int64_t now = 1764079500ll * 1000000000; /* 2025-11-25 14:05:00 UTC */
	static const char *const out_of_range[] = {
		"10000000 days ago", "99999999999 days ago", "1e300 s ago", "0000-01-01", "1000-01-01 00:00",
		"1969-12-31 23:59", "2255-01-01", "9999-12-31", "@-1", "@99999999999", "-20000000d",
	};
	char err[256];
	int64_t t;

	setenv("TZ", "UTC", 1);
	tzset();
	for (size_t i = 0; i < sizeof(out_of_range) / sizeof(out_of_range[0]); i++) {
		err[0] = '\0';
		t = 12345;
		ok(time_parse(out_of_range[i], now, &t, err, sizeof(err)) < 0 && strstr(err, "out of range") && t == 12345,
		   "'%s' is refused as out of range, not wrapped", out_of_range[i]);
		if (!strstr(err, "out of range"))
			printf("#   message '%s', time %lld\n", err, (long long)t);
	}
	ok(time_parse("1970-01-01 00:00", now, &t, err, sizeof(err)) == 0 && t == 0, "the epoch itself is a time");
	ok(time_parse("2254-12-31 23:59", now, &t, err, sizeof(err)) == 0 && t > now, "the end of 2254 is a time");
	ok(time_parse("20417 days ago", now, &t, err, sizeof(err)) == 0 && t > 0 && t < 86400ll * 1000000000,
	   "a relative time just after the epoch is a time");
	setenv("TZ", "Asia/Tokyo", 1);
	tzset();
	ok(time_parse("1970-01-01 00:00", now, &t, err, sizeof(err)) < 0 && strstr(err, "out of range"),
	   "the first hours of 1970 in local time east of Greenwich are before the epoch: refused");
	setenv("TZ", "UTC", 1);
	tzset();
}

static void test_cgroup_climbs(void)
{
	static const char *const climbs[] = { "..", "/..", "/../..", "/a/../b", "a/..", "/a/..", "../x", "//..//" };
	static const char *const stays[] = { "/", "/a..b", "/..a", "/a..", "/...", "/a/b", "/.hidden", "/a./.b" };

	for (size_t i = 0; i < sizeof(climbs) / sizeof(climbs[0]); i++)
		ok(cgpath_climbs(climbs[i]), "'%s' climbs out of the hierarchy", climbs[i]);
	for (size_t i = 0; i < sizeof(stays) / sizeof(stays[0]); i++)
		ok(!cgpath_climbs(stays[i]), "'%s' stays in it (a name may hold dots)", stays[i]);
}

static void test_trigger_climbs(void)
{
	struct trigger_spec t;
	char err[256];

	err[0] = '\0';
	ok(trigger_parse("cpu some 100ms 2s /../..", &t, err, sizeof(err)) < 0 && strstr(err, ".."),
	   "a trigger on '/../..' is refused, the message naming '..'");
	ok(trigger_parse("cpu some 100ms 2s /a/../../etc", &t, err, sizeof(err)) < 0,
	   "a trigger on '/a/../../etc' is refused");
	ok(trigger_parse("cpu some 100ms 2s /system.slice/a..b.scope", &t, err, sizeof(err)) == 0 &&
		   strcmp(t.cgroup, "/system.slice/a..b.scope") == 0,
	   "a cgroup with dots in a name is taken");
}

int main(void)
{
	test_time_range();
	test_cgroup_climbs();
	test_trigger_climbs();
	return tap_done();
}
