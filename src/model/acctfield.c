/* acctfield.c — the accounting fields, their names, units and places in struct task_counters. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "acctfield.h"
#include "i18n.h"

#define AT(member) offsetof(struct task_counters, member)

/* TRANSLATORS: the titles are column titles of at most 7 columns. */
const struct acct_field_info acct_fields[AF_COUNT] = {
	[AF_READ] = { "read", N_("DISK RD"), N_("bytes read from disk per second"), AU_BYTES, HAVE_IO_BYTES,
		      AT(read_bytes), 1 },
	[AF_WRITE] = { "write", N_("DISK WR"), N_("bytes dirtied for writing to disk per second"), AU_BYTES,
		       HAVE_IO_BYTES, AT(write_bytes), 1 },
	[AF_CANCELLED] = { "cancelled", N_("CANCEL"), N_("dirtied bytes truncated before the write, per second"),
			   AU_BYTES, HAVE_IO_BYTES, AT(cancelled_write_bytes), 1 },
	[AF_RCHAR] = { "rchar", N_("RCHAR"), N_("bytes read by system calls per second"), AU_BYTES, HAVE_IO_CHARS,
		       AT(read_char), 1 },
	[AF_WCHAR] = { "wchar", N_("WCHAR"), N_("bytes written by system calls per second"), AU_BYTES,
		       HAVE_IO_CHARS, AT(write_char), 1 },
	[AF_SYSCR] = { "syscr", N_("SYSCR"), N_("read system calls per second"), AU_EVENTS, HAVE_IO_CHARS,
		       AT(read_syscalls), 0 },
	[AF_SYSCW] = { "syscw", N_("SYSCW"), N_("write system calls per second"), AU_EVENTS, HAVE_IO_CHARS,
		       AT(write_syscalls), 0 },
	[AF_VCSW] = { "vcsw", N_("VCSW"), N_("voluntary context switches per second"), AU_EVENTS, HAVE_CSW,
		      AT(nvcsw), 1 },
	[AF_IVCSW] = { "ivcsw", N_("IVCSW"), N_("involuntary context switches per second"), AU_EVENTS, HAVE_CSW,
		       AT(nivcsw), 1 },
	/* xgettext:no-c-format */
	[AF_UTIME] = { "utime", N_("USR%"), N_("user-mode CPU time, percent of the interval"), AU_USEC,
		       HAVE_CPUTIME, AT(utime_us), 1 },
	/* xgettext:no-c-format */
	[AF_STIME] = { "stime", N_("SYS%"), N_("kernel CPU time, percent of the interval"), AU_USEC,
		       HAVE_CPUTIME, AT(stime_us), 1 },
	[AF_MAXRSS] = { "maxrss", N_("MAXRSS"), N_("the most resident memory, bytes"), AU_KIB, HAVE_MEM,
			AT(hiwater_rss_kb), 1 },
	[AF_MAXVM] = { "maxvm", N_("MAXVM"), N_("the most virtual memory, bytes"), AU_KIB, HAVE_MEM,
		       AT(hiwater_vm_kb), 1 },
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
