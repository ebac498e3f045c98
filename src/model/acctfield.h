/* acctfield.h — THE table of the accounting fields of struct taskstats that delaytop shows beside
 * the delays: the I/O counters, the context switches, the CPU times and the memory's high-water
 * marks. Their columns, sort keys, JSON and CSV names, rates and totals are derived from it: adding
 * a field is one row in acctfield.c plus one enum value here. Pure code. */
#ifndef DELAYTOP_ACCTFIELD_H
#define DELAYTOP_ACCTFIELD_H

#include <stddef.h>
#include <stdint.h>

#include "counters.h"

enum acct_field {
	AF_READ,      /* bytes the task made the block layer read */
	AF_WRITE,     /* bytes it dirtied in the page cache, to be written */
	AF_CANCELLED, /* of those, bytes it truncated before they were written */
	AF_RCHAR,     /* bytes read by read(2) and its kin, from anywhere */
	AF_WCHAR,     /* bytes written by write(2) and its kin */
	AF_SYSCR,     /* read syscalls */
	AF_SYSCW,     /* write syscalls */
	AF_VCSW,      /* voluntary context switches (it blocked) */
	AF_IVCSW,     /* involuntary ones (it was preempted) */
	AF_UTIME,     /* CPU time in user mode */
	AF_STIME,     /* CPU time in the kernel */
	AF_MAXRSS,    /* high-water mark of the resident memory */
	AF_MAXVM,     /* high-water mark of the virtual memory */
	AF_COUNT
};

/* A set of fields, bit f for field f. */
typedef uint16_t acct_mask;
#define ACCT_ALL ((acct_mask)((1u << AF_COUNT) - 1))
_Static_assert(AF_COUNT <= sizeof(acct_mask) * 8, "acct_mask has fewer bits than there are fields");

/* What a field counts, which decides its rate, its total and its unit. */
enum acct_unit {
	AU_BYTES,  /* a counter of bytes: bytes per second; bytes in totals */
	AU_EVENTS, /* a counter of events: per second; how many in totals */
	AU_USEC,   /* a counter of CPU time in microseconds: percent of the interval; seconds in totals */
	AU_KIB,    /* a level in KiB (a high-water mark): bytes, in the interval and in totals */
};

struct acct_field_info {
	const char *key;   /* sort key, column name and the stem of the JSON/CSV names: "read" */
	const char *title; /* N_(): the column title, at most ACCT_WIDTH columns: "DISK RD" */
	const char *label; /* N_(): what it is, for the help screen */
	enum acct_unit unit;
	uint32_t have;     /* the HAVE_* group of struct task_counters that holds it */
	size_t offset;     /* of its uint64_t in struct task_counters */
	int in_records;    /* meaningful in a taskstats record: taskstats rounds the I/O counters down
			      to a multiple of 1024, which costs bytes under a KiB but leaves counts of
			      system calls useless (0 for most tasks) */
};

#define ACCT_WIDTH 7

extern const struct acct_field_info acct_fields[AF_COUNT];

/* The fields c holds (those of its HAVE_* groups). */
acct_mask acct_have(const struct task_counters *c);

/* Field f's value in c, in its unit (bytes, events, microseconds, KiB). */
uint64_t acct_get(const struct task_counters *c, int f);

/* Sets field f of c (without its have bit). */
void acct_set(struct task_counters *c, int f, uint64_t v);

/* Whether field f is a level (a high-water mark) rather than a counter. */
int acct_is_level(int f);

/* The JSON and CSV name of field f, unit included: "read_bytes_per_s", "vcsw_per_s",
 * "utime_pct", "maxrss_bytes"; in totals since the start "read_bytes", "vcsw_count", "utime_s",
 * "maxrss_bytes". Returns buf (>= 32 bytes). */
const char *acct_json_name(int f, int accumulate, char *buf);

/* The field whose key is key, or -1. */
int acct_find(const char *key);

#endif
