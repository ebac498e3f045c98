/* stopsig.c — the stop signals, blocked and read through a signalfd (see stopsig.h). */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>

#include "stopsig.h"

static void stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

int stopsig_open(void)
{
	sigset_t set;
	int fd;

	stop_signals(&set);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -errno;
	fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		sigprocmask(SIG_UNBLOCK, &set, NULL);
		return -e;
	}
	return fd;
}

int stopsig_requested(int fd)
{
	struct pollfd pfd = { fd, POLLIN, 0 };

	return poll(&pfd, 1, 0) > 0 && (pfd.revents & POLLIN);
}
