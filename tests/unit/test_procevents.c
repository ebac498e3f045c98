/* test_procevents.c — the process events connector: datagrams built with the kernel's own structs
 * (linux/cn_proc.h) parsed into events, malformed ones refused; and, as root, the live connector
 * telling a fork of a process and of a thread and their exits, checked against the ids this test
 * made them with. */
#include "config.h"

#include <errno.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "procevents.h"
#include "tap.h"

#define MAXEV 64

struct seen {
	struct procevent ev[MAXEV];
	int n;
};

static void keep(void *arg, const struct procevent *e)
{
	struct seen *s = arg;

	if (s->n < MAXEV)
		s->ev[s->n++] = *e;
}

/* Appends one netlink message holding the connector message of event ev (what, data) to buf. */
static size_t put_event(unsigned char *buf, size_t at, uint32_t idx, const struct proc_event *ev)
{
	struct nlmsghdr *h = (struct nlmsghdr *)(buf + at);
	struct cn_msg *cn = (struct cn_msg *)NLMSG_DATA(h);

	memset(h, 0, NLMSG_SPACE(sizeof(*cn) + sizeof(*ev)));
	h->nlmsg_len = NLMSG_LENGTH(sizeof(*cn) + sizeof(*ev));
	h->nlmsg_type = NLMSG_DONE;
	cn->id.idx = idx;
	cn->id.val = CN_VAL_PROC;
	cn->len = sizeof(*ev);
	memcpy(cn->data, ev, sizeof(*ev));
	return at + NLMSG_ALIGN(h->nlmsg_len);
}

static void test_parse(void)
{
	static unsigned char buf[4096] __attribute__((aligned(8)));
	struct proc_event ev;
	struct seen s = {.n = 0};
	size_t len = 0;
	int n;

	memset(&ev, 0, sizeof(ev));
	ev.what = PROC_EVENT_FORK;
	ev.timestamp_ns = 123456789;
	ev.event_data.fork.parent_pid = 10, ev.event_data.fork.parent_tgid = 10;
	ev.event_data.fork.child_pid = 21, ev.event_data.fork.child_tgid = 20;
	len = put_event(buf, len, CN_IDX_PROC, &ev);
	memset(&ev, 0, sizeof(ev));
	ev.what = PROC_EVENT_COMM;
	ev.event_data.comm.process_pid = 21, ev.event_data.comm.process_tgid = 20;
	memcpy(ev.event_data.comm.comm, "worker-0123456789", 16); /* 16 bytes, not terminated */
	len = put_event(buf, len, CN_IDX_PROC, &ev);
	memset(&ev, 0, sizeof(ev));
	ev.what = PROC_EVENT_UID; /* passed over */
	len = put_event(buf, len, CN_IDX_PROC, &ev);
	memset(&ev, 0, sizeof(ev));
	ev.what = PROC_EVENT_EXEC;
	ev.event_data.exec.process_pid = 20, ev.event_data.exec.process_tgid = 20;
	len = put_event(buf, len, CN_IDX_PROC + 1, &ev); /* another connector's: passed over */
	len = put_event(buf, len, CN_IDX_PROC, &ev);
	memset(&ev, 0, sizeof(ev));
	ev.what = PROC_EVENT_EXIT;
	ev.event_data.exit.process_pid = 21, ev.event_data.exit.process_tgid = 20;
	ev.event_data.exit.parent_pid = 10, ev.event_data.exit.parent_tgid = 10;
	len = put_event(buf, len, CN_IDX_PROC, &ev);

	n = procevents_parse(buf, len, keep, &s);
	is_int(n, 4,
	       "a datagram of six messages gives four events (a uid change and another connector's passed)");
	ok(s.n == 4 && s.ev[0].kind == PROCEVENT_FORK && s.ev[0].tid == 21 && s.ev[0].tgid == 20 &&
	           s.ev[0].parent_tid == 10 && s.ev[0].parent_tgid == 10 && s.ev[0].when_ns == 123456789,
	   "fork: the thread 21 of process 20, made by 10, and when");
	ok(s.n == 4 && s.ev[1].kind == PROCEVENT_COMM && s.ev[1].tid == 21 &&
	           strcmp(s.ev[1].comm, "worker-01234567") == 0,
	   "comm: the new name, cut to 15 bytes and terminated: '%s'", s.n > 1 ? s.ev[1].comm : "");
	ok(s.n == 4 && s.ev[2].kind == PROCEVENT_EXEC && s.ev[2].tid == 20 && s.ev[2].tgid == 20,
	   "exec: process 20");
	ok(s.n == 4 && s.ev[3].kind == PROCEVENT_EXIT && s.ev[3].tid == 21 && s.ev[3].tgid == 20 &&
	           s.ev[3].parent_tgid == 10,
	   "exit: thread 21 of 20, parent 10");

	s.n = 0;
	is_int(procevents_parse(buf, len - 4, keep, &s), -EINVAL,
	       "a datagram cut inside its last message: -EINVAL");
	ok(s.n == 3, "the events of the whole messages before it were given (%d of 3)", s.n);
	((struct nlmsghdr *)buf)->nlmsg_len = 8;
	s.n = 0;
	is_int(procevents_parse(buf, len, keep, &s), -EINVAL,
	       "a message shorter than its header: -EINVAL, nothing given");
	ok(s.n == 0, "nothing given (%d)", s.n);
	((struct nlmsghdr *)buf)->nlmsg_len = NLMSG_LENGTH(sizeof(struct cn_msg) + sizeof(struct proc_event));
	((struct cn_msg *)NLMSG_DATA((struct nlmsghdr *)buf))->len = 4000;
	is_int(procevents_parse(buf, len, keep, &s), -EINVAL, "a connector length past its message: -EINVAL");
	is_int(procevents_parse(buf, 0, keep, &s), 0, "an empty datagram: no events");
}

