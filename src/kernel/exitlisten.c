/* exitlisten.c — the exit listeners: a socket per group of CPUs (see exitlisten.h), emptied as
 * soon as records come by a thread of their own into a queue in memory, so that a kernel buffer
 * does not overflow while the caller reads or prints; the caller takes the queue (and whatever
 * the sockets hold at that moment) when it drains. The drops of each socket are read from
 * /proc/net/netlink. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "exitlisten.h"
#include "i18n.h"
#include "secure.h"
#include "thread.h"
#include "tsnl.h"
#include "xalloc.h"

struct listen_sock {
	struct nl_sock *sk;
	int fd;
	unsigned long inode;
	uint64_t drops_seen; /* the socket's drop counter when last read */
	int dropped;         /* the kernel has dropped records on this socket */
};

/* Raw messages waiting for the caller: each a 4-byte length and the bytes of one datagram,
 * padded to 4 bytes so that every netlink header in it stays aligned. */
struct rawq {
	unsigned char *buf;
	size_t len, cap;
};

struct exitlisten {
	int family;
	int rcvbuf;
	int epfd;   /* the sockets and stopfd, for the thread */
	int evfd;   /* readable when the thread queued records: the caller's poll() */
	int stopfd; /* tells the thread to end */
	int n;
	struct listen_sock socks[EXITLISTEN_MAX];
	pthread_mutex_t lock; /* the sockets' reading, rx, queue and queue_lost */
	pthread_t thread;
	int have_thread;
	struct receiver rx;
	struct rawq queue;
	uint64_t queue_lost; /* records dropped since the caller's last drain */
	struct rawq work;    /* the caller's: the queue it took */
	struct tsabi_plan plan;
};

/* ---- the CPU groups ---- */

/* Reads a CPU list into cpus (ascending, as the kernel writes it); returns how many, or -1. */
static int parse_cpulist(const char *s, int *cpus, int cap)
{
	int n = 0;

	while (*s && *s != '\n') {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;

		if (end == s || lo < 0)
			return -1;
		s = end;
		if (*s == '-') {
			hi = strtol(s + 1, &end, 10);
			if (end == s + 1 || hi < lo)
				return -1;
			s = end;
		}
		for (long c = lo; c <= hi; c++) {
			if (n == cap)
				return -1;
			cpus[n++] = (int)c;
		}
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -1;
	}
	return n ? n : -1;
}

/* Writes cpus[0..n) as a CPU list of ranges; returns -1 when it does not fit. */
static int format_cpulist(const int *cpus, int n, char *out, size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		int j = i;

		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (j > i)
			used += (size_t)snprintf(out + used, len - used, "%s%d-%d", used ? "," : "", cpus[i], cpus[j]);
		else
			used += (size_t)snprintf(out + used, len - used, "%s%d", used ? "," : "", cpus[i]);
		if (used >= len)
			return -1;
		i = j;
	}
	return 0;
}

int exitlisten_groups(const char *possible, char (*groups)[EXITLISTEN_LIST], int max)
{
	int *cpus = xmalloc(EXITLISTEN_CPUS * sizeof(*cpus));
	int n = parse_cpulist(possible, cpus, EXITLISTEN_CPUS);
	int k = n < max ? n : max, start = 0;

	for (int g = 0; n > 0 && g < k; g++) {
		int size = n / k + (g < n % k);

		if (format_cpulist(cpus + start, size, groups[g], EXITLISTEN_LIST) < 0)
			k = -1;
		start += size;
	}
	free(cpus);
	return n > 0 && max > 0 ? k : -1;
}

/* ---- registering ---- */

static int read_possible_cpus(char *buf, size_t size)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "re");
	int ok;

	if (!f)
		return -errno;
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	if (!ok)
		return -EIO;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* Waits for the kernel's acknowledgement of the registration; exit messages that arrive first
 * are of tasks that ended before delaytop's first reading and are dropped. */
