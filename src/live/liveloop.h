/* liveloop.h — the live loop: readings paced by a deadline (batch mode, the exporter, recording
 * alone) or asked for (the screen's reading thread, whose asks the key loop paces); between them
 * the exit records read as they arrive and the PSI triggers watched, one that fires making a
 * reading at once; each reading recorded (-w) with the events of the triggers that fired, then
 * handed to the front end. The loop sleeps in one poll() that also watches a wake descriptor (the
 * stop signals' signalfd, stopsig.h, or the screen's asks), so that a stop signal or an ask is
 * answered at once, however long the interval. The callers differ only in their hooks. */
#ifndef DELAYTOP_LIVELOOP_H
#define DELAYTOP_LIVELOOP_H

#include "model.h"
#include "recorder.h"
#include "sampler.h"
#include "trigger.h"

/* What a readable wake descriptor asks for. */
enum live_wake { LIVE_WAIT, LIVE_READ, LIVE_STOP };

/* A reading, as the loop hands it over. */
struct live_reading {
	const struct snapshot *snap; /* NULL when the reading failed: err says why */
	const char *err;
	unsigned fired;              /* the triggers that fired since the reading before (bit i: the i-th) */
	int first;                   /* the run's first reading, which has no rates */
	const char *rec_err;         /* -w: why the recording stopped, at this reading; else NULL */
};

struct live_hooks {
	/* Before each reading, with the sampler: what to change first. Optional. */
	void (*prepare)(void *arg, struct sampler *s);
	/* A reading, recorded already; snap points into the sampler until the next reading. Returns 0
	 * to go on, -1 to end the loop. */
	int (*reading)(void *arg, const struct live_reading *r);
	/* The wake descriptor is readable: what it asks for. */
	enum live_wake (*woken)(void *arg);
	/* Between readings: trigger i fired (gone 0), or its pressure file went away (gone 1: its
	 * cgroup was removed, and it is watched no more). Optional. */
	void (*trigger)(void *arg, int i, int gone);
};

struct live_opts {
	struct sampler *s;
	const int *trigger_fds;          /* the registered triggers (trigger.h), at most TRIGGER_MAX */
	const struct trigger_spec *triggers;
	int ntriggers;
	struct recorder *rec;            /* -w, or NULL */
	int wake_fd;
	double delay_s;                  /* a reading every delay_s from the start; 0: only as woken asks */
	long iterations;                 /* paced: readings after the first (-n); 0: no end */
};

/* Runs the loop on the calling thread until a hook ends it, the wake descriptor says LIVE_STOP or,
 * paced, o->iterations readings after the first were handed over. Paced, the first reading is
 * made at once; asked, the loop waits for the first ask. A wait that fails (ppoll: ENOMEM, say)
 * is handed over as a reading that failed (snap NULL, err saying why) and ends the loop. Returns
 * -1 when a hook or a failed wait ended it, else 0. */
int liveloop_run(const struct live_opts *o, const struct live_hooks *h, void *arg);

#endif
