/* stackwait.c — the waits tests/kernel/stacks.sh names the code paths of, built with frame
 * pointers and symbols (-fno-omit-frame-pointer -g) so that the user stacks reach main:
 *
 *   stackwait pipe      a child writes a byte to a pipe every 10 ms; the parent blocks in read()
 *                       on it (called from wait_on_pipe)
 *   stackwait fsync F   writes a block to file F and fsync()s it, again and again (wait_on_fsync)
 *   stackwait sleep     nanosleep()s 5 ms at a time (wait_in_nanosleep)
 *   stackwait lib       calls stackwait_lib_wait() of libstackwaitlib.so, which sleeps in
 *                       nanosleep
 *   stackwait exit S    sleeps S seconds in nanosleep, then exits
 *   stackwait paths B [US]
 *                       sleeps US µs (1000) at the end of each of 2^B call paths in turn (B
 *                       levels of path_a or path_b by the bits of the path's number): 2^B user
 *                       stacks
 *
 * Each prints its pid (the parent's for pipe) on stdout and runs until killed. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef STACKWAIT_LIB
void stackwait_lib_wait(void);
#endif

/* Kept out of line and apart, so that each names its own frame. With frame pointers, the frame of
 * a libc wrapper's caller is hidden (the wrapper keeps no frame): each wait goes through a small
 * function (read_one, sleep_ms, ...) so that the one that called it shows. */
__attribute__((noinline)) static int read_one(int fd)
{
	char c;

	return (int)read(fd, &c, 1);
}

__attribute__((noinline)) static void wait_on_pipe(int fd)
{
	for (;;)
		if (read_one(fd) <= 0)
			exit(0);
	__asm__ volatile(""); /* not a tail call */
}

__attribute__((noinline)) static int sync_one(int fd)
{
	return fsync(fd);
}

__attribute__((noinline)) static void wait_on_fsync(const char *path)
{
	static char block[4096];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0) {
		perror(path);
		exit(1);
	}
	memset(block, 'x', sizeof(block));
	for (;;) {
		if (pwrite(fd, block, sizeof(block), 0) < 0 || sync_one(fd) < 0) {
			perror("fsync");
			exit(1);
		}
	}
}

__attribute__((noinline)) static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
	__asm__ volatile("");
}

__attribute__((noinline)) static void wait_in_nanosleep(long ms)
{
	sleep_ms(ms);
	__asm__ volatile(""); /* not a tail call */
}

static void path_step(unsigned path, int level);
static long path_us = 1000; /* the sleep at the end of each path */

__attribute__((noinline)) static void path_a(unsigned path, int level)
{
	path_step(path, level);
	__asm__ volatile("");
}

__attribute__((noinline)) static void path_b(unsigned path, int level)
{
	path_step(path, level);
	__asm__ volatile("");
}

/* Walks down level more calls, path_b where the path's bit (level - 1) is set, then sleeps. */
__attribute__((noinline)) static void path_step(unsigned path, int level)
{
	if (level == 0) {
		struct timespec ts = { 0, path_us * 1000 };

		nanosleep(&ts, NULL);
	}
	else if (path >> (level - 1) & 1)
		path_b(path, level - 1);
	else
		path_a(path, level - 1);
	__asm__ volatile("");
}

static void writer(int fd)
{
	for (;;) {
		if (write(fd, "x", 1) != 1)
			exit(0);
		wait_in_nanosleep(10);
	}
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int p[2];

	setvbuf(stdout, NULL, _IONBF, 0);
	if (strcmp(mode, "pipe") == 0) {
		if (pipe(p) < 0)
			return 1;
		if (fork() == 0) {
			close(p[0]);
			writer(p[1]);
		}
		close(p[1]);
		printf("%d\n", (int)getpid());
		wait_on_pipe(p[0]);
	} else if (strcmp(mode, "fsync") == 0 && argc > 2) {
		printf("%d\n", (int)getpid());
		wait_on_fsync(argv[2]);
	} else if (strcmp(mode, "sleep") == 0) {
		printf("%d\n", (int)getpid());
		for (;;)
			wait_in_nanosleep(5);
	} else if (strcmp(mode, "paths") == 0 && argc > 2 && atoi(argv[2]) > 0 && atoi(argv[2]) < 20) {
		int bits = atoi(argv[2]);

		if (argc > 3 && atol(argv[3]) > 0 && atol(argv[3]) < 1000000)
			path_us = atol(argv[3]);
		printf("%d\n", (int)getpid());
		for (unsigned n = 0;; n++)
			path_step(n & ((1u << bits) - 1), bits);
	} else if (strcmp(mode, "exit") == 0 && argc > 2) {
		printf("%d\n", (int)getpid());
		wait_in_nanosleep(atol(argv[2]) * 1000);
		return 0;
#ifdef STACKWAIT_LIB
	} else if (strcmp(mode, "lib") == 0) {
		printf("%d\n", (int)getpid());
		for (;;)
			stackwait_lib_wait();
#endif
	}
	fprintf(stderr, "usage: stackwait pipe | fsync FILE | sleep | lib | exit SECONDS | paths BITS [US]\n");
	return 2;
}
