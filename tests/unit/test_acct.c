/* test_acct.c — the accounting fields: the table's names, their rates and totals from two
 * readings, the /proc parsers of process rows, and their cells. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "acctfield.h"
#include "columns.h"
#include "procfs.h"
#include "rates.h"
#include "tap.h"
#include "totals.h"

#define SEC 1000000000ull

static void test_table(void)
{
	char buf[32];
	struct task_counters c;

	is_str(acct_json_name(AF_READ, 0, buf), "read_bytes_per_s", "DISK RD in JSON: bytes per second");
	is_str(acct_json_name(AF_READ, 1, buf), "read_bytes", "and in totals: bytes");
	is_str(acct_json_name(AF_VCSW, 0, buf), "vcsw_per_s", "switches per second");
	is_str(acct_json_name(AF_VCSW, 1, buf), "vcsw_count", "and how many in totals");
	is_str(acct_json_name(AF_UTIME, 0, buf), "utime_pct", "user CPU: percent of the interval");
	is_str(acct_json_name(AF_UTIME, 1, buf), "utime_s", "and seconds in totals");
	is_str(acct_json_name(AF_MAXRSS, 0, buf), "maxrss_bytes", "the high-water mark: bytes");
	is_str(acct_json_name(AF_MAXRSS, 1, buf), "maxrss_bytes", "the same in totals");
	is_int(acct_find("wchar"), AF_WCHAR, "fields are found by key");
	is_int(acct_find("nope"), -1, "an unknown key is -1");

	memset(&c, 0, sizeof(c));
	c.have = HAVE_CSW | HAVE_MEM;
	c.nivcsw = 77;
	c.hiwater_vm_kb = 5;
	is_int(acct_have(&c), 1u << AF_VCSW | 1u << AF_IVCSW | 1u << AF_MAXRSS | 1u << AF_MAXVM,
	       "the fields held are those of the groups held");
	is_int(acct_get(&c, AF_IVCSW), 77, "a field is read where the table says");
	acct_set(&c, AF_READ, 4096);
	is_int(c.read_bytes, 4096, "and written there");
	for (int f = 0; f < AF_COUNT; f++)
		ok((int)strlen(acct_fields[f].key) > 0 && (int)strlen(acct_fields[f].title) <= ACCT_WIDTH,
		   "field %s: a key, a title within the column", acct_fields[f].key);
}

static void counters(struct task_counters *c, uint64_t scale)
{
	memset(c, 0, sizeof(*c));
	c->have = HAVE_IO_BYTES | HAVE_IO_CHARS | HAVE_CSW | HAVE_CPUTIME | HAVE_MEM;
	c->read_bytes = 4096 * scale;
	c->write_bytes = 8192 * scale;
	c->read_char = 1000 * scale;
	c->write_syscalls = 10 * scale;
	c->nvcsw = 50 * scale;
	c->utime_us = 500000 * scale;
	c->hiwater_rss_kb = 100 * scale;
}

/* A reading of c at when and its accounting fields of want. */
static void reading(struct sample *s, struct acct_sample *a, const struct task_counters *c, uint64_t when,
		    acct_mask want)
{
	sample_from_counters(s, c, when, 1);
	acct_sample_from_counters(a, c, want);
}

/* The rates over prev -> cur with their accounting fields. */
static void rates_of(const struct sample *prev, const struct sample *cur, const struct acct_sample *aprev,
		     const struct acct_sample *acur, struct task_rates *r)
{
	rates_compute(prev, cur, NULL, r);
	rates_compute_acct(prev, cur, aprev, acur, r);
}

