/* procevents.c — the process events connector: its datagrams parsed, and its socket. */
#include "config.h"

#include <errno.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "i18n.h"
#include "procevents.h"
#include "secure.h"
#include "xalloc.h"

#define BUF_SIZE (64 * 1024)

struct procevents {
	int fd;
	unsigned char *buf; /* BUF_SIZE bytes, for one datagram */
};

/* The part of struct proc_event before its union, and each kind's part of the union, as the
 * kernel lays them out (linux/cn_proc.h); read by offset, since a datagram need not be aligned. */
#define EV_WHAT 0
#define EV_WHEN 8
#define EV_DATA 16
#define EV_MIN  (EV_DATA + 16) /* the largest part read: two pairs of ids, or one pair and a comm */

static uint32_t u32_at(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t u64_at(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The event in ev[0..len) into e; 0, or -1 for a kind delaytop does not use. */
static int event_of(const unsigned char *ev, size_t len, struct procevent *e)
{
	const unsigned char *d = ev + EV_DATA;

	memset(e, 0, sizeof(*e));
	e->when_ns = u64_at(ev + EV_WHEN);
	switch (u32_at(ev + EV_WHAT)) {
	case PROC_EVENT_FORK:
		e->kind = PROCEVENT_FORK;
		e->parent_tid = u32_at(d), e->parent_tgid = u32_at(d + 4);
		e->tid = u32_at(d + 8), e->tgid = u32_at(d + 12);
		return 0;
	case PROC_EVENT_EXEC:
		e->kind = PROCEVENT_EXEC;
		e->tid = u32_at(d), e->tgid = u32_at(d + 4);
		return 0;
	case PROC_EVENT_COMM:
		if (len < EV_DATA + 8 + sizeof(e->comm))
			return -1;
		e->kind = PROCEVENT_COMM;
		e->tid = u32_at(d), e->tgid = u32_at(d + 4);
		memcpy(e->comm, d + 8, sizeof(e->comm) - 1);
		return 0;
	case PROC_EVENT_EXIT:
		e->kind = PROCEVENT_EXIT;
		e->tid = u32_at(d), e->tgid = u32_at(d + 4);
		if (len >= EV_DATA + 24) /* the parent, since Linux 4.18 */
			e->parent_tid = u32_at(d + 16), e->parent_tgid = u32_at(d + 20);
		return 0;
	default: return -1;
	}
}

/* Calls fn with each connector message of the datagram buf[0..len) (its header, and its cn.len
 * bytes of data) until fn returns non-zero, which it then returns. Returns 0 when every message
 * was seen, or -EINVAL for a malformed datagram (fn saw the messages before the damage). */
static int each_message(const unsigned char *buf, size_t len,
                        int (*fn)(void *arg, const struct cn_msg *cn, const unsigned char *data), void *arg)
{
	while (len >= sizeof(struct nlmsghdr)) {
		struct nlmsghdr h;
		struct cn_msg cn;
		size_t step, size;
		int rc;

		memcpy(&h, buf, sizeof(h));
		if (h.nlmsg_len < sizeof(h) || h.nlmsg_len > len)
			return -EINVAL;
		if (h.nlmsg_type == NLMSG_DONE || h.nlmsg_type >= NLMSG_MIN_TYPE) {
			size = h.nlmsg_len - NLMSG_HDRLEN;
			if (size < sizeof(cn))
				return -EINVAL;
			memcpy(&cn, buf + NLMSG_HDRLEN, sizeof(cn));
			if (cn.len > size - sizeof(cn))
				return -EINVAL;
			rc = fn(arg, &cn, buf + NLMSG_HDRLEN + sizeof(cn));
			if (rc)
				return rc;
		}
		step = NLMSG_ALIGN(h.nlmsg_len);
		if (step >= len)
			break;
		buf += step;
		len -= step;
	}
	return 0;
}

struct giving {
	procevent_fn fn;
	void *arg;
	int n;
};

/* A message's event, given when it is one of the process connector's that delaytop uses (not
 * another connector's, nor an acknowledgement too short to be an event). */
static int give_event(void *arg, const struct cn_msg *cn, const unsigned char *data)
{
	struct giving *g = arg;
	struct procevent e;

	if (cn->id.idx != CN_IDX_PROC || cn->id.val != CN_VAL_PROC || cn->len < EV_MIN ||
	    event_of(data, cn->len, &e) < 0)
		return 0;
	g->fn(g->arg, &e);
	g->n++;
	return 0;
}

int procevents_parse(const void *buf, size_t len, procevent_fn fn, void *arg)
{
	struct giving g = {fn, arg, 0};
	int rc = each_message(buf, len, give_event, &g);

	return rc < 0 ? rc : g.n;
}

int procevents_from_kernel(const struct sockaddr_nl *from, socklen_t fromlen)
{
	return fromlen >= sizeof(*from) && from->nl_family == AF_NETLINK && from->nl_pid == 0;
}

/* Receives one datagram into buf without blocking, passing over those that another process sent
 * (a process with CAP_NET_ADMIN may send to our port): recv()'s result, or -1 with errno. */
static ssize_t receive(int fd, unsigned char *buf)
{
	for (;;) {
		struct sockaddr_nl from;
		socklen_t fromlen = sizeof(from);
		ssize_t len;

		memset(&from, 0, sizeof(from));
		len = recvfrom(fd, buf, BUF_SIZE, MSG_DONTWAIT, (struct sockaddr *)&from, &fromlen);
		if (len < 0 || procevents_from_kernel(&from, fromlen))
			return len;
	}
}

struct answer {
	uint32_t nonce;
	int error;
};

/* 1 for the kernel's answer to our request, whose ack field was nonce: the answer goes to every
 * listener, and ours has ack nonce + 1 (its seq is the kernel's own); its error (0: the events
 * will come; EPERM where they need CAP_NET_ADMIN) goes to the struct answer. */
static int our_answer(void *arg, const struct cn_msg *cn, const unsigned char *data)
{
	struct answer *a = arg;

	if (cn->id.idx != CN_IDX_PROC || cn->ack != a->nonce + 1 || cn->len < EV_MIN ||
	    u32_at(data + EV_WHAT) != PROC_EVENT_NONE)
		return 0;
	a->error = (int)u32_at(data + EV_DATA);
	return 1;
}

/* Waits up to a second for the answer to request nonce, passing over the events before it (a
 * walk of /proc follows the opening). Returns 0 or a negative errno. */
static int await_ack(int fd, uint32_t nonce, unsigned char *buf)
{
	for (int tries = 0; tries < 100; tries++) {
		ssize_t len = receive(fd, buf);
		struct answer a = {nonce, 0};

		if (len < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct pollfd pfd = {.fd = fd, .events = POLLIN};

			poll(&pfd, 1, 10);
			continue;
		}
		if (len < 0 && errno != ENOBUFS && errno != EINTR)
			return -errno;
		if (len > 0 && each_message(buf, (size_t)len, our_answer, &a) == 1)
			return -a.error;
	}
	return -ETIMEDOUT;
}

/* Asks the kernel to send the events (op PROC_CN_MCAST_LISTEN) or to stop; its answer will carry
 * nonce + 1. */
static int subscribe(int fd, enum proc_cn_mcast_op op, uint32_t nonce)
{
	unsigned char buf[NLMSG_SPACE(sizeof(struct cn_msg) + sizeof(op))];
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	struct cn_msg *cn = (struct cn_msg *)NLMSG_DATA(h);

	memset(buf, 0, sizeof(buf));
	h->nlmsg_len = NLMSG_LENGTH(sizeof(*cn) + sizeof(op));
	h->nlmsg_type = NLMSG_DONE;
	h->nlmsg_pid = 0;
	cn->id.idx = CN_IDX_PROC;
	cn->id.val = CN_VAL_PROC;
	cn->ack = nonce;
	cn->len = sizeof(op);
	memcpy(cn->data, &op, sizeof(op));
	return send(fd, buf, h->nlmsg_len, 0) < 0 ? -errno : 0;
}

static int failed(int rc, char *err, size_t errlen)
{
	if (rc == -EPERM || rc == -EACCES)
		snprintf(err, errlen, "%s",
		         _("the process events connector needs CAP_NET_ADMIN on this kernel"));
	else
		snprintf(err, errlen, F_(N_("cannot listen to the process events connector: %s")),
		         strerror(-rc));
	return rc;
}

int procevents_open(struct procevents **out, int rcvbuf, char *err, size_t errlen)
{
	struct sockaddr_nl addr = {.nl_family = AF_NETLINK, .nl_groups = CN_IDX_PROC};
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_CONNECTOR), rc = 0;
	uint32_t nonce = ((uint32_t)getpid() << 8) ^ (uint32_t)time(NULL); /* ours among the answers */
	unsigned char *buf;

	*out = NULL;
	if (fd < 0)
		return failed(-errno, err, errlen);
	/* past net.core.rmem_max with CAP_NET_ADMIN, except for a user raised by the binary's file
	 * capabilities: the buffer is kernel memory nobody reclaims (as the exit listeners' are) */
	if (rcvbuf > 0 &&
	    (secure_raised_user() || setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)) < 0))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	buf = xmalloc(BUF_SIZE);
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		rc = -errno;
	else if ((rc = subscribe(fd, PROC_CN_MCAST_LISTEN, nonce)) == 0)
		rc = await_ack(fd, nonce, buf);
	if (rc < 0) {
		free(buf);
		close(fd);
		return failed(rc, err, errlen);
	}
	*out = xcalloc(1, sizeof(**out));
	(*out)->fd = fd;
	(*out)->buf = buf;
	return 0;
}

void procevents_close(struct procevents *p)
{
	if (!p)
		return;
	subscribe(p->fd, PROC_CN_MCAST_IGNORE, 0);
	close(p->fd);
	free(p->buf);
	free(p);
}

int procevents_fd(const struct procevents *p)
{
	return p->fd;
}

int procevents_drain(struct procevents *p, procevent_fn fn, void *arg)
{
	int n = 0, lost = 0;

	for (;;) {
		ssize_t len = receive(p->fd, p->buf);
		int got;

		if (len < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				lost = 1;
				continue;
			}
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			return -errno;
		}
		got = procevents_parse(p->buf, (size_t)len, fn, arg);
		if (got > 0)
			n += got;
	}
	return lost ? -ENOBUFS : n;
}
