/* taskstats.c — the TASKSTATS generic-netlink client.
 *
 * libnl-genl-3 resolves the family, builds the request template and parses replies. Sending and
 * receiving bypass libnl's one-message-at-a-time loop: a batch of requests goes out in one
 * sendto(), the kernel answers them all before sendto() returns, and recvmmsg() collects the
 * answers without blocking. That makes a query cost about a third of a plain round trip. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "i18n.h"
#include "taskstats.h"
#include "timing.h"
#include "tsabi.h"
#include "xalloc.h"

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
#define QUERY_RCVBUF (1 << 20)

struct template {
	unsigned char *bytes;
	size_t len;
	size_t value_off; /* where the u32 pid or tgid sits */
};

struct receiver {
	struct tsabi_plan plan; /* how the replies on this socket decode */
	unsigned char *buf; /* BATCH slots of SLOT bytes */
	struct mmsghdr mm[BATCH];
	struct iovec iov[BATCH];
};

struct ts_client {
	struct nl_sock *sk;
	int fd;
	int family;
	uint32_t seq;
	struct template tmpl[2]; /* by TS_BY_PID, TS_BY_TGID */
	unsigned char *sendbuf;
	struct receiver rx;
};

struct ts_listener {
	struct nl_sock *sk;
	int fd;
	int family;
	int rcvbuf;
	unsigned long inode;
	uint64_t drops_seen; /* the socket's drop counter when last read */
	int dropped;         /* the kernel has dropped records on this socket */
	struct receiver rx;
};

static void receiver_init(struct receiver *rx)
{
	rx->buf = xmalloc((size_t)BATCH * SLOT);
	rx->plan.status = -EINVAL; /* no plan yet: the first reply makes one */
}

/* Receives what is queued, without blocking: returns the number of datagrams, 0 when none,
 * or a negative errno (-ENOBUFS: the kernel dropped messages). */
static int receiver_take(struct receiver *rx, int fd)
{
	int n;

	for (int i = 0; i < BATCH; i++) {
		rx->iov[i].iov_base = rx->buf + (size_t)i * SLOT;
		rx->iov[i].iov_len = SLOT;
		memset(&rx->mm[i].msg_hdr, 0, sizeof(rx->mm[i].msg_hdr));
		rx->mm[i].msg_hdr.msg_iov = &rx->iov[i];
		rx->mm[i].msg_hdr.msg_iovlen = 1;
	}
	n = recvmmsg(fd, rx->mm, BATCH, MSG_DONTWAIT, NULL);
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
	return n;
}

