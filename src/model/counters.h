/* counters.h — one task's cumulative counters as delaytop keeps them, whatever their source
 * (a taskstats reply of any struct version, or the /proc files anyone may read).
 *
 * Every field has an availability bit: a field the source did not give is unavailable, not 0. */
#ifndef DELAYTOP_COUNTERS_H
#define DELAYTOP_COUNTERS_H

#include <stdint.h>

#include "delaykind.h"

struct delay_counter {
	uint64_t count;    /* events (increments even when total wraps) */
	uint64_t total_ns; /* time waited; the kernel resets it to 0 when it would overflow */
	uint64_t max_ns;   /* longest single wait over the task's life */
	uint64_t min_ns;   /* shortest single wait over the task's life */
	int64_t max_ts_sec; /* wall-clock time of the longest wait (version 17 on) */
	int64_t max_ts_nsec;
};

/* Bits of task_counters.have: groups of non-delay fields that are present. */
enum {
	HAVE_RUN = 1u << 0,      /* run_real_ns, run_virtual_ns */
	HAVE_CPUTIME = 1u << 1,  /* utime_us, stime_us */
	HAVE_CSW = 1u << 2,      /* nvcsw, nivcsw */
	HAVE_IO_BYTES = 1u << 3, /* read/write/cancelled bytes */
	HAVE_IO_CHARS = 1u << 4, /* read/write chars and syscalls */
	HAVE_COMM = 1u << 5,     /* comm */
	HAVE_IDS = 1u << 6,      /* pid, ppid, uid, gid, btime, etime_us, faults, exitcode */
	HAVE_TGID = 1u << 7,     /* tgid (version 12 on) */
	HAVE_BTIME64 = 1u << 8,  /* btime is the 64-bit field (version 10 on) */
	HAVE_MEM = 1u << 9,      /* hiwater_rss_kb, hiwater_vm_kb */
};

/* The groups of fields the kernel's per-process (TGID) answer and exit record do not fill: it
 * sums only the delays, the run times and (of the live threads alone) the context switches. */
#define HAVE_THREAD_ONLY (HAVE_CPUTIME | HAVE_IO_BYTES | HAVE_IO_CHARS | HAVE_MEM)

struct task_counters {
	uint16_t version; /* struct taskstats version, 0 when the source was /proc */
	uint32_t have;    /* HAVE_* bits */
	kind_mask kind_total; /* bit k: delay[k].total_ns present */
	kind_mask kind_count; /* bit k: delay[k].count present */
	kind_mask kind_max;   /* bit k: delay[k].max_ns and min_ns present */
	kind_mask kind_max_ts; /* bit k: delay[k].max_ts_* present */
	struct delay_counter delay[DK_COUNT];
	uint64_t run_real_ns;    /* CPU time, wall-clock based */
	uint64_t run_virtual_ns; /* CPU time as the scheduler saw it (sum_exec_runtime) */
	uint64_t utime_us, stime_us;
	uint64_t nvcsw, nivcsw;
	uint64_t read_bytes, write_bytes, cancelled_write_bytes;
	uint64_t read_char, write_char, read_syscalls, write_syscalls;
	uint64_t minflt, majflt;
	uint64_t hiwater_rss_kb, hiwater_vm_kb; /* the memory's high-water marks, KiB */
	uint64_t etime_us; /* time since the task started, when the record was made */
	uint64_t btime;    /* start, seconds since the epoch */
	uint32_t pid, ppid, tgid, uid, gid;
	uint32_t exitcode;
	uint8_t flag; /* accounting flags (linux/acct.h): AFORK, ASU, ACORE, AXSIG, AGROUP */
	uint8_t nice;
	char comm[33];
};

/* task_counters.flag's bit for the record of a task whose process ended with it: the last
 * thread of its group (linux/acct.h's AGROUP). */
#define COUNTERS_AGROUP 0x20

/* One record the kernel made of a task, as the layers above its edge take it (command mode's exit
 * records and survivors, through sample/follow.h): one thread's counters, or a process aggregate. */
struct task_record {
	int process; /* 1: a process aggregate; 0: one thread */
	uint32_t id; /* the tid, or the tgid of an aggregate */
	struct task_counters c;
};

static inline int counters_has_kind(const struct task_counters *c, int kind)
{
	return (c->kind_total >> kind) & 1;
}

#endif
