/* why.bpf.c — delaytop's eBPF programs (--why): how long each wait of every task lasted, added up
 * in the kernel into a histogram per task and kind, which the loader (whybpf.c) reads once an
 * interval. Nothing goes to user space per event.
 *
 * - cpu: from a wakeup (sched_wakeup, sched_wakeup_new) or a preemption (sched_switch with the
 *   task still runnable) until it runs again (sched_switch's next): run-queue latency, as
 *   libbpf-tools' runqlat measures it; its sum is what taskstats calls CPU delay.
 * - io: from leaving the CPU with in_iowait set (io_schedule) until the wakeup: the block-I/O
 *   wait taskstats counts (the kernel's delayacct_blkio_start/_end sit at the same two places).
 * - blocked: from leaving the CPU in interruptible sleep (S) until the wakeup. Not a delay kind:
 *   locks, futexes, the network and timers wait here, and taskstats does not count it.
 * - swapin, reclaim, thrashing, compact, wpcopy: fentry on the kernel's own __delayacct_*_start
 *   and _end (thrashing's end by fexit, to see whether it was the outer one); irq: fentry on
 *   __delayacct_irq, which is given the wait. The kernel calls these only while
 *   kernel.task_delayacct is 1, and only for tasks forked while it was. Each program is attached
 *   on its own: one the kernel refuses leaves only its kind unmeasured.
 *
 * Each task's pending wait (its kind and when it began) is in task-local storage, which lives
 * and dies with the task. The histograms go to the map of the current generation (whyabi.h). */
#include "whykern.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "whyabi.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by the loader before loading, from the kernel's BTF: sched_switch gives the state prev
 * left in (Linux 5.18 on), which is exact where prev->__state may already say TASK_WAKING. */
const volatile bool has_prev_state = false;

/* A task's pending waits. */
struct pending {
	__u64 sched_ns;   /* when the wait of sched_kind began */
	__u32 sched_kind; /* WHY_KIND_CPU, _IO or _BLOCKED while one is pending, else NONE */
	__u32 pad;
	__u64 dk_ns[WHY_KIND_IRQ]; /* the delayacct kinds' waits begun, by kind (0: none) */
};
#define NONE 0xffffffffu

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct pending);
} pending SEC(".maps");

struct generation {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, WHY_MAX_ENTRIES);
	__type(key, struct why_key);
	__type(value, struct why_val);
} gen_a SEC(".maps"), gen_b SEC(".maps");

/* The generation the programs fill: its one entry is gen_a or gen_b. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct generation);
} current SEC(".maps") = {
	.values = { [0] = &gen_a },
};

/* Waits that found the generation's map full, since loading. */
__u64 not_fitted = 0;

/* Adds a wait of ns to the histogram of (tid, kind) in the current generation. The entries of
 * one (tid, kind) are not written from two CPUs at once (a task's run-queue wait ends where it
 * runs; its sleeps end at its wakeup, under its pi_lock; the delayacct kinds run in the task
 * itself), so the sums need no atomic operations. */
static __always_inline void record(__u32 tid, __u32 tgid, __u32 kind, __u64 ns)
{
	struct why_key key = { .tid = tid, .kind = kind };
	struct why_val *v;
	__u32 zero = 0, s;
	void *gen;

	if (!tid)
		return; /* the idle tasks */
	gen = bpf_map_lookup_elem(&current, &zero);
	if (!gen)
		return;
	v = bpf_map_lookup_elem(gen, &key);
	if (!v) {
		struct why_val fresh = { .tgid = tgid };
		long err = bpf_map_update_elem(gen, &key, &fresh, BPF_NOEXIST);

		if (err && err != -EEXIST) {
			__sync_fetch_and_add(&not_fitted, 1);
			return;
		}
		v = bpf_map_lookup_elem(gen, &key);
		if (!v)
			return;
	}
	s = why_slot_of(ns);
	v->total_ns += ns;
	if (ns > v->max_ns)
		v->max_ns = ns;
	if (s < WHY_SLOTS)
		v->slot[s]++;
}