static void set_rcvbuf(int fd, int size)
{
	/* SO_RCVBUFFORCE passes net.core.rmem_max with CAP_NET_ADMIN; otherwise take what we get. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
}

static int connect_family(struct nl_sock **skp, int *family, char *err, size_t errlen)
{
	struct nl_sock *sk = nl_socket_alloc();
	int rc;

	if (!sk) {
		snprintf(err, errlen, "%s", _("cannot allocate a netlink socket"));
		return -ENOMEM;
	}
	rc = genl_connect(sk);
	if (rc < 0) {
		snprintf(err, errlen, F_(N_("cannot open a generic netlink socket: %s")), nl_geterror(rc));
		nl_socket_free(sk);
		return -EIO;
	}
	rc = genl_ctrl_resolve(sk, TS_GENL_NAME);
	if (rc < 0) {
		snprintf(err, errlen, "%s",
			 _("the kernel has no taskstats interface (CONFIG_TASKSTATS is off)"));
		nl_socket_free(sk);
		return -ENOENT;
	}
	*family = rc;
	*skp = sk;
	return 0;
}

static int build_template(struct template *t, int family, int attr)
{
	struct nl_msg *msg = nlmsg_alloc();
	struct nlmsghdr *h;
	struct nlattr *a;

	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, 0, family, 0, 0, TS_CMD_GET, TS_GENL_VERSION) ||
	    nla_put_u32(msg, attr, 0) < 0) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	h = nlmsg_hdr(msg);
	h->nlmsg_flags |= NLM_F_REQUEST;
	a = nlmsg_find_attr(h, GENL_HDRLEN, attr);
	t->len = h->nlmsg_len;
	t->bytes = xmalloc(t->len);
	memcpy(t->bytes, h, t->len);
	t->value_off = (size_t)((unsigned char *)nla_data(a) - (unsigned char *)h);
	nlmsg_free(msg);
	return 0;
}

int ts_open(struct ts_client **out, char *err, size_t errlen)
{
	struct ts_client *c = xcalloc(1, sizeof(*c));
	int rc = connect_family(&c->sk, &c->family, err, errlen);

	if (rc < 0) {
		free(c);
		return rc;
	}
	c->fd = nl_socket_get_fd(c->sk);
	set_rcvbuf(c->fd, QUERY_RCVBUF);
	if (build_template(&c->tmpl[TS_BY_PID], c->family, TS_ATTR_PID) < 0 ||
	    build_template(&c->tmpl[TS_BY_TGID], c->family, TS_ATTR_TGID) < 0) {
		snprintf(err, errlen, "%s", _("cannot build a taskstats request"));
		ts_close(c);
		return -ENOMEM;
	}
	c->sendbuf = xmalloc(BATCH * c->tmpl[TS_BY_PID].len);
	receiver_init(&c->rx);
	*out = c;
	return 0;
}

void ts_close(struct ts_client *c)
{
	if (!c)
		return;
	nl_socket_free(c->sk);
	free(c->tmpl[0].bytes);
	free(c->tmpl[1].bytes);
	free(c->sendbuf);
	free(c->rx.buf);
	free(c);
}

/* Fills rec from one TASKSTATS_TYPE_AGGR_* attribute, decoding by plan (made anew when the shape
 * of the payload changes); returns 0 or -EINVAL. The attributes are walked with libnl's accessors
 * rather than parsed into tables: a reply has three, and this runs once per task per tick. */
static int parse_aggregate(struct nlattr *aggr, int tgid, struct ts_record *rec, struct tsabi_plan *plan)
{
	struct nlattr *a, *idattr = NULL, *stats = NULL;
	int rem;

	nla_for_each_nested(a, aggr, rem) {
		if (nla_type(a) == (tgid ? TS_TYPE_TGID : TS_TYPE_PID))
			idattr = a;
		else if (nla_type(a) == TS_TYPE_STATS)
			stats = a;
	}
	if (!idattr || nla_len(idattr) < 4 || !stats)
		return -EINVAL;
	rec->tgid = tgid;
	rec->id = nla_get_u32(idattr);
	if (!tsabi_plan_fits(plan, nla_data(stats), (size_t)nla_len(stats)))
		tsabi_plan(plan, nla_data(stats), (size_t)nla_len(stats));
	if (tsabi_apply(plan, nla_data(stats), &rec->c) < 0)
		return -EINVAL;
	if (tgid) {
		/* Summed over live threads only, or not filled at all, for a process. */
		rec->c.have &= ~(uint32_t)(HAVE_COMM | HAVE_IDS | HAVE_TGID | HAVE_BTIME64 | HAVE_IO_BYTES |
					    HAVE_IO_CHARS | HAVE_CPUTIME | HAVE_CSW);
		rec->c.kind_max = 0;
		rec->c.kind_max_ts = 0;
	}
	return 0;
}

/* Parses one generic-netlink TASKSTATS message into its thread and process records; returns 0
 * when it held at least one of them. */
static int parse_message(struct nlmsghdr *h, struct ts_record *thread, int *has_thread,
			 struct ts_record *process, int *has_process, struct tsabi_plan *plan)
{
	struct nlattr *a;
	int rem;

	*has_thread = *has_process = 0;
	if (h->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
		return -EINVAL;
	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(h), 0), genlmsg_attrlen(nlmsg_data(h), 0), rem) {
		if (nla_type(a) == TS_TYPE_AGGR_PID && !*has_thread)
			*has_thread = parse_aggregate(a, 0, thread, plan) == 0;
		else if (nla_type(a) == TS_TYPE_AGGR_TGID && !*has_process)
			*has_process = parse_aggregate(a, 1, process, plan) == 0;
	}
	return *has_thread || *has_process ? 0 : -EINVAL;
}

