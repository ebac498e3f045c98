/* metrics.h — delaytop's readings as Prometheus metrics: counters that only grow, kept from
 * snapshot to snapshot. Delay seconds and waits by kind per cgroup (a cgroup counts the tasks in
 * it and below, as the kernel's own cgroup counters do) and per command name (the top_commands
 * names that wait most, picked and kept as cmdrank.h says, the rest summed as "_other", so that a
 * host that forks many names keeps a bounded number of series); the kernel's pressure stall time,
 * system-wide and per cgroup; delaytop's own health. A cgroup's delay series stay while it exists
 * or has tasks, and expiry_s seconds more, so that scrapers see its last counts; then they go, so
 * that the series count follows the cgroups of the last expiry_s seconds, not every cgroup there
 * ever was. With --why, a cgroup's waits by kind as histograms (waithist.h), from its first wait of
 * the kind, going with its other series. Label values keep the names' bytes, and two names never
 * share one. Pure code: the text goes to an outbuf. */
#ifndef DELAYTOP_METRICS_H
#define DELAYTOP_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "cmdrank.h"
#include "format.h"
#include "model.h"
#include "waithist.h"

/* The label value of the command names that did not get a series of their own. */
#define METRICS_OTHER "_other"

/* --why: a cgroup's waits since the start, by kind (latency.h's), the kinds it had any of. */
struct metrics_waits {
	lat_mask kinds;
	struct waithist h[LAT_KINDS];
};

/* A cgroup's counters (struct metrics_delays: cmdrank.h). */
struct metrics_group {
	char *name;
	uint32_t identity_uid; /* a cgroup's delegate (rowfield.h), 0: none */
	struct metrics_delays d;
	struct metrics_waits *waits; /* --why: NULL until its tasks' first wait */
	double seen_s; /* when it last existed or had a task (snapshot elapsed_s) */
};

struct metrics_groups {
	struct metrics_group *g; /* sorted by name */
	size_t n, cap;
};

/* A task's totals when last seen, to add only what grew. */
struct metrics_task {
	uint32_t pid, tid;
	uint64_t start_ns;
	uint64_t ns[DK_COUNT], count[DK_COUNT];
};

/* A cgroup's pressure counters, as the kernel last gave them. */
struct metrics_psi {
	char *cgroup;
	uint32_t identity_uid;
	uint64_t some_us[PSI_COUNT], full_us[PSI_COUNT];
	uint8_t some[PSI_COUNT], full[PSI_COUNT]; /* present */
};

struct metrics {
	double expiry_s; /* a cgroup's series outlive it by this (DEFAULT_SERIES_EXPIRY unless set) */
	double now_s;	 /* the elapsed_s of the snapshot being taken */
	struct metrics_groups cgroups;
	struct cmdrank commands; /* the command names' series, and _other */
	struct metrics_task *tasks, *next;
	size_t ntasks, captasks, capnext;
	struct metrics_psi *psi; /* per cgroup, sorted by path */
	size_t npsi, cappsi;
	struct psi_snapshot system;
	int have_system;
	/* health */
	uint64_t readings;
	double reading_s;
	int delayacct, limited, listening;
	uint64_t exits, exits_lost;
	unsigned procs, threads;
};

void metrics_init(struct metrics *m, int top_commands);
void metrics_free(struct metrics *m);

/* Adds what a snapshot's task rows waited since the last one to the counters (with --why their
 * waits of the interval, row.lat, to their cgroups' histograms, a departed row's too), and takes its
 * pressure (system-wide and, when it has a cgroup tree, per cgroup) and health facts. reading_s:
 * how long the reading took. Drops the series of cgroups neither in its cgroup tree nor holding
 * one of its tasks for more than expiry_s (by the snapshots' elapsed_s). */
void metrics_update(struct metrics *m, const struct snapshot *snap, double reading_s);

/* The exposition: the Prometheus text format (0.0.4), or OpenMetrics 1.0 (with UNIT and # EOF). */
void metrics_format(const struct metrics *m, struct outbuf *o, int openmetrics);

/* The Content-Type of each format. */
const char *metrics_content_type(int openmetrics);

#endif
