/* tsnl.h — what the taskstats queries (taskstats.c) and the exit listeners (exitlisten.c) share:
 * the family's numbers, a socket connected to it, a receiver that takes a batch of datagrams
 * without blocking, and the parser of a TASKSTATS message into its thread and process records. */
#ifndef DELAYTOP_TSNL_H
#define DELAYTOP_TSNL_H

#include <stddef.h>
#include <sys/socket.h>

#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "taskstats.h"
#include "tsabi.h"

/* The family's commands and attributes: stable kernel ABI, spelled out here so that the build
 * machine's headers do not matter. */
enum { TS_CMD_GET = 1, TS_CMD_NEW = 2 };
enum {
	TS_TYPE_PID = 1,
	TS_TYPE_TGID = 2,
	TS_TYPE_STATS = 3,
	TS_TYPE_AGGR_PID = 4,
	TS_TYPE_AGGR_TGID = 5,
	TS_TYPE_MAX = 6
};
enum { TS_ATTR_PID = 1, TS_ATTR_TGID = 2, TS_ATTR_REGISTER_CPUMASK = 3 };
/* CGROUPSTATS shares the family: its commands follow TASKSTATS'. */
enum { CGS_CMD_GET = 4, CGS_TYPE_STATS = 1, CGS_ATTR_FD = 1 };
#define TS_GENL_NAME "TASKSTATS"
#define TS_GENL_VERSION 1

#define BATCH 64     /* requests per sendto(); their answers fit the default receive buffer */
#define SLOT 8192    /* bytes per received datagram: an exit message with two records is ~1.5 KiB */

/* Receives up to BATCH datagrams at a time into its own buffer. */
struct receiver {
	struct tsabi_plan plan; /* how the replies on this socket decode */
	unsigned char *buf; /* BATCH slots of SLOT bytes */
	struct mmsghdr mm[BATCH];
	struct iovec iov[BATCH];
	struct sockaddr_nl from[BATCH]; /* who sent each datagram */
};

void tsnl_receiver_init(struct receiver *rx);
void tsnl_receiver_free(struct receiver *rx);

/* Receives what is queued, without blocking: returns the number of datagrams, 0 when none,
 * or a negative errno (-ENOBUFS: the kernel dropped messages). A datagram that another process
 * sent (a process with CAP_NET_ADMIN may send to our port or to our multicast group) is
 * emptied: its msg_len is 0. */
int tsnl_receiver_take(struct receiver *rx, int fd);

/* Whether a datagram's sender address is the kernel's (netlink port 0). */
int tsnl_from_kernel(const struct sockaddr_nl *from, socklen_t fromlen);

/* Asks for a receive buffer of size bytes; with force, beyond net.core.rmem_max where the run
 * has CAP_NET_ADMIN. */
void tsnl_set_rcvbuf(int fd, int size, int force);

/* Opens a generic-netlink socket and resolves the family. Returns 0, or a negative errno with a
 * message in err: -ENOENT when the kernel has no taskstats. */
int tsnl_connect(struct nl_sock **skp, int *family, char *err, size_t errlen);

/* Parses one TASKSTATS message into its thread and process records; returns 0 when it held at
 * least one of them. plan: how the payloads on this socket decode (remade when their shape
 * changes). */
int tsnl_parse_message(struct nlmsghdr *h, struct ts_record *thread, int *has_thread, struct ts_record *process,
		       int *has_process, struct tsabi_plan *plan);

#endif
