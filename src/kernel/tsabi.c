/* tsabi.c — struct taskstats layouts, version 1 to 17, and the decoder.
 *
 * The struct grew by appending fields, except twice: version 1 had an 8-byte header where later
 * versions have 16, and version 15 (Linux 6.14 only) put each delay's max and min right after its
 * total, which shifted everything behind them. Version 16 moved them to the end again. The delay
 * counters' offsets are in delaykind.c; the other fields' offsets are here. */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "tsabi.h"

struct field {
	uint16_t off;   /* 0: not in this layout */
	uint16_t since; /* first version that has it */
};

struct layout {
	struct field run_real, run_virtual, comm, uid, gid, pid, ppid, btime, etime;
	struct field utime, stime, minflt, majflt, read_char, write_char, read_syscalls;
	struct field write_syscalls, read_bytes, write_bytes, cancelled, nvcsw, nivcsw;
	struct field btime64, tgid, hiwater_rss, hiwater_vm;
};

static const struct layout layout_v1 = {
	.run_real = { 56, 1 }, .run_virtual = { 64, 1 },
};

/* Versions 2 to 14 and 16 on. */
static const struct layout layout_std = {
	.run_real = { 64, 1 }, .run_virtual = { 72, 1 }, .comm = { 80, 2 },
	.uid = { 120, 2 }, .gid = { 124, 2 }, .pid = { 128, 2 }, .ppid = { 132, 2 },
	.btime = { 136, 2 }, .etime = { 144, 2 }, .utime = { 152, 2 }, .stime = { 160, 2 },
	.minflt = { 168, 2 }, .majflt = { 176, 2 }, .read_char = { 216, 2 },
	.write_char = { 224, 2 }, .read_syscalls = { 232, 2 }, .write_syscalls = { 240, 2 },
	.read_bytes = { 248, 3 }, .write_bytes = { 256, 3 }, .cancelled = { 264, 3 },
	.nvcsw = { 272, 4 }, .nivcsw = { 280, 4 }, .btime64 = { 344, 10 }, .tgid = { 368, 12 },
	.hiwater_rss = { 200, 2 }, .hiwater_vm = { 208, 2 },
};

/* Version 15: 48 bytes of max/min after the swap-in group shift everything up to the reclaim
 * group; the later groups are shifted further, as delaykind.c records. */
static const struct layout layout_v15 = {
	.run_real = { 112, 1 }, .run_virtual = { 120, 1 }, .comm = { 128, 2 },
	.uid = { 168, 2 }, .gid = { 172, 2 }, .pid = { 176, 2 }, .ppid = { 180, 2 },
	.btime = { 184, 2 }, .etime = { 192, 2 }, .utime = { 200, 2 }, .stime = { 208, 2 },
	.minflt = { 216, 2 }, .majflt = { 224, 2 }, .read_char = { 264, 2 },
	.write_char = { 272, 2 }, .read_syscalls = { 280, 2 }, .write_syscalls = { 288, 2 },
	.read_bytes = { 296, 3 }, .write_bytes = { 304, 3 }, .cancelled = { 312, 3 },
	.nvcsw = { 320, 4 }, .nivcsw = { 328, 4 }, .btime64 = { 424, 10 }, .tgid = { 464, 12 },
	.hiwater_rss = { 248, 2 }, .hiwater_vm = { 256, 2 },
};

struct planner {
	size_t len;
	unsigned version;
	struct tsabi_plan *plan;
};

static int fits(const struct planner *r, unsigned off, unsigned size, unsigned since)
{
	return off != 0 && r->version >= since && off + size <= r->len;
}

/* Plans one copy; a copy that continues the previous one in both structs extends it. */
static void step(struct planner *r, unsigned src, size_t dst, unsigned size)
{
	struct tsabi_plan *p = r->plan;
	struct tsabi_step *last = p->nsteps ? &p->steps[p->nsteps - 1] : NULL;

	if (last && last->src + last->size == src && last->dst + last->size == dst) {
		last->size = (uint16_t)(last->size + size);
		return;
	}
	p->steps[p->nsteps++] = (struct tsabi_step){ (uint16_t)src, (uint16_t)dst, (uint16_t)size };
}

/* Plans a copy of field f into dst when it is in the payload; returns whether it is. */
static int field(struct planner *r, struct field f, size_t dst, unsigned size)
{
	if (!fits(r, f.off, size, f.since))
		return 0;
	step(r, f.off, dst, size);
	return 1;
}

