/* test_psi.c — parsing /proc/pressure files, reading a directory where each file is optional, and
 * interval percentages. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "psi.h"
#include "psifile.h"
#include "tap.h"

#define SEC 1000000000ull

static const char full_text[] = "some avg10=1.50 avg60=2.25 avg300=3.00 total=123456\n"
				"full avg10=0.50 avg60=0.75 avg300=1.00 total=65432\n";
static const char some_text[] = "some avg10=4.00 avg60=5.00 avg300=6.00 total=42\n";

static void test_parse(void)
{
	struct psi_resource r;
	int rc;

	rc = psi_parse(full_text, &r);
	is_int(rc, 0, "a full file parses");
	ok(r.present && r.some.present && r.full.present, "full file: the resource, some and full are present");
	is_num(r.some.avg10, 1.5, 1e-9, "some avg10");
	is_num(r.some.avg60, 2.25, 1e-9, "some avg60");
	is_num(r.some.avg300, 3.0, 1e-9, "some avg300");
	is_int(r.some.total_us, 123456, "some total");
	is_num(r.full.avg10, 0.5, 1e-9, "full avg10");
	is_num(r.full.avg60, 0.75, 1e-9, "full avg60");
	is_num(r.full.avg300, 1.0, 1e-9, "full avg300");
	is_int(r.full.total_us, 65432, "full total");
	ok(isnan(r.some.pct) && isnan(r.full.pct), "after one reading the interval pct is NAN");

	rc = psi_parse("full avg10=0.50 avg60=0.75 avg300=1.00 total=7\n"
		       "some avg10=1.50 avg60=2.25 avg300=3.00 total=8",
		       &r);
	ok(rc == 0 && r.some.total_us == 8 && r.full.total_us == 7,
	   "full before some, and no final newline: both lines parse to the right line");

	rc = psi_parse("some avg10=0.00 avg60=0.00 avg300=0.00 total=18446744073709551615\n", &r);
	ok(rc == 0 && r.some.total_us == UINT64_MAX, "a total of 2^64-1 parses exactly");

	rc = psi_parse(some_text, &r);
	is_int(rc, 0, "a file with only 'some' (cpu on older kernels) parses");
	ok(r.present && r.some.present && !r.full.present, "only some: some present, full not");
	is_int(r.some.total_us, 42, "only some: the total");
	is_num(r.some.avg300, 6.0, 1e-9, "only some: avg300");
	ok(r.full.total_us == 0 && isnan(r.full.pct), "only some: full stays empty with pct NAN");

	rc = psi_parse("some avg10=abc avg60=1.00 avg300=1.00 total=5\n"
		       "full avg10=1.00 avg60=2.00 avg300=3.00 total=77\n",
		       &r);
	ok(rc == 0 && !r.some.present && r.full.present && r.full.total_us == 77,
	   "a malformed some line is not present; the good full line still parses");

	rc = psi_parse("some avg10=1.00 avg60=2.00 avg300=3.00\n", &r);
	ok(rc == -EINVAL && !r.present && !r.some.present, "a line without total is not present: -EINVAL");

	rc = psi_parse("some avg10=nan avg60=2.00 avg300=3.00 total=1\n", &r);
	ok(rc == -EINVAL && !r.some.present, "a non-finite average is rejected");

	rc = psi_parse("some total=5 avg10=1.00 avg60=2.00 avg300=3.00\n", &r);
	ok(rc == -EINVAL && !r.some.present, "fields in the wrong order are rejected");

	rc = psi_parse("hello world\nthis is not\x01 a pressure file\n", &r);
	ok(rc == -EINVAL && !r.present && !r.some.present && !r.full.present, "garbage text: -EINVAL, nothing present");

	rc = psi_parse("", &r);
	ok(rc == -EINVAL && !r.present, "empty text: -EINVAL, nothing present");

	rc = psi_parse("\n\n\n", &r);
	ok(rc == -EINVAL && !r.present, "blank lines: -EINVAL");

	rc = psi_parse("garbage first\nsome avg10=0.10 avg60=0.20 avg300=0.30 total=9\ntrailing junk", &r);
	ok(rc == 0 && r.some.present && r.some.total_us == 9 && !r.full.present,
	   "a good line between garbage lines is found");
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		printf("# cannot create %s\n", path);
		return;
	}
	fputs(text, f);
	fclose(f);
}

static void remove_file(const char *dir, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

static void test_read(void)
{
	char dir[] = "/tmp/delaytop-test-psi.XXXXXX";
	char sub[4096];
	struct psi_snapshot s;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	/* cpu with both lines, io with only some, memory missing, irq garbage */
	write_file(dir, "cpu", full_text);
	write_file(dir, "io", some_text);
	write_file(dir, "irq", "not a pressure file\n");

	memset(&s, 0xff, sizeof(s));
	psifile_read(dir, "", 1, 5 * SEC, &s);
	is_int(s.when_ns, 5 * SEC, "psifile_read stamps the snapshot");
	ok(s.res[PSI_CPU].present && s.res[PSI_CPU].some.present && s.res[PSI_CPU].some.total_us == 123456,
	   "cpu: some read from the file");
	ok(!s.res[PSI_CPU].full.present, "system=1: CPU full is dropped (the kernel reports it as always 0)");
	ok(s.res[PSI_IO].present && s.res[PSI_IO].some.total_us == 42 && !s.res[PSI_IO].full.present,
	   "io with only some: some present, full not");
	ok(!s.res[PSI_MEMORY].present && !s.res[PSI_MEMORY].some.present && !s.res[PSI_MEMORY].full.present,
	   "memory file missing: memory not present, the others unaffected");
	ok(isnan(s.res[PSI_MEMORY].some.pct) && isnan(s.res[PSI_MEMORY].full.pct),
	   "memory file missing: its pct is NAN, not 0");
	ok(!s.res[PSI_IRQ].present && !s.res[PSI_IRQ].some.present, "irq file of garbage: not present");

	psifile_read(dir, "", 0, 6 * SEC, &s);
	ok(s.res[PSI_CPU].full.present && s.res[PSI_CPU].full.total_us == 65432,
	   "system=0 (a cgroup): CPU full is kept");

	/* each file on its own */
	remove_file(dir, "cpu");
	remove_file(dir, "io");
	remove_file(dir, "irq");
	write_file(dir, "memory", full_text);
	psifile_read(dir, "", 1, 7 * SEC, &s);
	ok(!s.res[PSI_CPU].present && !s.res[PSI_IO].present && !s.res[PSI_IRQ].present,
	   "only memory: cpu, io, irq absent (stale values from the last read are cleared)");
	ok(s.res[PSI_MEMORY].present && s.res[PSI_MEMORY].full.present && s.res[PSI_MEMORY].full.total_us == 65432,
	   "only memory: memory some and full present (system=1 drops only CPU full)");

	write_file(dir, "irq", "full avg10=0.00 avg60=0.00 avg300=0.00 total=99\n");
	remove_file(dir, "memory");
	snprintf(sub, sizeof(sub), "%s/cpu", dir);
	mkdir(sub, 0700); /* a directory where a file should be: read fails */
	psifile_read(dir, "", 1, 8 * SEC, &s);
	ok(s.res[PSI_IRQ].present && s.res[PSI_IRQ].full.total_us == 99 && !s.res[PSI_IRQ].some.present,
	   "only irq, with only a full line: present");
	ok(!s.res[PSI_CPU].present && !s.res[PSI_MEMORY].present, "a directory named cpu: cpu not present");
	rmdir(sub);

	remove_file(dir, "irq");
	psifile_read(dir, "", 1, 9 * SEC, &s);
	ok(!s.res[PSI_CPU].present && !s.res[PSI_MEMORY].present && !s.res[PSI_IO].present && !s.res[PSI_IRQ].present,
	   "an empty directory: nothing present");
	rmdir(dir);

	psifile_read("/nonexistent/delaytop/pressure", "", 1, 1, &s);
	ok(!s.res[PSI_CPU].present && !s.res[PSI_MEMORY].present && !s.res[PSI_IO].present && !s.res[PSI_IRQ].present,
	   "a directory that does not exist: nothing present, no crash");
}