static void test_rates(void)
{
	struct task_counters a, b;
	struct sample prev, cur;
	struct acct_sample aprev, acur;
	struct task_rates r;

	counters(&a, 1);
	counters(&b, 3);
	reading(&prev, &aprev, &a, 10 * SEC, ACCT_ALL);
	reading(&cur, &acur, &b, 12 * SEC, ACCT_ALL);
	rates_of(&prev, &cur, &aprev, &acur, &r);
	is_num(r.acct[AF_READ], 4096.0, 1e-3, "8 KiB read in 2 s is 4096 bytes/s");
	is_num(r.acct[AF_WRITE], 8192.0, 1e-3, "16 KiB dirtied in 2 s is 8192 bytes/s");
	is_num(r.acct[AF_RCHAR], 1000.0, 1e-3, "rchar: 2000 bytes in 2 s");
	is_num(r.acct[AF_SYSCW], 10.0, 1e-6, "20 write calls in 2 s are 10/s");
	is_num(r.acct[AF_VCSW], 50.0, 1e-6, "100 voluntary switches in 2 s are 50/s");
	is_num(r.acct[AF_UTIME], 50.0, 1e-4, "1 s of user CPU in 2 s is 50%");
	is_num(r.acct[AF_MAXRSS], 300 * 1024.0, 1e-3, "the high-water mark is the last reading's, in bytes");
	is_num(r.acct[AF_CANCELLED], 0.0, 0, "a counter that did not move is 0");

	reading(&prev, &aprev, &b, 10 * SEC, ACCT_ALL);
	reading(&cur, &acur, &a, 12 * SEC, ACCT_ALL);
	rates_of(&prev, &cur, &aprev, &acur, &r);
	is_num(r.acct[AF_READ], 0.0, 0, "a counter that went backwards gives 0, not a giant rate");

	b.have &= ~(uint32_t)HAVE_IO_BYTES;
	reading(&prev, &aprev, &a, 10 * SEC, ACCT_ALL);
	reading(&cur, &acur, &b, 12 * SEC, ACCT_ALL);
	rates_of(&prev, &cur, &aprev, &acur, &r);
	ok(isnan(r.acct[AF_READ]) && isnan(r.acct[AF_WRITE]), "a reading without the I/O bytes: unavailable");
	is_num(r.acct[AF_VCSW], 50.0, 1e-6, "the other groups still count");
	reading(&prev, &aprev, &b, 10 * SEC, ACCT_ALL);
	reading(&cur, &acur, &a, 12 * SEC, ACCT_ALL);
	rates_of(&prev, &cur, &aprev, &acur, &r);
	ok(isnan(r.acct[AF_READ]), "a counter missing in the earlier reading: unavailable");
	rates_unavailable(&r);
	ok(isnan(r.acct[AF_MAXVM]), "unavailable rates have no accounting fields");
	reading(&prev, &aprev, &a, 10 * SEC, 0);
	reading(&cur, &acur, &b, 12 * SEC, 0);
	rates_of(&prev, &cur, &aprev, &acur, &r);
	ok(aprev.acct_have == 0 && isnan(r.acct[AF_READ]) && isnan(r.acct[AF_MAXRSS]),
	   "accounting fields not wanted are not kept: unavailable, at no cost per task");
}

static void test_totals(void)
{
	struct task_counters a, b;
	struct sample prev, cur;
	struct acct_sample aprev, acur;
	struct kind_totals t, u;

	counters(&a, 1);
	counters(&b, 3);
	reading(&prev, &aprev, &a, 10 * SEC, ACCT_ALL);
	reading(&cur, &acur, &b, 12 * SEC, ACCT_ALL);
	memset(&t, 0, sizeof(t));
	totals_add_delta(&t, &prev, &cur, NULL, 0);
	totals_add_acct_delta(&t, &aprev, &acur);
	totals_add_delta(&t, &prev, &cur, NULL, 0);
	totals_add_acct_delta(&t, &aprev, &acur);
	is_num(totals_acct(&t, AF_READ), 16384.0, 0, "two intervals of 8 KiB read: 16 KiB");
	is_num(totals_acct(&t, AF_UTIME), 2.0, 1e-9, "two intervals of 1 s user CPU: 2 s");
	is_num(totals_acct(&t, AF_VCSW), 200.0, 0, "two intervals of 100 switches: 200");
	is_num(totals_acct(&t, AF_MAXRSS), 300 * 1024.0, 0, "a high-water mark is not summed: the highest");
	ok(isnan(totals_acct(&t, AF_MAXVM)) == 0, "a field held is a number");

	totals_from_counters(&u, &b, 0);
	is_num(totals_acct(&u, AF_WRITE), 3 * 8192.0, 0, "a task's counters as totals");
	totals_add(&t, &u);
	is_num(totals_acct(&t, AF_READ), 16384.0 + 3 * 4096, 0, "sums of sums add the counters");
	is_num(totals_acct(&t, AF_MAXRSS), 300 * 1024.0, 0, "and keep the highest mark");
	memset(&u, 0, sizeof(u));
	ok(isnan(totals_acct(&u, AF_READ)), "a field never available is NAN, not 0");
}

