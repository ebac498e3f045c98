/* test_tsabi.c — tsabi_decode against struct taskstats layouts that the compiler computes.
 *
 * Version 13 is the build machine's <linux/taskstats.h>; versions 1, 14, 15, 16 and 17 are local
 * structs that mirror the kernel's field order. Nothing here copies an offset from src/: every
 * expected value is read back through a struct member, so a wrong offset table shows up as a
 * mismatch. */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/taskstats.h>

#include "counters.h"
#include "delaykind.h"
#include "tap.h"
#include "tsabi.h"

/* ---- the layouts ---- */

/* Version 1: an 8-byte header. */
struct ts_v1 {
	uint16_t version;
	uint16_t padding[3];
	uint64_t cpu_count, cpu_delay_total;
	uint64_t blkio_count, blkio_delay_total;
	uint64_t swapin_count, swapin_delay_total;
	uint64_t cpu_run_real_total, cpu_run_virtual_total;
};

#define TS_HEAD                                                                                    \
	uint16_t version;                                                                          \
	uint32_t ac_exitcode;                                                                      \
	uint8_t ac_flag;                                                                           \
	uint8_t ac_nice;

#define TS_GROUP(p)                                                                                \
	uint64_t p##_count;                                                                        \
	uint64_t p##_delay_total;

#define TS_GROUP15(p)                                                                              \
	uint64_t p##_count;                                                                        \
	uint64_t p##_delay_total;                                                                  \
	uint64_t p##_delay_max;                                                                    \
	uint64_t p##_delay_min;

/* From cpu_run_real_total to cpu_scaled_run_real_total: the same in every version from 2 on. */
#define TS_MIDDLE                                                                                  \
	uint64_t cpu_run_real_total;                                                               \
	uint64_t cpu_run_virtual_total;                                                            \
	char ac_comm[32];                                                                          \
	_Alignas(8) uint8_t ac_sched;                                                              \
	uint8_t ac_pad[3];                                                                         \
	_Alignas(8) uint32_t ac_uid;                                                               \
	uint32_t ac_gid;                                                                           \
	uint32_t ac_pid;                                                                           \
	uint32_t ac_ppid;                                                                          \
	uint32_t ac_btime;                                                                         \
	_Alignas(8) uint64_t ac_etime;                                                             \
	uint64_t ac_utime;                                                                         \
	uint64_t ac_stime;                                                                         \
	uint64_t ac_minflt;                                                                        \
	uint64_t ac_majflt;                                                                        \
	uint64_t coremem;                                                                          \
	uint64_t virtmem;                                                                          \
	uint64_t hiwater_rss;                                                                      \
	uint64_t hiwater_vm;                                                                       \
	uint64_t read_char;                                                                        \
	uint64_t write_char;                                                                       \
	uint64_t read_syscalls;                                                                    \
	uint64_t write_syscalls;                                                                   \
	uint64_t read_bytes;                                                                       \
	uint64_t write_bytes;                                                                      \
	uint64_t cancelled_write_bytes;                                                            \
	uint64_t nvcsw;                                                                            \
	uint64_t nivcsw;                                                                           \
	uint64_t ac_utimescaled;                                                                   \
	uint64_t ac_stimescaled;                                                                   \
	uint64_t cpu_scaled_run_real_total;

#define TS_V13_BODY                                                                                \
	TS_HEAD                                                                                    \
	_Alignas(8) uint64_t cpu_count;                                                            \
	uint64_t cpu_delay_total;                                                                  \
	TS_GROUP(blkio)                                                                            \
	TS_GROUP(swapin)                                                                           \
	TS_MIDDLE                                                                                  \
	TS_GROUP(freepages)                                                                        \
	TS_GROUP(thrashing)                                                                        \
	uint64_t ac_btime64;                                                                       \
	TS_GROUP(compact)                                                                          \
	uint32_t ac_tgid;                                                                          \
	_Alignas(8) uint64_t ac_tgetime;                                                           \
	uint64_t ac_exe_dev;                                                                       \
	uint64_t ac_exe_inode;                                                                     \
	TS_GROUP(wpcopy)

#define TS_V14_BODY TS_V13_BODY TS_GROUP(irq)

#define TS_MAXMIN(p)                                                                               \
	uint64_t p##_delay_max;                                                                    \
	uint64_t p##_delay_min;

#define TS_V16_BODY                                                                                \
	TS_V14_BODY                                                                                \
	TS_MAXMIN(cpu)                                                                             \
	TS_MAXMIN(blkio)                                                                           \
	TS_MAXMIN(swapin)                                                                          \
	TS_MAXMIN(freepages)                                                                       \
	TS_MAXMIN(thrashing)                                                                       \
	TS_MAXMIN(compact)                                                                         \
	TS_MAXMIN(wpcopy)                                                                          \
	TS_MAXMIN(irq)

struct ts_timespec {
	int64_t tv_sec;
	int64_t tv_nsec;
};

struct ts_v13 {
	TS_V13_BODY
};

struct ts_v14 {
	TS_V14_BODY
};

struct ts_v16 {
	TS_V16_BODY
};