static int wait_ack(struct nl_sock *sk, uint32_t seq)
{
	for (int tries = 0; tries < 1000; tries++) {
		struct sockaddr_nl peer;
		unsigned char *buf;
		int rc = nl_recv(sk, &peer, &buf, NULL);
		int rem = rc;

		if (rc <= 0)
			return -EIO;
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; nlmsg_ok(h, rem); h = nlmsg_next(h, &rem)) {
			if (h->nlmsg_type == NLMSG_ERROR && h->nlmsg_seq == seq) {
				int error = ((struct nlmsgerr *)nlmsg_data(h))->error;

				free(buf);
				return error;
			}
		}
		free(buf);
	}
	return -ETIMEDOUT;
}

static int register_cpus(struct nl_sock *sk, int family, const char *cpus)
{
	struct nl_msg *msg = nlmsg_alloc();
	uint32_t seq = 1;
	int rc;

	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, seq, family, 0, NLM_F_ACK, TS_CMD_GET, TS_GENL_VERSION) ||
	    nla_put_string(msg, TS_ATTR_REGISTER_CPUMASK, cpus) < 0) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nl_complete_msg(sk, msg);
	nlmsg_hdr(msg)->nlmsg_seq = seq;
	rc = nl_send(sk, msg);
	nlmsg_free(msg);
	if (rc < 0)
		return -EIO;
	return wait_ack(sk, seq);
}

static void listen_error(int rc, char *err, size_t errlen)
{
	if (rc == -EPERM)
		snprintf(err, errlen, "%s", _("listening for exiting tasks needs CAP_NET_ADMIN"));
	else if (rc == -EINVAL)
		snprintf(err, errlen, "%s",
			 _("listening for exiting tasks needs the initial user and PID namespace"));
	else
		snprintf(err, errlen, F_(N_("cannot listen for exiting tasks: %s")), strerror(-rc));
}

/* Opens the socket of one group of CPUs and registers it. */
static int open_sock(struct exitlisten *l, struct listen_sock *ls, const char *cpus, int rcvbuf, char *err,
		     size_t errlen)
{
	struct epoll_event ev = { .events = EPOLLIN };
	socklen_t len = sizeof(int);
	int granted = 0, rc;
	struct stat st;

	rc = tsnl_connect(&ls->sk, &l->family, err, errlen);
	if (rc < 0)
		return rc;
	nl_socket_disable_seq_check(ls->sk);
	ls->fd = nl_socket_get_fd(ls->sk);
	/* The size is the user's (--exit-buffer): a user raised by the binary's file capabilities
	 * stays within net.core.rmem_max, since the buffers are kernel memory nobody reclaims. */
	tsnl_set_rcvbuf(ls->fd, rcvbuf, !secure_raised_user());
	getsockopt(ls->fd, SOL_SOCKET, SO_RCVBUF, &granted, &len);
	if (!l->rcvbuf || granted < l->rcvbuf)
		l->rcvbuf = granted;
	if (fstat(ls->fd, &st) == 0)
		ls->inode = (unsigned long)st.st_ino;
	rc = register_cpus(ls->sk, l->family, cpus);
	ev.data.fd = ls->fd;
	if (rc == 0 && epoll_ctl(l->epfd, EPOLL_CTL_ADD, ls->fd, &ev) < 0)
		rc = -errno;
	if (rc < 0)
		listen_error(rc, err, errlen);
	return rc;
}

/* ---- the queue ---- */

/* Appends one datagram; returns -1 (and the caller counts it lost) when the queue is full. */
static size_t padded(uint32_t len)
{
	return ((size_t)len + 3) & ~(size_t)3;
}

static int rawq_push(struct rawq *q, const void *data, uint32_t len)
{
	size_t need = 4 + padded(len);

	if (q->len + need > EXITLISTEN_QUEUE)
		return -1;
	q->buf = xgrow(q->buf, &q->cap, q->len + need, 1);
	memcpy(q->buf + q->len, &len, 4);
	memcpy(q->buf + q->len + 4, data, len);
	memset(q->buf + q->len + 4 + len, 0, padded(len) - len);
	q->len += need;
	return 0;
}

