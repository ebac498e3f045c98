/* waitgap.c — an LD_PRELOAD shim for tests/kernel/stop_signal.sh and tests/screen/stop_signal.sh:
 * it holds the main thread between its last look at whether to stop and its wait, as the
 * scheduler may, until a stop signal comes, so that the signal lands in that gap every time.
 *
 * Each long wait of the main thread (poll or ppoll for 1 s or more, or without a timeout), while
 * the file $WAITGAP_ARM exists (always, without WAITGAP_ARM), first appends a line to the file
 * $WAITGAP_NOTE, then sleeps in steps of 1 ms, up to 5 s, until a
 * SIGINT, SIGTERM or SIGHUP is pending (blocked) or was handled (the sleep is interrupted), and
 * only then waits. A program that reads the stop signals through a descriptor its wait watches
 * still sees it; one whose handler only sets a flag, checked before the wait, sleeps through the
 * whole timeout. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define LONG_MS 1000
#define HOLD_MS 5000

static int stop_pending(void)
{
	sigset_t set;

	sigpending(&set);
	return sigismember(&set, SIGINT) || sigismember(&set, SIGTERM) || sigismember(&set, SIGHUP);
}

static void note(void)
{
	const char *path = getenv("WAITGAP_NOTE");
	int fd;

	if (!path || (fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644)) < 0)
		return;
	(void)!write(fd, "wait\n", 5);
	close(fd);
}

/* The gap: for a long wait on the main thread, until a stop signal comes. */
static void hold(long timeout_ms)
{
	struct timespec ms = { 0, 1000000 };
	const char *arm = getenv("WAITGAP_ARM");

	if (getpid() != (pid_t)syscall(SYS_gettid) || (timeout_ms >= 0 && timeout_ms < LONG_MS))
		return;
	if (arm && access(arm, F_OK) != 0)
		return;
	note();
	for (int i = 0; i < HOLD_MS && !stop_pending(); i++)
		if (nanosleep(&ms, NULL) < 0 && errno == EINTR)
			break; /* a handler ran */
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	static int (*real)(struct pollfd *, nfds_t, int);

	if (!real)
		real = (int (*)(struct pollfd *, nfds_t, int))dlsym(RTLD_NEXT, "poll");
	hold(timeout);
	return real(fds, n, timeout);
}

int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *ts, const sigset_t *mask)
{
	static int (*real)(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *);

	if (!real)
		real = (int (*)(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *))dlsym(RTLD_NEXT,
													  "ppoll");
	hold(ts ? (long)ts->tv_sec * 1000 + ts->tv_nsec / 1000000 : -1);
	return real(fds, n, ts, mask);
}

/* what poll and ppoll become with _FORTIFY_SOURCE */
int __poll_chk(struct pollfd *fds, nfds_t n, int timeout, size_t fdslen);
int __poll_chk(struct pollfd *fds, nfds_t n, int timeout, size_t fdslen)
{
	(void)fdslen;
	return poll(fds, n, timeout);
}

int __ppoll_chk(struct pollfd *fds, nfds_t n, const struct timespec *ts, const sigset_t *mask, size_t fdslen);
int __ppoll_chk(struct pollfd *fds, nfds_t n, const struct timespec *ts, const sigset_t *mask, size_t fdslen)
{
	(void)fdslen;
	return ppoll(fds, n, ts, mask);
}