static __always_inline struct pending *pending_of(struct task_struct *t, int create)
{
	return bpf_task_storage_get(&pending, t, 0, create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
}

/* The state a task is in, by the member of its kernel's version. */
static __always_inline __u32 task_state(struct task_struct *t)
{
	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return (__u32)BPF_CORE_READ((struct task_struct___o *)t, state);
}

/* A task is woken: a sleep it began ends, and its wait for a CPU begins, unless it was runnable
 * already (preempted, or woken before it could sleep), whose wait for a CPU goes on. */
static __always_inline void wake(struct task_struct *p, __u64 now)
{
	struct pending *w = pending_of(p, 1);

	if (!w || w->sched_kind == WHY_KIND_CPU)
		return;
	if (w->sched_kind != NONE && w->sched_ns && now > w->sched_ns)
		record(p->pid, p->tgid, w->sched_kind, now - w->sched_ns);
	w->sched_kind = WHY_KIND_CPU;
	w->sched_ns = now;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(on_wakeup, struct task_struct *p)
{
	wake(p, bpf_ktime_get_ns());
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(on_wakeup_new, struct task_struct *p)
{
	wake(p, bpf_ktime_get_ns());
	return 0;
}

/* prev leaves the CPU: runnable (preempted, or its sleep undone by a signal), in a block-I/O
 * wait, or asleep; next runs, and its wait for a CPU ends. */
SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u64 now = bpf_ktime_get_ns();
	struct pending *w;

	if (prev->pid && (w = pending_of(prev, 1))) {
		__u32 state = has_prev_state ? (__u32)ctx[3] : task_state(prev);

		if (preempt || state == TASK_RUNNING)
			w->sched_kind = WHY_KIND_CPU;
		else if (BPF_CORE_READ_BITFIELD(prev, in_iowait))
			w->sched_kind = WHY_KIND_IO;
		else if (state & TASK_INTERRUPTIBLE)
			w->sched_kind = WHY_KIND_BLOCKED;
		else
			w->sched_kind = NONE; /* uninterruptible without I/O (D), stopped, dead */
		w->sched_ns = now;
	}
	if (next->pid && (w = pending_of(next, 0))) {
		if (w->sched_kind == WHY_KIND_CPU && w->sched_ns && now > w->sched_ns)
			record(next->pid, next->tgid, WHY_KIND_CPU, now - w->sched_ns);
		w->sched_kind = NONE;
	}
	return 0;
}

/* ---- the delayacct kinds, in the task that waits ---- */

static __always_inline void dk_start(__u32 kind)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct pending *w = pending_of(t, 1);

	if (w && kind < WHY_KIND_IRQ)
		w->dk_ns[kind] = bpf_ktime_get_ns();
}

static __always_inline void dk_end(__u32 kind)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct pending *w = pending_of(t, 0);
	__u64 now = bpf_ktime_get_ns(), began;

	if (!w || kind >= WHY_KIND_IRQ)
		return;
	began = w->dk_ns[kind];
	w->dk_ns[kind] = 0;
	if (began && now > began)
		record(t->pid, t->tgid, kind, now - began);
}

SEC("fentry/__delayacct_swapin_start")
int BPF_PROG(swapin_start) { dk_start(WHY_KIND_SWAPIN); return 0; }
SEC("fentry/__delayacct_swapin_end")
int BPF_PROG(swapin_end) { dk_end(WHY_KIND_SWAPIN); return 0; }
SEC("fentry/__delayacct_freepages_start")
int BPF_PROG(reclaim_start) { dk_start(WHY_KIND_RECLAIM); return 0; }
SEC("fentry/__delayacct_freepages_end")
int BPF_PROG(reclaim_end) { dk_end(WHY_KIND_RECLAIM); return 0; }
SEC("fentry/__delayacct_compact_start")
int BPF_PROG(compact_start) { dk_start(WHY_KIND_COMPACT); return 0; }
SEC("fentry/__delayacct_compact_end")
int BPF_PROG(compact_end) { dk_end(WHY_KIND_COMPACT); return 0; }
SEC("fentry/__delayacct_wpcopy_start")
int BPF_PROG(wpcopy_start) { dk_start(WHY_KIND_WPCOPY); return 0; }
SEC("fentry/__delayacct_wpcopy_end")
int BPF_PROG(wpcopy_end) { dk_end(WHY_KIND_WPCOPY); return 0; }

/* Thrashing waits nest: only the outer one counts. Before the start, in_thrashing says whether
 * one is under way; after the end, whether it was the outer one that ended. */
static __always_inline int in_thrashing(void)
{
	struct task_struct *t = bpf_get_current_task_btf();

	return bpf_core_field_exists(t->in_thrashing) && BPF_CORE_READ_BITFIELD(t, in_thrashing);
}

SEC("fentry/__delayacct_thrashing_start")
int BPF_PROG(thrashing_start)
{
	if (!in_thrashing())
		dk_start(WHY_KIND_THRASHING);
	return 0;
}

SEC("fexit/__delayacct_thrashing_end")
int BPF_PROG(thrashing_end)
{
	if (!in_thrashing())
		dk_end(WHY_KIND_THRASHING);
	return 0;
}

/* IRQ and softirq time stolen from a task: the kernel gives the wait itself (ns). */
SEC("fentry/__delayacct_irq")
int BPF_PROG(irq, struct task_struct *task, __u32 delta)
{
	record(task->pid, task->tgid, WHY_KIND_IRQ, delta);
	return 0;
}