/* The socket's drop counter from /proc/net/netlink (the Drops column), or -1. */
static int64_t read_drops(unsigned long inode)
{
	FILE *f = fopen("/proc/net/netlink", "re");
	char line[512];
	int64_t drops = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long d, ino;

		if (sscanf(line, "%*s %*d %*u %*x %*d %*d %*d %*d %llu %llu", &d, &ino) == 2 && ino == inode) {
			drops = (int64_t)d;
			break;
		}
	}
	fclose(f);
	return drops;
}

/* Adds the drops since the last look to *lost. The kernel says ENOBUFS once per congestion, and
 * drops more silently until the queue drains, so after a first drop every drain looks again. */
static void account_drops(struct listen_sock *ls, int enobufs, uint64_t *lost)
{
	int64_t drops = read_drops(ls->inode);

	ls->dropped = 1;
	if (drops < 0) {
		*lost += enobufs != 0; /* the kernel said it dropped some: at least one */
		return;
	}
	if ((uint64_t)drops > ls->drops_seen)
		*lost += (uint64_t)drops - ls->drops_seen;
	ls->drops_seen = (uint64_t)drops;
}

/* Moves what one socket holds into the queue; returns the datagrams moved. Under the lock. */
static int fetch_sock(struct exitlisten *l, struct listen_sock *ls)
{
	int moved = 0;

	for (;;) {
		int n = tsnl_receiver_take(&l->rx, ls->fd);

		if (n == -ENOBUFS) {
			account_drops(ls, 1, &l->queue_lost);
			continue;
		}
		if (n <= 0) {
			if (n == 0 && ls->dropped)
				account_drops(ls, 0, &l->queue_lost);
			return moved;
		}
		for (int d = 0; d < n; d++) {
			if (l->rx.mm[d].msg_len == 0) /* another process sent it (tsnl_receiver_take) */
				continue;
			if ((l->rx.mm[d].msg_hdr.msg_flags & MSG_TRUNC) ||
			    rawq_push(&l->queue, l->rx.iov[d].iov_base, l->rx.mm[d].msg_len) < 0)
				l->queue_lost++;
			else
				moved++;
		}
	}
}

/* Moves what every socket holds into the queue. Under the lock. */
static int fetch(struct exitlisten *l)
{
	int moved = 0;

	for (int i = 0; i < l->n; i++)
		moved += fetch_sock(l, &l->socks[i]);
	return moved;
}

/* The thread: waits for records on any socket and queues them, until stopfd says to end. */
static void *receive_thread(void *arg)
{
	struct exitlisten *l = arg;

	for (;;) {
		struct epoll_event ev[EXITLISTEN_MAX + 1];
		int n = epoll_wait(l->epfd, ev, EXITLISTEN_MAX + 1, -1), moved;

		if (n < 0 && errno != EINTR)
			return NULL;
		for (int i = 0; i < n; i++)
			if (ev[i].data.fd == l->stopfd)
				return NULL;
		pthread_mutex_lock(&l->lock);
		moved = fetch(l);
		pthread_mutex_unlock(&l->lock);
		if (moved)
			(void)!eventfd_write(l->evfd, 1);
	}
}

/* Starts the thread, with every signal blocked (thread.h): they are for the caller's thread
 * (command mode reads SIGCHLD through a signalfd, which a thread that left it unblocked could
 * swallow). */
static int start_thread(struct exitlisten *l)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int rc;

	l->stopfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	l->evfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (l->stopfd < 0 || l->evfd < 0)
		return -errno;
	ev.data.fd = l->stopfd;
	if (epoll_ctl(l->epfd, EPOLL_CTL_ADD, l->stopfd, &ev) < 0)
		return -errno;
	rc = thread_start(&l->thread, receive_thread, l);
	if (rc < 0)
		return rc;
	l->have_thread = 1;
	return 0;
}