struct ts_v17 {
	TS_V16_BODY
	struct ts_timespec cpu_delay_max_ts;
	struct ts_timespec blkio_delay_max_ts;
	struct ts_timespec swapin_delay_max_ts;
	struct ts_timespec freepages_delay_max_ts;
	struct ts_timespec thrashing_delay_max_ts;
	struct ts_timespec compact_delay_max_ts;
	struct ts_timespec wpcopy_delay_max_ts;
	struct ts_timespec irq_delay_max_ts;
};

/* Version 15 (Linux 6.14): each kind's max and min right after its total. */
struct ts_v15 {
	TS_HEAD
	_Alignas(8) uint64_t cpu_count;
	uint64_t cpu_delay_total;
	uint64_t cpu_delay_max;
	uint64_t cpu_delay_min;
	TS_GROUP15(blkio)
	TS_GROUP15(swapin)
	TS_MIDDLE
	TS_GROUP15(freepages)
	TS_GROUP15(thrashing)
	uint64_t ac_btime64;
	TS_GROUP15(compact)
	uint32_t ac_tgid;
	_Alignas(8) uint64_t ac_tgetime;
	uint64_t ac_exe_dev;
	uint64_t ac_exe_inode;
	TS_GROUP15(wpcopy)
	TS_GROUP15(irq)
};

#define HAVE_ALL                                                                                   \
	(HAVE_RUN | HAVE_CPUTIME | HAVE_CSW | HAVE_IO_BYTES | HAVE_IO_CHARS | HAVE_COMM | HAVE_IDS | \
	 HAVE_TGID | HAVE_BTIME64 | HAVE_MEM)

static const char *const kind_names[DK_COUNT] = { "cpu",       "io",      "swapin", "reclaim",
						  "thrashing", "compact", "wpcopy", "irq" };

/* ---- filling and expectations ---- */

/* Every aligned 32-bit word gets a value that names its offset, so every field of every layout
 * is distinct and a field read at a wrong offset reads a different number. */
static void fill_pattern(void *p, size_t size, uint32_t salt)
{
	unsigned char *b = p;

	for (size_t o = 0; o + 4 <= size; o += 4) {
		uint32_t v = salt ^ (0xC0DE0000u | (uint32_t)o);

		memcpy(b + o, &v, 4);
	}
}

#define FILL(s, ver)                                                                               \
	do {                                                                                       \
		fill_pattern(&(s), sizeof(s), 0x5a000000u ^ ((uint32_t)(ver) << 16));              \
		(s).version = (ver);                                                               \
		(s).ac_flag = 0x5a;                                                                \
		(s).ac_nice = 0xf3;                                                                \
		memcpy((s).ac_comm, "worker-thread-name-0123456789abc", 32); /* no NUL */         \
	} while (0)

#define WANT_KIND(w, s, k, p)                                                                      \
	do {                                                                                       \
		(w).delay[k].count = (s).p##_count;                                                \
		(w).delay[k].total_ns = (s).p##_delay_total;                                       \
		(w).kind_total |= (uint8_t)(1u << (k));                                            \
		(w).kind_count |= (uint8_t)(1u << (k));                                            \
	} while (0)

#define WANT_MAXMIN(w, s, k, p)                                                                    \
	do {                                                                                       \
		(w).delay[k].max_ns = (s).p##_delay_max;                                           \
		(w).delay[k].min_ns = (s).p##_delay_min;                                           \
		(w).kind_max |= (uint8_t)(1u << (k));                                              \
	} while (0)

#define WANT_TS(w, s, k, p)                                                                        \
	do {                                                                                       \
		(w).delay[k].max_ts_sec = (s).p##_delay_max_ts.tv_sec;                             \
		(w).delay[k].max_ts_nsec = (s).p##_delay_max_ts.tv_nsec;                           \
		(w).kind_max_ts |= (uint8_t)(1u << (k));                                           \
	} while (0)

/* What a version 13 struct (or any later one, by member name) must decode to. */
#define WANT_V13(w, s)                                                                             \
	do {                                                                                       \
		memset(&(w), 0, sizeof(w));                                                        \
		(w).version = (s).version;                                                         \
		(w).have = HAVE_ALL;                                                               \
		WANT_KIND(w, s, DK_CPU, cpu);                                                      \
		WANT_KIND(w, s, DK_IO, blkio);                                                     \
		WANT_KIND(w, s, DK_SWAPIN, swapin);                                                \
		WANT_KIND(w, s, DK_RECLAIM, freepages);                                            \
		WANT_KIND(w, s, DK_THRASHING, thrashing);                                          \
		WANT_KIND(w, s, DK_COMPACT, compact);                                              \
		WANT_KIND(w, s, DK_WPCOPY, wpcopy);                                                \
		(w).run_real_ns = (s).cpu_run_real_total;                                          \
		(w).run_virtual_ns = (s).cpu_run_virtual_total;                                    \
		(w).utime_us = (s).ac_utime;                                                       \
		(w).stime_us = (s).ac_stime;                                                       \
		(w).nvcsw = (s).nvcsw;                                                             \
		(w).nivcsw = (s).nivcsw;                                                           \
		(w).read_bytes = (s).read_bytes;                                                   \
		(w).write_bytes = (s).write_bytes;                                                 \
		(w).cancelled_write_bytes = (s).cancelled_write_bytes;                             \
		(w).read_char = (s).read_char;                                                     \
		(w).write_char = (s).write_char;                                                   \
		(w).read_syscalls = (s).read_syscalls;                                             \
		(w).write_syscalls = (s).write_syscalls;                                           \
		(w).minflt = (s).ac_minflt;                                                        \
		(w).majflt = (s).ac_majflt;                                                        \
		(w).hiwater_rss_kb = (s).hiwater_rss;                                              \
		(w).hiwater_vm_kb = (s).hiwater_vm;                                                \
		(w).etime_us = (s).ac_etime;                                                       \
		(w).btime = (s).ac_btime64;                                                        \
		(w).pid = (s).ac_pid;                                                              \
		(w).ppid = (s).ac_ppid;                                                            \
		(w).tgid = (s).ac_tgid;                                                            \
		(w).uid = (s).ac_uid;                                                              \
		(w).gid = (s).ac_gid;                                                              \
		(w).exitcode = (s).ac_exitcode;                                                    \
		(w).flag = (s).ac_flag;                                                            \
		(w).nice = (s).ac_nice;                                                            \
		memcpy((w).comm, (s).ac_comm, 32);                                                 \
		(w).comm[32] = '\0';                                                               \
	} while (0)