/* ---- live, as root ---- */

static int find(const struct seen *s, enum procevent_kind k, uint32_t tid, uint32_t tgid)
{
	for (int i = 0; i < s->n; i++)
		if (s->ev[i].kind == k && s->ev[i].tid == tid && s->ev[i].tgid == tgid)
			return i;
	return -1;
}

/* Only the kernel sends from port 0: a sender that recvfrom() gives with another port, or not
 * as a netlink address, is not the kernel. */
static void test_from_kernel(void)
{
	struct sockaddr_nl from = {.nl_family = AF_NETLINK, .nl_pid = 0};

	ok(procevents_from_kernel(&from, sizeof(from)), "a datagram from port 0 is the kernel's");
	from.nl_pid = 4242;
	ok(!procevents_from_kernel(&from, sizeof(from)), "a datagram from port 4242 (a process) is dropped");
	from.nl_pid = 0;
	from.nl_family = AF_UNIX;
	ok(!procevents_from_kernel(&from, sizeof(from)), "a sender that is not a netlink address is dropped");
	from.nl_family = AF_NETLINK;
	ok(!procevents_from_kernel(&from, 2), "a sender address cut short is dropped");
}

/* A process's netlink socket of the connector's protocol, bound to a port of its own, or -1. */
static int sender_socket(void)
{
	struct sockaddr_nl self = {.nl_family = AF_NETLINK};
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_CONNECTOR);

	if (fd >= 0 && bind(fd, (struct sockaddr *)&self, sizeof(self)) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Sends, from socket fd, the exit of task tid as the kernel would tell it, to the socket at port
 * (what only the kernel should do). Returns 0 or -1. */
static int forge_exit(int fd, uint32_t port, uint32_t tid)
{
	static unsigned char buf[512] __attribute__((aligned(8)));
	struct sockaddr_nl to = {.nl_family = AF_NETLINK, .nl_pid = port};
	struct proc_event ev;
	size_t len;

	memset(&ev, 0, sizeof(ev));
	ev.what = PROC_EVENT_EXIT;
	ev.event_data.exit.process_pid = (__kernel_pid_t)tid;
	ev.event_data.exit.process_tgid = (__kernel_pid_t)tid;
	len = put_event(buf, 0, CN_IDX_PROC, &ev);
	return sendto(fd, buf, len, 0, (struct sockaddr *)&to, sizeof(to)) == (ssize_t)len ? 0 : -1;
}

/* A process's forged exit sent to the subscribed socket's port reaches it (as another socket of
 * the test shows) but is not given as an event. */
static void test_forged(struct procevents *p)
{
	struct sockaddr_nl ours = {0}, from = {0};
	socklen_t len = sizeof(ours), fromlen = sizeof(from);
	const uint32_t fake = 0x3ffffff0; /* a tid above any pid_max */
	int tx = sender_socket(), rx = sender_socket();
	unsigned char buf[512];
	struct seen s = {.n = 0};

	if (tx < 0 || rx < 0 || getsockname(rx, (struct sockaddr *)&ours, &len) < 0) {
		tap_skip(2, "cannot open a netlink connector socket to forge from");
		goto out;
	}
	/* the control: a forged datagram does arrive, from the sender's own port */
	ok(forge_exit(tx, ours.nl_pid, fake) == 0 &&
	   recvfrom(rx, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fromlen) > 0 && from.nl_pid != 0,
	   "control: a process can send a forged exit to a connector socket's port (it comes from port %u)",
	   (unsigned)from.nl_pid);
	len = sizeof(ours);
	if (getsockname(procevents_fd(p), (struct sockaddr *)&ours, &len) < 0 || forge_exit(tx, ours.nl_pid, fake) < 0) {
		tap_skip(1, "cannot send to the subscribed socket");
		goto out;
	}
	for (int i = 0; i < 10; i++) { /* it is queued at once; drain a few times to be sure */
		procevents_drain(p, keep, &s);
		usleep(10000);
	}
	ok(find(&s, PROCEVENT_EXIT, fake, fake) < 0, "a forged exit sent to the subscribed socket (port %u) is dropped",
	   (unsigned)ours.nl_pid);
out:
	if (tx >= 0)
		close(tx);
	if (rx >= 0)
		close(rx);
}

static void *exit_soon(void *arg)
{
	int *tid = arg;

	*tid = (int)syscall(SYS_gettid);
	return NULL;
}

/* A child that starts one thread, waits for it, and exits; its pid and its thread's tid come
 * back through the pipe. */
static pid_t forker(int wfd)
{
	pid_t pid = fork();

	if (pid == 0) {
		pthread_t t;
		int tid = 0;

		if (pthread_create(&t, NULL, exit_soon, &tid) == 0)
			pthread_join(t, NULL);
		if (write(wfd, &tid, sizeof(tid)) != sizeof(tid))
			_exit(2);
		_exit(0);
	}
	return pid;
}

static void test_live(void)
{
	struct procevents *p;
	struct seen s = {.n = 0};
	char err[256] = "";
	int fds[2], tid = 0, rc, status, child_fork, thread_fork, thread_exit, child_exit;
	pid_t pid;

	rc = procevents_open(&p, 1 << 20, err, sizeof(err));
	if (geteuid() != 0 && rc == -EPERM) { /* before Linux 6.6 */
		ok(strstr(err, "CAP_NET_ADMIN") != NULL,
		   "without root, refused: the message names CAP_NET_ADMIN: '%s'", err);
		tap_skip(6, "this kernel tells process events only to CAP_NET_ADMIN");
		return;
	}
	ok(rc == 0, "the connector opens, the kernel said yes ('%s')", err);
	if (rc != 0) {
		tap_skip(6, "no process events connector");
		return;
	}
	if (pipe(fds) != 0)
		abort();
	pid = forker(fds[1]);
	if (read(fds[0], &tid, sizeof(tid)) != sizeof(tid))
		tid = 0;
	waitpid(pid, &status, 0);
	for (int i = 0; i < 40; i++) { /* up to 2 s for the events of the child's exit */
		struct pollfd pfd = {.fd = procevents_fd(p), .events = POLLIN};

		poll(&pfd, 1, 50);
		procevents_drain(p, keep, &s);
		if (find(&s, PROCEVENT_EXIT, (uint32_t)pid, (uint32_t)pid) >= 0)
			break;
	}
	child_fork = find(&s, PROCEVENT_FORK, (uint32_t)pid, (uint32_t)pid);
	thread_fork = find(&s, PROCEVENT_FORK, (uint32_t)tid, (uint32_t)pid);
	thread_exit = find(&s, PROCEVENT_EXIT, (uint32_t)tid, (uint32_t)pid);
	child_exit = find(&s, PROCEVENT_EXIT, (uint32_t)pid, (uint32_t)pid);
	ok(child_fork >= 0 && s.ev[child_fork].parent_tgid == (uint32_t)getpid(),
	   "the fork of child %d is told, made by this test (%d)", (int)pid, (int)getpid());
	ok(tid > 0 && thread_fork >= 0 && s.ev[thread_fork].parent_tgid == (uint32_t)getpid(),
	   "the fork of its thread %d is told as a thread of %d (whose parent is its process's)", tid,
	   (int)pid);
	ok(thread_exit > thread_fork && child_exit > thread_exit,
	   "the thread's exit, then the child's, in order");
	ok(child_exit >= 0 && s.ev[child_exit].parent_tgid == (uint32_t)getpid(),
	   "the child's exit names its parent");
	close(fds[0]);
	close(fds[1]);
	test_forged(p);
	procevents_close(p);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	test_parse();
	test_from_kernel();
	test_live();
	return tap_done();
}
