/* report.h — the report of a whole command run: delays per kind and per command name. Pure code
 * apart from the printer's output stream. */
#ifndef DELAYTOP_REPORT_H
#define DELAYTOP_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "family.h"
#include "idmap.h"
#include "options.h"
#include "totals.h"

struct report_group {
	char comm[17];
	unsigned procs, threads;
	struct kind_totals sum;
	kind_mask unknown; /* bit k: some task of the group had no total of kind k */
};

/* The run's delays in one cgroup. */
struct report_cgroup {
	const char *path; /* lives as long as the run */
	unsigned procs, threads;
	struct kind_totals sum;
	kind_mask unknown;
};

struct report {
	char **argv;       /* the command */
	int wait_status;   /* as waitpid() gave it */
	double wall_s;
	unsigned procs, threads;
	unsigned running;  /* processes still alive at the end, counted as far as they got */
	uint64_t lost;     /* exit records the kernel dropped */
	uint64_t undecided; /* records whose descent could not be decided */
	struct kind_totals sum;
	kind_mask unknown; /* bit k: some task had no total of kind k (see report_partial) */
	struct report_group *groups;
	size_t ngroups, capgroups;
	struct report_cgroup *cgroups; /* by the cgroup each task ran in, when known */
	size_t ncgroups, capcgroups;
	struct idmap open; /* tgid -> processes counted whose end has not been seen (report.c) */
};

void report_init(struct report *r, char **argv);
void report_free(struct report *r);

/* Adds one thread's counters; running: it was still alive at the end. A leader's record counts
 * its process, once however often the process ran exec from another thread. */
void report_add(struct report *r, const struct exit_task *t, int running);

/* The kinds whose sums leave out tasks that had no total of the kind while others had one: a
 * task forked while kernel.task_delayacct was 0 (or one whose wait the switch made impossible)
 * has CPU delay only. Such a sum is a lower bound, and its report says so. */
kind_mask report_partial(const struct kind_totals *sum, kind_mask unknown);

/* The exit status delaytop returns: the command's, or 128 + the signal that ended it. */
int report_exit_status(const struct report *r);

/* Prints the report; returns 0 or -1 when writing failed. The text report has a table by cgroup
 * when the run's tasks ran in more than one; JSON always has "by_cgroup", CSV its rows then. */
int report_print(struct report *r, enum output_format format, FILE *out);

#endif