#define WANT_ALL_MAXMIN(w, s)                                                                      \
	do {                                                                                       \
		WANT_MAXMIN(w, s, DK_CPU, cpu);                                                    \
		WANT_MAXMIN(w, s, DK_IO, blkio);                                                   \
		WANT_MAXMIN(w, s, DK_SWAPIN, swapin);                                              \
		WANT_MAXMIN(w, s, DK_RECLAIM, freepages);                                          \
		WANT_MAXMIN(w, s, DK_THRASHING, thrashing);                                        \
		WANT_MAXMIN(w, s, DK_COMPACT, compact);                                            \
		WANT_MAXMIN(w, s, DK_WPCOPY, wpcopy);                                              \
		WANT_MAXMIN(w, s, DK_IRQ, irq);                                                    \
	} while (0)

#define WANT_ALL_TS(w, s)                                                                          \
	do {                                                                                       \
		WANT_TS(w, s, DK_CPU, cpu);                                                        \
		WANT_TS(w, s, DK_IO, blkio);                                                       \
		WANT_TS(w, s, DK_SWAPIN, swapin);                                                  \
		WANT_TS(w, s, DK_RECLAIM, freepages);                                              \
		WANT_TS(w, s, DK_THRASHING, thrashing);                                            \
		WANT_TS(w, s, DK_COMPACT, compact);                                                \
		WANT_TS(w, s, DK_WPCOPY, wpcopy);                                                  \
		WANT_TS(w, s, DK_IRQ, irq);                                                        \
	} while (0)

/* Compares every field of two decodings; prints each difference as a TAP comment when loud.
 * Returns the number of differences. */
