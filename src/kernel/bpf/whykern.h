/* whykern.h — the few kernel definitions why.bpf.c uses, written here rather than generated from
 * a kernel's BTF (a vmlinux.h), so that the build needs no running kernel: the integer types,
 * the BPF constants of the user-space ABI (stable by the kernel's rule), the task states, and the
 * members of struct task_struct that the programs read. The structs carry preserve_access_index:
 * clang records each access as a CO-RE relocation, and libbpf places it at load time by the
 * running kernel's BTF, wherever that kernel keeps the member; only the names must match. */
#ifndef DELAYTOP_WHYKERN_H
#define DELAYTOP_WHYKERN_H

typedef signed char __s8;
typedef unsigned char __u8;
typedef short __s16;
typedef unsigned short __u16;
typedef int __s32;
typedef unsigned int __u32;
typedef long long __s64;
typedef unsigned long long __u64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;
typedef _Bool bool;
#define true 1
#define false 0

/* include/uapi/linux/bpf.h */
enum {
	BPF_MAP_TYPE_HASH = 1,
	BPF_MAP_TYPE_PERCPU_ARRAY = 6,
	BPF_MAP_TYPE_LRU_HASH = 9,
	BPF_MAP_TYPE_ARRAY_OF_MAPS = 12,
	BPF_MAP_TYPE_TASK_STORAGE = 29,
};
enum {
	BPF_NOEXIST = 1,           /* bpf_map_update_elem: only a new key */
	BPF_F_NO_PREALLOC = 1,     /* map_flags: entries allocated when first used */
	BPF_LOCAL_STORAGE_GET_F_CREATE = 1,
	BPF_F_USER_STACK = 1 << 8, /* bpf_get_stack: the user stack */
};

/* include/uapi/asm-generic/errno-base.h, errno.h */
#define ENOMEM 12
#define EFAULT 14
#define EEXIST 17
#define ENOSPC 28

/* include/linux/sched.h: the task states a task leaves the CPU in */
#define TASK_RUNNING 0x0000
#define TASK_INTERRUPTIBLE 0x0001
#define TASK_UNINTERRUPTIBLE 0x0002

struct task_struct {
	unsigned int __state; /* "state" before Linux 5.14: see task_struct___o */
	int pid;              /* the thread */
	int tgid;             /* its process */
	unsigned int in_iowait : 1;    /* set by io_schedule_prepare(): a block-I/O wait */
	unsigned int in_thrashing : 1; /* Linux 6.3 on: in a thrashing wait (delayacct nests them) */
	int exit_state;                /* EXIT_ZOMBIE, EXIT_DEAD (state.bpf.c) */
	struct pid *thread_pid;        /* its pid, whose level is its pid namespace's (state.bpf.c) */
} __attribute__((preserve_access_index));

/* include/linux/pid.h: how deep the namespace of a pid is (0: the initial one) */
struct pid {
	unsigned int level;
} __attribute__((preserve_access_index));

struct seq_file;

/* The same before Linux 5.14 (CO-RE's ___ suffix names a flavour of the struct). */
struct task_struct___o {
	volatile long state;
} __attribute__((preserve_access_index));

#endif
