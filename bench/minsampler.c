/* minsampler.c — the floor for delaytop's thread mode: the least work that reads every thread's
 * taskstats once per refresh.
 *
 *   minsampler [-s] [-n REFRESHES] [-d SECS]
 *
 * Each refresh walks /proc and every /proc/PID/task, sends one TASKSTATS_CMD_GET with
 * TASKSTATS_CMD_ATTR_PID per thread, and counts the answers. It keeps nothing between refreshes
 * and prints only that count, one line per refresh. Between refreshes it sleeps, so its CPU time
 * is the work alone. With -s the first refresh also reads every thread's state (open, read and
 * close /proc/PID/task/TID/stat, as a first report that shows each thread's state must): the
 * floor of a first reading with states.
 *
 * The transport is delaytop's (src/kernel/taskstats.c): the family is resolved once; requests go out 64
 * per sendto(); the kernel answers them while sendto() runs, so recvmmsg(MSG_DONTWAIT) then
 * collects the answers without blocking or waking up.
 *
 * Plain libc and raw netlink, no libnl: delaytop uses libnl to resolve the family, build its
 * request template and parse replies, and only the parsing is on the per-refresh path. Without
 * the library this program has no per-message overhead at all beyond the system calls and one
 * header check per answer, which is what a floor should be. The /proc walk uses getdents64()
 * on file descriptors directly (no DIR streams, no malloc) for the same reason.
 *
 * Needs CAP_NET_ADMIN (root) for taskstats queries. Exits 1 on a set-up error. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>

#define BATCH 64            /* requests per sendto(), as in delaytop */
#define SLOT 4096           /* bytes per received datagram: one answer is about 500 bytes */
#define RCVBUF (1 << 20)    /* room for a batch of answers, as in delaytop */
#define DENTS (64 * 1024)   /* getdents64() buffer */

/* One request: header, generic header, and the u32 pid attribute; 28 bytes, already aligned. */
struct request {
	struct nlmsghdr n;
	struct genlmsghdr g;
	struct nlattr a;
	uint32_t pid;
};

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static int nl_fd;
static uint16_t family;
static uint32_t seq;
static struct request req[BATCH];
static size_t nreq;
static unsigned char rxbuf[BATCH][SLOT];
static struct iovec iov[BATCH];
static struct mmsghdr mm[BATCH];
static unsigned char dents_proc[DENTS], dents_task[DENTS];
static int read_states; /* -s, at this refresh */

/* per refresh */
static unsigned long answered, refused, lost;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* ---- set-up ---- */

/* Asks the generic-netlink controller for the TASKSTATS family id. */
static uint16_t resolve_family(int fd)
{
	struct {
		struct nlmsghdr n;
		struct genlmsghdr g;
		char attrs[64];
	} msg;
	struct nlattr *a = (struct nlattr *)msg.attrs;
	static unsigned char buf[8192];
	ssize_t len;

	memset(&msg, 0, sizeof(msg));
	a->nla_type = CTRL_ATTR_FAMILY_NAME;
	a->nla_len = (uint16_t)(NLA_HDRLEN + sizeof(TASKSTATS_GENL_NAME));
	memcpy((char *)a + NLA_HDRLEN, TASKSTATS_GENL_NAME, sizeof(TASKSTATS_GENL_NAME));
	msg.n.nlmsg_len = (uint32_t)(NLMSG_LENGTH(GENL_HDRLEN) + NLA_ALIGN(a->nla_len));
	msg.n.nlmsg_type = GENL_ID_CTRL;
	msg.n.nlmsg_flags = NLM_F_REQUEST;
	msg.n.nlmsg_seq = ++seq;
	msg.g.cmd = CTRL_CMD_GETFAMILY;
	msg.g.version = 1;
	if (send(fd, &msg, msg.n.nlmsg_len, 0) < 0)
		die("send (resolve TASKSTATS)");
	len = recv(fd, buf, sizeof(buf), 0);
	if (len < 0)
		die("recv (resolve TASKSTATS)");
	for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
		int rem;

		if (h->nlmsg_type == NLMSG_ERROR) {
			fprintf(stderr, "minsampler: the kernel has no TASKSTATS family\n");
			exit(1);
		}
		rem = (int)h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
		for (a = (struct nlattr *)((char *)NLMSG_DATA(h) + GENL_HDRLEN);
		     rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= rem;
		     rem -= NLA_ALIGN(a->nla_len), a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len)))
			if (a->nla_type == CTRL_ATTR_FAMILY_ID)
				return *(uint16_t *)((char *)a + NLA_HDRLEN);
	}
	fprintf(stderr, "minsampler: no family id in the controller's answer\n");
	exit(1);
}

