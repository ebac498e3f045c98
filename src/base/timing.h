/* timing.h — clocks and deadline-paced sleeping. */
#ifndef DELAYTOP_TIMING_H
#define DELAYTOP_TIMING_H

#include <stdint.h>
#include <time.h>

uint64_t timing_mono_ns(void); /* CLOCK_MONOTONIC */
uint64_t timing_boot_ns(void); /* CLOCK_BOOTTIME: what /proc start times count from */
/* Clock ticks per second of the times /proc gives (USER_HZ: sysconf's _SC_CLK_TCK, else 100): a
 * constant of the machine, not a reading, shared by the kernel edge and the sampler. */
long timing_hz(void);

/* The deadline after one met at now: a step later, or, when a slow reading missed slots, a step
 * after now rather than a rush to catch up. Pure. Both the screen and batch mode pace by it. */
uint64_t timing_next_deadline(uint64_t deadline, uint64_t step, uint64_t now);

/* Formats t (local time) as ISO 8601 with milliseconds and UTC offset, "2026-11-22T10:25:31.042+01:00",
 * into buf (at least 40 bytes). */
void timing_iso8601(const struct timespec *t, char *buf, size_t size);

#endif
