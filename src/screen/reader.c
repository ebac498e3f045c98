/* reader.c — the screen's reading thread (see reader.h). The screen and the thread share only
 * what is under the lock: the requests, and one reading ready to take. A reading is ready until
 * the screen has copied it; the thread waits for that before it touches the sampler again, since
 * the sampler's snapshot points into its tables. The thread runs the live loop (liveloop.h),
 * woken by the screen's asks. It starts with every signal blocked: the stop signals are read
 * through a signalfd (stopsig.h) that the key loop watches. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "format.h"
#include "liveloop.h"
#include "reader.h"
#include "recorder.h"
#include "thread.h"
#include "xalloc.h"

struct selection_out {
	uint32_t *pids;
	size_t npids;
	char notice[512];
	int has_notice;
};

struct reader {
	struct sampler *s;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t taken;
	int wake_fd;  /* the screen asked for something */
	int ready_fd; /* a reading is ready */
	int trigger_fd[TRIGGER_MAX]; /* PSI triggers, watched between readings */
	int ntriggers;
	struct recorder *rec; /* -w: each reading is recorded, on the thread */
	const struct trigger_spec *specs; /* the triggers, for the recording's events */
	int applying_pids; /* the thread's: the reading under way applies a new selection */
	int applying_why;  /* the thread's: it applies a switch of --why */

	/* under the lock */
	int quit, want, ready;
	int set_group, threads, cgroups;
	int wants; /* WANT_*; -1: as the sampler was opened */
	int set_why, why; /* --why switched by the screen */
	int set_stack;     /* the detail view's task for stacks changed: */
	uint32_t stack_id; /* it (0: none) */
	int set_pids;
	uint32_t *pids;
	size_t npids;
	int rc;
	char err[512];
	struct snapshot snap;
	unsigned fired[TRIGGER_MAX]; /* how often each trigger fired */
	time_t fired_at[TRIGGER_MAX]; /* when it last did */
	uint8_t gone[TRIGGER_MAX];    /* its pressure file went away (its cgroup was removed) */
	char rec_err[1024];      /* why the recording stopped, until the screen takes it */
	int why_applied;         /* the ready reading applied a switch of --why */
	int pids_applied;        /* the ready reading applied a selection: */
	struct selection_out sel; /* what it made of it */

	/* the screen's thread only */
	struct selection_out shown;
	int shown_changed;
	int shown_why_changed;
};

/* Applies the requests taken from under the lock; on the thread, with the lock released. */
static void apply(struct reader *r, const int *group, const uint32_t *pids, size_t npids, int set_pids)
{
	if (group)
		sampler_set_group(r->s, group[0], group[1]);
	if (set_pids)
		sampler_set_pids(r->s, pids, npids);
}

/* Under the lock: the selection the sampler made, for the screen. */
static void publish_selection(struct reader *r)
{
	const char *notice = sampler_pids_notice(r->s);
	const uint32_t *pids = sampler_pids(r->s, &r->sel.npids);

	free(r->sel.pids);
	r->sel.pids = NULL;
	if (r->sel.npids) {
		r->sel.pids = xmalloc(r->sel.npids * sizeof(*pids));
		memcpy(r->sel.pids, pids, r->sel.npids * sizeof(*pids));
	}
	r->sel.has_notice = notice != NULL;
	str_copy(r->sel.notice, sizeof(r->sel.notice), notice ? notice : "");
}

/* The detail view's task for stacks, when it changed, applied at once (on the thread, between
 * readings): its stacks are taken from now on. */
static void apply_stack_task(struct reader *r)
{
	int set;
	uint32_t id;

	pthread_mutex_lock(&r->lock);
	set = r->set_stack;
	id = r->stack_id;
	r->set_stack = 0;
	pthread_mutex_unlock(&r->lock);
	if (set)
		sampler_set_stack_task(r->s, id);
}

/* Before a reading: the requests made since the one before, taken from under the lock and
 * applied. */
static void reader_prepare(void *arg, struct sampler *s)
{
	struct reader *r = arg;
	int group[2], set_group, set_pids, wants, set_why, why;
	uint32_t *pids;
	size_t npids;

	pthread_mutex_lock(&r->lock);
	group[0] = r->threads;
	group[1] = r->cgroups;
	set_group = r->set_group;
	set_pids = r->set_pids;
	wants = r->wants;
	set_why = r->set_why;
	why = r->why;
	pids = r->pids;
	npids = r->npids;
	r->want = r->set_group = r->set_pids = r->set_why = 0;
	r->pids = NULL;
	pthread_mutex_unlock(&r->lock);
	r->applying_pids = set_pids;
	r->applying_why = set_why;
	apply(r, set_group ? group : NULL, pids, npids, set_pids);
	if (set_why)
		sampler_set_why(s, why);
	apply_stack_task(r);
	if (wants >= 0) /* a recording keeps every field */
		sampler_set_wants(s, (unsigned)wants | (r->rec ? WANT_ACCT | WANT_PEAKS : 0));
	free(pids);
}