/* Whether every field of a group is in the payload; then plans their copies. */
static int group(struct planner *r, const struct field *f, const size_t *dst, const unsigned *size, int n)
{
	for (int i = 0; i < n; i++)
		if (!fits(r, f[i].off, size[i], f[i].since))
			return 0;
	for (int i = 0; i < n; i++)
		step(r, f[i].off, dst[i], size[i]);
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

#define AT(member) offsetof(struct task_counters, member)

static void plan_kind(struct planner *r, int kind)
{
	const struct ts_kind_offsets *o = kind_offsets(kind, r->version);
	unsigned since = delay_kinds[kind].since, mm = maxmin_since(r->version);
	struct tsabi_plan *p = r->plan;
	kind_mask bit = (kind_mask)(1u << kind);

	if (field(r, (struct field){ o->total, since }, AT(delay[kind].total_ns), 8))
		p->kind_total |= bit;
	if (field(r, (struct field){ o->count, since }, AT(delay[kind].count), 8))
		p->kind_count |= bit;
	if (group(r, (struct field[]){ { o->max, mm }, { o->min, mm } },
		  (size_t[]){ AT(delay[kind].max_ns), AT(delay[kind].min_ns) }, (unsigned[]){ 8, 8 }, 2))
		p->kind_max |= bit;
	/* seconds and nanoseconds, side by side in both structs */
	if (field(r, (struct field){ o->max_ts, 17 }, AT(delay[kind].max_ts_sec), 16))
		p->kind_max_ts |= bit;
}

static void plan_ids(struct planner *r, const struct layout *l)
{
	static const unsigned sizes[] = { 4, 4, 4, 4, 8, 8, 8 };
	const struct field f[] = { l->uid, l->gid, l->pid, l->ppid, l->etime, l->minflt, l->majflt };
	const size_t dst[] = { AT(uid), AT(gid), AT(pid), AT(ppid), AT(etime_us), AT(minflt), AT(majflt) };
	struct tsabi_plan *p = r->plan;

	if (!fits(r, l->btime.off, 4, l->btime.since) || !group(r, f, dst, sizes, 7))
		return;
	p->have |= HAVE_IDS;
	p->btime32 = l->btime.off;
	step(r, 4, AT(exitcode), 4);
	step(r, 8, AT(flag), 1);
	step(r, 9, AT(nice), 1);
	if (field(r, l->btime64, AT(btime), 8)) /* after btime32: the 64-bit one wins */
		p->have |= HAVE_BTIME64;
	if (field(r, l->tgid, AT(tgid), 4))
		p->have |= HAVE_TGID;
}

static void plan_rest(struct planner *r, const struct layout *l)
{
	static const unsigned u64[] = { 8, 8, 8, 8 };
	struct tsabi_plan *p = r->plan;

	if (field(r, l->comm, AT(comm), 32))
		p->have |= HAVE_COMM;
	if (group(r, (struct field[]){ l->run_real, l->run_virtual },
		  (size_t[]){ AT(run_real_ns), AT(run_virtual_ns) }, u64, 2))
		p->have |= HAVE_RUN;
	if (group(r, (struct field[]){ l->utime, l->stime }, (size_t[]){ AT(utime_us), AT(stime_us) }, u64, 2))
		p->have |= HAVE_CPUTIME;
	if (group(r, (struct field[]){ l->nvcsw, l->nivcsw }, (size_t[]){ AT(nvcsw), AT(nivcsw) }, u64, 2))
		p->have |= HAVE_CSW;
	if (group(r, (struct field[]){ l->read_bytes, l->write_bytes, l->cancelled },
		  (size_t[]){ AT(read_bytes), AT(write_bytes), AT(cancelled_write_bytes) }, u64, 3))
		p->have |= HAVE_IO_BYTES;
	if (group(r, (struct field[]){ l->read_char, l->write_char, l->read_syscalls, l->write_syscalls },
		  (size_t[]){ AT(read_char), AT(write_char), AT(read_syscalls), AT(write_syscalls) }, u64, 4))
		p->have |= HAVE_IO_CHARS;
	if (group(r, (struct field[]){ l->hiwater_rss, l->hiwater_vm },
		  (size_t[]){ AT(hiwater_rss_kb), AT(hiwater_vm_kb) }, u64, 2))
		p->have |= HAVE_MEM;
}

int tsabi_plan(struct tsabi_plan *plan, const void *payload, size_t len)
{
	struct planner r = { len, 0, plan };
	uint16_t version = 0;
	const struct layout *l;

	memset(plan, 0, sizeof(*plan));
	plan->len = len;
	plan->status = -EINVAL;
	if (len < 2)
		return plan->status;
	memcpy(&version, payload, 2);
	plan->version = version;
	r.version = version;
	/* Without the CPU counters there is nothing to show. */
	if (version == 0 || !fits(&r, kind_offsets(DK_CPU, version)->total, 8, 1))
		return plan->status;
	l = version == 1 ? &layout_v1 : version == 15 ? &layout_v15 : &layout_std;
	for (int k = 0; k < DK_COUNT; k++)
		plan_kind(&r, k);
	plan_ids(&r, l);
	plan_rest(&r, l);
	plan->status = 0;
	return 0;
}

int tsabi_plan_fits(const struct tsabi_plan *plan, const void *payload, size_t len)
{
	uint16_t version;

	if (len < 2 || len != plan->len)
		return 0;
	memcpy(&version, payload, 2);
	return version == plan->version;
}

int tsabi_apply(const struct tsabi_plan *plan, const void *payload, struct task_counters *out)
{
	const unsigned char *p = payload;

	memset(out, 0, sizeof(*out));
	if (plan->status < 0)
		return plan->status;
	out->version = plan->version;
	out->have = plan->have;
	out->kind_total = plan->kind_total;
	out->kind_count = plan->kind_count;
	out->kind_max = plan->kind_max;
	out->kind_max_ts = plan->kind_max_ts;
	if (plan->btime32) {
		uint32_t b;

		memcpy(&b, p + plan->btime32, 4); /* the payload is not aligned */
		out->btime = b;
	}
	for (unsigned i = 0; i < plan->nsteps; i++) {
		const struct tsabi_step *st = &plan->steps[i];
		unsigned char *dst = (unsigned char *)out + st->dst;

		/* copies of a constant size compile to moves, not calls */
		if (st->size == 8)
			memcpy(dst, p + st->src, 8);
		else if (st->size == 16)
			memcpy(dst, p + st->src, 16);
		else
			memcpy(dst, p + st->src, st->size);
	}
	return 0;
}

int tsabi_decode(const void *payload, size_t len, struct task_counters *out)
{
	struct tsabi_plan plan;

	tsabi_plan(&plan, payload, len);
	return tsabi_apply(&plan, payload, out);
}