struct ts_batch {
	size_t first;    /* index of the batch's first id */
	size_t count;
	uint32_t seq0;   /* sequence number of its first request */
	unsigned char answered[BATCH];
	int eperm;
	uint64_t when_ns;
	ts_reply_fn fn;
	void *arg;
	struct tsabi_plan *plan;
	struct ts_record rec[2];
};

/* Handles one message; returns 1 when it answered a request of the batch. */
static int batch_message(struct ts_batch *b, struct nlmsghdr *h, int family)
{
	size_t i = h->nlmsg_seq - b->seq0;
	int has_thread, has_process;

	if (h->nlmsg_seq < b->seq0 || i >= b->count || b->answered[i])
		return 0; /* not an answer to this batch */
	if (h->nlmsg_type == NLMSG_ERROR) {
		struct nlmsgerr *e = nlmsg_data(h);

		if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
			return 0;
		b->answered[i] = 1;
		if (e->error == -EPERM)
			b->eperm = 1;
		/* -ESRCH: the task exited after the walk; the exit listener has it. */
		return 1;
	}
	if (h->nlmsg_type != family)
		return 0;
	b->answered[i] = 1;
	if (parse_message(h, &b->rec[0], &has_thread, &b->rec[1], &has_process, b->plan) == 0)
		b->fn(b->arg, b->first + i, has_process ? &b->rec[1] : &b->rec[0], b->when_ns);
	return 1;
}

/* Receives every queued answer of the batch; returns -ENOBUFS when some were dropped. */
static int batch_collect(struct ts_client *c, struct ts_batch *b)
{
	int overflow = 0;
	size_t answered = 0;

	for (;;) {
		int n;

		/* all answered: no need to ask the socket once more to hear that nothing is left */
		if (answered == b->count && !overflow)
			return 0;
		n = receiver_take(&c->rx, c->fd);

		if (n == -ENOBUFS) {
			overflow = 1;
			continue;
		}
		if (n <= 0)
			return n < 0 ? n : overflow ? -ENOBUFS : 0;
		for (int d = 0; d < n; d++) {
			int rem = (int)c->rx.mm[d].msg_len;
			struct nlmsghdr *h = (struct nlmsghdr *)c->rx.iov[d].iov_base;

			for (; nlmsg_ok(h, rem); h = nlmsg_next(h, &rem))
				answered += batch_message(b, h, c->family);
		}
	}
}

static int send_batch(struct ts_client *c, enum ts_by by, const uint32_t *ids, struct ts_batch *b,
		      const size_t *which)
{
	const struct template *t = &c->tmpl[by];
	int rc;

	for (size_t j = 0; j < b->count; j++) {
		unsigned char *m = c->sendbuf + j * t->len;
		uint32_t seq = b->seq0 + (uint32_t)j;
		uint32_t id = ids[which ? which[j] : b->first + j];

		memcpy(m, t->bytes, t->len);
		memcpy(m + offsetof(struct nlmsghdr, nlmsg_seq), &seq, sizeof(seq));
		memcpy(m + t->value_off, &id, sizeof(id));
	}
	rc = nl_sendto(c->sk, c->sendbuf, b->count * t->len);
	b->when_ns = timing_mono_ns();
	return rc < 0 ? -EIO : 0;
}

/* Sends one batch and collects its answers; requests lost to a full buffer are asked again one
 * at a time. */
static int query_batch(struct ts_client *c, enum ts_by by, const uint32_t *ids, struct ts_batch *b)
{
	int rc;

	c->seq += BATCH;
	b->seq0 = c->seq;
	memset(b->answered, 0, sizeof(b->answered));
	rc = send_batch(c, by, ids, b, NULL);
	if (rc < 0)
		return rc;
	rc = batch_collect(c, b);
	if (rc == -ENOBUFS) {
		for (size_t j = 0; j < b->count; j++) {
			struct ts_batch one = *b;

			if (b->answered[j])
				continue;
			c->seq += BATCH;
			one.first = b->first + j;
			one.count = 1;
			one.seq0 = c->seq;
			memset(one.answered, 0, sizeof(one.answered));
			if (send_batch(c, by, ids, &one, NULL) == 0)
				batch_collect(c, &one);
			b->eperm |= one.eperm;
		}
		rc = 0;
	}
	return rc;
}

