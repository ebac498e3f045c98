/* failcall.c — an LD_PRELOAD shim for tests/cli/output.sh and tests/cli/recording_input.sh: it
 * makes library calls fail that no test can make fail otherwise. With $FAILCALL_PPOLL (an errno,
 * as a number) ppoll(2), the live loop's wait between readings, fails with it; with
 * $FAILCALL_ZSTD set, ZSTD_createCCtx and ZSTD_createDCtx return NULL, as when memory runs out.
 * Other calls go through. delaytop must end with a message and status 1 each time, not as if a
 * stop signal had come, and not crash. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>

typedef int (*ppoll_fn)(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *);
typedef void *(*create_fn)(void);

int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *timeout, const sigset_t *mask)
{
	const char *e = getenv("FAILCALL_PPOLL");

	if (e) {
		errno = atoi(e);
		return -1;
	}
	return ((ppoll_fn)dlsym(RTLD_NEXT, "ppoll"))(fds, n, timeout, mask);
}

/* what a build with _FORTIFY_SOURCE calls */
int __ppoll_chk(struct pollfd *fds, nfds_t n, const struct timespec *timeout, const sigset_t *mask, size_t size);
int __ppoll_chk(struct pollfd *fds, nfds_t n, const struct timespec *timeout, const sigset_t *mask, size_t size)
{
	(void)size;
	return ppoll(fds, n, timeout, mask);
}

/* The real create function name, or NULL when asked to fail. */
static void *create(const char *name)
{
	return getenv("FAILCALL_ZSTD") ? NULL : ((create_fn)dlsym(RTLD_NEXT, name))();
}

void *ZSTD_createCCtx(void);
void *ZSTD_createCCtx(void)
{
	return create("ZSTD_createCCtx");
}

void *ZSTD_createDCtx(void);
void *ZSTD_createDCtx(void)
{
	return create("ZSTD_createDCtx");
}
