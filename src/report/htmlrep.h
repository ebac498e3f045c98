/* htmlrep.h — the HTML report (--format html): what it keeps of the readings of a window (a
 * recording from --begin to --end, or command mode's run), and the page made of it. The readings'
 * times are cut into at most SVG_MAX_POINTS buckets, twice as wide each time they fill up, so that
 * the memory and the page stay the same size for an hour and for a day; each task and each cgroup
 * keeps its delay per kind in the buckets where it waited, and its total for the window, and so
 * does each command name (its tasks' delays added). The page: the host's facts, the pressure of
 * each resource over time, per delay kind the tasks and cgroups that waited most (a chart of the
 * first HTMLREP_CHART, a table of the first HTMLREP_TABLE) and a table of the command names that
 * did, the heat maps of the waits --why measured (htmllat.h: each task's and cgroup's waits by
 * bucket and log2 slot), and every PSI trigger event with who stalled; where the readings carry
 * --why's off-CPU stacks (a recording keeps the stalled tasks' with a trigger event), a flame
 * graph of each event's (of the HTMLREP_EVENT_FLAMES whose stacks add up longest) and of each of
 * the HTMLREP_FLAMES tasks' whose stacks add up longest (flame.h). Pure code. */
#ifndef DELAYTOP_HTMLREP_H
#define DELAYTOP_HTMLREP_H

#include <stddef.h>
#include <stdint.h>

#include "delaykind.h"
#include "flame.h"
#include "format.h"
#include "htmllat.h"
#include "idmap.h"
#include "model.h"
#include "psi.h"
#include "svgchart.h"
#include "trigger.h"

#define HTMLREP_CHART 5
#define HTMLREP_TABLE 10
#define HTMLREP_FLAMES 5
#define HTMLREP_EVENT_FLAMES 10 /* the events whose stacks get a flame graph, at most */

/* One bucket's delay of a task or cgroup in one kind. */
struct hr_point {
	uint32_t bucket;
	float ns;
};

/* A task's or a cgroup's delays: per kind, the buckets where it waited (in order) and the total. */
struct hr_delays {
	struct hr_point *pts[DK_COUNT];
	uint32_t npts[DK_COUNT], cap[DK_COUNT];
	double total_ns[DK_COUNT];
};

struct hr_task {
	uint32_t pid, tid;
	uint64_t start_ns;
	char *comm, *cmdline, *user, *cgroup;
	const char *seen[ROW_STRING_COUNT]; /* the row's strings when last copied */
	struct hr_delays d;
	struct hr_lat *lat; /* --why: its waits by kind, bucket and slot; NULL: none */
	struct flame *flame; /* --why: its off-CPU stacks of the window, added up; NULL: none */
	uint32_t command;   /* the command name its delays went to last: its index + 1 (0: none) */
	kind_mask counted;  /* the kinds it was counted in there (hr_group's tasks) */
	struct hr_task *next; /* another task of the same id (a pid used again) */
};

/* A cgroup's or a command name's delays: its tasks' added. */
struct hr_group {
	char *name;                /* the cgroup's path, or the command name */
	struct hr_delays d;
	struct hr_lat *lat;        /* a cgroup: its tasks' waits of --why (NULL: none) */
	uint32_t tasks[DK_COUNT];  /* a command name: the tasks of that name that waited in each kind */
};

/* Groups by name: an array and an index by the name's hash. */
struct hr_groups {
	struct hr_group *g;
	size_t n, cap;
	uint32_t *index;           /* open addressing: index + 1 into g */
	size_t slots;
};

/* A trigger that fired, and who stalled in the reading made then. */
struct hr_event {
	double t;          /* seconds since the epoch */
	struct trigger_spec spec;
	char *task[2 * TRIGGER_TOP]; /* the tasks that stalled, then those waiting now */
	uint32_t task_pid[2 * TRIGGER_TOP];
	double task_pct[2 * TRIGGER_TOP];
	uint8_t task_waiting[2 * TRIGGER_TOP]; /* waiting now: no share yet */
	size_t ntasks;
	char *cgroup[TRIGGER_TOP];
	double cgroup_pct[TRIGGER_TOP];
	size_t ncgroups;
	struct flame *flame; /* the off-CPU stacks of the tasks it names, by task; NULL: none, or
				not among the HTMLREP_EVENT_FLAMES longest */
};

/* A bucket of time. */
struct hr_bucket {
	double cover_s; /* the readings' intervals in it, seconds */
	double t_sum;   /* their times, for the average */
	uint32_t n;     /* readings in it */
	double max_interval;
	double psi_s[PSI_COUNT][2]; /* stall seconds of each resource's some and full */
	uint8_t psi_have[PSI_COUNT][2];
};