int ts_query(struct ts_client *c, enum ts_by by, const uint32_t *ids, size_t n, ts_reply_fn fn, void *arg)
{
	struct ts_batch b;

	memset(&b, 0, sizeof(b));
	b.fn = fn;
	b.arg = arg;
	b.plan = &c->rx.plan;
	for (size_t first = 0; first < n; first += BATCH) {
		int rc;

		b.first = first;
		b.count = n - first < BATCH ? n - first : BATCH;
		rc = query_batch(c, by, ids, &b);
		if (rc < 0)
			return rc;
		if (b.eperm)
			return -EPERM;
	}
	return 0;
}

/* struct cgroupstats, in the kernel's order. */
struct cgs_payload {
	uint64_t nr_sleeping, nr_running, nr_stopped, nr_uninterruptible, nr_io_wait;
};

/* Reads the one answer to a CGROUPSTATS request with sequence number seq. */
static int cgroupstats_answer(struct ts_client *c, uint32_t seq, struct cgs_payload *out)
{
	for (int tries = 0; tries < 4; tries++) {
		int n = receiver_take(&c->rx, c->fd);

		for (int d = 0; d < n; d++) {
			int rem = (int)c->rx.mm[d].msg_len;
			struct nlmsghdr *h = (struct nlmsghdr *)c->rx.iov[d].iov_base;

			for (; nlmsg_ok(h, rem); h = nlmsg_next(h, &rem)) {
				struct nlattr *a;
				int arem;

				if (h->nlmsg_seq != seq)
					continue;
				if (h->nlmsg_type == NLMSG_ERROR) {
					struct nlmsgerr *e = nlmsg_data(h);

					return h->nlmsg_len >= NLMSG_LENGTH(sizeof(*e)) && e->error ? e->error : -EIO;
				}
				nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(h), 0), genlmsg_attrlen(nlmsg_data(h), 0),
						  arem) {
					if (nla_type(a) != CGS_TYPE_STATS || (size_t)nla_len(a) < sizeof(*out))
						continue;
					memcpy(out, nla_data(a), sizeof(*out)); /* not aligned for a direct read */
					return 0;
				}
				return -EINVAL;
			}
		}
		if (n < 0)
			return n;
	}
	return -EIO;
}

int ts_cgroupstats(struct ts_client *c, int fd, uint64_t out[5])
{
	struct nl_msg *msg = nlmsg_alloc();
	struct cgs_payload st;
	uint32_t seq = ++c->seq;
	int rc;

	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, seq, c->family, 0, 0, CGS_CMD_GET, TS_GENL_VERSION) ||
	    nla_put_u32(msg, CGS_ATTR_FD, (uint32_t)fd) < 0) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nlmsg_hdr(msg)->nlmsg_flags |= NLM_F_REQUEST;
	rc = nl_sendto(c->sk, nlmsg_hdr(msg), nlmsg_hdr(msg)->nlmsg_len);
	nlmsg_free(msg);
	if (rc < 0)
		return -EIO;
	rc = cgroupstats_answer(c, seq, &st);
	if (rc < 0)
		return rc;
	out[0] = st.nr_running;
	out[1] = st.nr_sleeping;
	out[2] = st.nr_uninterruptible;
	out[3] = st.nr_stopped;
	out[4] = st.nr_io_wait;
	return 0;
}

static void ignore_reply(void *arg, size_t index, const struct ts_record *rec, uint64_t when_ns)
{
	(void)index;
	(void)rec;
	(void)when_ns;
	*(int *)arg = 1;
}

int ts_probe(struct ts_client *c, uint32_t pid)
{
	int answered = 0;
	int rc = ts_query(c, TS_BY_PID, &pid, 1, ignore_reply, &answered);

	if (rc < 0)
		return rc;
	return answered ? 0 : -ESRCH;
}

