/* tsnl.c — the pieces of the TASKSTATS family's sockets that queries and listeners share. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "i18n.h"
#include "tsnl.h"
#include "xalloc.h"

void tsnl_receiver_init(struct receiver *rx)
{
	rx->buf = xmalloc((size_t)BATCH * SLOT);
	rx->plan.status = -EINVAL; /* no plan yet: the first reply makes one */
}

void tsnl_receiver_free(struct receiver *rx)
{
	free(rx->buf);
	rx->buf = NULL;
}

int tsnl_receiver_take(struct receiver *rx, int fd)
{
	int n;

	for (int i = 0; i < BATCH; i++) {
		rx->iov[i].iov_base = rx->buf + (size_t)i * SLOT;
		rx->iov[i].iov_len = SLOT;
		memset(&rx->mm[i].msg_hdr, 0, sizeof(rx->mm[i].msg_hdr));
		rx->mm[i].msg_hdr.msg_iov = &rx->iov[i];
		rx->mm[i].msg_hdr.msg_iovlen = 1;
		rx->mm[i].msg_hdr.msg_name = &rx->from[i];
		rx->mm[i].msg_hdr.msg_namelen = sizeof(rx->from[i]);
	}
	n = recvmmsg(fd, rx->mm, BATCH, MSG_DONTWAIT, NULL);
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
	for (int i = 0; i < n; i++) {
		if (!tsnl_from_kernel(&rx->from[i], rx->mm[i].msg_hdr.msg_namelen))
			rx->mm[i].msg_len = 0;
	}
	return n;
}

int tsnl_from_kernel(const struct sockaddr_nl *from, socklen_t fromlen)
{
	return fromlen >= sizeof(*from) && from->nl_family == AF_NETLINK && from->nl_pid == 0;
}

void tsnl_set_rcvbuf(int fd, int size, int force)
{
	/* SO_RCVBUFFORCE passes net.core.rmem_max with CAP_NET_ADMIN; otherwise take what we get. */
	if (!force || setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
}

int tsnl_connect(struct nl_sock **skp, int *family, char *err, size_t errlen)
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
	rec->span_ns = 0;
	if (!tsabi_plan_fits(plan, nla_data(stats), (size_t)nla_len(stats)))
		tsabi_plan(plan, nla_data(stats), (size_t)nla_len(stats));
	if (tsabi_apply(plan, nla_data(stats), &rec->c) < 0)
		return -EINVAL;
	if (tgid) {
		/* Summed over live threads only (the context switches), or not filled at all, for a
		 * process. */
		rec->c.have &= ~(uint32_t)(HAVE_COMM | HAVE_IDS | HAVE_TGID | HAVE_BTIME64 | HAVE_THREAD_ONLY | HAVE_CSW);
		rec->c.kind_max = 0;
		rec->c.kind_max_ts = 0;
	}
	return 0;
}

int tsnl_parse_message(struct nlmsghdr *h, struct ts_record *thread, int *has_thread,
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
