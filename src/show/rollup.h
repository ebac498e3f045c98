/* rollup.h — the roll-up by command (--group=command, g on the screen): the task rows a front end
 * shows, summed per command name, one row a name, as atop's per-program view does. A name's row
 * counts the processes it sums (struct row's procs: live and exited in the interval, departed
 * too in totals since the start), and sums their numbers as the process tree with sums does
 * (listing.c): the shares of the interval spent waiting add up (above 100% when several waited
 * at once), and so do waits per second, CPU and the accounting counters; an average wait is the
 * sum's waited share over its rate of waits; the longest wait and a high-water mark are the
 * longest; the totals since the start add up. The tasks are summed in an order of their own (name,
 * pid, tid, start), so that a replay's sums are a live reading's to the last digit. Pure code. */
#ifndef DELAYTOP_ROLLUP_H
#define DELAYTOP_ROLLUP_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* The user of a command whose tasks belong to more than one user: its name, its uid. */
#define ROLLUP_USERS "*"
#define ROLLUP_UID_SEVERAL UINT32_MAX

struct rollup_key;
struct rollup_name;

struct rollup {
	struct row *rows;          /* a row a command name, in the names' byte order */
	size_t n, cap;
	struct kind_totals *sums;  /* the rows' totals since the start */
	size_t capsums;
	struct rollup_key *keys;   /* scratch: the tasks in the order they are summed in */
	size_t capkeys;
	struct rollup_name *names; /* scratch: the distinct names */
	size_t capnames;
	uint32_t *rated;           /* scratch: per row, the tasks whose rates it sums */
	size_t caprated;
};

/* Sums the n task rows (processes; a recording made with -H gives threads, summed by their own
 * names) into ru->rows, one a command name, and returns how many. A row's command name and user
 * point into the tasks' strings (the user is ROLLUP_USERS, its uid ROLLUP_UID_SEVERAL, when they
 * have several): it is valid while the tasks are. Its pid and tid are 0; procs counts the
 * processes summed (distinct pids among thread rows); nthreads is the sum of the tasks'; exited,
 * fresh and departed hold when they hold for every task summed, partial when for any; carried
 * marks a kind carried in any. */
size_t rollup_build(struct rollup *ru, const struct row *const *tasks, size_t n);
void rollup_free(struct rollup *ru);

#endif