int exitlisten_open(struct exitlisten **out, int rcvbuf, char *err, size_t errlen)
{
	struct exitlisten *l = xcalloc(1, sizeof(*l));
	char possible[1024], groups[EXITLISTEN_MAX][EXITLISTEN_LIST];
	int rc, k;

	err[0] = '\0';
	l->evfd = l->stopfd = -1;
	pthread_mutex_init(&l->lock, NULL);
	tsnl_receiver_init(&l->rx);
	l->plan.status = -EINVAL; /* no plan yet: the first record makes one */
	l->epfd = epoll_create1(EPOLL_CLOEXEC);
	rc = l->epfd < 0 ? -errno : read_possible_cpus(possible, sizeof(possible));
	k = rc == 0 ? exitlisten_groups(possible, groups, EXITLISTEN_MAX) : 0;
	if (rc == 0 && k < 0)
		rc = -EINVAL;
	for (int g = 0; rc == 0 && g < k; g++, l->n++)
		rc = open_sock(l, &l->socks[g], groups[g], rcvbuf, err, errlen);
	if (rc == 0)
		rc = start_thread(l);
	if (rc < 0) {
		if (!err[0])
			listen_error(rc, err, errlen);
		exitlisten_close(l);
		return rc;
	}
	*out = l;
	return 0;
}

void exitlisten_close(struct exitlisten *l)
{
	if (!l)
		return;
	if (l->have_thread) {
		(void)!eventfd_write(l->stopfd, 1);
		pthread_join(l->thread, NULL);
	}
	/* Closing a socket is enough: the kernel drops a listener whose socket is gone. */
	for (int i = 0; i < EXITLISTEN_MAX; i++)
		if (l->socks[i].sk)
			nl_socket_free(l->socks[i].sk);
	if (l->epfd >= 0)
		close(l->epfd);
	if (l->evfd >= 0)
		close(l->evfd);
	if (l->stopfd >= 0)
		close(l->stopfd);
	pthread_mutex_destroy(&l->lock);
	tsnl_receiver_free(&l->rx);
	free(l->queue.buf);
	free(l->work.buf);
	free(l);
}

int exitlisten_fd(const struct exitlisten *l)
{
	return l->evfd;
}

int exitlisten_rcvbuf(const struct exitlisten *l)
{
	return l->rcvbuf;
}

/* ---- draining ---- */

/* Hands the records of one queued datagram to fn; returns how many messages. */
static int deliver(struct exitlisten *l, unsigned char *data, uint32_t len, ts_exit_fn fn, void *arg)
{
	struct ts_record thread, process;
	struct nlmsghdr *h = (struct nlmsghdr *)data;
	int rem = (int)len, messages = 0;

	for (; nlmsg_ok(h, rem); h = nlmsg_next(h, &rem)) {
		int has_thread, has_process;

		if (h->nlmsg_type != l->family ||
		    tsnl_parse_message(h, &thread, &has_thread, &process, &has_process, &l->plan) < 0)
			continue;
		fn(arg, has_thread ? &thread : NULL, has_process ? &process : NULL);
		messages++;
	}
	return messages;
}

int exitlisten_drain(struct exitlisten *l, ts_exit_fn fn, void *arg, uint64_t *lost)
{
	struct rawq taken;
	eventfd_t ignored;
	int messages = 0;

	pthread_mutex_lock(&l->lock);
	fetch(l); /* what came since the thread last looked: a caller that just saw a child end wants it */
	taken = l->queue;
	l->queue = l->work;
	l->queue.len = 0;
	*lost += l->queue_lost;
	l->queue_lost = 0;
	pthread_mutex_unlock(&l->lock);
	(void)!eventfd_read(l->evfd, &ignored);
	for (size_t off = 0; off + 4 <= taken.len;) {
		uint32_t len;

		memcpy(&len, taken.buf + off, 4);
		messages += deliver(l, taken.buf + off + 4, len, fn, arg);
		off += 4 + padded(len);
	}
	l->work = taken;
	return messages;
}
