/* sampler.h — one reading per tick: walk /proc, ask taskstats about every task, fold in the tasks
 * that exited, and turn consecutive readings into a snapshot of per-interval rates. */
#ifndef DELAYTOP_SAMPLER_H
#define DELAYTOP_SAMPLER_H

#include <stddef.h>
#include <stdint.h>

#include "cghier.h"
#include "model.h"
#include "trigger.h"
struct rowbuf; /* rowbuild.h: sampler_rows fills one */

struct sampler;
struct kernel;

struct sampler_opts {
	int threads;          /* rows are threads (queries by pid) rather than processes (by tgid) */
	const uint32_t *pids; /* only these processes, when npids > 0 */
	size_t npids;
	int listen;           /* listen for exits between readings, when the kernel allows it */
	int exit_rcvbuf;      /* receive buffer for exit records, bytes */
	int departed;         /* keep exited tasks for the totals since the start (the front end may show them) */
	int cgroups;          /* the cgroup view: snapshots carry cgroup rows (processes are read) */
	const char *cgroup_root; /* the cgroup view's root; NULL: the hierarchy's root */
	int no_states;        /* cgroup rows without their tasks by state (the metrics have none): on
				 v2 those are counted from the threads' states, read of the threads
				 that moved (threadnotes.h), on v1 asked of the kernel for each cgroup */
	unsigned wants;       /* WANT_*: what process rows read beyond the kernel's per-process
				 answer; without it those fields are unavailable */
	int no_totals;        /* no front end shows the totals since the start (nor the departed
				 tasks): the tasks keep none, and the rows have none (acc NULL) */
	int moved_totals;     /* the tasks keep totals since the start only once they moved: the
				 rows of those still since the first reading share zero ones (the
				 screen, on a machine most of whose threads never run meanwhile) */
	size_t prestate_min;  /* thread mode: a reading of this many new threads or more reads their
				 states on a second thread beside the queries (prestate.h); 0:
				 PRESTATE_MIN. The unit tests lower it to drive that path */
	int why;              /* --why: the eBPF side measures every wait, and each row gets the
				 histograms of its interval (row.lat, snapshot.why). A switch of its own
				 rather than a want: loading it takes a moment and is tried once */
	int why_stacks;       /* with why: the off-CPU stacks of the selected tasks (the pids, or
				 the rows sampler_set_stack_match chooses, and the stallers below),
				 each such row its top stacks (row.stacks) */
	const struct trigger_spec *stall_triggers; /* with why_stacks: --trigger's, whose tasks
						      that stalled most in a reading (or wait now)
						      are chosen for the next ones too
						      (stallwatch.h) */
	int nstall_triggers;
};


/* Opens the sources: the real kernel edge (kernel_open). Without CAP_NET_ADMIN the sampler works
 * in limited mode and sampler_notice() says so. Returns 0 or a negative errno with a message in
 * err. */
int sampler_open(struct sampler **out, const struct sampler_opts *o, char *err, size_t errlen);

/* The same on the kernel k (kernelops.h: the real one, or a fake of it in the unit tests), which
 * the sampler owns from then on, closing it in sampler_close. Returns 0 or a negative errno with a
 * message in err. */
int sampler_open_kernel(struct sampler **out, const struct sampler_opts *o, struct kernel *k, char *err,
			size_t errlen);
void sampler_close(struct sampler *s);

/* Takes one reading and fills *snap. The first reading has no rates (interval_s is 0); every
 * later one has the rates since the previous one. Every row also carries its totals since the
 * first reading (unless no_totals), and the tasks that exited earlier follow as departed rows (with
 * departed), so that a front end can show either. A task that may have been forked while kernel.task_delayacct was 0 (the
 * sampler keeps the periods in which it found the switch off) has its non-CPU kinds unavailable
 * for its whole life. The snapshot's rows and strings belong to the sampler and live until the
 * next tick. Returns 0 or a negative errno with a message in err. */
int sampler_tick(struct sampler *s, struct snapshot *snap, char *err, size_t errlen);

/* defer: sampler_tick leaves the task rows out of the snapshot (nrows 0) for sampler_rows to make
 * later, into the caller's buffer: a front end that copies each reading (the screen) then has
 * them made once, in its copy, not made and copied (two sets of rows, 36 MB each at 100,000
 * threads). Not in the cgroup view, whose reading needs its rows. */
void sampler_set_defer(struct sampler *s, int defer);

/* The rows of the last tick's snapshot when it left them out: made into b (grown as needed) and
 * set in snap, as sampler_tick would have made them; 1 then, 0 when snap has its rows already.
 * Once per reading, before the next tick, while nothing else uses the sampler. */
int sampler_rows(struct sampler *s, struct snapshot *snap, struct rowbuf *b);

/* What the user should be told once about missing privileges or exit records, or NULL. */
const char *sampler_notice(const struct sampler *s);
/* What the user should be told once about --why: why it is unavailable, or which kinds it cannot
 * measure on this kernel; NULL when it measures every kind or is off. */
const char *sampler_why_notice(const struct sampler *s);
/* Switches the eBPF side on or off (sampler_opts.why) from the next tick. A load that failed is
 * not tried again until it is switched off and on (the screen's key). */
void sampler_set_why(struct sampler *s, int on);
/* The rows whose off-CPU stacks are taken from the next interval on (with why_stacks): those
 * match says 1 of (at most STK_SELECT_MAX, the first ones); NULL: every row (those of the pids). */
void sampler_set_stack_match(struct sampler *s, int (*match)(void *arg, const struct row *r), void *arg);
/* The front end's task (the screen's detail view) whose stacks are taken too, with why_stacks: a
 * tid in thread rows, else a pid; 0 for none. Taken from now on (it is added to the tasks chosen
 * at once), and dropped at the next reading unless the options chose it too; dropped too once no
 * live row has its id (a pid reused is not followed). Kept while --why is switched off and on. */
void sampler_set_stack_task(struct sampler *s, uint32_t id);

/* The exit listener's descriptor, to poll between ticks; -1 when there is none. */
int sampler_listen_fd(const struct sampler *s);
/* Reads exit records queued now, so that a burst does not overflow the buffer between ticks. */
void sampler_drain(struct sampler *s);

/* Changes take effect at the next tick. Switching between processes and threads, or changing
 * the pid selection, starts new baselines: tasks new to the selection get rates one tick later,
 * and a switch also starts the totals anew. */
void sampler_set_threads(struct sampler *s, int threads);
/* The view: threads, or processes, or (cgroups) cgroups summing processes. */
void sampler_set_group(struct sampler *s, int threads, int cgroups);
/* What process rows read beyond the kernel's answer (sampler_opts.wants). In thread mode, what is
 * newly wanted has every thread asked at the next tick, as the threads carried over lack it. */
void sampler_set_wants(struct sampler *s, unsigned wants);
/* The cgroup hierarchy shown (its layout is CGROUP_NONE when none is mounted). */
const struct cgroup_hier *sampler_cgroup_hier(const struct sampler *s);
void sampler_set_pids(struct sampler *s, const uint32_t *pids, size_t npids);
/* What the selection made of ids that are threads ("4321 is a thread of process 4320: showing
 * the process"), or NULL; it lives until the next sampler_set_pids(). */
const char *sampler_pids_notice(const struct sampler *s);
/* The name of a user, from the sampler's cache of the user database; it lives as long as s. */
const char *sampler_user_name(struct sampler *s, uint32_t uid);

/* The selected processes (the listed ids, threads resolved to their process, each once); n = 0
 * when every process is selected. */
const uint32_t *sampler_pids(const struct sampler *s, size_t *n);

#endif
