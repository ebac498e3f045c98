/* viewlive.c — the screen on a live run: its source of readings (viewstate.h) is the reading thread
 * (reader.h), which takes them off the key loop; what the thread did with the pid selection and
 * the recording is said as each reading comes. The state, keys and loop are view.c's. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "terminal.h"
#include "timing.h"
#include "view.h"

/* After a reading that applied a new pid selection. */
static void selection_arrived(struct view *v)
{
	size_t n;
	const uint32_t *pids = reader_pids(v->reader, &n);

	view_set_selection(v, pids, n);
	if (reader_pids_notice(v->reader))
		view_say(v, "%s", reader_pids_notice(v->reader));
	else if (n)
		view_say(v, "%s", _("new processes in the selection get rates from the next reading"));
}

/* y: --why on or off from the next reading, which says how it went (why_arrived). */
static void switch_why(struct view *v)
{
	v->why = !v->why;
	reader_set_why(v->reader, v->why);
	view_say(v, "%s", v->why ? _("--why on: each wait's length from the next reading")
				 : _("--why off from the next reading"));
}

/* After the reading that applied y: the sampler's sentence when the eBPF side could not load
 * (then --why goes back off, so that y tries again), or on which kinds it does not measure. */
static void why_arrived(struct view *v)
{
	const struct why_header *h = &v->copy.snap.why;

	if (h->state == WHY_UNAVAILABLE) {
		view_say(v, "%s", h->reason ? h->reason : _("--why is unavailable"));
		v->why = 0;
		reader_set_why(v->reader, 0);
	} else if (h->state == WHY_ON && h->reason) {
		view_say(v, "%s", h->reason);
	}
}

/* Whether the copy of a reading needs the task rows' totals since the start: while they are
 * shown, and for MAX AT, whose times come with them. */
static int needs_totals(const struct view *v)
{
	return v->spec.display.accumulate || listing_uses_column(&v->spec, COL_MAX_AT);
}

static void live_start(struct view *v, uint64_t *deadline)
{
	(void)deadline;
	reader_ask(v->reader);
}

static int live_fd(const struct view *v)
{
	return reader_fd(v->reader);
}

/* The totals since the start are copied only while they are needed. */
static enum reader_result live_take(struct view *v, char *err, size_t errlen)
{
	int totals = needs_totals(v);
	enum reader_result res = reader_take(v->reader, &v->copy, totals, err, errlen);
	char why[512];

	if (res == READER_NONE)
		return res;
	v->copy_totals = totals;
	if (reader_recording_error(v->reader, why, sizeof(why)))
		view_say(v, "%s", why);
	if (reader_pids_changed(v->reader))
		selection_arrived(v);
	if (res == READER_SNAPSHOT && reader_why_changed(v->reader))
		why_arrived(v);
	return res;
}

/* -n counts the readings asked for at a deadline (not the first, nor those a key asked for). */
static int live_due(struct view *v, uint64_t now, uint64_t *deadline)
{
	reader_ask(v->reader);
	v->counted = 1;
	*deadline = timing_next_deadline(*deadline, (uint64_t)(v->delay_s * 1e9), now);
	return 0;
}

/* The rows shown until the reading asked for now stay those of the last reading, under their
 * own titles. Between processes and threads new baselines start, so the next reading is a whole
 * interval later; the cgroup view sums process rows. */
static void live_group(struct view *v, int threads, int cgroups, uint64_t *deadline)
{
	reader_set_group(v->reader, threads, cgroups);
	*deadline = timing_mono_ns() + (uint64_t)(v->delay_s * 1e9);
	if (threads != v->want_threads)
		view_say(v, "%s", _("rates from the next reading"));
	else if (cgroups)
		view_say(v, "%s", _("cgroup pressure from the next reading"));
}

/* The rows follow with the reading that applies the selection (selection_arrived). */
static void live_pids(struct view *v, const uint32_t *pids, size_t n)
{
	reader_set_pids(v->reader, pids, n);
}

static int live_act(struct view *v, enum action a, uint64_t *deadline)
{
	switch (a) {
	case ACT_REFRESH:
		reader_ask(v->reader);
		*deadline = timing_mono_ns() + (uint64_t)(v->delay_s * 1e9);
		return 1;
	case ACT_NEXT_READING: case ACT_PREV_READING: case ACT_JUMP: case ACT_FASTER: case ACT_SLOWER:
	case ACT_NEXT_EVENT: case ACT_PREV_EVENT: case ACT_NEXT_PEAK: case ACT_PREV_PEAK:
		view_say(v, "%s", _("this key steps through a recording (delaytop -r FILE); this screen is live"));
		return 1;
	case ACT_WHY:
		switch_why(v);
		return 1;
	default:
		return 0;
	}
}

/* The detail view's task: its stacks are taken from now on, unless the options chose it already. */
static void live_stacks(struct view *v, uint32_t id)
{
	reader_set_stack_task(v->reader, id);
}

static const struct view_source live_source = {
	.start = live_start, .fd = live_fd, .take = live_take, .due = live_due,
	.group = live_group, .pids = live_pids, .act = live_act, .stacks = live_stacks,
};

/* What the sampler knows at the start: the user's name, the selection, exits listened to. */
static void init_live(struct view *v, const struct options *o, struct sampler *s)
{
	const uint32_t *pids;
	size_t npids;

	v->src = &live_source;
	if (o->by_uid)
		str_copy(v->user_text, sizeof(v->user_text), sampler_user_name(s, o->uid));
	pids = sampler_pids(s, &npids);
	view_set_selection(v, pids, npids);
	v->listening = sampler_listen_fd(s) >= 0;
	if (sampler_notice(s))
		view_say(v, "%s", sampler_notice(s));
	else if (sampler_pids_notice(s))
		view_say(v, "%s", sampler_pids_notice(s));
}

int view_run(const struct options *o, struct sampler *s, const int *trigger_fds, struct recorder *rec,
	     int stop_fd)
{
	struct view v;
	int rc;

	if (terminal_start() < 0)
		return EXIT_FAILURE;
	view_init(&v, o);
	init_live(&v, o, s);
	v.colors = terminal_colors();
	v.mouse = terminal_mouse(1);
	rc = reader_start(&v.reader, s, trigger_fds, o->triggers, o->ntriggers, rec);
	if (rc == 0) {
		view_loop(&v, stop_fd);
		reader_stop(v.reader); /* after the reading under way, if any */
	}
	terminal_stop();
	if (rc < 0)
		fprintf(stderr, "%s: %s: %s\n", PACKAGE, _("cannot start the reading thread"), strerror(-rc));
	view_free(&v);
	return rc < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
