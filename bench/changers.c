/* changers.c — the load of bench/record.sh: N processes that sleep, of which K a second wake up,
 * spin for a few milliseconds and sleep again (each process every N/K seconds), so that a
 * recording at -d 1 has N tasks of which about K change each second. Runs until killed.
 *
 *   changers N K SPIN_MS */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void spin_ms(long ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

/* Child i works in the seconds s with s % period == i % period, a little after the second starts. */
static void child(int i, int period, long spin)
{
	for (;;) {
		struct timespec now, until;
		long s;

		clock_gettime(CLOCK_REALTIME, &now);
		s = now.tv_sec + 1;
		while (s % period != i % period)
			s++;
		until.tv_sec = s;
		until.tv_nsec = 200000000 + (i % 50) * 10000000L; /* spread over the second */
		clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &until, NULL);
		spin_ms(spin);
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000, k = argc > 2 ? atoi(argv[2]) : 50;
	long spin = argc > 3 ? atol(argv[3]) : 2;
	int period;

	if (n < 1 || k < 1 || k > n) {
		fprintf(stderr, "usage: changers N K SPIN_MS\n");
		return 2;
	}
	period = n / k;
	for (int i = 0; i < n; i++) {
		pid_t p = fork();

		if (p < 0) {
			perror("fork");
			kill(0, SIGTERM);
			return 1;
		}
		if (p == 0)
			child(i, period, spin);
	}
	for (;;)
		pause();
}
