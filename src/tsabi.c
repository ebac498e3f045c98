/* tsabi.c — struct taskstats layouts, version 1 to 17, and the decoder.
 *
 * The struct grew by appending fields, except twice: version 1 had an 8-byte header where later
 * versions have 16, and version 15 (Linux 6.14 only) put each delay's max and min right after its
 * total, which shifted everything behind them. Version 16 moved them to the end again. The delay
 * counters' offsets are in delaykind.c; the other fields' offsets are here. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "tsabi.h"

struct field {
	uint16_t off;   /* 0: not in this layout */
	uint16_t since; /* first version that has it */
};

struct layout {
	struct field run_real, run_virtual, comm, sched, uid, gid, pid, ppid, btime, etime;
	struct field utime, stime, minflt, majflt, read_char, write_char, read_syscalls;
	struct field write_syscalls, read_bytes, write_bytes, cancelled, nvcsw, nivcsw;
	struct field btime64, tgid;
};

static const struct layout layout_v1 = {
	.run_real = { 56, 1 }, .run_virtual = { 64, 1 },
};

/* Versions 2 to 14 and 16 on. */
static const struct layout layout_std = {
	.run_real = { 64, 1 }, .run_virtual = { 72, 1 }, .comm = { 80, 2 }, .sched = { 112, 2 },
	.uid = { 120, 2 }, .gid = { 124, 2 }, .pid = { 128, 2 }, .ppid = { 132, 2 },
	.btime = { 136, 2 }, .etime = { 144, 2 }, .utime = { 152, 2 }, .stime = { 160, 2 },
	.minflt = { 168, 2 }, .majflt = { 176, 2 }, .read_char = { 216, 2 },
	.write_char = { 224, 2 }, .read_syscalls = { 232, 2 }, .write_syscalls = { 240, 2 },
	.read_bytes = { 248, 3 }, .write_bytes = { 256, 3 }, .cancelled = { 264, 3 },
	.nvcsw = { 272, 4 }, .nivcsw = { 280, 4 }, .btime64 = { 344, 10 }, .tgid = { 368, 12 },
};

/* Version 15: 48 bytes of max/min after the swap-in group shift everything up to the reclaim
 * group; the later groups are shifted further, as delaykind.c records. */
static const struct layout layout_v15 = {
	.run_real = { 112, 1 }, .run_virtual = { 120, 1 }, .comm = { 128, 2 }, .sched = { 160, 2 },
	.uid = { 168, 2 }, .gid = { 172, 2 }, .pid = { 176, 2 }, .ppid = { 180, 2 },
	.btime = { 184, 2 }, .etime = { 192, 2 }, .utime = { 200, 2 }, .stime = { 208, 2 },
	.minflt = { 216, 2 }, .majflt = { 224, 2 }, .read_char = { 264, 2 },
	.write_char = { 272, 2 }, .read_syscalls = { 280, 2 }, .write_syscalls = { 288, 2 },
	.read_bytes = { 296, 3 }, .write_bytes = { 304, 3 }, .cancelled = { 312, 3 },
	.nvcsw = { 320, 4 }, .nivcsw = { 328, 4 }, .btime64 = { 424, 10 }, .tgid = { 464, 12 },
};

struct reader {
	const unsigned char *p;
	size_t len;
	unsigned version;
};

static int fits(const struct reader *r, unsigned off, unsigned size, unsigned since)
{
	return off != 0 && r->version >= since && off + size <= r->len;
}

static int get_u64(const struct reader *r, struct field f, uint64_t *v)
{
	if (!fits(r, f.off, 8, f.since))
		return 0;
	memcpy(v, r->p + f.off, 8); /* the payload is not 8-byte aligned */
	return 1;
}

static int get_u32(const struct reader *r, struct field f, uint32_t *v)
{
	if (!fits(r, f.off, 4, f.since))
		return 0;
	memcpy(v, r->p + f.off, 4);
	return 1;
}

static const struct ts_kind_offsets *kind_offsets(int kind, unsigned version)
{
	if (version == 1)
		return &delay_kinds[kind].v1;
	if (version == 15)
		return &delay_kinds[kind].v15;
	return &delay_kinds[kind].std;
}

/* Max and min exist from version 16 at the end, and in version 15 in the middle. */
static unsigned maxmin_since(unsigned version)
{
	return version == 15 ? 15 : 16;
}

