/* acctfield.c — the accounting fields, their names, units and places in struct task_counters. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "acctfield.h"
#include "i18n.h"

#define AT(member) offsetof(struct task_counters, member)

/* TRANSLATORS: the titles are column titles of at most 7 columns. */
const struct acct_field_info acct_fields[AF_COUNT] = {
	[AF_READ] = {
		.key = "read",
		.title = N_("DISK RD"),
		.label = N_("bytes read from disk per second"),
		.unit = AU_BYTES,
		.have = HAVE_IO_BYTES,
		.offset = AT(read_bytes),
		.in_records = 1,
	},
	[AF_WRITE] = {
		.key = "write",
		.title = N_("DISK WR"),
		.label = N_("bytes dirtied for writing to disk per second"),
		.unit = AU_BYTES,
		.have = HAVE_IO_BYTES,
		.offset = AT(write_bytes),
		.in_records = 1,
	},
	[AF_CANCELLED] = {
		.key = "cancelled",
		.title = N_("CANCEL"),
		.label = N_("dirtied bytes truncated before the write, per second"),
		.unit = AU_BYTES,
		.have = HAVE_IO_BYTES,
		.offset = AT(cancelled_write_bytes),
		.in_records = 1,
	},
	[AF_RCHAR] = {
		.key = "rchar",
		.title = N_("RCHAR"),
		.label = N_("bytes read by system calls per second"),
		.unit = AU_BYTES,
		.have = HAVE_IO_CHARS,
		.offset = AT(read_char),
		.in_records = 1,
	},
	[AF_WCHAR] = {
		.key = "wchar",
		.title = N_("WCHAR"),
		.label = N_("bytes written by system calls per second"),
		.unit = AU_BYTES,
		.have = HAVE_IO_CHARS,
		.offset = AT(write_char),
		.in_records = 1,
	},
	[AF_SYSCR] = {
		.key = "syscr",
		.title = N_("SYSCR"),
		.label = N_("read system calls per second"),
		.unit = AU_EVENTS,
		.have = HAVE_IO_CHARS,
		.offset = AT(read_syscalls),
		.in_records = 0,
	},
	[AF_SYSCW] = {
		.key = "syscw",
		.title = N_("SYSCW"),
		.label = N_("write system calls per second"),
		.unit = AU_EVENTS,
		.have = HAVE_IO_CHARS,
		.offset = AT(write_syscalls),
		.in_records = 0,
	},
	[AF_VCSW] = {
		.key = "vcsw",
		.title = N_("VCSW"),
		.label = N_("voluntary context switches per second"),
		.unit = AU_EVENTS,
		.have = HAVE_CSW,
		.offset = AT(nvcsw),
		.in_records = 1,
	},
	[AF_IVCSW] = {
		.key = "ivcsw",
		.title = N_("IVCSW"),
		.label = N_("involuntary context switches per second"),
		.unit = AU_EVENTS,
		.have = HAVE_CSW,
		.offset = AT(nivcsw),
		.in_records = 1,
	},
	[AF_UTIME] = {
		.key = "utime",
		/* xgettext:no-c-format */
		.title = N_("USR%"),
		.label = N_("user-mode CPU time, percent of the interval"),
		.unit = AU_USEC,
		.have = HAVE_CPUTIME,
		.offset = AT(utime_us),
		.in_records = 1,
	},
	[AF_STIME] = {
		.key = "stime",
		/* xgettext:no-c-format */
		.title = N_("SYS%"),
		.label = N_("kernel CPU time, percent of the interval"),
		.unit = AU_USEC,
		.have = HAVE_CPUTIME,
		.offset = AT(stime_us),
		.in_records = 1,
	},
	[AF_MAXRSS] = {
		.key = "maxrss",
		.title = N_("MAXRSS"),
		.label = N_("the most resident memory, bytes"),
		.unit = AU_KIB,
		.have = HAVE_MEM,
		.offset = AT(hiwater_rss_kb),
		.in_records = 1,
	},
	[AF_MAXVM] = {
		.key = "maxvm",
		.title = N_("MAXVM"),
		.label = N_("the most virtual memory, bytes"),
		.unit = AU_KIB,
		.have = HAVE_MEM,
		.offset = AT(hiwater_vm_kb),
		.in_records = 1,
	},
};

acct_mask acct_have(const struct task_counters *c)
{
	acct_mask m = 0;

	for (int f = 0; f < AF_COUNT; f++)
		if (c->have & acct_fields[f].have)
			m |= (acct_mask)(1u << f);
	return m;
}

uint64_t acct_get(const struct task_counters *c, int f)
{
	uint64_t v;

	memcpy(&v, (const char *)c + acct_fields[f].offset, sizeof(v));
	return v;
}

void acct_set(struct task_counters *c, int f, uint64_t v)
{
	memcpy((char *)c + acct_fields[f].offset, &v, sizeof(v));
}

int acct_is_level(int f)
{
	return acct_fields[f].unit == AU_KIB;
}

const char *acct_json_name(int f, int accumulate, char *buf)
{
	static const char *const interval[] = { [AU_BYTES] = "bytes_per_s", [AU_EVENTS] = "per_s",
						[AU_USEC] = "pct", [AU_KIB] = "bytes" };
	static const char *const totals[] = { [AU_BYTES] = "bytes", [AU_EVENTS] = "count", [AU_USEC] = "s",
					      [AU_KIB] = "bytes" };
	enum acct_unit u = acct_fields[f].unit;

	snprintf(buf, 32, "%s_%s", acct_fields[f].key, accumulate ? totals[u] : interval[u]);
	return buf;
}

int acct_find(const char *key)
{
	for (int f = 0; f < AF_COUNT; f++)
		if (strcmp(acct_fields[f].key, key) == 0)
			return f;
	return -1;
}