/* ---- exit listener ---- */

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
static int wait_ack(struct ts_listener *l, uint32_t seq)
{
	for (int tries = 0; tries < 1000; tries++) {
		struct sockaddr_nl peer;
		unsigned char *buf;
		int rc = nl_recv(l->sk, &peer, &buf, NULL);
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

static int register_cpus(struct ts_listener *l, const char *cpus)
{
	struct nl_msg *msg = nlmsg_alloc();
	uint32_t seq = 1;
	int rc;

	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, seq, l->family, 0, NLM_F_ACK, TS_CMD_GET, TS_GENL_VERSION) ||
	    nla_put_string(msg, TS_ATTR_REGISTER_CPUMASK, cpus) < 0) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nl_complete_msg(l->sk, msg);
	nlmsg_hdr(msg)->nlmsg_seq = seq;
	rc = nl_send(l->sk, msg);
	nlmsg_free(msg);
	if (rc < 0)
		return -EIO;
	return wait_ack(l, seq);
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

int ts_listen(struct ts_listener **out, int rcvbuf, char *err, size_t errlen)
{
	struct ts_listener *l = xcalloc(1, sizeof(*l));
	char cpus[256];
	socklen_t len = sizeof(l->rcvbuf);
	struct stat st;
	int rc;

	rc = connect_family(&l->sk, &l->family, err, errlen);
	if (rc < 0) {
		free(l);
		return rc;
	}
	nl_socket_disable_seq_check(l->sk);
	l->fd = nl_socket_get_fd(l->sk);
	set_rcvbuf(l->fd, rcvbuf);
	getsockopt(l->fd, SOL_SOCKET, SO_RCVBUF, &l->rcvbuf, &len);
	if (fstat(l->fd, &st) == 0)
		l->inode = (unsigned long)st.st_ino;
	rc = read_possible_cpus(cpus, sizeof(cpus));
	if (rc == 0)
		rc = register_cpus(l, cpus);
	if (rc < 0) {
		listen_error(rc, err, errlen);
		ts_listen_close(l);
		return rc;
	}
	receiver_init(&l->rx);
	*out = l;
	return 0;
}

void ts_listen_close(struct ts_listener *l)
{
	if (!l)
		return;
	/* Closing the socket is enough: the kernel drops a listener whose socket is gone. */
	nl_socket_free(l->sk);
	free(l->rx.buf);
	free(l);
}

int ts_listen_fd(const struct ts_listener *l)
{
	return l->fd;
}

int ts_listen_rcvbuf(const struct ts_listener *l)
{
	return l->rcvbuf;
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
static void account_drops(struct ts_listener *l, int enobufs, uint64_t *lost)
{
	int64_t drops = read_drops(l->inode);

	l->dropped = 1;
	if (drops < 0) {
		*lost += enobufs != 0; /* the kernel said it dropped some: at least one */
		return;
	}
	if ((uint64_t)drops > l->drops_seen)
		*lost += (uint64_t)drops - l->drops_seen;
	l->drops_seen = (uint64_t)drops;
}

int ts_listen_drain(struct ts_listener *l, ts_exit_fn fn, void *arg, uint64_t *lost)
{
	struct ts_record thread, process;
	int messages = 0;

	for (;;) {
		int n = receiver_take(&l->rx, l->fd);

		if (n == -ENOBUFS) {
			account_drops(l, 1, lost);
			continue;
		}
		if (n < 0)
			return n;
		if (n == 0) {
			if (l->dropped)
				account_drops(l, 0, lost);
			return messages;
		}
		for (int d = 0; d < n; d++) {
			int rem = (int)l->rx.mm[d].msg_len;
			struct nlmsghdr *h = (struct nlmsghdr *)l->rx.iov[d].iov_base;

			if (l->rx.mm[d].msg_hdr.msg_flags & MSG_TRUNC) {
				*lost += 1;
				continue;
			}
			for (; nlmsg_ok(h, rem); h = nlmsg_next(h, &rem)) {
				int has_thread, has_process;

				if (h->nlmsg_type != l->family ||
				    parse_message(h, &thread, &has_thread, &process, &has_process, &l->rx.plan) < 0)
					continue;
				fn(arg, has_thread ? &thread : NULL, has_process ? &process : NULL);
				messages++;
			}
		}
	}
}
