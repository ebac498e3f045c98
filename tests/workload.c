/* workload.c — the loads delaytop's tests measure. Each mode runs until killed unless it says
 * otherwise; the test stops it by its pid.
 *
 *   workload spin CPU                 one busy loop pinned to CPU
 *   workload threads N CPU            N busy threads pinned to CPU; the main thread sleeps
 *   workload odirect FILE             4 KiB O_DIRECT|O_DSYNC writes to FILE, forever
 *   workload storm SECS               forks children that exit at once, as fast as it can, for
 *                                     SECS seconds; prints how many
 *   workload idle PROCS THREADS [BUSY]  PROCS processes of THREADS sleeping threads each; in the
 *                                     first BUSY of them the main thread wakes every 50 ms (a
 *                                     timer, as in a JVM or a worker pool), so the process's
 *                                     delays move at every refresh
 *   workload forks N CPU MS           N children one after another, each busy MS ms on CPU,
 *                                     then exits; prints the summed CPU delay of the children
 *                                     (from their /proc/self/schedstat at exit, read at the
 *                                     start of a fresh turn on the CPU) in ns and how many there
 *                                     were: SIGUSR1 ends it sooner, after the child that runs
 *   workload at-pid PID MODE ARGS...  runs MODE in a child that gets exactly PID (root: uses
 *                                     kernel.ns_last_pid); prints the pid
 *   workload sleep SECONDS            sleeps, then exits
 *   workload thread-exits N CPU MS WAIT_MS
 *                                     after WAIT_MS ms, N threads at once, each busy MS ms on CPU,
 *                                     then they end; the process lives on until killed. Prints a
 *                                     line "TID CPU-DELAY-NS" per thread (its schedstat, read just
 *                                     before it ended), then "done"
 *   workload thread-exec PROG [ARG]...
 *                                     a thread other than the main thread runs exec of PROG,
 *                                     while another thread sleeps: the process goes on as PROG
 *                                     under the same pid
 *   workload bursts CPU BUSY_MS IDLE_MS
 *                                     on CPU, a SCHED_FIFO main thread busy BUSY_MS then asleep
 *                                     IDLE_MS, forever, and a normal thread always busy: each
 *                                     burst is one runqueue wait of BUSY_MS for the second thread
 *   workload churn N MS               N threads at a time, each asleep MS ms then gone, replaced
 *                                     by a new one at once, forever
 *   workload rare N CPU BUSY_MS EVERY_MS [TICK]
 *                                     N sleeping threads, and on CPU every EVERY_MS a SCHED_FIFO
 *                                     thread busy BUSY_MS while a normal thread that woke just
 *                                     after it waits for the CPU: one runqueue wait of about
 *                                     BUSY_MS per period; asleep in between, so the process is
 *                                     still most of the time. Prints the waiting thread's tid.
 *                                     TICK 1: one more thread wakes every 50 ms, so that the
 *                                     process moves at every refresh
 *   workload freeze TID MS            stops the one thread TID (ptrace, which stops a thread and not
 *                                     its process) for MS ms; prints "frozen" once it is stopped
 *   workload io N BYTES WAIT_MS DIR   N threads, each asleep WAIT_MS ms, then writing BYTES (a
 *                                     multiple of 64 KiB) to a new file DIR/io.I in 64 KiB
 *                                     writes, syncing it and dropping it from the page cache,
 *                                     reading it back in 64 KiB reads (to the end: one more
 *                                     read), writing 64 KiB to DIR/io.I.c and truncating it
 *                                     before it is written back, then asleep 1 ms 20 times, then
 *                                     busy 300 ms in user mode, then asleep until killed: 17
 *                                     writes of BYTES + 64 KiB, 17 reads of BYTES. The main thread
 *                                     touches 16 MiB first, prints "ready" once the threads run
 *                                     and "done" once every thread finished
 *   workload zombies MS1 AT MS2       a child busy MS1 ms on CPU 0, and at AT ms a second one busy
 *                                     MS2 ms; both stay zombies, as the parent never waits for
 *                                     them. Prints the children's pids, one a line
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		die("sched_setaffinity");
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

__attribute__((noreturn)) static void spin_forever(void)
{
	volatile uint64_t x = 0;

	for (;;)
		x++;
}

static void *spin_thread(void *arg)
{
	pin(*(int *)arg);
	spin_forever();
	return NULL;
}

__attribute__((noreturn)) static void mode_threads(int n, int cpu)
{
	static int cpus[1024];

	if (n < 1 || n > 1024)
		die("threads: N out of range");
	for (int i = 0; i < n; i++) {
		pthread_t t;

		cpus[i] = cpu;
		if (pthread_create(&t, NULL, spin_thread, &cpus[i]) != 0)
			die("pthread_create");
	}
	for (;;)
		pause();
}

__attribute__((noreturn)) static void mode_odirect(const char *path)
{
	void *buf;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT | O_DSYNC, 0600);
	off_t off = 0;

	if (fd < 0)
		die("open O_DIRECT");
	if (posix_memalign(&buf, 4096, 4096) != 0)
		die("posix_memalign");
	memset(buf, 'x', 4096);
	for (;;) {
		if (pwrite(fd, buf, 4096, off) != 4096)
			die("pwrite");
		off = (off + 4096) % (64 << 20);
	}
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/* Forks children that exit at once, as fast as it can, for secs seconds; prints how many. */
static int mode_storm(double secs)
{
	uint64_t end = now_ns() + (uint64_t)(secs * 1e9);
	unsigned long n = 0;

	while (now_ns() < end) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid == 0)
			_exit(0);
		waitpid(pid, NULL, 0);
		n++;
	}
	printf("%lu\n", n);
	return 0;
}

