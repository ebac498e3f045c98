/* selection.h — the tasks -p and the pid prompt select: processes, each listed id once, a thread
 * id resolved to its process (and in thread mode selecting just that thread unless its process
 * is listed too). */
#ifndef DELAYTOP_SELECTION_H
#define DELAYTOP_SELECTION_H

#include <stddef.h>
#include <stdint.h>

struct selection {
	uint32_t *pids;  /* the selected processes */
	uint8_t *whole;  /* per process: listed itself, so thread mode shows all its threads */
	size_t npids;    /* 0: every task is selected */
	uint32_t *tids;  /* threads listed on their own, for thread mode */
	size_t ntids;
	char notice[512]; /* what it made of thread ids, or "" */
};

void selection_init(struct selection *sel);
void selection_free(struct selection *sel);

/* Selects the processes of ids[0..n): resolves thread ids through tgid_of(arg, id) (which returns
 * 0 for a task that is gone: its id then stands as it is). threads: rows are threads, so a
 * thread id is no reason for a notice. */
void selection_set(struct selection *sel, const uint32_t *ids, size_t n, int threads,
		   uint32_t (*tgid_of)(void *arg, uint32_t id), void *arg);

/* Whether task id of process pid is selected: in thread mode a process listed only through some
 * of its threads gives just those threads. */
int selection_has(const struct selection *sel, uint32_t pid, uint32_t id, int threads);

#endif