static int diff_counters(const struct task_counters *got, const struct task_counters *want, int loud)
{
	int n = 0;

#define DIFF(label, g, w)                                                                          \
	do {                                                                                       \
		unsigned long long g_ = (unsigned long long)(g), w_ = (unsigned long long)(w);     \
		if (g_ != w_) {                                                                    \
			if (loud)                                                                  \
				printf("#   %s: expected %#llx, got %#llx\n", label, w_, g_);      \
			n++;                                                                       \
		}                                                                                  \
	} while (0)
#define DIFF_F(f) DIFF(#f, got->f, want->f)

	DIFF_F(version);
	DIFF_F(have);
	DIFF_F(kind_total);
	DIFF_F(kind_count);
	DIFF_F(kind_max);
	DIFF_F(kind_max_ts);
	for (int k = 0; k < DK_COUNT; k++) {
		char label[64];

#define DIFF_K(f)                                                                                  \
	do {                                                                                       \
		snprintf(label, sizeof(label), "delay[%s]." #f, kind_names[k]);                    \
		DIFF(label, got->delay[k].f, want->delay[k].f);                                    \
	} while (0)
		DIFF_K(count);
		DIFF_K(total_ns);
		DIFF_K(max_ns);
		DIFF_K(min_ns);
		DIFF_K(max_ts_sec);
		DIFF_K(max_ts_nsec);
#undef DIFF_K
	}
	DIFF_F(run_real_ns);
	DIFF_F(run_virtual_ns);
	DIFF_F(utime_us);
	DIFF_F(stime_us);
	DIFF_F(nvcsw);
	DIFF_F(nivcsw);
	DIFF_F(read_bytes);
	DIFF_F(write_bytes);
	DIFF_F(cancelled_write_bytes);
	DIFF_F(read_char);
	DIFF_F(write_char);
	DIFF_F(read_syscalls);
	DIFF_F(write_syscalls);
	DIFF_F(minflt);
	DIFF_F(hiwater_rss_kb);
	DIFF_F(hiwater_vm_kb);
	DIFF_F(majflt);
	DIFF_F(etime_us);
	DIFF_F(btime);
	DIFF_F(pid);
	DIFF_F(ppid);
	DIFF_F(tgid);
	DIFF_F(uid);
	DIFF_F(gid);
	DIFF_F(exitcode);
	DIFF_F(flag);
	DIFF_F(nice);
	if (memcmp(got->comm, want->comm, sizeof(got->comm)) != 0) {
		if (loud)
			printf("#   comm: expected '%.33s', got '%.33s'\n", want->comm, got->comm);
		n++;
	}
#undef DIFF_F
#undef DIFF
	return n;
}

/* Copies the struct to an odd (unaligned) address and decodes it. */
static int decode_at(const void *s, size_t size, size_t len, size_t shift, struct task_counters *out)
{
	static unsigned char raw[1024 + 16];

	memset(raw, 0xee, sizeof(raw));
	memcpy(raw + shift, s, size);
	return tsabi_decode(raw + shift, len, out);
}

/* Decodes s at odd offsets 1 and 3 and compares every field with want. */
static void check_full(const char *what, const void *s, size_t size, const struct task_counters *want)
{
	struct task_counters got;
	char name[200];
	int rc;

	for (size_t shift = 1; shift <= 3; shift += 2) {
		rc = decode_at(s, size, size, shift, &got);
		snprintf(name, sizeof(name), "%s, %zu bytes at address offset %zu: decodes", what, size, shift);
		is_int(rc, 0, name);
		ok(rc == 0 && diff_counters(&got, want, 1) == 0,
		   "%s at address offset %zu: every decoded field equals the compiler-laid-out member", what,
		   shift);
	}
	decode_at(s, size, size, 1, &got);
#define BITS(f)                                                                                    	do {                                                                                       		snprintf(name, sizeof(name), "%s: " #f " is %#x", what, (unsigned)want->f);       		is_int(got.f, want->f, name);                                                      	} while (0)
	BITS(kind_total);
	BITS(kind_count);
	BITS(kind_max);
	BITS(kind_max_ts);
	BITS(have);
#undef BITS
}

/* ---- the tests ---- */

static void test_v13_mirror(void)
{
	int bad = 0;

#define SAME(f)                                                                                    \
	do {                                                                                       \
		if (offsetof(struct ts_v13, f) != offsetof(struct taskstats, f)) {                 \
			printf("#   %s: mirror at %zu, header at %zu\n", #f,                       \
			       offsetof(struct ts_v13, f), offsetof(struct taskstats, f));         \
			bad++;                                                                     \
		}                                                                                  \
	} while (0)
	SAME(version); SAME(ac_exitcode); SAME(ac_flag); SAME(ac_nice); SAME(cpu_count);
	SAME(cpu_delay_total); SAME(blkio_count); SAME(blkio_delay_total); SAME(swapin_count);
	SAME(swapin_delay_total); SAME(cpu_run_real_total); SAME(cpu_run_virtual_total); SAME(ac_comm);
	SAME(ac_sched); SAME(ac_uid); SAME(ac_gid); SAME(ac_pid); SAME(ac_ppid); SAME(ac_btime);
	SAME(ac_etime); SAME(ac_utime); SAME(ac_stime); SAME(ac_minflt); SAME(ac_majflt);
	SAME(hiwater_rss); SAME(hiwater_vm);
	SAME(read_char); SAME(write_char); SAME(read_syscalls); SAME(write_syscalls); SAME(read_bytes);
	SAME(write_bytes); SAME(cancelled_write_bytes); SAME(nvcsw); SAME(nivcsw);
	SAME(cpu_scaled_run_real_total); SAME(freepages_count); SAME(freepages_delay_total);
	SAME(thrashing_count); SAME(thrashing_delay_total); SAME(ac_btime64); SAME(compact_count);
	SAME(compact_delay_total); SAME(ac_tgid); SAME(ac_tgetime); SAME(ac_exe_dev); SAME(ac_exe_inode);
	SAME(wpcopy_count); SAME(wpcopy_delay_total);
#undef SAME
	ok(bad == 0, "the test's v13 mirror has the header's offset for every field");
	is_int(sizeof(struct ts_v13), 416, "the v13 mirror is 416 bytes");
	is_int(sizeof(struct ts_v14), 432, "the v14 mirror is 432 bytes");
	is_int(sizeof(struct ts_v15), 560, "the v15 mirror is 560 bytes");
	is_int(sizeof(struct ts_v16), 560, "the v16 mirror is 560 bytes");
	is_int(sizeof(struct ts_v17), 688, "the v17 mirror is 688 bytes");
	is_int(sizeof(struct ts_v1), 72, "the v1 mirror is 72 bytes");
}

static void test_v13_header(void)
{
	struct taskstats s;
	struct task_counters want;

	is_int(sizeof(struct taskstats), 416,
	       "the build machine's <linux/taskstats.h> is version 13 (416 bytes); update this test if not");
	is_int(TASKSTATS_VERSION, 13, "the header says version 13");
	FILL(s, 13);
	WANT_V13(want, s);
	check_full("v13 (the system header's struct taskstats)", &s, sizeof(s), &want);
	ok(want.kind_total == 0x7f, "v13 has every kind but irq (expected 0x7f)");
}

static void test_v14(void)
{
	struct ts_v14 s;
	struct task_counters want;

	FILL(s, 14);
	WANT_V13(want, s);
	WANT_KIND(want, s, DK_IRQ, irq);
	check_full("v14 (v13 + irq)", &s, sizeof(s), &want);
}

static void test_v15(void)
{
	struct ts_v15 s;
	struct task_counters want;

	FILL(s, 15);
	WANT_V13(want, s);
	WANT_KIND(want, s, DK_IRQ, irq);
	WANT_ALL_MAXMIN(want, s);
	check_full("v15 (Linux 6.14: max/min inside each group)", &s, sizeof(s), &want);
}

static void test_v16(void)
{
	struct ts_v16 s;
	struct task_counters want;

	FILL(s, 16);
	WANT_V13(want, s);
	WANT_KIND(want, s, DK_IRQ, irq);
	WANT_ALL_MAXMIN(want, s);
	check_full("v16 (max/min appended)", &s, sizeof(s), &want);
}

static void test_v17(void)
{
	struct ts_v17 s;
	struct task_counters want;

	FILL(s, 17);
	WANT_V13(want, s);
	WANT_KIND(want, s, DK_IRQ, irq);
	WANT_ALL_MAXMIN(want, s);
	WANT_ALL_TS(want, s);
	check_full("v17 (max timestamps appended)", &s, sizeof(s), &want);
}

/* A version newer than the decoder knows decodes by size with the appended layout. */
static void test_newer_version(void)
{
	unsigned char buf[sizeof(struct ts_v17) + 16];
	struct ts_v17 s;
	struct task_counters want, got;
	int rc;

	FILL(s, 18);
	WANT_V13(want, s);
	WANT_KIND(want, s, DK_IRQ, irq);
	WANT_ALL_MAXMIN(want, s);
	WANT_ALL_TS(want, s);
	memcpy(buf, &s, sizeof(s));
	memset(buf + sizeof(s), 0x77, 16); /* a field the decoder does not know yet */
	rc = decode_at(buf, sizeof(buf), sizeof(buf), 1, &got);
	ok(rc == 0 && diff_counters(&got, &want, 1) == 0,
	   "version 18, 704 bytes: decodes every v17 field and ignores the unknown tail");
}

static void test_v1(void)
{
	struct ts_v1 s;
	struct task_counters want;

	fill_pattern(&s, sizeof(s), 0x11000000u);
	s.version = 1;
	memset(&want, 0, sizeof(want));
	want.version = 1;
	want.have = HAVE_RUN;
	WANT_KIND(want, s, DK_CPU, cpu);
	WANT_KIND(want, s, DK_IO, blkio);
	WANT_KIND(want, s, DK_SWAPIN, swapin);
	want.run_real_ns = s.cpu_run_real_total;
	want.run_virtual_ns = s.cpu_run_virtual_total;
	check_full("v1 (8-byte header)", &s, sizeof(s), &want);
	ok(want.kind_total == 0x07, "v1 has cpu, io and swapin only (expected 0x07)");
}

/* What a v16 payload cut to len bytes must decode to: every field that does not fit entirely is
 * unavailable (0 and its bit clear); a group is available only when all its fields fit. */
static void want_truncated_v16(const struct ts_v16 *s, size_t len, struct task_counters *w)
{
#define FITS(f) (offsetof(struct ts_v16, f) + sizeof(s->f) <= len)
	struct {
		int count, total, maxmin;
	} fit[DK_COUNT] = {
		{ FITS(cpu_count), FITS(cpu_delay_total), FITS(cpu_delay_max) && FITS(cpu_delay_min) },
		{ FITS(blkio_count), FITS(blkio_delay_total), FITS(blkio_delay_max) && FITS(blkio_delay_min) },
		{ FITS(swapin_count), FITS(swapin_delay_total), FITS(swapin_delay_max) && FITS(swapin_delay_min) },
		{ FITS(freepages_count), FITS(freepages_delay_total),
		  FITS(freepages_delay_max) && FITS(freepages_delay_min) },
		{ FITS(thrashing_count), FITS(thrashing_delay_total),
		  FITS(thrashing_delay_max) && FITS(thrashing_delay_min) },
		{ FITS(compact_count), FITS(compact_delay_total), FITS(compact_delay_max) && FITS(compact_delay_min) },
		{ FITS(wpcopy_count), FITS(wpcopy_delay_total), FITS(wpcopy_delay_max) && FITS(wpcopy_delay_min) },
		{ FITS(irq_count), FITS(irq_delay_total), FITS(irq_delay_max) && FITS(irq_delay_min) },
	};

	WANT_V13(*w, *s);
	WANT_KIND(*w, *s, DK_IRQ, irq);
	WANT_ALL_MAXMIN(*w, *s);
	for (int k = 0; k < DK_COUNT; k++) {
		uint8_t bit = (uint8_t)(1u << k);

		if (!fit[k].count) {
			w->delay[k].count = 0;
			w->kind_count &= (uint8_t)~bit;
		}
		if (!fit[k].total) {
			w->delay[k].total_ns = 0;
			w->kind_total &= (uint8_t)~bit;
		}
		if (!fit[k].maxmin) {
			w->delay[k].max_ns = w->delay[k].min_ns = 0;
			w->kind_max &= (uint8_t)~bit;
		}
	}
	if (!(FITS(cpu_run_real_total) && FITS(cpu_run_virtual_total))) {
		w->run_real_ns = w->run_virtual_ns = 0;
		w->have &= ~(uint32_t)HAVE_RUN;
	}
	if (!FITS(ac_comm)) {
		memset(w->comm, 0, sizeof(w->comm));
		w->have &= ~(uint32_t)HAVE_COMM;
	}
	if (!(FITS(ac_utime) && FITS(ac_stime))) {
		w->utime_us = w->stime_us = 0;
		w->have &= ~(uint32_t)HAVE_CPUTIME;
	}
	if (!(FITS(nvcsw) && FITS(nivcsw))) {
		w->nvcsw = w->nivcsw = 0;
		w->have &= ~(uint32_t)HAVE_CSW;
	}
	if (!(FITS(read_bytes) && FITS(write_bytes) && FITS(cancelled_write_bytes))) {
		w->read_bytes = w->write_bytes = w->cancelled_write_bytes = 0;
		w->have &= ~(uint32_t)HAVE_IO_BYTES;
	}
	if (!(FITS(read_char) && FITS(write_char) && FITS(read_syscalls) && FITS(write_syscalls))) {
		w->read_char = w->write_char = w->read_syscalls = w->write_syscalls = 0;
		w->have &= ~(uint32_t)HAVE_IO_CHARS;
	}
	if (!(FITS(hiwater_rss) && FITS(hiwater_vm))) {
		w->hiwater_rss_kb = w->hiwater_vm_kb = 0;
		w->have &= ~(uint32_t)HAVE_MEM;
	}
	if (!(FITS(ac_uid) && FITS(ac_gid) && FITS(ac_pid) && FITS(ac_ppid) && FITS(ac_btime) &&
	      FITS(ac_etime) && FITS(ac_minflt) && FITS(ac_majflt))) {
		w->uid = w->gid = w->pid = w->ppid = w->tgid = 0;
		w->btime = w->etime_us = w->minflt = w->majflt = 0;
		w->exitcode = 0;
		w->flag = w->nice = 0;
		w->have &= ~(uint32_t)(HAVE_IDS | HAVE_TGID | HAVE_BTIME64);
	} else {
		if (!FITS(ac_btime64)) {
			w->btime = s->ac_btime;
			w->have &= ~(uint32_t)HAVE_BTIME64;
		}
		if (!FITS(ac_tgid)) {
			w->tgid = 0;
			w->have &= ~(uint32_t)HAVE_TGID;
		}
	}
#undef FITS
}

/* Members of a group whose have bit is clear are unspecified (the decoder may have read some of
 * them before finding that the group is incomplete): zero them so that only the bit counts. */
static void clear_absent_groups(struct task_counters *c)
{
	if (!(c->have & HAVE_RUN))
		c->run_real_ns = c->run_virtual_ns = 0;
	if (!(c->have & HAVE_CPUTIME))
		c->utime_us = c->stime_us = 0;
	if (!(c->have & HAVE_CSW))
		c->nvcsw = c->nivcsw = 0;
	if (!(c->have & HAVE_IO_BYTES))
		c->read_bytes = c->write_bytes = c->cancelled_write_bytes = 0;
	if (!(c->have & HAVE_IO_CHARS))
		c->read_char = c->write_char = c->read_syscalls = c->write_syscalls = 0;
	if (!(c->have & HAVE_MEM))
		c->hiwater_rss_kb = c->hiwater_vm_kb = 0;
	if (!(c->have & HAVE_IDS)) {
		c->uid = c->gid = c->pid = c->ppid = 0;
		c->btime = c->etime_us = c->minflt = c->majflt = 0;
	}
}

static void test_truncated_v16(void)
{
	struct ts_v16 s;
	struct task_counters want, got;
	size_t cpu_end = offsetof(struct ts_v16, cpu_delay_total) + 8;
	int bad_rc = 0, bad_fields = 0;
	static const size_t shown[] = { 32, 40, 300, 416, 424, 440, 448, 559 };

	FILL(s, 16);
	for (size_t len = 0; len <= sizeof(s); len++) {
		int want_rc = len >= cpu_end ? 0 : -EINVAL;
		int rc = decode_at(&s, sizeof(s), len, 1, &got);

		if (rc != want_rc) {
			printf("#   len %zu: expected rc %d, got %d\n", len, want_rc, rc);
			bad_rc++;
			continue;
		}
		if (rc != 0)
			continue;
		want_truncated_v16(&s, len, &want);
		clear_absent_groups(&got);
		if (diff_counters(&got, &want, 0) != 0) {
			if (bad_fields++ < 3) {
				printf("#   len %zu:\n", len);
				diff_counters(&got, &want, 1);
			}
		}
	}
	is_int(bad_rc, 0, "v16 cut at every length 0..560: -EINVAL exactly when the CPU total does not fit");
	is_int(bad_fields, 0,
	       "v16 cut at every length 0..560: a field (or group) that does not fit is unavailable, never 0 with its bit set");
	/* A few lengths spelled out, so that the rule above cannot be vacuous. */
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		size_t len = shown[i];

		decode_at(&s, sizeof(s), len, 1, &got);
		clear_absent_groups(&got);
		want_truncated_v16(&s, len, &want);
		ok(diff_counters(&got, &want, 1) == 0 && got.kind_total == want.kind_total,
		   "v16 cut at %zu bytes: kind_total %#x kind_count %#x kind_max %#x have %#x", len,
		   (unsigned)want.kind_total, (unsigned)want.kind_count, (unsigned)want.kind_max,
		   (unsigned)want.have);
	}
	decode_at(&s, sizeof(s), 40, 1, &got);
	ok((got.kind_count & 2) && !(got.kind_total & 2) && got.delay[DK_IO].total_ns == 0,
	   "cut at 40 bytes: the io count is there, the io total is not (and reads 0)");
	decode_at(&s, sizeof(s), 559, 1, &got);
	ok(got.kind_max == 0x7f && got.delay[DK_IRQ].max_ns == 0 && got.delay[DK_IRQ].min_ns == 0,
	   "cut at 559 bytes: irq max/min unavailable (min does not fit), the others available");
	decode_at(&s, sizeof(s), 416, 1, &got);
	ok(got.kind_total == 0x7f && got.kind_max == 0 && (got.have & HAVE_TGID),
	   "cut at 416 bytes (a v13-sized payload with version 16): no irq, no max/min");
}