static void open_netlink(void)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	int size = RCVBUF;

	nl_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (nl_fd < 0)
		die("socket(NETLINK_GENERIC)");
	if (setsockopt(nl_fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0)
		setsockopt(nl_fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (connect(nl_fd, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		die("connect(netlink)");
	family = resolve_family(nl_fd);

	/* The requests are built once; a batch only fills in sequence numbers and pids. */
	for (int i = 0; i < BATCH; i++) {
		req[i].n.nlmsg_len = sizeof(req[i]);
		req[i].n.nlmsg_type = family;
		req[i].n.nlmsg_flags = NLM_F_REQUEST;
		req[i].g.cmd = TASKSTATS_CMD_GET;
		req[i].g.version = TASKSTATS_GENL_VERSION;
		req[i].a.nla_len = NLA_HDRLEN + sizeof(uint32_t);
		req[i].a.nla_type = TASKSTATS_CMD_ATTR_PID;
		iov[i].iov_base = rxbuf[i];
		iov[i].iov_len = SLOT;
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
	}
}

/* ---- querying ---- */

/* Counts what is queued, without blocking. */
static void collect(void)
{
	for (;;) {
		int n = recvmmsg(nl_fd, mm, BATCH, MSG_DONTWAIT, NULL);

		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return;
			if (errno == ENOBUFS) { /* the kernel dropped answers */
				lost++;
				continue;
			}
			if (errno == EINTR)
				continue;
			die("recvmmsg");
		}
		for (int d = 0; d < n; d++) {
			int rem = (int)mm[d].msg_len;

			for (struct nlmsghdr *h = (struct nlmsghdr *)rxbuf[d]; NLMSG_OK(h, rem); h = NLMSG_NEXT(h, rem)) {
				if (h->nlmsg_type == family)
					answered++;
				else if (h->nlmsg_type == NLMSG_ERROR)
					refused++; /* ESRCH: the thread exited after the walk */
			}
		}
		if (n < BATCH)
			return;
	}
}

static void flush(void)
{
	if (nreq == 0)
		return;
	if (send(nl_fd, req, nreq * sizeof(req[0]), 0) < 0)
		die("send (taskstats)");
	nreq = 0;
	collect();
}

static void query(uint32_t tid)
{
	req[nreq].n.nlmsg_seq = ++seq;
	req[nreq].pid = tid;
	if (++nreq == BATCH)
		flush();
}

/* ---- walking ---- */

/* The decimal number a /proc entry is named by, or 0 for any other entry. */
static uint32_t number(const char *s)
{
	uint32_t v = 0;

	if (*s < '1' || *s > '9')
		return 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return 0;
		v = v * 10 + (uint32_t)(*s - '0');
	}
	return v;
}

/* Reads the thread's stat file in the directory of its process's threads, and nothing more. */
static void read_state(int task_fd, const char *tid)
{
	char path[32], buf[1024];
	int fd;

	snprintf(path, sizeof(path), "%s/stat", tid);
	fd = openat(task_fd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return; /* the thread exited */
	if (read(fd, buf, sizeof(buf)) < 0)
		fprintf(stderr, "minsampler: cannot read %s\n", path);
	close(fd);
}

static void walk_tasks(int proc_fd, const char *pid)
{
	char path[32];
	int fd;
	long len;

	snprintf(path, sizeof(path), "%s/task", pid);
	fd = openat(proc_fd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return; /* the process exited */
	while ((len = getdents64(fd, dents_task, sizeof(dents_task))) > 0) {
		for (long off = 0; off < len;) {
			struct linux_dirent64 *e = (struct linux_dirent64 *)(dents_task + off);
			uint32_t tid = number(e->d_name);

			if (tid)
				query(tid);
			if (tid && read_states)
				read_state(fd, e->d_name);
			off += e->d_reclen;
		}
	}
	close(fd);
}

static void refresh(void)
{
	int proc_fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long len;

	if (proc_fd < 0)
		die("/proc");
	answered = refused = 0;
	while ((len = getdents64(proc_fd, dents_proc, sizeof(dents_proc))) > 0) {
		for (long off = 0; off < len;) {
			struct linux_dirent64 *e = (struct linux_dirent64 *)(dents_proc + off);

			if (number(e->d_name))
				walk_tasks(proc_fd, e->d_name);
			off += e->d_reclen;
		}
	}
	if (len < 0)
		die("getdents64(/proc)");
	close(proc_fd);
	flush();
}

int main(int argc, char **argv)
{
	long refreshes = 1;
	double delay = 1.0;
	struct timespec gap;
	int opt, states = 0;

	while ((opt = getopt(argc, argv, "sn:d:")) != -1) {
		if (opt == 's')
			states = 1;
		else if (opt == 'n')
			refreshes = strtol(optarg, NULL, 10);
		else if (opt == 'd')
			delay = strtod(optarg, NULL);
		else {
			fprintf(stderr, "usage: minsampler [-s] [-n REFRESHES] [-d SECS]\n");
			return 2;
		}
	}
	if (refreshes < 1 || !(delay >= 0)) {
		fprintf(stderr, "minsampler: -n must be at least 1 and -d not negative\n");
		return 2;
	}
	gap.tv_sec = (time_t)delay;
	gap.tv_nsec = (long)((delay - (double)gap.tv_sec) * 1e9);
	open_netlink();
	for (long i = 0; i < refreshes; i++) {
		if (i > 0) {
			struct timespec left = gap;

			while (clock_nanosleep(CLOCK_MONOTONIC, 0, &left, &left) == EINTR)
				;
		}
		read_states = states && i == 0;
		refresh();
		printf("%lu\n", answered);
		fflush(stdout);
	}
	if (lost)
		fprintf(stderr, "minsampler: the kernel dropped answers %lu times (receive buffer full)\n", lost);
	return 0;
}
