/* faultread.c — an LD_PRELOAD shim for tests/screen/ending.sh: once the file $FAULT_ARM exists,
 * the thread named "delaytop-read" (the screen's reading thread, where nearly all parsing runs)
 * faults at its next read(2) by a write through a null pointer, as a bug in a parser would. The
 * screen's handler of fatal signals must still put the terminal back: a thread that has the fault
 * signals blocked dies of it without any handler. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

/* Whether the calling thread is the reading thread and the test asked for the fault. */
static int fault_now(void)
{
	const char *arm = getenv("FAULT_ARM");
	char name[16] = "";

	if (!arm || access(arm, F_OK) != 0)
		return 0;
	prctl(PR_GET_NAME, name, 0, 0, 0);
	return strcmp(name, "delaytop-read") == 0;
}

ssize_t read(int fd, void *buf, size_t n)
{
	static ssize_t (*real)(int, void *, size_t);

	if (fault_now())
		*(int *volatile)NULL = 1; /* a real SIGSEGV, raised by the kernel on this thread */
	if (!real)
		real = (ssize_t(*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	return real(fd, buf, n);
}