/* A reading, made ready for the screen; the thread waits until the screen has copied it before it
 * touches the sampler again, since the snapshot points into its tables. -1: reader_stop(). */
static int reader_reading(void *arg, const struct live_reading *lr)
{
	struct reader *r = arg;
	int quit;

	pthread_mutex_lock(&r->lock);
	r->rc = lr->snap ? 0 : -1;
	if (lr->snap)
		r->snap = *lr->snap;
	str_copy(r->err, sizeof(r->err), lr->err);
	if (lr->rec_err) /* said once, through reader_recording_error */
		str_copy(r->rec_err, sizeof(r->rec_err), lr->rec_err);
	r->pids_applied = r->applying_pids;
	r->why_applied = r->applying_why;
	r->applying_why = 0;
	if (r->applying_pids)
		publish_selection(r);
	r->ready = 1;
	(void)!eventfd_write(r->ready_fd, 1);
	while (r->ready && !r->quit)
		pthread_cond_wait(&r->taken, &r->lock);
	quit = r->quit;
	pthread_mutex_unlock(&r->lock);
	return quit ? -1 : 0;
}

/* The screen asked for something (wake_fd): a reading, or the end. */
static enum live_wake reader_woken(void *arg)
{
	struct reader *r = arg;
	enum live_wake w;
	eventfd_t ignored;

	(void)!eventfd_read(r->wake_fd, &ignored);
	apply_stack_task(r);
	pthread_mutex_lock(&r->lock);
	w = r->quit ? LIVE_STOP : r->want ? LIVE_READ : LIVE_WAIT;
	pthread_mutex_unlock(&r->lock);
	return w;
}

/* A trigger fired (counted: the live loop reads at once, the reading that shows who stalled), or
 * its pressure file went away (its cgroup is gone: no longer watched). */
static void reader_trigger(void *arg, int i, int gone)
{
	struct reader *r = arg;

	pthread_mutex_lock(&r->lock);
	if (gone) {
		r->gone[i] = 1;
	} else {
		r->fired[i]++;
		r->fired_at[i] = time(NULL);
	}
	pthread_mutex_unlock(&r->lock);
}

/* The thread: the live loop, reading when the screen asks or a trigger fires. */
static void *run(void *arg)
{
	static const struct live_hooks hooks = { .prepare = reader_prepare, .reading = reader_reading,
						 .woken = reader_woken, .trigger = reader_trigger };
	struct reader *r = arg;
	struct live_opts lo = { .s = r->s, .trigger_fds = r->trigger_fd, .triggers = r->specs,
				.ntriggers = r->ntriggers, .rec = r->rec, .wake_fd = r->wake_fd };

	liveloop_run(&lo, &hooks, r);
	return NULL;
}

static void reader_free(struct reader *r)
{
	if (r->wake_fd >= 0)
		close(r->wake_fd);
	if (r->ready_fd >= 0)
		close(r->ready_fd);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->taken);
	free(r->pids);
	free(r->sel.pids);
	free(r->shown.pids);
	free(r);
}

int reader_start(struct reader **out, struct sampler *s, const int *fds, const struct trigger_spec *specs, int n,
		 struct recorder *rec)
{
	struct reader *r = xcalloc(1, sizeof(*r));
	int rc;

	for (r->ntriggers = 0; r->ntriggers < n && r->ntriggers < TRIGGER_MAX; r->ntriggers++)
		r->trigger_fd[r->ntriggers] = fds[r->ntriggers];
	r->wants = rec ? WANT_ACCT | WANT_PEAKS : -1;
	r->s = s;
	sampler_set_defer(s, !rec); /* a recording takes the rows on the thread */
	r->rec = rec;
	r->specs = specs;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->taken, NULL);
	r->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	r->ready_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (r->wake_fd < 0 || r->ready_fd < 0) {
		rc = -errno;
		reader_free(r);
		return rc;
	}
	rc = thread_start(&r->thread, run, r);
	if (rc < 0) {
		reader_free(r);
		return rc;
	}
	pthread_setname_np(r->thread, "delaytop-read"); /* in thread mode, and for the tests */
	*out = r;
	return 0;
}