/* Wakes every 50 ms for ever. */
__attribute__((noreturn)) static void tick_for_ever(void)
{
	struct timespec tick = { 0, 50 * 1000000L };

	for (;;)
		nanosleep(&tick, NULL);
}

__attribute__((noreturn)) static void mode_idle(int procs, int threads, int busy)
{
	for (int p = 0; p < procs; p++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid == 0) {
			pthread_attr_t attr;

			prctl(PR_SET_PDEATHSIG, SIGKILL); /* gone with the parent the test stops */
			pthread_attr_init(&attr);
			pthread_attr_setstacksize(&attr, 64 * 1024);
			for (int i = 1; i < threads; i++) {
				pthread_t t;

				if (pthread_create(&t, &attr, sleeper, NULL) != 0)
					die("pthread_create");
			}
			if (p < busy)
				tick_for_ever();
			for (;;)
				pause();
		}
	}
	printf("%d\n", (int)getpid());
	fflush(stdout);
	for (;;)
		pause();
}

/* The CPU delay a task has had, from its schedstat (field 2, ns), through a descriptor opened
 * beforehand: reading it costs one pread, so that little happens between the reading and the
 * exit that the kernel's final counters would see and this reading would not. */
static uint64_t own_cpu_wait(int fd)
{
	unsigned long long run = 0, wait = 0;
	char buf[128];
	ssize_t len = pread(fd, buf, sizeof(buf) - 1, 0);

	buf[len > 0 ? len : 0] = '\0';
	if (sscanf(buf, "%llu %llu", &run, &wait) != 2)
		wait = 0;
	return wait;
}

static volatile sig_atomic_t forks_enough;

static void on_enough(int sig)
{
	(void)sig;
	forks_enough = 1;
}

/* Children report their CPU delay through a shared counter just before they exit. */
static int mode_forks(int n, int cpu, int ms)
{
	uint64_t *total = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct sigaction sa = { .sa_handler = on_enough };
	int i;

	if (total == MAP_FAILED)
		die("mmap");
	sigaction(SIGUSR1, &sa, NULL);
	for (i = 0; i < n && !forks_enough; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid == 0) {
			uint64_t end;
			volatile uint64_t x = 0;
			int fd = open("/proc/self/schedstat", O_RDONLY);

			pin(cpu);
			end = now_ns() + (uint64_t)ms * 1000000u;
			while (now_ns() < end)
				x++;
			/* a fresh turn on the CPU, so that the reading and the exit are not preempted */
			sched_yield();
			__atomic_add_fetch(total, own_cpu_wait(fd), __ATOMIC_SEQ_CST);
			_exit(0);
		}
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	printf("%llu %d\n", (unsigned long long)*total, i);
	return 0;
}

