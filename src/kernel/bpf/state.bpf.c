/* state.bpf.c — a task iterator (SEC("iter/task")) that writes every task's state in one read:
 * per task a struct state_rec (stateabi.h) with its thread id, as the kernel numbers it globally,
 * and the letter /proc/PID/task/TID/stat shows. The loader (stateiter.c) reads it through an
 * iterator descriptor instead of opening one stat file per thread.
 *
 * The letter is worked out as the kernel's __task_state_index() does it for /proc: the state and
 * the exit state masked to what /proc reports, TASK_IDLE shown as 'I', a task waiting for an
 * rtlock shown as 'D', then the highest bit set picks the letter of "RSDTtXZPI".
 *
 * The first record (tid 0, which no task has) carries the pid namespace level of the task that
 * reads: the tids are the initial namespace's, which the loader uses only when that level is 0. */
#include "whykern.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "stateabi.h"

char LICENSE[] SEC("license") = "GPL";

/* include/linux/sched.h (Linux 5.15 on for TASK_RTLOCK_WAIT) */
#define TASK_REPORT 0x7f
#define TASK_REPORT_IDLE 0x80
#define TASK_IDLE 0x402
#define TASK_RTLOCK_WAIT 0x1000

/* include/linux/bpf.h: what an iterator program is given */
struct bpf_iter_meta {
	void *seq;
	__u64 session_id;
	__u64 seq_num;
} __attribute__((preserve_access_index));

struct bpf_iter__task {
	struct bpf_iter_meta *meta;
	struct task_struct *task;
} __attribute__((preserve_access_index));

/* The state a task is in, by the member of its kernel's version. */
static __always_inline __u32 state_of(struct task_struct *t)
{
	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return (__u32)BPF_CORE_READ((struct task_struct___o *)t, state);
}

/* The letter /proc shows for a state and exit state (__task_state_index). */
static __always_inline char letter_of(__u32 state, __u32 exit_state)
{
	__u32 rep = (state | exit_state) & TASK_REPORT;
	int i = 0;

	if ((state & TASK_IDLE) == TASK_IDLE)
		rep = TASK_REPORT_IDLE;
	if (state & TASK_RTLOCK_WAIT)
		rep = 0x2; /* TASK_UNINTERRUPTIBLE */
	while (rep && i < 9) { /* fls(): the highest bit set, 1-based */
		rep >>= 1;
		i++;
	}
	return "RSDTtXZPI"[i < 9 ? i : 8];
}

SEC("iter/task")
int dump_states(struct bpf_iter__task *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct task_struct *t = ctx->task;
	struct state_rec rec = { 0 };

	if (ctx->meta->seq_num == 0) {
		struct task_struct *me = (struct task_struct *)bpf_get_current_task();

		rec.tid = 0;
		rec.state = (char)BPF_CORE_READ(me, thread_pid, level);
		bpf_seq_write(seq, &rec, sizeof(rec));
	}
	if (!t)
		return 0;
	rec.tid = (__u32)BPF_CORE_READ(t, pid);
	rec.state = letter_of(state_of(t), (__u32)BPF_CORE_READ(t, exit_state));
	bpf_seq_write(seq, &rec, sizeof(rec));
	return 0;
}