/* Version 9 in a 688-byte payload: kinds and fields newer than the version stay unavailable. */
static void test_version_below_length(void)
{
	struct ts_v17 s;
	struct task_counters want, got;
	int rc;

	FILL(s, 9);
	WANT_V13(want, s);
	for (int k = DK_COMPACT; k < DK_COUNT; k++)
		memset(&want.delay[k], 0, sizeof(want.delay[k]));
	want.kind_total = want.kind_count = 0x1f;
	want.btime = s.ac_btime; /* ac_btime64 came in version 10 */
	want.tgid = 0;           /* ac_tgid in version 12 */
	want.have &= ~(uint32_t)(HAVE_BTIME64 | HAVE_TGID);
	rc = decode_at(&s, sizeof(s), sizeof(s), 1, &got);
	is_int(rc, 0, "version 9 with 688 bytes decodes");
	ok(diff_counters(&got, &want, 1) == 0,
	   "version 9 with 688 bytes: only the fields version 9 has, whatever the length");
	is_int(got.kind_total, 0x1f, "version 9: compact (11), wpcopy (13), irq (14) totals unavailable");
	is_int(got.kind_count, 0x1f, "version 9: compact, wpcopy, irq counts unavailable");
	is_int(got.kind_max, 0, "version 9: no max/min (version 16)");
	is_int(got.kind_max_ts, 0, "version 9: no max timestamps (version 17)");
	ok(!(got.have & HAVE_BTIME64) && got.btime == s.ac_btime, "version 9: btime is the 32-bit ac_btime");
	ok(!(got.have & HAVE_TGID) && got.tgid == 0, "version 9: no tgid (version 12)");
	is_int(got.version, 9, "version 9: the version is kept");
}