struct short_thread {
	pthread_t t;
	int cpu, ms;
	pid_t tid;
	uint64_t wait;
};

static void *short_thread(void *arg)
{
	struct short_thread *st = arg;
	int fd = open("/proc/thread-self/schedstat", O_RDONLY);
	volatile uint64_t x = 0;
	uint64_t end;

	pin(st->cpu);
	end = now_ns() + (uint64_t)st->ms * 1000000u;
	while (now_ns() < end)
		x++;
	st->tid = gettid();
	sched_yield();
	st->wait = own_cpu_wait(fd);
	/* the descriptor stays open: closing it would be work after the reading */
	return NULL;
}

/* Threads that start together, work a while and end, in a process that goes on. */
__attribute__((noreturn)) static void mode_thread_exits(int n, int cpu, int ms, int wait_ms)
{
	static struct short_thread th[1024];

	if (n < 1 || n > 1024)
		die("thread-exits: N out of range");
	usleep((useconds_t)wait_ms * 1000u);
	for (int i = 0; i < n; i++) {
		th[i].cpu = cpu;
		th[i].ms = ms;
		if (pthread_create(&th[i].t, NULL, short_thread, &th[i]) != 0)
			die("pthread_create");
	}
	for (int i = 0; i < n; i++) {
		pthread_join(th[i].t, NULL);
		printf("%d %llu\n", (int)th[i].tid, (unsigned long long)th[i].wait);
	}
	printf("done\n");
	fflush(stdout);
	for (;;)
		pause();
}

static void *sleeping_thread(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void *exec_thread(void *arg)
{
	char **argv = arg;

	usleep(50000); /* let the sleeping thread start */
	execv(argv[0], argv);
	die("execv");
	return NULL;
}

static void mode_thread_exec(char **argv)
{
	pthread_t a, b;

	if (pthread_create(&a, NULL, sleeping_thread, NULL) != 0 ||
	    pthread_create(&b, NULL, exec_thread, argv) != 0)
		die("pthread_create");
	for (;;)
		pause();
}

/* One long runqueue wait per burst: the normal thread cannot run while the real-time one spins. */
__attribute__((noreturn)) static void mode_bursts(int cpu, int busy_ms, int idle_ms)
{
	struct sched_param sp = { .sched_priority = 1 };
	static int cpus[1];
	struct timespec idle = { idle_ms / 1000, (long)(idle_ms % 1000) * 1000000L };
	pthread_t t;

	cpus[0] = cpu;
	pin(cpu);
	if (pthread_create(&t, NULL, spin_thread, &cpus[0]) != 0)
		die("pthread_create");
	if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0)
		die("sched_setscheduler");
	for (;;) {
		volatile uint64_t x = 0;
		uint64_t end = now_ns() + (uint64_t)busy_ms * 1000000u;

		while (now_ns() < end)
			x++;
		nanosleep(&idle, NULL);
	}
}

/* mode_rare's two threads: the real-time one from the period's start, the waiting one from
 * 2 ms later, both on absolute times so that they stay in step. */
static struct rare {
	int cpu, busy_ms, every_ms;
	uint64_t start;
} rare;

