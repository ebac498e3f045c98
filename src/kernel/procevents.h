/* procevents.h — the kernel's process events connector (NETLINK_CONNECTOR, CN_IDX_PROC): every
 * fork (a process or a thread), exec, comm change and exit on the machine as it happens, with
 * thread and thread group ids, so that a reader knows which tasks exist without walking /proc.
 * Before Linux 6.6 it needs CAP_NET_ADMIN; it needs the initial user and pid namespaces (the
 * kernel tells no one else); the socket's buffer can overflow under a storm of forks, and then
 * the reader must walk /proc again. Parsing a datagram is pure (procevents_parse); the socket is the kernel
 * edge. */
#ifndef DELAYTOP_PROCEVENTS_H
#define DELAYTOP_PROCEVENTS_H

#include <linux/netlink.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

enum procevent_kind {
	PROCEVENT_FORK, /* a task was made: tid, tgid, and the parent's (a thread's is its process's
	                   parent, not the thread that made it) */
	PROCEVENT_EXEC, /* a process ran exec (its other threads end first, each with an exit) */
	PROCEVENT_COMM, /* a task's name changed: comm */
	PROCEVENT_EXIT, /* a task ended: tid, tgid, and its parent's */
};

struct procevent {
	enum procevent_kind kind;
	uint32_t tid, tgid;
	uint32_t parent_tid, parent_tgid; /* fork and exit; 0 otherwise */
	uint64_t when_ns;                 /* CLOCK_MONOTONIC when the kernel sent it */
	char comm[16];                    /* comm: the new name, terminated; "" otherwise */
};

typedef void (*procevent_fn)(void *arg, const struct procevent *e);

/* Calls fn for each event of the connector message in buf[0..len) (one netlink datagram, which may
 * hold several messages); events of other kinds (uid, gid, sid, ptrace, coredump) and messages of
 * other connectors are passed over. Returns how many events it gave, or -EINVAL for a malformed
 * datagram (nothing after the damage is given). Pure. */
int procevents_parse(const void *buf, size_t len, procevent_fn fn, void *arg);

/* Whether a datagram whose sender recvfrom() gave as from (fromlen bytes) came from the kernel
 * (port 0). Any process with CAP_NET_ADMIN may send to a netlink socket's port, but only the
 * kernel sends from port 0: what comes from elsewhere is a forged fork or exit and is dropped.
 * Pure. */
int procevents_from_kernel(const struct sockaddr_nl *from, socklen_t fromlen);

struct procevents;

/* Subscribes to the events with a receive buffer of rcvbuf bytes (0: the kernel's default; more
 * than net.core.rmem_max through SO_RCVBUFFORCE where allowed, never in a capability-raised run
 * of a user other than root), once the kernel said yes (within a second). Returns 0, or a
 * negative errno with a message in err: -EPERM without CAP_NET_ADMIN before Linux 6.6,
 * -EPROTONOSUPPORT (or another) where the kernel has no connector or another network namespace
 * hides it, -ETIMEDOUT when it did not answer. */
int procevents_open(struct procevents **out, int rcvbuf, char *err, size_t errlen);
void procevents_close(struct procevents *p);

/* The descriptor to poll for input. */
int procevents_fd(const struct procevents *p);

/* Gives every event that the kernel sent (procevents_from_kernel) to fn, without blocking.
 * Returns how many, or -ENOBUFS when the kernel dropped some since the last call because the
 * buffer was full (the events after the loss are still given: the caller must walk /proc again to
 * know the tasks), or another negative errno. */
int procevents_drain(struct procevents *p, procevent_fn fn, void *arg);

#endif