/* The version that introduced each kind and field, from the kernel's history (the header's "vN"
 * comments and the commits that bumped TASKSTATS_VERSION): a 688-byte payload claiming the version
 * before must not have it, one claiming that version must. */
static void test_since_boundaries(void)
{
	static const struct {
		const char *what;
		unsigned since;
		int kind;     /* a delay kind, or -1 */
		uint32_t have; /* or a have bit */
	} steps[] = {
		{ "reclaim (freepages)", 7, DK_RECLAIM, 0 },
		{ "thrashing", 9, DK_THRASHING, 0 },
		{ "ac_btime64", 10, -1, HAVE_BTIME64 },
		{ "compact", 11, DK_COMPACT, 0 },
		{ "ac_tgid", 12, -1, HAVE_TGID },
		{ "wpcopy", 13, DK_WPCOPY, 0 },
		{ "irq", 14, DK_IRQ, 0 },
	};
	struct ts_v17 s;
	struct task_counters got;

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		int before, at;

		FILL(s, steps[i].since - 1);
		decode_at(&s, sizeof(s), sizeof(s), 1, &got);
		before = steps[i].kind >= 0 ? ((got.kind_total | got.kind_count) >> steps[i].kind) & 1
					    : (got.have & steps[i].have) != 0;
		FILL(s, steps[i].since);
		decode_at(&s, sizeof(s), sizeof(s), 1, &got);
		at = steps[i].kind >= 0 ? ((got.kind_total & got.kind_count) >> steps[i].kind) & 1
					: (got.have & steps[i].have) != 0;
		ok(!before && at, "%s: absent in version %u, present from version %u (688-byte payloads)",
		   steps[i].what, steps[i].since - 1, steps[i].since);
	}
	FILL(s, 14);
	decode_at(&s, sizeof(s), sizeof(s), 1, &got);
	ok(got.kind_max == 0 && got.kind_max_ts == 0,
	   "max/min: absent in version 14 even with 688 bytes (got kind_max %#x)", (unsigned)got.kind_max);
	FILL(s, 16);
	decode_at(&s, sizeof(s), sizeof(s), 1, &got);
	ok(got.kind_max == (1u << DK_COUNT) - 1 && got.kind_max_ts == 0,
	   "max/min present in version 16, max timestamps not (got %#x, %#x)", (unsigned)got.kind_max,
	   (unsigned)got.kind_max_ts);
	ok(got.delay[DK_IO].max_ns == s.blkio_delay_max && got.delay[DK_IRQ].min_ns == s.irq_delay_min,
	   "version 16 in a 688-byte payload: max/min at the v16 offsets");
	FILL(s, 17);
	decode_at(&s, sizeof(s), sizeof(s), 1, &got);
	ok(got.kind_max_ts == (1u << DK_COUNT) - 1, "max timestamps present from version 17");
	FILL(s, 2);
	decode_at(&s, sizeof(s), sizeof(s), 1, &got);
	ok((got.have & (HAVE_COMM | HAVE_IDS | HAVE_RUN)) == (HAVE_COMM | HAVE_IDS | HAVE_RUN) &&
		   got.kind_total == 0x07 && !(got.have & (HAVE_BTIME64 | HAVE_TGID)),
	   "version 2: comm and ids, cpu/io/swapin only (have %#x, kinds %#x)", (unsigned)got.have,
	   (unsigned)got.kind_total);
}

