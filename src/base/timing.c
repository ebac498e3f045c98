/* timing.c — clocks. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "timing.h"

static uint64_t read_clock(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t timing_mono_ns(void)
{
	return read_clock(CLOCK_MONOTONIC);
}

uint64_t timing_boot_ns(void)
{
	return read_clock(CLOCK_BOOTTIME);
}

uint64_t timing_next_deadline(uint64_t deadline, uint64_t step, uint64_t now)
{
	deadline += step;
	return deadline < now ? now + step : deadline;
}

void timing_iso8601(const struct timespec *t, char *buf, size_t size)
{
	struct tm tm;
	long off;
	char sign;

	localtime_r(&t->tv_sec, &tm);
	off = tm.tm_gmtoff / 60;
	sign = off < 0 ? '-' : '+';
	off = labs(off);
	snprintf(buf, size, "%04d-%02d-%02dT%02d:%02d:%02d.%03ld%c%02ld:%02ld", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, t->tv_nsec / 1000000, sign,
		 off / 60, off % 60);
}

long timing_hz(void)
{
	static long hz;

	if (!hz) {
		hz = sysconf(_SC_CLK_TCK);
		if (hz <= 0)
			hz = 100;
	}
	return hz;
}
