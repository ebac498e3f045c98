/* kernelops.h — the seam between the sampler and the kernel edge: the few calls the collectors,
 * the tables and the sampler make of the kernel, as one table of functions. kernel_open() makes
 * the one instance that calls the real edge (procfs.h, taskstats.h, exitlisten.h, cgroupfs.h,
 * delayacct.h, psifile.h, stateiter.h, timing.h's clocks); the sampler is given an instance when it is made
 * and calls the kernel only through it, so that unit tests can drive the collectors and the
 * sampler with a fake kernel (fixture /proc trees, taskstats replies, exit records, a clock).
 *
 * The groups, in the table's order:
 *  - set-up: the taskstats client, the exit listeners, closing.
 *  - the task set: which processes exist, their threads, a task's process, a process's stat.
 *    The real instance walks /proc for each; another source of the task set (the process events
 *    connector, told of every fork, exec and exit) can answer them from what it keeps, and fall
 *    back to these walks where it is not available.
 *  - a task's facts from /proc: command lines, cgroups, thread states, the counters anyone may
 *    read (limited mode), the accounting the per-process taskstats answer lacks.
 *  - taskstats: queries by pid or tgid; the exit records waiting since the last drain.
 *  - cgroups: the hierarchy shown, the walk below a cgroup, its directory's owner, its pressure
 *    and (v1) its states.
 *  - the machine: the delay-accounting switch, its state at boot, /proc/pressure, the clocks.
 *  - eBPF (--why): the latency programs loaded and unloaded, the interval's histograms read.
 *
 * Each function takes the instance first: a fake embeds struct kernel as its first member. The
 * real one's task-set and /proc functions need no set-up; the taskstats ones answer -ENOTCONN
 * until open_taskstats succeeded.
 *
 * Which calls may run at once, on two threads: only open_threads, thread_state and close_threads
 * (each thread on handles of its own), beside one another and beside query and thread_io, which
 * the answers' callback calls (the first reading of many threads: prestate.h reads their states
 * on a second thread while the sampler's thread asks taskstats). Every other call comes from one
 * thread at a time, the sampler's. An instance keeps the three safe to call so: the real one's
 * keep nothing (a directory descriptor and a read each), a fake's count their calls atomically. */
#ifndef DELAYTOP_KERNELOPS_H
#define DELAYTOP_KERNELOPS_H

#include <stddef.h>
#include <stdint.h>

#include "cgroupfs.h"
#include "counters.h"
#include "model.h"
#include "exitlisten.h"
#include "latency.h"
#include "procfs.h"
#include "psi.h"
#include "stateiter.h"
#include "taskstats.h"

struct kernel;

struct kernel_ops {
	/* ---- set-up ---- */
	/* Opens the taskstats client and asks about probe_pid: 0; -EPERM without CAP_NET_ADMIN;
	 * -ESRCH when it did not answer; another negative errno with a message in err. The client
	 * stays open for CGROUPSTATS whenever it could be opened, even when the probe failed. */
	int (*open_taskstats)(struct kernel *k, uint32_t probe_pid, char *err, size_t errlen);
	/* Registers the exit listeners (exitlisten.h), each with rcvbuf bytes of receive buffer.
	 * Returns 0 or a negative errno with a message in err. */
	int (*open_exits)(struct kernel *k, int rcvbuf, char *err, size_t errlen);
	/* Closes everything and frees the instance. */
	void (*close)(struct kernel *k);

	/* ---- the task set ---- */
	/* Appends the pids of every process, or of those of pids[0..npids) that exist, to *out (a
	 * growable array of *cap). Returns 0 or a negative errno. */
	int (*list_processes)(struct kernel *k, const uint32_t *pids, size_t npids, uint32_t **out, size_t *n,
			      size_t *cap);
	/* The same processes, each with its stat read; the entries belong to k and live until the
	 * next walk. Returns 0 or a negative errno. */
	int (*walk_processes)(struct kernel *k, const uint32_t *pids, size_t npids, struct proc_entry **out,
			      size_t *n);
	/* One process's stat; 0, or -1 when it is gone. */
	int (*read_process)(struct kernel *k, uint32_t pid, struct proc_entry *e);
	/* Appends the thread ids of pid to *tids (growable, *cap); returns how many, 0 when it is gone. */
	size_t (*list_threads)(struct kernel *k, uint32_t pid, uint32_t **tids, size_t *n, size_t *cap);
	/* The process of a task id; 0 when the task is gone. */
	uint32_t (*tgid_of)(struct kernel *k, uint32_t id);
	/* Where the last list of processes came from: TASKS_WALKED or TASKS_FOLLOWED (model.h); when
	 * followed, *walks gets the walks of /proc made to seed the followed set since the start. */
	enum task_source (*tasks_from)(const struct kernel *k, uint64_t *walks);