static void test_invalid(void)
{
	struct ts_v16 s;
	struct ts_v1 s1;
	struct task_counters got;

	FILL(s, 16);
	is_int(decode_at(&s, sizeof(s), 0, 1, &got), -EINVAL, "length 0 is -EINVAL");
	is_int(decode_at(&s, sizeof(s), 1, 1, &got), -EINVAL, "length 1 is -EINVAL");
	is_int(decode_at(&s, sizeof(s), 31, 1, &got), -EINVAL,
	       "v16 cut before the end of cpu_delay_total (31 bytes) is -EINVAL");
	is_int(decode_at(&s, sizeof(s), 32, 1, &got), 0, "v16 with just the CPU counters (32 bytes) decodes");
	ok(got.kind_total == 1 && got.kind_count == 1 && got.delay[DK_CPU].total_ns == s.cpu_delay_total,
	   "32 bytes: only the CPU kind is available");
	s.version = 0;
	is_int(decode_at(&s, sizeof(s), sizeof(s), 1, &got), -EINVAL, "version 0 is -EINVAL");
	fill_pattern(&s1, sizeof(s1), 0);
	s1.version = 1;
	is_int(decode_at(&s1, sizeof(s1), offsetof(struct ts_v1, cpu_delay_total) + 7, 1, &got), -EINVAL,
	       "v1 cut before the end of cpu_delay_total is -EINVAL");
	is_int(decode_at(&s1, sizeof(s1), offsetof(struct ts_v1, cpu_delay_total) + 8, 1, &got), 0,
	       "v1 with just the CPU counters decodes");
	ok(got.delay[DK_CPU].total_ns == s1.cpu_delay_total && got.kind_total == 1,
	   "v1 with just the CPU counters: the CPU total at the v1 offset");
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Random bytes of random length, each in a buffer of exactly that size (so that the sanitizer
 * build sees any read past the end). */
static void test_garbage(void)
{
	int bad = 0;

	for (int i = 0; i < 1000; i++) {
		size_t len = (size_t)(rng() % 800);
		unsigned char *buf = malloc(len ? len : 1);
		struct task_counters got;
		int rc;

		for (size_t j = 0; j < len; j++)
			buf[j] = (unsigned char)rng();
		if (len >= 2 && i % 2 == 0) { /* half of them with a plausible version */
			uint16_t v = (uint16_t)(rng() % 20);

			memcpy(buf, &v, 2);
		}
		rc = tsabi_decode(buf, len, &got);
		if (rc != 0 && rc != -EINVAL)
			bad++;
		else if (rc == 0 && (got.version == 0 || strlen(got.comm) > 32))
			bad++;
		free(buf);
	}
	is_int(bad, 0, "1000 random payloads of random length: no crash, 0 or -EINVAL, sane result");
}

/* A plan is made for one version and length, and used only for payloads of that shape; decoding
 * by plan gives what a fresh decode gives. */
static void test_plan_reuse(void)
{
	unsigned char a[688], b[688];
	struct tsabi_plan plan;
	struct task_counters by_plan, fresh;
	uint16_t v17 = 17, v16 = 16;
	uint64_t value = 12345;

	memset(a, 0, sizeof(a));
	memcpy(a, &v17, 2);
	memcpy(a + 24, &value, 8); /* cpu_delay_total */
	memcpy(b, a, sizeof(b));
	memcpy(b, &v16, 2);
	is_int(tsabi_plan(&plan, a, sizeof(a)), 0, "a plan for a v17 payload of 688 bytes");
	ok(tsabi_plan_fits(&plan, a, sizeof(a)), "the plan fits payloads of its version and length");
	ok(!tsabi_plan_fits(&plan, a, 560), "the plan does not fit a shorter payload");
	ok(!tsabi_plan_fits(&plan, b, sizeof(b)), "the plan does not fit another version of the same length");
	tsabi_apply(&plan, a, &by_plan);
	tsabi_decode(a, sizeof(a), &fresh);
	ok(memcmp(&by_plan, &fresh, sizeof(fresh)) == 0, "decoding by plan gives what a fresh decode gives");
	is_int(by_plan.delay[DK_CPU].total_ns, 12345, "the plan copies the CPU delay total");
	tsabi_plan(&plan, "\x01", 1);
	is_int(tsabi_apply(&plan, a, &by_plan), -EINVAL, "a plan for a payload too short to decode refuses");
}

int main(void)
{
	test_plan_reuse();
	test_v13_mirror();
	test_v13_header();
	test_v14();
	test_v15();
	test_v16();
	test_v17();
	test_newer_version();
	test_v1();
	test_truncated_v16();
	test_version_below_length();
	test_since_boundaries();
	test_invalid();
	test_garbage();
	return tap_done();
}
