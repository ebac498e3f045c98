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
 * and dies with the task. The histograms go to the map of the current generation (whyabi.h).
 *
 * - stacks: for the tasks user space selects (why_select), sched_switch also takes the kernel
 *   and user stacks of the task leaving the CPU and the state it leaves in; when it runs again,
 *   its time off the CPU goes to the off-CPU map of the current generation, by (task, state,
 *   stacks), as libbpf-tools' offcputime sums it. A task not selected costs one lookup. */
#include "whykern.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "whyabi.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by the loader: a process forked by a selected process (by tgid) is selected too (command
 * mode follows the command's descendants from their birth). */
const volatile bool follow_forks = false;

/* Set by the loader before loading, from the kernel's BTF: sched_switch gives the state prev
 * left in (Linux 5.18 on), which is exact where prev->__state may already say TASK_WAKING. */
const volatile bool has_prev_state = false;

/* A task's pending waits. */
struct pending {
	__u64 sched_ns;   /* when the wait of sched_kind began */
	__u32 sched_kind; /* WHY_KIND_CPU, _IO or _BLOCKED while one is pending, else NONE */
	__u32 pad;
	__u64 dk_ns[WHY_KIND_IRQ]; /* the delayacct kinds' waits begun, by kind (0: none) */
	__u64 off_ns;              /* a selected task: when it left the CPU (0: not selected) */
	__u32 off_id, off_state;   /* the id it is counted under, the state it left in */
	__s64 kstack, ustack;      /* its stacks then */
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

/* ---- the stacks' maps ---- */

/* The selected tasks (whyabi.h): a tid or a tgid -> WHY_SEL_TID or WHY_SEL_TGID. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, WHY_SELECT_MAX);
	__type(key, __u32);
	__type(value, __u32);
} why_select SEC(".maps");

/* The stacks' frames by id (a hash of the frames): the WHY_STACKS_MAX used last, so that a long
 * run goes on taking new stacks; a lookup marks a stack used. Allocated whole at loading (an LRU
 * map always is). The loader shrinks the stack maps to one entry when no stacks are wanted. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, WHY_STACKS_MAX);
	__type(key, __s64);
	__type(value, struct why_frames);
} why_stacks SEC(".maps");

/* Where a stack is taken before it is looked up (a stack is too large for the BPF stack). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct why_frames);
} why_scratch SEC(".maps");

struct off_generation {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, WHY_OFF_MAX);
	__type(key, struct why_off_key);
	__type(value, struct why_off_val);
} off_a SEC(".maps"), off_b SEC(".maps");

/* The off-CPU generation the programs fill: 0 off_a, 1 off_b. The loader flips it before it
 * swaps the latency generation, whose update waits for the programs running. */
__u32 off_gen = 0;
/* What did not fit, since loading. */
struct why_stack_lost stack_lost = {};

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

/* Adds a selected task's time off the CPU to the current off-CPU generation. */
static __always_inline void off_record(struct pending *w, __u32 tgid, __u64 ns)
{
	struct why_off_key key = { .id = w->off_id, .state = w->off_state, .kstack = w->kstack, .ustack = w->ustack };
	void *gen = off_gen ? (void *)&off_b : (void *)&off_a;
	struct why_off_val *v = bpf_map_lookup_elem(gen, &key);

	if (!v) {
		struct why_off_val fresh = { .tgid = tgid };
		long err = bpf_map_update_elem(gen, &key, &fresh, BPF_NOEXIST);

		if (err && err != -EEXIST) {
			__sync_fetch_and_add(&stack_lost.entries, 1);
			return;
		}
		v = bpf_map_lookup_elem(gen, &key);
		if (!v)
			return;
	}
	__sync_fetch_and_add(&v->ns, ns);
	__sync_fetch_and_add(&v->count, 1);
}

/* A stack's id: a hash of its frames, not negative. */
static __always_inline __s64 stack_hash(const struct why_frames *f)
{
	__u64 h = 0x9e3779b97f4a7c15ull;

#pragma unroll
	for (int i = 0; i < WHY_STACK_DEPTH; i++) {
		h = (h ^ f->pc[i]) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	return (__s64)(h >> 1);
}

/* Whether two stacks' frames are the same. */
static __always_inline bool same_frames(const struct why_frames *a, const struct why_frames *b)
{
#pragma unroll
	for (int i = 0; i < WHY_STACK_DEPTH; i++)
		if (a->pc[i] != b->pc[i])
			return false;
	return true;
}

/* The id of the current stack (the user stack with BPF_F_USER_STACK), its frames kept in
 * why_stacks under it: -EFAULT when there is none (a kernel thread's user stack), another
 * negative errno when it was not taken or did not fit (counted in *lost): no memory, or another
 * stack has its hash (the frames are compared, so that an id never names two stacks). */
static __always_inline __s64 stack_of(void *ctx, __u64 flags, __u64 *lost)
{
	__u32 zero = 0;
	struct why_frames *f = bpf_map_lookup_elem(&why_scratch, &zero), *known;
	__s64 id;
	long n;

	if (!f)
		return -ENOMEM;
	/* the kernel zeroes the buffer past the frames it writes */
	n = bpf_get_stack(ctx, f->pc, sizeof(f->pc), flags);
	if (n <= 0)
		return n < 0 && n != -EFAULT ? n : -EFAULT;
	id = stack_hash(f);
	known = bpf_map_lookup_elem(&why_stacks, &id);
	if (!known) {
		long err = bpf_map_update_elem(&why_stacks, &id, f, BPF_NOEXIST);

		if (!err)
			return id;
		known = err == -EEXIST ? bpf_map_lookup_elem(&why_stacks, &id) : NULL; /* another CPU's */
	}
	if (known && same_frames(known, f))
		return id;
	__sync_fetch_and_add(lost, 1);
	return -ENOSPC;
}

/* prev, leaving the CPU in state, is selected: its stacks and state are kept until it runs. */
static __always_inline void off_begin(void *ctx, struct task_struct *prev, struct pending *w, __u32 state,
				      __u64 now)
{
	__u32 pid = prev->pid, tgid = prev->tgid;
	__u32 *sel = bpf_map_lookup_elem(&why_select, &pid);

	w->off_ns = 0;
	if (sel && *sel == WHY_SEL_TID) {
		w->off_id = pid;
	} else {
		sel = bpf_map_lookup_elem(&why_select, &tgid);
		if (!sel || *sel != WHY_SEL_TGID)
			return;
		w->off_id = tgid;
	}
	w->off_state = state;
	w->kstack = stack_of(ctx, 0, &stack_lost.kstacks);
	w->ustack = stack_of(ctx, BPF_F_USER_STACK, &stack_lost.ustacks);
	w->off_ns = now;
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
		off_begin(ctx, prev, w,
			  preempt || state == TASK_RUNNING  ? WHY_STATE_R
			  : state & TASK_UNINTERRUPTIBLE    ? WHY_STATE_D
							    : WHY_STATE_S,
			  now);
	}
	if (next->pid && (w = pending_of(next, 0))) {
		if (w->sched_kind == WHY_KIND_CPU && w->sched_ns && now > w->sched_ns)
			record(next->pid, next->tgid, WHY_KIND_CPU, now - w->sched_ns);
		w->sched_kind = NONE;
		if (w->off_ns && now > w->off_ns)
			off_record(w, next->tgid, now - w->off_ns);
		w->off_ns = 0;
	}
	return 0;
}

/* A new process of a selected process is selected from its birth, when follow_forks is set (a
 * full filter map leaves it out). */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(on_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = parent->tgid, ctgid = child->tgid, mode = WHY_SEL_TGID;
	__u32 *sel;

	if (!follow_forks || ctgid == ptgid)
		return 0; /* a thread: its process's selection covers it */
	sel = bpf_map_lookup_elem(&why_select, &ptgid);
	if (sel && *sel == WHY_SEL_TGID)
		bpf_map_update_elem(&why_select, &ctgid, &mode, BPF_NOEXIST);
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
