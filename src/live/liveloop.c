/* liveloop.c — the live loop (see liveloop.h): the wait between readings, a reading recorded and
 * handed over, and the pace. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "liveloop.h"
#include "timing.h"

#define NO_DEADLINE UINT64_MAX

struct live {
	const struct live_opts *o;
	const struct live_hooks *h;
	void *arg;
	int fd[TRIGGER_MAX]; /* the triggers watched; -1 once gone */
	int ntriggers;
	int wait_errno; /* why the wait failed (WAITED_ERROR) */
};

enum waited { WAITED_DEADLINE, WAITED_READ, WAITED_STOP, WAITED_ERROR };

/* A trigger's poll() answer: fired (bit i into *fired), or gone for good (POLLERR). */
static void watch(struct live *l, struct pollfd *p, int i, unsigned *fired)
{
	if (p->revents & (POLLERR | POLLHUP | POLLNVAL)) {
		l->fd[i] = p->fd = -1;
		if (l->h->trigger)
			l->h->trigger(l->arg, i, 1);
	} else if (p->revents & POLLPRI) {
		*fired |= 1u << i;
		if (l->h->trigger)
			l->h->trigger(l->arg, i, 0);
	}
}

/* Sleeps until the CLOCK_MONOTONIC deadline (NO_DEADLINE: none), reading exit records whenever
 * they arrive. Returns at the deadline; as soon as triggers fire (*fired: which; watched only
 * with triggers set) or the wake descriptor asks for a reading (WAITED_READ); when it asks to
 * stop; or when the wait itself fails (WAITED_ERROR, l->wait_errno: why). */
static enum waited wait_for(struct live *l, uint64_t deadline, int triggers, unsigned *fired)
{
	struct pollfd pfd[2 + TRIGGER_MAX] = { { l->o->wake_fd, POLLIN, 0 }, { sampler_listen_fd(l->o->s), POLLIN, 0 } };

	*fired = 0;
	for (int i = 0; i < l->ntriggers; i++)
		pfd[2 + i] = (struct pollfd){ l->fd[i], POLLPRI, 0 };
	for (;;) {
		struct timespec ts, *timeout = NULL;
		enum live_wake w = LIVE_WAIT;
		uint64_t now = timing_mono_ns();

		if (deadline != NO_DEADLINE) {
			if (now >= deadline)
				return WAITED_DEADLINE;
			ts.tv_sec = (time_t)((deadline - now) / 1000000000u);
			ts.tv_nsec = (long)((deadline - now) % 1000000000u);
			timeout = &ts;
		}
		int rc = ppoll(pfd, 2 + (nfds_t)(triggers ? l->ntriggers : 0), timeout, NULL);

		if (rc < 0 && errno != EINTR && errno != EAGAIN) { /* ends the run rather than spin */
			l->wait_errno = errno;
			return WAITED_ERROR;
		}
		if (rc <= 0)
			continue;
		if (pfd[1].revents & POLLIN)
			sampler_drain(l->o->s);
		for (int i = 0; triggers && i < l->ntriggers; i++)
			watch(l, &pfd[2 + i], i, fired);
		if (pfd[0].revents & POLLIN)
			w = l->h->woken(l->arg);
		if (w == LIVE_STOP)
			return WAITED_STOP;
		if (w == LIVE_READ || *fired)
			return WAITED_READ;
	}
}

/* A wait that failed, handed over as a reading that failed, which ends the run. */
static void wait_failed(struct live *l, int first)
{
	char err[256];
	struct live_reading r = { NULL, err, 0, first, NULL };

	snprintf(err, sizeof(err), F_(N_("cannot wait for the next reading: %s")), strerror(l->wait_errno));
	l->h->reading(l->arg, &r);
}

/* One reading, recorded and handed over: the hook's answer. */
static int read_one(struct live *l, unsigned fired, int first)
{
	const struct live_opts *o = l->o;
	struct snapshot snap;
	char err[512], rec_err[1024], events[TRIGGER_MAX * 1100];
	struct live_reading r = { NULL, err, fired, first, NULL };

	if (l->h->prepare)
		l->h->prepare(l->arg, o->s);
	err[0] = '\0';
	if (sampler_tick(o->s, &snap, err, sizeof(err)) == 0) {
		r.snap = &snap;
		trigger_events(o->triggers, l->ntriggers, fired, events, sizeof(events));
		if (o->rec && recorder_write(o->rec, &snap, events, rec_err, sizeof(rec_err)) < 0)
			r.rec_err = rec_err;
	}
	return l->h->reading(l->arg, &r);
}

int liveloop_run(const struct live_opts *o, const struct live_hooks *h, void *arg)
{
	struct live l = { o, h, arg, { 0 }, 0, 0 };
	uint64_t step = (uint64_t)(o->delay_s * 1e9), deadline = NO_DEADLINE;
	unsigned fired;
	long paced = 0;
	int first = 1;

	for (; l.ntriggers < o->ntriggers && l.ntriggers < TRIGGER_MAX; l.ntriggers++)
		l.fd[l.ntriggers] = o->trigger_fds[l.ntriggers];
	if (step) {
		deadline = timing_mono_ns() + step; /* from the start of the first reading, however long it takes */
		if (read_one(&l, 0, 1) < 0)
			return -1;
		first = 0;
	}
	while (!step || !o->iterations || paced < o->iterations) {
		/* not before the first reading: a firing's reading must show who stalled, which needs
		 * rates, so one that came before it waits in the kernel until the first is made */
		enum waited w = wait_for(&l, deadline, !first, &fired);
		uint64_t now = timing_mono_ns();

		if (w == WAITED_STOP)
			return 0;
		if (w == WAITED_ERROR) {
			wait_failed(&l, first);
			return -1;
		}
		if (read_one(&l, w == WAITED_READ ? fired : 0, first) < 0)
			return -1;
		first = 0;
		if (w == WAITED_DEADLINE) {
			paced++;
			deadline = timing_next_deadline(deadline, step, now);
		}
	}
	return 0;
}
