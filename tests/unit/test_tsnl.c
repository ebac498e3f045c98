/* test_tsnl.c — the taskstats sockets' receiver keeps what the kernel sent and empties what
 * another process sent to the same port: a generic netlink socket gets the kernel's answer to a
 * family lookup and a datagram forged by a second socket of this test; only the kernel's keeps
 * its length. */
#include "config.h"

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tap.h"
#include "tsnl.h"

/* A CTRL_CMD_GETFAMILY request for the family "nlctrl", which every kernel with generic netlink
 * answers. */
struct lookup {
	struct nlmsghdr h;
	struct genlmsghdr g;
	struct nlattr a;
	char name[8];
};

static int open_genl(struct sockaddr_nl *self)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	socklen_t len = sizeof(*self);
	struct sockaddr_nl any = {.nl_family = AF_NETLINK};

	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&any, sizeof(any)) < 0 ||
	    getsockname(fd, (struct sockaddr *)self, &len) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int send_to(int fd, uint32_t port, const void *buf, size_t len)
{
	struct sockaddr_nl to = {.nl_family = AF_NETLINK, .nl_pid = port};

	return sendto(fd, buf, len, 0, (struct sockaddr *)&to, sizeof(to)) == (ssize_t)len ? 0 : -1;
}

/* Waits until two datagrams are queued on fd (1 s at most) and takes them. */
static int take_two(struct receiver *rx, int fd, int *got)
{
	*got = 0;
	for (int tries = 0; tries < 100 && *got < 2; tries++) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int n;

		if (poll(&p, 1, 10) < 0)
			return -1;
		n = tsnl_receiver_take(rx, fd);
		if (n < 0)
			return -1;
		for (int d = 0; d < n && *got + d < 2; d++)
			got[1 + *got + d] = (int)rx->mm[d].msg_len;
		*got += n;
	}
	return 0;
}

int main(void)
{
	struct sockaddr_nl self, other;
	struct lookup req = {
		.h = {.nlmsg_len = sizeof(req), .nlmsg_type = GENL_ID_CTRL, .nlmsg_flags = NLM_F_REQUEST, .nlmsg_seq = 1},
		.g = {.cmd = CTRL_CMD_GETFAMILY, .version = 1},
		.a = {.nla_len = NLA_HDRLEN + sizeof("nlctrl"), .nla_type = CTRL_ATTR_FAMILY_NAME},
		.name = "nlctrl",
	};
	struct nlmsghdr forged = {.nlmsg_len = sizeof(forged), .nlmsg_type = NLMSG_NOOP, .nlmsg_seq = 2};
	struct receiver rx;
	int got[3] = {0, -1, -1};
	int fd = open_genl(&self), tx = open_genl(&other);

	if (fd < 0 || tx < 0) {
		tap_skip(3, "cannot open generic netlink sockets");
		return tap_done();
	}
	tsnl_receiver_init(&rx);
	/* the kernel's answer first, then the forgery: the receiver sees them in that order */
	ok(send_to(fd, 0, &req, sizeof(req)) == 0 && send_to(tx, self.nl_pid, &forged, sizeof(forged)) == 0 &&
	   take_two(&rx, fd, got) == 0 && got[0] == 2,
	   "the kernel's answer and a forged datagram both arrive (%d datagrams)", got[0]);
	ok(got[1] > (int)sizeof(struct nlmsghdr), "the kernel's answer keeps its length (%d bytes)", got[1]);
	ok(got[2] == 0, "the datagram a process (port %u) sent to our port is emptied (%d bytes left)",
	   (unsigned)other.nl_pid, got[2]);
	tsnl_receiver_free(&rx);
	close(fd);
	close(tx);
	return tap_done();
}
