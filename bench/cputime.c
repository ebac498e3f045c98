/* cputime.c — runs a command and reports the CPU time and peak memory it used.
 *
 *   cputime [-o FILE] CMD ARGS...
 *
 * Forks and execs CMD (searched in PATH), waits for it with wait4(), and prints one line,
 *
 *   user_s sys_s maxrss_kib wall_s
 *
 * from the child's rusage: its user and system CPU seconds (with those of the descendants it
 * waited for), and its peak resident set in KiB (the largest of them); and the wall-clock
 * seconds from the fork to the end of the wait. The line goes to FILE,
 * or to standard output without -o: the command's own output can then be sent elsewhere without
 * losing it. Exits with the command's status (128 + N when signal N killed it), 127 when it
 * could not be run. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const char *out = NULL;
	struct rusage ru;
	int status, arg = 1;
	double start;
	pid_t pid;
	FILE *f;

	if (arg + 1 < argc && strcmp(argv[arg], "-o") == 0) {
		out = argv[arg + 1];
		arg += 2;
	}
	if (arg < argc && strcmp(argv[arg], "--") == 0)
		arg++;
	if (arg >= argc) {
		fprintf(stderr, "usage: cputime [-o FILE] CMD ARGS...\n");
		return 2;
	}
	start = now_s();
	pid = fork();
	if (pid < 0) {
		perror("cputime: fork");
		return 127;
	}
	if (pid == 0) {
		execvp(argv[arg], argv + arg);
		fprintf(stderr, "cputime: %s: %s\n", argv[arg], strerror(errno));
		_exit(127);
	}
	/* A terminal's ^C reaches the child too; the parent stays to report. */
	signal(SIGINT, SIG_IGN);
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("cputime: wait4");
			return 127;
		}
	}
	f = out ? fopen(out, "w") : stdout;
	if (!f) {
		fprintf(stderr, "cputime: %s: %s\n", out, strerror(errno));
		return 127;
	}
	fprintf(f, "%ld.%06ld %ld.%06ld %ld %.3f\n", (long)ru.ru_utime.tv_sec, (long)ru.ru_utime.tv_usec,
		(long)ru.ru_stime.tv_sec, (long)ru.ru_stime.tv_usec, ru.ru_maxrss, now_s() - start);
	if (fclose(f) != 0) {
		perror("cputime: write");
		return 127;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
