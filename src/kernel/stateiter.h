/* stateiter.h — every task's state letter in one read, through an eBPF task iterator
 * (bpf/state.bpf.c, embedded through a bpftool skeleton) instead of one /proc stat file per
 * thread. Owns the iterator program: loaded lazily at the first read, kept until closed, an
 * iterator descriptor made and read to its end at each read.
 *
 * Unavailable (a negative errno, and every later read says the same without trying again) in a
 * build without libbpf, without the privileges to load it (CAP_BPF and CAP_PERFMON, or root),
 * without the kernel's BTF, when delaytop or its /proc is not in the initial pid namespace (the
 * iterator gives the kernel's global ids), or when DELAYTOP_STATES=proc asks for /proc's files. */
#ifndef DELAYTOP_STATEITER_H
#define DELAYTOP_STATEITER_H

#include <stddef.h>
#include <stdint.h>

/* A task and the letter /proc/PID/task/TID/stat shows for it. */
struct tid_state {
	uint32_t tid;
	char state;
};

struct stateiter;

/* Every task's state into *out (growable, *cap), sorted by tid, *si loaded at the first call:
 * the number of tasks, or a negative errno when unavailable. */
long stateiter_read(struct stateiter **si, struct tid_state **out, size_t *cap);

/* Unloads it; nothing when it was never loaded. */
void stateiter_close(struct stateiter *si);

#endif