static void sleep_until(uint64_t t)
{
	struct timespec ts = { (time_t)(t / 1000000000u), (long)(t % 1000000000u) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void *rare_holder(void *arg)
{
	struct sched_param sp = { .sched_priority = 1 };

	(void)arg;
	pin(rare.cpu);
	if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0)
		die("sched_setscheduler");
	for (uint64_t k = 1;; k++) {
		volatile uint64_t x = 0;
		uint64_t begin = rare.start + k * (uint64_t)rare.every_ms * 1000000u;

		sleep_until(begin);
		while (now_ns() < begin + (uint64_t)rare.busy_ms * 1000000u)
			x++;
	}
	return NULL;
}

static void *rare_waiter(void *arg)
{
	(void)arg;
	pin(rare.cpu);
	printf("%ld\n", (long)gettid());
	fflush(stdout);
	for (uint64_t k = 1;; k++)
		sleep_until(rare.start + k * (uint64_t)rare.every_ms * 1000000u + 2000000u);
	return NULL;
}

static void *ticker(void *arg)
{
	(void)arg;
	tick_for_ever();
}

__attribute__((noreturn)) static void mode_rare(int n, int cpu, int busy_ms, int every_ms, int tick)
{
	pthread_t t;

	if (n < 0 || n > 10000 || busy_ms < 3 || every_ms <= busy_ms)
		die("rare: arguments out of range");
	rare = (struct rare){ cpu, busy_ms, every_ms, now_ns() };
	for (int i = 0; i < n; i++)
		if (pthread_create(&t, NULL, sleeper, NULL) != 0)
			die("pthread_create");
	if (pthread_create(&t, NULL, rare_holder, NULL) != 0 || pthread_create(&t, NULL, rare_waiter, NULL) != 0)
		die("pthread_create");
	if (tick && pthread_create(&t, NULL, ticker, NULL) != 0)
		die("pthread_create");
	for (;;)
		pause();
}

static void *churn_thread(void *arg)
{
	int ms = *(int *)arg;
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
	return NULL;
}

/* Threads that come and go: N at a time, each replaced when it ends. */
__attribute__((noreturn)) static void mode_churn(int n, int ms)
{
	static int arg;
	static pthread_t th[1024];

	if (n < 1 || n > 1024)
		die("churn: N out of range");
	arg = ms;
	for (int i = 0;; i = (i + 1) % n) {
		if (th[i] && pthread_join(th[i], NULL) != 0)
			die("pthread_join");
		if (pthread_create(&th[i], NULL, churn_thread, &arg) != 0)
			die("pthread_create");
	}
}

/* A child busy ms on CPU 0, then gone; its pid is printed. */
static void busy_child(int ms)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		uint64_t end = now_ns() + (uint64_t)ms * 1000000u;
		volatile unsigned long x = 0;

		pin(0);
		while (now_ns() < end)
			x++;
		_exit(0);
	}
	printf("%d\n", (int)pid);
	fflush(stdout);
}

/* Two children that stay zombies: the parent never waits for them. */
__attribute__((noreturn)) static void mode_zombies(int ms1, int at, int ms2)
{
	struct timespec ts = { at / 1000, (long)(at % 1000) * 1000000L };

	busy_child(ms1);
	nanosleep(&ts, NULL);
	busy_child(ms2);
	for (;;)
		pause();
}

static int run_mode(int argc, char **argv);

static int mode_at_pid(int want, int argc, char **argv)
{
	for (int tries = 0; tries < 200; tries++) {
		FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "w");
		pid_t pid;

		if (!f)
			die("ns_last_pid");
		fprintf(f, "%d", want - 1);
		fclose(f);
		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0) {
			if (getpid() != want)
				_exit(0);
			return run_mode(argc, argv);
		}
		if (pid == want) {
			printf("%d\n", (int)pid);
			return 0;
		}
		waitpid(pid, NULL, 0);
	}
	fprintf(stderr, "at-pid: could not get pid %d\n", want);
	return 1;
}

static int mode_freeze(pid_t tid, int ms)
{
	int status;

	if (ptrace(PTRACE_SEIZE, tid, NULL, NULL) < 0 || ptrace(PTRACE_INTERRUPT, tid, NULL, NULL) < 0 ||
	    waitpid(tid, &status, __WALL) < 0) {
		perror("freeze");
		return 1;
	}
	printf("frozen\n");
	fflush(stdout);
	usleep((useconds_t)ms * 1000);
	return ptrace(PTRACE_DETACH, tid, NULL, NULL) < 0 ? 1 : 0;
}

struct io_job {
	int index;
	long bytes;
	int wait_ms;
	const char *dir;
	pthread_barrier_t *finished;
};

static void busy_user(int ms)
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		for (volatile int i = 0; i < 10000; i++)
			;
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 < ms);
}