static void test_parsers(void)
{
	struct task_counters c;
	const char *io = "rchar: 12\nwchar: 34\nsyscr: 5\nsyscw: 6\nread_bytes: 4096\nwrite_bytes: 8192\n"
			 "cancelled_write_bytes: 0\n";
	const char *status = "Name:\tx\nVmPeak:\t  2000 kB\nVmSize:\t 1500 kB\nVmHWM:\t   700 kB\nVmRSS:\t 600 kB\n";

	memset(&c, 0, sizeof(c));
	is_int(procfs_parse_io(io, &c), 0, "/proc/PID/io parses");
	ok(c.read_char == 12 && c.write_char == 34 && c.read_syscalls == 5 && c.write_syscalls == 6 &&
		   c.read_bytes == 4096 && c.write_bytes == 8192 && c.cancelled_write_bytes == 0,
	   "every field of /proc/PID/io lands in its counter");
	ok((c.have & (HAVE_IO_BYTES | HAVE_IO_CHARS)) == (HAVE_IO_BYTES | HAVE_IO_CHARS), "both I/O groups are held");
	memset(&c, 0, sizeof(c));
	is_int(procfs_parse_io("rchar: 12\nwchar: 34\n", &c), -EINVAL, "a short /proc/PID/io is refused");
	is_int(c.have, 0, "and holds nothing");
	is_int(procfs_parse_memory(status, &c), 0, "the memory lines of /proc/PID/status parse");
	ok(c.hiwater_rss_kb == 700 && c.hiwater_vm_kb == 2000 && (c.have & HAVE_MEM), "VmHWM and VmPeak, KiB");
	memset(&c, 0, sizeof(c));
	is_int(procfs_parse_memory("Name:\tkthreadd\nState:\tS\n", &c), -EINVAL,
	       "a kernel thread's status has no memory lines");
}

/* A stat line of /proc: the comm may hold spaces and parentheses; a line cut short is refused. */
static void test_stat(void)
{
	static const char cut[] = "1 (a) \0 7 1 1 0 -1 0 0 0 0 0 1 2 0 0 20 0 1 0 5\n";
	struct proc_stat st;

	is_int(procfs_parse_stat("4242 (my (odd) name) S 1 4242 4242 0 -1 4194560 100 0 0 0 12 34 0 0 15 -5 3 0 98765 "
				 "1 1 1 1 1 0 0 0 0 0 0 0 0 0 17 1 0 0 0 56 0 0\n",
				 &st),
	       0, "a stat line parses");
	ok(st.state == 'S' && st.ppid == 1 && st.nice == -5 && st.nlwp == 3 && st.start_ticks == 98765 &&
		   st.have_times && st.utime == 12 && st.stime == 34 && st.have_blkio && st.blkio == 56,
	   "state, parent, nice value, threads, start, CPU times and block-I/O delay");
	is_str(st.comm, "my (odd) name", "the comm up to the last ')'");
	is_int(procfs_parse_stat("1 (init) S 0 1 1 0 -1 4194560 100 0 0 0 12 34 0 0 20 0 1 0 5\n", &st), 0,
	       "a line without the block-I/O delay parses");
	ok(st.have_times && !st.have_blkio, "and says it lacks it");
	is_int(procfs_parse_stat(cut, &st), -EINVAL, "a line that ends after the comm is refused, nothing past it read");
	is_int(procfs_parse_stat("1 (a)", &st), -EINVAL, "as is one without fields");
	is_int(procfs_parse_stat("1 (a) S 0 1", &st), -EINVAL, "or without the start");
}

static void test_cells(void)
{
	struct display d;
	struct row r;
	char buf[32];

	memset(&d, 0, sizeof(d));
	memset(&r, 0, sizeof(r));
	rates_unavailable(&r.r);
	r.comm = "x";
	r.r.acct[AF_READ] = 12345678.0f;
	r.r.acct[AF_UTIME] = 12.5f;
	r.r.acct[AF_SYSCR] = 3.21f;
	is_str(column_text(&r, COL_ACCT + AF_READ, &d, buf), "12346k", "a byte rate too wide for 7 columns is scaled");
	is_str(column_text(&r, COL_ACCT + AF_UTIME, &d, buf), "12.5", "a CPU share has one decimal");
	is_str(column_text(&r, COL_ACCT + AF_SYSCR, &d, buf), "3.2", "so has a rate of calls");
	is_str(column_text(&r, COL_ACCT + AF_WRITE, &d, buf), "-", "an unavailable field is -, never 0");
	is_num(column_value(&r, COL_ACCT + AF_READ, &d), 12345678.0, 1.0, "the value sorts by the rate");
	d.accumulate = 1;
	ok(isnan(column_value(&r, COL_ACCT + AF_READ, &d)), "totals without a task's totals: unavailable");
}

int main(void)
{
	test_table();
	test_rates();
	test_totals();
	test_parsers();
	test_stat();
	test_cells();
	return tap_done();
}