struct htmlrep {
	double t0;        /* the first reading's time, seconds since the epoch (when nreadings) */
	double width;     /* a bucket's width, seconds */
	struct hr_bucket b[SVG_MAX_POINTS];
	uint32_t nbuckets; /* used */
	uint64_t nreadings;
	double first_s, last_s; /* the first and last reading's times */
	double cover_s;   /* the intervals of all readings */
	/* the facts: as in the first and the last reading, and whether they changed */
	int delayacct_first, delayacct_last, limited, threads;
	unsigned max_procs, max_threads;
	uint64_t exits_lost;
	kind_mask kinds;  /* kinds some task waited in */
	int why;          /* some reading was made with --why on */
	lat_mask lat_kinds; /* the kinds --why measured a wait of */
	struct idmap tasks; /* id (tid, else pid) -> struct hr_task list */
	struct hr_groups cgroups;
	struct hr_groups commands; /* by the name the task had when it waited */
	struct hr_event *events;
	size_t nevents, capevents;
	uint64_t nstacks; /* off-CPU stacks the readings carried */
	size_t flamed[HTMLREP_EVENT_FLAMES]; /* the events that keep their flame graph */
	size_t nflamed;
	uint64_t flames_dropped; /* events with stacks whose flame graph gave way to longer ones */
};

/* What the page says of where the readings came from (NULL or 0: not known, left out). */
struct htmlrep_facts {
	const char *source;  /* the recording's file, or the command run */
	const char *host;
	const char *writer;  /* the recording's writer: "delaytop 0.1.0" */
	const char *kernel;  /* uname's release */
	long cpus;
	int exit_status;     /* command mode: the command's status, -1: none */
};

void htmlrep_init(struct htmlrep *h);
void htmlrep_free(struct htmlrep *h);
/* Takes one reading: its pressure, its rows' delays, its trigger events. A reading without an
 * interval (a run's first) has no rates: only its events count. */
void htmlrep_add(struct htmlrep *h, const struct snapshot *snap);

/* The values of a bucketed series: a task's or cgroup's share of the time in kind k (percent),
 * or a resource's pressure (line 0: some, 1: full), into t and v (SVG_MAX_POINTS each), a NAN
 * where readings are missing for a while. Returns how many points. */
size_t htmlrep_delay_series(const struct htmlrep *h, const struct hr_delays *d, int k, double *t, double *v);
size_t htmlrep_psi_series(const struct htmlrep *h, int res, int line, double *t, double *v);
/* The tasks (or cgroups, or command names) that waited most in kind k, largest first, at most
 * max, into out; returns how many (those that waited at all). */
size_t htmlrep_top_tasks(const struct htmlrep *h, int k, const struct hr_task **out, size_t max);
size_t htmlrep_top_cgroups(const struct htmlrep *h, int k, const struct hr_group **out, size_t max);
size_t htmlrep_top_commands(const struct htmlrep *h, int k, const struct hr_group **out, size_t max);
/* The tasks (or cgroups) whose waits of latency kind k (--why) were longest, as above. */
size_t htmlrep_top_lat_tasks(const struct htmlrep *h, int k, const struct hr_task **out, size_t max);
size_t htmlrep_top_lat_cgroups(const struct htmlrep *h, int k, const struct hr_group **out, size_t max);
/* The tasks whose off-CPU stacks add up longest, as above. */
size_t htmlrep_top_stack_tasks(const struct htmlrep *h, const struct hr_task **out, size_t max);
/* A time (seconds since the epoch) as the page gives it: ISO 8601 on the local clock. */
void htmlrep_time_text(char *buf, size_t size, double t);
/* A task's name as the report's charts and flame graphs give it: "COMM (ID)". */
void htmlrep_task_name(char *buf, size_t size, const char *comm, uint32_t pid, uint32_t tid);

/* The whole page (htmlpage.c). */
void htmlrep_page(struct outbuf *o, const struct htmlrep *h, const struct htmlrep_facts *f);
/* Its parts, for another page of the same look (command mode's): the head with the style and the
 * heading (host: NULL for none), a row of a facts table (<table class="facts">: a label and a
 * value, both escaped), the head of a list table (<table class="list"> with its id and the n
 * titles, escaped, up to its open <tbody>), the end. */
void htmlrep_page_start(struct outbuf *o, const char *host);
void htmlrep_fact(struct outbuf *o, const char *label, const char *value);
void htmlrep_table_head(struct outbuf *o, const char *id, const char *const *titles, size_t n);
void htmlrep_page_end(struct outbuf *o);
/* The section of the latency heat maps (heatmap.c). */
void htmlrep_heatmaps(struct outbuf *o, const struct htmlrep *h);
/* The section of the off-CPU stacks' flame graphs (htmlstacks.c). */
void htmlrep_stacks(struct outbuf *o, const struct htmlrep *h);

/* What command mode's --why took of a run (stackrun.h), for its page. */
struct htmlrep_run {
	const char *command;                 /* the command line: the root of each flame graph */
	const struct stackrun_stack *stacks; /* by time, longest first */
	size_t nstacks;
	uint64_t lost;                       /* off-CPU times and stacks that did not fit */
	int why, why_off;                    /* --why asked for; it could not run */
};
/* Command mode's section of off-CPU stacks (htmlstacks.c): a flame graph of the run's stacks in
 * each state they were taken in, D, S then R, each as wide as the page; without --why, where it
 * could not run, or where no stack was taken, one sentence saying so. */
void htmlrep_run_stacks(struct outbuf *o, const struct htmlrep_run *w);

#endif
