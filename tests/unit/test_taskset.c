/* test_taskset.c — the set of tasks kept from the connector's events: forks of processes and
 * threads, exits (the process going with its last thread, a leader that ends before its threads),
 * exec leaving one thread, lists ascending as /proc gives them, a selection, and a seeding walk
 * again after a clear. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "taskset.h"

static struct procevent ev(enum procevent_kind k, uint32_t tid, uint32_t tgid)
{
	struct procevent e;

	memset(&e, 0, sizeof(e));
	e.kind = k;
	e.tid = tid;
	e.tgid = tgid;
	return e;
}

/* The set's processes, or process pid's threads when pid != 0, as text: "1 5 9". */
static const char *listed(struct taskset *s, uint32_t pid)
{
	static char text[256];
	uint32_t *ids = NULL;
	size_t n = 0, cap = 0, at = 0;

	if (pid)
		taskset_threads(s, pid, &ids, &n, &cap);
	else
		taskset_list(s, NULL, 0, &ids, &n, &cap);
	text[0] = '\0';
	for (size_t i = 0; i < n && at < sizeof(text) - 12; i++)
		at += (size_t)snprintf(text + at, sizeof(text) - at, "%s%u", i ? " " : "", ids[i]);
	free(ids);
	return text;
}

int main(void)
{
	struct taskset s;
	struct procevent e;
	uint32_t *ids = NULL, want[] = {30, 7, 10};
	size_t n = 0, cap = 0;

	taskset_init(&s);
	/* a seeding walk, out of order */
	taskset_add(&s, 30, 30);
	taskset_add(&s, 10, 10);
	taskset_add(&s, 10, 12);
	taskset_add(&s, 10, 11);
	taskset_add(&s, 10, 11);
	is_str(listed(&s, 0), "10 30", "the processes, ascending");
	is_str(listed(&s, 10), "10 11 12", "a process's threads, ascending, each once");
	is_int(taskset_nthreads(&s), 4, "4 threads");

	e = ev(PROCEVENT_FORK, 40, 40);
	taskset_apply(&s, &e);
	e = ev(PROCEVENT_FORK, 41, 40);
	taskset_apply(&s, &e);
	is_str(listed(&s, 0), "10 30 40", "a forked process is listed");
	is_str(listed(&s, 40), "40 41", "with the thread it started");

	e = ev(PROCEVENT_EXIT, 40, 40);
	taskset_apply(&s, &e);
	is_str(listed(&s, 40), "41", "a leader that ends before its thread: the process stays with it");
	e = ev(PROCEVENT_EXIT, 41, 40);
	taskset_apply(&s, &e);
	is_str(listed(&s, 0), "10 30", "and goes with its last thread");

	e = ev(PROCEVENT_EXEC, 10, 10);
	taskset_apply(&s, &e);
	is_str(listed(&s, 10), "10", "exec leaves the process one thread");
	is_int(taskset_nthreads(&s), 2, "2 threads in all");

	e = ev(PROCEVENT_EXIT, 99, 98);
	taskset_apply(&s, &e);
	e = ev(PROCEVENT_COMM, 30, 30);
	taskset_apply(&s, &e);
	is_str(listed(&s, 0), "10 30", "the exit of a task never seen, and a name change, change nothing");

	taskset_list(&s, want, 3, &ids, &n, &cap);
	ok(n == 2 && ids[0] == 30 && ids[1] == 10, "a selection lists those that exist, in its order");
	is_int(taskset_threads(&s, 7, &ids, &n, &cap), 0, "no threads for a process not in the set");

	taskset_clear(&s);
	is_int(taskset_nprocs(&s), 0, "a clear forgets every process");
	taskset_add(&s, 5, 5);
	is_str(listed(&s, 0), "5", "and the set seeds again");
	free(ids);
	taskset_free(&s);
	return tap_done();
}