	/* ---- a task's facts from /proc ---- */
	/* Calls fn with the command line of each of pids[0..n) that still exists (procfs_describe). */
	void (*describe)(struct kernel *k, const uint32_t *pids, size_t n,
			 void (*fn)(void *arg, uint32_t pid, const char *cmdline), void *arg);
	/* A process's path in the hierarchy h into buf; 0, or -1 when it is gone or has none. */
	int (*task_cgroup)(struct kernel *k, uint32_t pid, const struct cgroup_hier *h, char *buf,
			   size_t size);
	/* The threads of pid opened for their states: a handle, or -1 when the process is gone.
	 * thread_state gives a thread's state letter through it, or 0 when the thread is gone;
	 * close_threads ends the handle. */
	int (*open_threads)(struct kernel *k, uint32_t pid);
	char (*thread_state)(struct kernel *k, int handle, uint32_t tid);
	void (*close_threads)(struct kernel *k, int handle);
	/* Every task's state letter in one read (stateiter.h), sorted by tid, into *out: the table
	 * belongs to k and lives until the next call; 0, or a negative errno when there is no such
	 * source (then the states are read through open_threads). Called from the sampler's thread. */
	int (*all_states)(struct kernel *k, const struct tid_state **out, size_t *n);
	/* What anyone may read of a thread (procfs_thread_counters): 0, or -ESRCH when it is gone. */
	int (*thread_counters)(struct kernel *k, uint32_t pid, uint32_t tid, struct task_counters *c,
			       char *state, uint64_t *start_ticks);
	/* The accounting of a whole process that its taskstats answer lacks (procfs_process_acct). */
	void (*process_acct)(struct kernel *k, uint32_t pid, struct task_counters *c);
	/* A thread's exact I/O counters (procfs_thread_io): 0 or a negative errno. */
	int (*thread_io)(struct kernel *k, uint32_t pid, uint32_t tid, struct task_counters *c);

	/* ---- taskstats ---- */
	/* Queries ids[0..n) by pid or tgid (or each as its TS_ASK_TGID bit says), in their order, fn
	 * called for each answer (ts_query): tasks that are gone are skipped. Returns 0, -EPERM without the capability, or another negative errno. */
	int (*query)(struct kernel *k, enum ts_by by, const uint32_t *ids, size_t n, ts_reply_fn fn,
		     void *arg);
	/* The descriptor that polls readable when exit records wait, or -1 without listeners. */
	int (*exits_fd)(const struct kernel *k);
	/* Calls fn for each exit message waiting, the lost ones added to *lost (exitlisten_drain). */
	void (*exits_drain)(struct kernel *k, ts_exit_fn fn, void *arg, uint64_t *lost);

	/* ---- cgroups ---- */
	/* The hierarchy shown (cgroupfs_detect). */
	void (*cgroup_detect)(struct kernel *k, struct cgroup_hier *h);
	/* Calls fn for path and every cgroup below it, parents first, each with its directory's
	 * inode (cgroupfs_walk): 0 or a negative errno. */
	int (*cgroup_walk)(struct kernel *k, const struct cgroup_hier *h, const char *path, cgroupfs_walk_fn fn,
			   void *arg);
	/* The owner and inode of a cgroup's directory (cgroupfs_owner): 0, -ENOENT when it is gone,
	 * or another negative errno. */
	int (*cgroup_owner)(struct kernel *k, const struct cgroup_hier *h, const char *path, uint32_t *uid,
			    uint64_t *ino);
	/* A cgroup's pressure files read at when_ns. */
	void (*cgroup_pressure)(struct kernel *k, const struct cgroup_hier *h, const char *path,
				uint64_t when_ns, struct psi_snapshot *out);
	/* A v1 cgroup's tasks by state (CGROUPSTATS): 0 or a negative errno. */
	int (*cgroup_states)(struct kernel *k, const struct cgroup_hier *h, const char *path,
			     uint64_t out[CG_STATES]);

	/* ---- the machine ---- */
	/* The kernel.task_delayacct switch now (DELAYACCT_*). */
	int (*delayacct)(struct kernel *k);
	/* Whether the switch exists and the kernel booted with it off (delayacct_off_at_boot). */
	int (*delayacct_off_at_boot)(struct kernel *k);
	/* The system's pressure (/proc/pressure) at when_ns. */
	void (*pressure)(struct kernel *k, uint64_t when_ns, struct psi_snapshot *out);
	/* CLOCK_MONOTONIC and CLOCK_BOOTTIME, ns. */
	uint64_t (*mono_ns)(struct kernel *k);
	uint64_t (*boot_ns)(struct kernel *k);

	/* ---- eBPF (--why) ---- */
	/* Loads and attaches the latency programs (whybpf.h), with the off-CPU stacks' maps when
	 * stacks (2: and a selected process's new processes selected from birth): 0 with the kinds measured in *attached and err naming those left out (empty:
	 * none), or a negative errno with one sentence in err. */
	int (*why_open)(struct kernel *k, lat_mask *attached, int stacks, char *err, size_t errlen);
	/* The waits since the last read (or the load), appended to b, and the maps emptied: 0 or a
	 * negative errno. */
	int (*why_read)(struct kernel *k, struct lat_batch *b);
	/* Unloads them; nothing when they are not loaded. */
	void (*why_close)(struct kernel *k);
	/* The tasks (by_tid) or processes whose off-CPU stacks are taken from now on: 0 or a
	 * negative errno. NULL in a kernel without stacks (a fake). */
	int (*why_select)(struct kernel *k, const uint32_t *ids, size_t n, int by_tid);
	/* The stacks of the interval the last why_read ended, frames as addresses; NULL: none. */
	const struct stk_batch *(*why_stacks)(struct kernel *k);
	/* A frame's name (symbols.h): a user frame of process tgid, or a kernel frame. */
	const char *(*why_frame)(struct kernel *k, uint32_t tgid, uint64_t addr, int user, char *buf, size_t size);
	/* Process tgid's frames will be named, maybe after it ended: its files are read now. */
	void (*why_warm)(struct kernel *k, uint32_t tgid);
	/* The interval's frames are named: the processes none was named of are forgotten. */
	void (*why_frames_done)(struct kernel *k);
};

/* An instance: its functions, and whatever it keeps after this member. */
struct kernel {
	const struct kernel_ops *ops;
};

/* Makes the instance that calls the real kernel edge, with /proc's readers open; the taskstats
 * client and the exit listeners are opened through its ops. Returns 0, or a negative errno with a
 * message in err (/proc is not procfs). */
int kernel_open(struct kernel **out, char *err, size_t errlen);

#endif