static void line(struct psi_line *l, uint64_t total)
{
	memset(l, 0, sizeof(*l));
	l->present = 1;
	l->total_us = total;
	l->pct = NAN;
}

static void test_interval(void)
{
	struct psi_snapshot prev, cur;

	memset(&prev, 0, sizeof(prev));
	memset(&cur, 0, sizeof(cur));
	prev.when_ns = 10 * SEC;
	cur.when_ns = 12 * SEC; /* 2 000 000 us */
	prev.res[PSI_MEMORY].present = cur.res[PSI_MEMORY].present = 1;
	line(&prev.res[PSI_MEMORY].some, 1000000);
	line(&cur.res[PSI_MEMORY].some, 1500000);
	line(&prev.res[PSI_MEMORY].full, 200000);
	line(&cur.res[PSI_MEMORY].full, 300000);
	prev.res[PSI_IO].present = cur.res[PSI_IO].present = 1;
	line(&prev.res[PSI_IO].some, 5000000);
	line(&cur.res[PSI_IO].some, 4000000); /* backwards */
	line(&prev.res[PSI_IO].full, 77);
	line(&cur.res[PSI_IO].full, 77);
	cur.res[PSI_CPU].present = 1;
	line(&cur.res[PSI_CPU].some, 100); /* missing in prev */
	prev.res[PSI_IRQ].present = 1;
	line(&prev.res[PSI_IRQ].full, 100); /* missing in cur */
	cur.res[PSI_IRQ].full.pct = NAN;

	psi_interval(&prev, &cur);
	is_num(cur.res[PSI_MEMORY].some.pct, 25.0, 1e-9, "some: 0.5 s stalled in 2 s is 25%");
	is_num(cur.res[PSI_MEMORY].full.pct, 5.0, 1e-9, "full: 0.1 s stalled in 2 s is 5%");
	ok(isnan(cur.res[PSI_IO].some.pct), "a total going backwards gives NAN, not a negative or giant pct");
	is_num(cur.res[PSI_IO].full.pct, 0.0, 0, "an unchanged total gives 0%");
	ok(isnan(cur.res[PSI_CPU].some.pct), "a line missing in prev gives NAN");
	ok(isnan(cur.res[PSI_IRQ].full.pct), "a line missing in cur gives NAN");

	line(&prev.res[PSI_MEMORY].some, 0);
	line(&cur.res[PSI_MEMORY].some, 2060000); /* 2.06 s in 2 s: the clocks' skew */
	psi_interval(&prev, &cur);
	is_num(cur.res[PSI_MEMORY].some.pct, 100.0, 0, "a stall longer than the interval is 100%, not 103%");

	cur.when_ns = prev.when_ns;
	psi_interval(&prev, &cur);
	ok(isnan(cur.res[PSI_MEMORY].some.pct) && isnan(cur.res[PSI_MEMORY].full.pct),
	   "a zero interval gives NAN (no division by 0)");
}

int main(void)
{
	test_parse();
	test_read();
	test_interval();
	return tap_done();
}