static void decode_kind(const struct reader *r, int kind, struct task_counters *out)
{
	const struct ts_kind_offsets *o = kind_offsets(kind, r->version);
	unsigned since = delay_kinds[kind].since;
	struct delay_counter *d = &out->delay[kind];
	uint8_t bit = (uint8_t)(1u << kind);

	if (get_u64(r, (struct field){ o->total, since }, &d->total_ns))
		out->kind_total |= bit;
	if (get_u64(r, (struct field){ o->count, since }, &d->count))
		out->kind_count |= bit;
	if (fits(r, o->max, 8, maxmin_since(r->version)) && fits(r, o->min, 8, maxmin_since(r->version))) {
		memcpy(&d->max_ns, r->p + o->max, 8);
		memcpy(&d->min_ns, r->p + o->min, 8);
		out->kind_max |= bit;
	}
	if (fits(r, o->max_ts, 16, 17)) {
		memcpy(&d->max_ts_sec, r->p + o->max_ts, 8);
		memcpy(&d->max_ts_nsec, r->p + o->max_ts + 8, 8);
		out->kind_max_ts |= bit;
	}
}

static void decode_ids(const struct reader *r, const struct layout *l, struct task_counters *out)
{
	uint32_t btime32 = 0;
	int ok = 1;

	ok &= get_u32(r, l->uid, &out->uid);
	ok &= get_u32(r, l->gid, &out->gid);
	ok &= get_u32(r, l->pid, &out->pid);
	ok &= get_u32(r, l->ppid, &out->ppid);
	ok &= get_u32(r, l->btime, &btime32);
	ok &= get_u64(r, l->etime, &out->etime_us);
	ok &= get_u64(r, l->minflt, &out->minflt);
	ok &= get_u64(r, l->majflt, &out->majflt);
	if (!ok)
		return;
	out->have |= HAVE_IDS;
	out->btime = btime32;
	memcpy(&out->exitcode, r->p + 4, 4);
	out->flag = r->p[8];
	out->nice = r->p[9];
	if (get_u64(r, l->btime64, &out->btime))
		out->have |= HAVE_BTIME64;
	if (get_u32(r, l->tgid, &out->tgid))
		out->have |= HAVE_TGID;
}

static void decode_comm(const struct reader *r, const struct layout *l, struct task_counters *out)
{
	if (!fits(r, l->comm.off, 32, l->comm.since))
		return;
	memcpy(out->comm, r->p + l->comm.off, 32);
	out->comm[32] = '\0';
	out->have |= HAVE_COMM;
}

static void decode_rest(const struct reader *r, const struct layout *l, struct task_counters *out)
{
	if (get_u64(r, l->run_real, &out->run_real_ns) & get_u64(r, l->run_virtual, &out->run_virtual_ns))
		out->have |= HAVE_RUN;
	if (get_u64(r, l->utime, &out->utime_us) & get_u64(r, l->stime, &out->stime_us))
		out->have |= HAVE_CPUTIME;
	if (get_u64(r, l->nvcsw, &out->nvcsw) & get_u64(r, l->nivcsw, &out->nivcsw))
		out->have |= HAVE_CSW;
	if (get_u64(r, l->read_bytes, &out->read_bytes) & get_u64(r, l->write_bytes, &out->write_bytes) &
	    get_u64(r, l->cancelled, &out->cancelled_write_bytes))
		out->have |= HAVE_IO_BYTES;
	if (get_u64(r, l->read_char, &out->read_char) & get_u64(r, l->write_char, &out->write_char) &
	    get_u64(r, l->read_syscalls, &out->read_syscalls) &
	    get_u64(r, l->write_syscalls, &out->write_syscalls))
		out->have |= HAVE_IO_CHARS;
}

int tsabi_decode(const void *payload, size_t len, struct task_counters *out)
{
	struct reader r = { payload, len, 0 };
	uint16_t version;
	const struct layout *l;

	memset(out, 0, sizeof(*out));
	if (len < 2)
		return -EINVAL;
	memcpy(&version, payload, 2);
	r.version = version;
	/* Without the CPU counters there is nothing to show. */
	if (version == 0 || !fits(&r, kind_offsets(DK_CPU, version)->total, 8, 1))
		return -EINVAL;
	out->version = version;
	l = version == 1 ? &layout_v1 : version == 15 ? &layout_v15 : &layout_std;
	for (int k = 0; k < DK_COUNT; k++)
		decode_kind(&r, k, out);
	decode_ids(&r, l, out);
	decode_comm(&r, l, out);
	decode_rest(&r, l, out);
	return 0;
}
