/* pingpong.c — a context-switch storm: two processes on one CPU bounce a byte through two pipes
 * for a number of seconds, and the round trips a second are printed.
 *
 *   pingpong SECONDS [CPU]
 *
 * Both processes are pinned to CPU (default 1), so that each round trip is two wakeups and two
 * context switches on that CPU, nothing else: what a tracer of the scheduler pays for on every
 * switch shows as fewer round trips. Prints "round_trips_per_s" on one line. */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		perror("sched_setaffinity");
		exit(1);
	}
}

int main(int argc, char **argv)
{
	int ping[2], pong[2], cpu = argc > 2 ? atoi(argv[2]) : 1;
	double secs = argc > 1 ? atof(argv[1]) : 5, t0, t;
	unsigned long trips = 0;
	char c = 'x';
	pid_t child;

	if (secs <= 0 || pipe(ping) < 0 || pipe(pong) < 0) {
		fprintf(stderr, "usage: pingpong SECONDS [CPU]\n");
		return 2;
	}
	pin(cpu);
	child = fork();
	if (child < 0) {
		perror("fork");
		return 1;
	}
	if (child == 0) { /* echoes every byte back until the pipe closes */
		close(ping[1]);
		close(pong[0]);
		while (read(ping[0], &c, 1) == 1)
			if (write(pong[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	close(ping[0]);
	close(pong[1]);
	t0 = now_s();
	do {
		for (int i = 0; i < 1000; i++) {
			if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1) {
				perror("pipe");
				return 1;
			}
		}
		trips += 1000;
		t = now_s();
	} while (t - t0 < secs);
	close(ping[1]);
	waitpid(child, NULL, 0);
	printf("%.0f\n", (double)trips / (t - t0));
	return 0;
}