void reader_stop(struct reader *r)
{
	pthread_mutex_lock(&r->lock);
	r->quit = 1;
	pthread_cond_signal(&r->taken);
	pthread_mutex_unlock(&r->lock);
	(void)!eventfd_write(r->wake_fd, 1);
	pthread_join(r->thread, NULL);
	reader_free(r);
}

/* Under the lock: the thread wakes to read. */
static void ask_locked(struct reader *r)
{
	r->want = 1;
	(void)!eventfd_write(r->wake_fd, 1);
}

void reader_ask(struct reader *r)
{
	pthread_mutex_lock(&r->lock);
	ask_locked(r);
	pthread_mutex_unlock(&r->lock);
}

void reader_set_group(struct reader *r, int threads, int cgroups)
{
	pthread_mutex_lock(&r->lock);
	r->set_group = 1;
	r->threads = threads;
	r->cgroups = cgroups;
	ask_locked(r);
	pthread_mutex_unlock(&r->lock);
}

void reader_set_wants(struct reader *r, unsigned wants)
{
	pthread_mutex_lock(&r->lock);
	r->wants = (int)wants;
	pthread_mutex_unlock(&r->lock);
}

void reader_set_why(struct reader *r, int on)
{
	pthread_mutex_lock(&r->lock);
	r->set_why = 1;
	r->why = !!on;
	pthread_mutex_unlock(&r->lock);
}

void reader_set_stack_task(struct reader *r, uint32_t id)
{
	pthread_mutex_lock(&r->lock);
	r->set_stack = 1;
	r->stack_id = id;
	pthread_mutex_unlock(&r->lock);
	(void)!eventfd_write(r->wake_fd, 1); /* applied at once when the thread waits */
}

void reader_fired(struct reader *r, unsigned *counts, time_t *last, uint8_t *gone)
{
	pthread_mutex_lock(&r->lock);
	memcpy(counts, r->fired, sizeof(r->fired));
	memcpy(last, r->fired_at, sizeof(r->fired_at));
	memcpy(gone, r->gone, sizeof(r->gone));
	pthread_mutex_unlock(&r->lock);
}

void reader_set_pids(struct reader *r, const uint32_t *pids, size_t npids)
{
	pthread_mutex_lock(&r->lock);
	free(r->pids);
	r->pids = NULL;
	if (npids) {
		r->pids = xmalloc(npids * sizeof(*pids));
		memcpy(r->pids, pids, npids * sizeof(*pids));
	}
	r->npids = npids;
	r->set_pids = 1;
	ask_locked(r);
	pthread_mutex_unlock(&r->lock);
}

int reader_fd(const struct reader *r)
{
	return r->ready_fd;
}

enum reader_result reader_take(struct reader *r, struct snapcopy *c, int totals, char *err, size_t errlen)
{
	enum reader_result res;
	eventfd_t ignored;

	pthread_mutex_lock(&r->lock);
	(void)!eventfd_read(r->ready_fd, &ignored);
	if (!r->ready) {
		pthread_mutex_unlock(&r->lock);
		return READER_NONE;
	}
	if (r->rc == 0) {
		snapcopy_take_made(c, r->s, &r->snap, totals); /* the rows made here, at once in the copy */
		res = READER_SNAPSHOT;
	} else {
		str_copy(err, errlen, r->err);
		res = READER_ERROR;
	}
	r->shown_changed = r->pids_applied;
	r->shown_why_changed = r->why_applied;
	r->why_applied = 0;
	if (r->pids_applied) { /* the selection moves to the screen's side */
		free(r->shown.pids);
		r->shown = r->sel;
		r->sel.pids = NULL;
	}
	r->ready = 0;
	pthread_cond_signal(&r->taken);
	pthread_mutex_unlock(&r->lock);
	return res;
}

const uint32_t *reader_pids(const struct reader *r, size_t *n)
{
	*n = r->shown.npids;
	return r->shown.pids;
}

const char *reader_pids_notice(const struct reader *r)
{
	return r->shown.has_notice ? r->shown.notice : NULL;
}

int reader_pids_changed(const struct reader *r)
{
	return r->shown_changed;
}

int reader_why_changed(const struct reader *r)
{
	return r->shown_why_changed;
}

int reader_recording_error(struct reader *r, char *err, size_t errlen)
{
	int have;

	pthread_mutex_lock(&r->lock);
	have = r->rec_err[0] != '\0';
	str_copy(err, errlen, r->rec_err);
	r->rec_err[0] = '\0';
	pthread_mutex_unlock(&r->lock);
	return have;
}
