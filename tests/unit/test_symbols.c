/* test_symbols.c — user frames of several processes of one binary through the build id cache:
 * this test program runs itself again (exec, so each copy has its own load base), and a frame
 * in child_wait of each copy is named child_wait+OFF, the first through the file's symbol table
 * and the others from the cache (its hits counted); a frame in no file is its address. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "symbols.h"
#include "symcache.h"
#include "tap.h"

#define COPIES 4

/* A copy's wait: prints where it is, then sleeps until killed. */
__attribute__((noinline)) static void child_wait(void)
{
	printf("%llx\n", (unsigned long long)(uintptr_t)&child_wait);
	fflush(stdout);
	for (;;)
		pause();
}

#if HAVE_LIBDW
/* COPIES copies of this program, each named through symbols_user */
static void test_copies(char **argv)
{
	pid_t pids[COPIES];
	uint64_t addrs[COPIES];
	int good = 0, bases = 0;
	struct symbols *sy = symbols_open();
	struct symcache_stats st;
	char buf[256];

	for (int i = 0; i < COPIES; i++) {
		int fd[2];
		FILE *f;
		unsigned long long a = 0;

		if (pipe(fd) < 0)
			exit(99);
		pids[i] = fork();
		if (pids[i] == 0) {
			dup2(fd[1], 1);
			close(fd[0]);
			execl("/proc/self/exe", argv[0], "child", (char *)NULL);
			_exit(127);
		}
		close(fd[1]);
		f = fdopen(fd[0], "r");
		if (!f || fscanf(f, "%llx", &a) != 1)
			a = 0;
		if (f)
			fclose(f);
		addrs[i] = a;
	}
	for (int i = 0; i < COPIES; i++) {
		/* a return address 8 bytes into the function: the call is the byte before it */
		const char *n = symbols_user(sy, (uint32_t)pids[i], addrs[i] + 8, buf, sizeof(buf));

		if (!strncmp(n, "child_wait+0x8", 14) && n[14] == '\0')
			good++;
		else
			printf("# copy %d (pid %d): got '%s'\n", i, (int)pids[i], n);
		if (i && addrs[i] != addrs[0])
			bases++;
	}
	is_int(good, COPIES, "a frame in child_wait of each copy is named child_wait+0x8");
	ok(bases > 0, "the copies are at different load bases (%d of %d differ from the first)", bases, COPIES - 1);
	symbols_cache_stats(sy, &st);
	ok(st.hits >= COPIES - 1 && st.entries >= 1,
	   "the copies after the first are named from the cache (hits %llu, misses %llu, entries %zu)",
	   (unsigned long long)st.hits, (unsigned long long)st.misses, st.entries);
	symbols_user(sy, (uint32_t)pids[0], 0x10, buf, sizeof(buf));
	ok(!strncmp(buf, "[unknown]", 9) || !strncmp(buf, "0x", 2), "an address in no file is not named (%s)", buf);
	for (int i = 0; i < COPIES; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
	}
	symbols_close(sy);
}
#endif

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "child"))
		child_wait();
#if HAVE_LIBDW
	test_copies(argv);
#else
	tap_skip(4, "built without libdw");
#endif
	return tap_done();
}
