/* procfs.h — what delaytop reads from /proc: the process walk, the metadata of new processes
 * (through libproc2), the threads of a process, a thread's state, and the counters anyone may
 * read without CAP_NET_ADMIN. */
#ifndef DELAYTOP_PROCFS_H
#define DELAYTOP_PROCFS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "counters.h"

struct procfs;

/* One process as the walk saw it. */
struct proc_entry {
	uint32_t pid, ppid;
	uint64_t start_ticks; /* clock ticks after boot */
	char state;
	int nlwp; /* threads */
	int32_t nice;
	uint32_t euid;
	char comm[64];
};

/* 0 when /proc is procfs; else a negative errno with a message in err (unmounted, delaytop would
 * see no tasks at all). */
int procfs_mounted(char *err, size_t errlen);

/* Opens the readers; fails with a negative errno and a message in err when /proc is not procfs
 * (unmounted: delaytop would see no tasks at all). */
int procfs_open(struct procfs **out, char *err, size_t errlen);
void procfs_close(struct procfs *p);

/* Appends the pids in /proc to *out (a growable array of *cap): every process, or those of
 * pids[0..npids) when npids > 0. Returns 0 or a negative errno. */
int procfs_list(const uint32_t *pids, size_t npids, uint32_t **out, size_t *n, size_t *cap);

/* Reads one process as the walk does; returns 0, or -1 when it is gone. */
int procfs_read_process(uint32_t pid, struct proc_entry *e);

/* Walks /proc: every process, or only pids[0..npids) when npids > 0. Each entry comes from the
 * main thread's /proc/PID/task/PID/stat: the kernel makes /proc/PID/stat by summing over every
 * thread, which costs 0.3 ms per 1,000 threads per refresh (measured), for fields delaytop does
 * not use. The result belongs to p and lives until the next walk. Returns 0 or a negative errno. */
int procfs_walk(struct procfs *p, const uint32_t *pids, size_t npids, struct proc_entry **out, size_t *n);

/* Calls fn with the command line ("[kworker/0:1]" for a kernel thread) of each of pids[0..n) that
 * still exists, read through libproc2: for processes that are new, changed user or ran exec. The
 * string lives until fn returns. */
void procfs_describe(struct procfs *p, const uint32_t *pids, size_t n,
		     void (*fn)(void *arg, uint32_t pid, const char *cmdline), void *arg);

/* The process (thread group) of a task id: a thread that is not its process's main thread is
 * not listed in /proc but can be opened there as /proc/TID. Returns 0 when the task is gone. */
uint32_t procfs_tgid(uint32_t id);

/* Appends the thread ids of pid to *tids (a growable array of *cap). Returns how many were added,
 * 0 when the process is gone. Plain readdir: libproc2 would stat() every thread's directory,
 * which costs 3 µs per thread per refresh. */
size_t procfs_threads(uint32_t pid, uint32_t **tids, size_t *n, size_t *cap);

/* The state letter of a thread from /proc/PID/task/TID/stat, or 0 when it is gone. */
char procfs_thread_state(uint32_t pid, uint32_t tid);

/* The directory of pid's threads (/proc/PID/task), open for procfs_thread_state_at, or -1 when
 * the process is gone. Reading many threads' states relative to it spares the kernel the walk of
 * the path's first components for each (half the cost of a state read). */
int procfs_open_tasks(uint32_t pid);

/* The state letter of thread tid from TID/stat under dirfd (procfs_open_tasks), or 0. */
char procfs_thread_state_at(int dirfd, uint32_t tid);

/* What /proc gives anyone about a thread: CPU delay, run time and timeslices from schedstat, and
 * block-I/O delay (ticks, no count) and user and system CPU time from stat. Also its state and start time. Returns 0,
 * or -ESRCH when it is gone. */
int procfs_thread_counters(uint32_t pid, uint32_t tid, struct task_counters *c, char *state,
			   uint64_t *start_ticks);

/* The accounting fields of process pid that the kernel's per-process taskstats answer lacks
 * (HAVE_THREAD_ONLY), from /proc, for the whole process, ended threads included: the I/O counters
 * from /proc/PID/io (readable only where delaytop may trace the process), user and system CPU
 * time from /proc/PID/stat (clock ticks), the high-water marks from /proc/PID/status. Each file
 * is optional: c->have gains the groups read. */
void procfs_process_acct(uint32_t pid, struct task_counters *c);

/* The I/O counters of thread tid from /proc/PID/task/TID/io into c (HAVE_IO_BYTES and
 * HAVE_IO_CHARS): exact, where taskstats rounds each down to a multiple of 1024, the counts of
 * system calls too. Returns 0, or a negative errno (gone, or not readable by delaytop). */
int procfs_thread_io(uint32_t pid, uint32_t tid, struct task_counters *c);

/* Parsers of /proc/PID/io and of the VmHWM and VmPeak lines of /proc/PID/status into c; each
 * returns 0 and sets its HAVE_* bits, or -EINVAL when a field is missing. Pure. */
int procfs_parse_io(const char *text, struct task_counters *c);
int procfs_parse_memory(const char *text, struct task_counters *c);

/* What delaytop takes from a stat file of /proc (proc(5)): the state and the comm, the parent,
 * the nice value, the threads, the start (clock ticks after boot); the CPU times and the block-I/O
 * delay (clock ticks), each where the line is long enough. */
struct proc_stat {
	char state;
	int ppid, nice, nlwp;
	unsigned long long start_ticks;
	int have_times, have_blkio;
	unsigned long long utime, stime, blkio;
	char comm[64];
};
/* Parses the text of a stat file into *st; returns 0, or -EINVAL when it lacks the comm, the
 * state, the parent, the threads or the start. Pure. */
int procfs_parse_stat(const char *text, struct proc_stat *st);
/* Reads a small file of /proc into buf (size bytes), terminated; returns its length or a
 * negative errno. */
ssize_t procfs_read(const char *path, char *buf, size_t size);

#endif
