/* taskstats.c — the TASKSTATS generic-netlink client: queries by pid or tgid, CGROUPSTATS.
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
#include "tsnl.h"
#include "xalloc.h"

#define QUERY_RCVBUF (1 << 20)

#define MAX(a, b) ((a) > (b) ? (a) : (b))

struct template {
	unsigned char *bytes;
	size_t len;
	size_t value_off; /* where the u32 pid or tgid sits */
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
	int rc = tsnl_connect(&c->sk, &c->family, err, errlen);

	if (rc < 0) {
		free(c);
		return rc;
	}
	c->fd = nl_socket_get_fd(c->sk);
	tsnl_set_rcvbuf(c->fd, QUERY_RCVBUF, 1);
	if (build_template(&c->tmpl[TS_BY_PID], c->family, TS_ATTR_PID) < 0 ||
	    build_template(&c->tmpl[TS_BY_TGID], c->family, TS_ATTR_TGID) < 0) {
		snprintf(err, errlen, "%s", _("cannot build a taskstats request"));
		ts_close(c);
		return -ENOMEM;
	}
	c->sendbuf = xmalloc(BATCH * MAX(c->tmpl[TS_BY_PID].len, c->tmpl[TS_BY_TGID].len)); /* TS_BY_EACH mixes them */
	tsnl_receiver_init(&c->rx);
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

struct ts_batch {
	size_t first;    /* index of the batch's first id */
	size_t count;
	uint32_t seq0;   /* sequence number of its first request */
	unsigned char answered[BATCH];
	int eperm;
	uint64_t when_ns; /* just after the send, during which the kernel made the answers */
	uint64_t span_ns; /* how long the send took */
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
	if (tsnl_parse_message(h, &b->rec[0], &has_thread, &b->rec[1], &has_process, b->plan) == 0) {
		struct ts_record *rec = has_process ? &b->rec[1] : &b->rec[0];

		rec->span_ns = b->span_ns;
		b->fn(b->arg, b->first + i, rec, b->when_ns);
	}
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
		n = tsnl_receiver_take(&c->rx, c->fd);

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
	size_t len = 0;
	uint64_t before;
	int rc;

	for (size_t j = 0; j < b->count; j++) {
		uint32_t seq = b->seq0 + (uint32_t)j;
		uint32_t id = ids[which ? which[j] : b->first + j];
		enum ts_by as = by;
		const struct template *t;

		if (as == TS_BY_EACH)
			as = id & TS_ASK_TGID ? TS_BY_TGID : TS_BY_PID;
		t = &c->tmpl[as];
		unsigned char *m = c->sendbuf + len;

		id &= ~TS_ASK_TGID;
		memcpy(m, t->bytes, t->len);
		memcpy(m + offsetof(struct nlmsghdr, nlmsg_seq), &seq, sizeof(seq));
		memcpy(m + t->value_off, &id, sizeof(id));
		len += t->len;
	}
	before = timing_mono_ns();
	rc = nl_sendto(c->sk, c->sendbuf, len);
	b->when_ns = timing_mono_ns();
	b->span_ns = b->when_ns - before; /* long when the sender was preempted in it */
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
		int n = tsnl_receiver_take(&c->rx, c->fd);

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