static void *io_thread(void *arg)
{
	static char chunk[65536];
	struct io_job *j = arg;
	char path[4096];
	int fd;

	usleep((useconds_t)j->wait_ms * 1000);
	snprintf(path, sizeof(path), "%s/io.%d", j->dir, j->index);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		die("open");
	for (long done = 0; done < j->bytes; done += (long)sizeof(chunk))
		if (write(fd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk))
			die("write");
	if (fsync(fd) < 0 || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) != 0)
		die("fsync");
	close(fd);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("open");
	while (read(fd, chunk, sizeof(chunk)) > 0)
		;
	close(fd);
	snprintf(path, sizeof(path), "%s/io.%d.c", j->dir, j->index);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk) || ftruncate(fd, 0) < 0)
		die("cancel");
	close(fd);
	for (int i = 0; i < 20; i++)
		usleep(1000);
	busy_user(300);
	pthread_barrier_wait(j->finished);
	for (;;)
		pause();
	return NULL;
}

static void mode_io(int n, long bytes, int wait_ms, const char *dir)
{
	size_t touched = 16u << 20;
	char *mem = malloc(touched);
	pthread_barrier_t finished;
	struct io_job *jobs = calloc((size_t)n, sizeof(*jobs));

	if (!mem || !jobs || n < 1)
		die("io");
	memset(mem, 1, touched);
	pthread_barrier_init(&finished, NULL, (unsigned)n + 1);
	for (int i = 0; i < n; i++) {
		pthread_t t;

		jobs[i] = (struct io_job){ i, bytes, wait_ms, dir, &finished };
		if (pthread_create(&t, NULL, io_thread, &jobs[i]) != 0)
			die("pthread_create");
	}
	printf("ready\n");
	fflush(stdout);
	pthread_barrier_wait(&finished);
	printf("done\n");
	fflush(stdout);
	for (;;)
		pause();
}

static int run_mode(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[0], "spin") == 0) {
		pin(atoi(argv[1]));
		spin_forever();
	}
	if (argc >= 3 && strcmp(argv[0], "threads") == 0)
		mode_threads(atoi(argv[1]), atoi(argv[2]));
	if (argc >= 2 && strcmp(argv[0], "odirect") == 0)
		mode_odirect(argv[1]);
	if (argc >= 3 && strcmp(argv[0], "idle") == 0)
		mode_idle(atoi(argv[1]), atoi(argv[2]), argc >= 4 ? atoi(argv[3]) : 0);
	if (argc >= 4 && strcmp(argv[0], "forks") == 0)
		return mode_forks(atoi(argv[1]), atoi(argv[2]), atoi(argv[3]));
	if (argc >= 3 && strcmp(argv[0], "at-pid") == 0)
		return mode_at_pid(atoi(argv[1]), argc - 2, argv + 2);
	if (argc >= 5 && strcmp(argv[0], "thread-exits") == 0)
		mode_thread_exits(atoi(argv[1]), atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	if (argc >= 4 && strcmp(argv[0], "bursts") == 0)
		mode_bursts(atoi(argv[1]), atoi(argv[2]), atoi(argv[3]));
	if (argc >= 2 && strcmp(argv[0], "storm") == 0)
		return mode_storm(atof(argv[1]));
	if (argc >= 3 && strcmp(argv[0], "churn") == 0)
		mode_churn(atoi(argv[1]), atoi(argv[2]));
	if (argc >= 5 && strcmp(argv[0], "rare") == 0)
		mode_rare(atoi(argv[1]), atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), argc >= 6 && atoi(argv[5]));
	if (argc >= 3 && strcmp(argv[0], "freeze") == 0)
		return mode_freeze((pid_t)atoi(argv[1]), atoi(argv[2]));
	if (argc >= 5 && strcmp(argv[0], "io") == 0)
		mode_io(atoi(argv[1]), atol(argv[2]), atoi(argv[3]), argv[4]);
	if (argc >= 4 && strcmp(argv[0], "zombies") == 0)
		mode_zombies(atoi(argv[1]), atoi(argv[2]), atoi(argv[3]));
	if (argc >= 2 && strcmp(argv[0], "sleep") == 0) {
		sleep((unsigned)atoi(argv[1]));
		return 0;
	}
	if (argc >= 2 && strcmp(argv[0], "thread-exec") == 0)
		mode_thread_exec(argv + 1);
	fprintf(stderr, "usage: workload spin|threads|odirect|idle|forks|at-pid|sleep|thread-exits|thread-exec|"
			"bursts|churn|rare|freeze|io|zombies ARGS\n");
	return 2;
}

int main(int argc, char **argv)
{
	return run_mode(argc - 1, argv + 1);
}
