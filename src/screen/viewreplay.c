/* viewreplay.c — the screen on a recording (-r): the source of its readings (viewstate.h), which
 * takes them from the recording at once rather than from a reading thread; the keys that step
 * through it (n, N), go to a time (J), to its trigger events (e, E) and peaks of pressure (}, {),
 * play and pause at the recorded pace (z) and change its speed ([, ]); its timeline (timeline.h); what the keys that would read or change this machine say instead; the header's
 * parts that say what is shown. The table, sorting, filters and the other keys are the live
 * screen's (view.c, viewdraw.c, prompt.c).
 *
 * Play reads one reading ahead: the time between the wall clocks of the reading shown and the
 * next one (divided by the speed) is the wait before showing it. The reading ahead stays in the
 * decoder (replay.h) until it is shown; stepping back first steps back over it. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "format.h"
#include "i18n.h"
#include "prompt.h"
#include "replay.h"
#include "terminal.h"
#include "timeline.h"
#include "timeparse.h"
#include "timing.h"
#include "users.h"
#include "view.h"

#define SPEED_MIN (-2) /* log2: 1/4x */
#define SPEED_MAX 6    /* 64x */
#define NEW_RUN_WAIT_NS 1000000000ll /* at most, before a run's first reading (the gap was not recorded) */
#define DAMAGE_SKIPS 1000             /* damaged places passed in one step at most */

struct view_replay {
	struct replay *r;
	const char *file;        /* the recording's name, without its directory */
	const char *path;        /* and as given (-r) */
	struct snapshot snap;    /* the decoder's, of the reading replay gave last: valid until the next call */
	int ready;               /* snap is to be shown: src->take copies it */
	int ahead;               /* snap is the reading after the one shown, read for play's pace */
	int ahead_first;         /* and the first of a run (no rates, after an unrecorded gap) */
	int64_t shown_ns, ahead_ns;
	uint64_t shown_at;       /* CLOCK_MONOTONIC: when it was shown, or play started */
	int cgroup_rows;         /* the reading shown has cgroup rows */
	int speed;               /* log2 of play's speed */
	int has_end;             /* --end: play stops at end_ns */
	int64_t end_ns;
	int damaged;             /* damage was met: the exit status says so */
	enum timeline_focus focus; /* what the timeline shows, and its peaks (T) */
	struct users users;
};

typedef int (*replay_step)(struct replay *, struct snapshot *, char *, size_t);

/* A reading in the direction of step into rv->snap: 1, or 0 at the end; damage on the way is
 * said and passed. */
static int fetch(struct view *v, replay_step step)
{
	struct view_replay *rv = v->replay;
	char err[1024];

	for (int i = 0; i < DAMAGE_SKIPS; i++) {
		int rc = step(rv->r, &rv->snap, err, sizeof(err));

		if (rc >= 0)
			return rc;
		rv->damaged = 1;
		view_say(v, "%s: %s", rv->file, err);
	}
	return 0;
}

/* Shows the reading in rv->snap, now; one made when triggers fired says which. */
static void show(struct view *v)
{
	struct view_replay *rv = v->replay;
	const char *events = rv->snap.events;

	rv->ready = 1;
	rv->shown_ns = replay_time(rv->r);
	rv->shown_at = timing_mono_ns();
	view_take(v);
	if (events) {
		char first[256];

		snprintf(first, sizeof(first), "%.*s", (int)strcspn(events, "\n"), events);
		view_say(v, F_(N_("this reading was made when a trigger fired: %s%s")), first,
			 strchr(events, '\n') ? _(" (and others)") : "");
	}
}

/* When play shows the reading ahead: the recorded time between the two, at the speed. */
static uint64_t pace(const struct view_replay *rv)
{
	int64_t gap = rv->ahead_ns - rv->shown_ns;

	if (gap < 0)
		gap = 0;
	if (rv->ahead_first && gap > NEW_RUN_WAIT_NS)
		gap = NEW_RUN_WAIT_NS;
	return rv->shown_at + (rv->speed >= 0 ? (uint64_t)gap >> rv->speed : (uint64_t)gap << -rv->speed);
}

static int stop_play(struct view *v, const char *why)
{
	v->paused = 1;
	view_say(v, "%s", why);
	return 1;
}

/* Play reads the next reading ahead and waits for its time; at the end, or past --end, it stops. */
static int read_ahead(struct view *v, uint64_t *deadline)
{
	struct view_replay *rv = v->replay;

	if (!fetch(v, replay_next))
		return stop_play(v, _("the end of the recording: play stopped"));
	rv->ahead = 1;
	rv->ahead_ns = replay_time(rv->r);
	rv->ahead_first = rv->snap.interval_s <= 0;
	if (rv->has_end && rv->ahead_ns > rv->end_ns && rv->shown_ns <= rv->end_ns)
		return stop_play(v, _("the time given by --end: play stopped (n shows the next reading)"));
	*deadline = pace(rv);
	return 0;
}

/* ---- the source ---- */

static void replay_start(struct view *v, uint64_t *deadline)
{
	(void)deadline;
	if (fetch(v, replay_next)) {
		show(v); /* the first reading, or the one at --begin */
		return;
	}
	v->started = 1;
	view_say(v, "%s", _("the recording has no readings"));
}

static int replay_fd(const struct view *v)
{
	(void)v;
	return -1;
}

/* The copy keeps the totals since the start (a reading is copied once, when shown). The cgroup
 * rows the reading has are shown while the cgroup view is asked for. */
static enum reader_result replay_take(struct view *v, char *err, size_t errlen)
{
	struct view_replay *rv = v->replay;

	(void)err;
	(void)errlen;
	if (!rv->ready)
		return READER_NONE;
	rv->ready = 0;
	snapcopy_take(&v->copy, &rv->snap, 1);
	v->copy_totals = 1;
	rv->cgroup_rows = v->copy.snap.cgroups;
	v->copy.snap.cgroups = rv->cgroup_rows && v->want_cgroups;
	v->listening = v->copy.snap.listening;
	return READER_SNAPSHOT;
}

/* Play: the reading ahead is due; then the one after it is read ahead. */
static int replay_due(struct view *v, uint64_t now, uint64_t *deadline)
{
	struct view_replay *rv = v->replay;
	uint64_t said = v->message_until;
	int shown = rv->ahead;

	(void)now;
	if (rv->ahead) {
		rv->ahead = 0;
		v->counted = 1; /* -n counts what play shows */
		show(v);
		if (v->quit)
			return 1;
	}
	read_ahead(v, deadline);
	return shown || v->message_until != said;
}

static void say_no_cgroups(struct view *v)
{
	view_say(v, "%s", _("this reading has no cgroup rows: a recording has them with processes, not with threads"));
}

/* The rows are the recording's: processes or threads as it was made, its cgroup rows when it has
 * them and the cgroup view is asked for. */
static void replay_group(struct view *v, int threads, int cgroups, uint64_t *deadline)
{
	struct view_replay *rv = v->replay;

	(void)threads;
	(void)deadline;
	v->snap.cgroups = v->copy.snap.cgroups = rv->cgroup_rows && cgroups;
	if (cgroups && !rv->cgroup_rows)
		say_no_cgroups(v);
}

/* A recording holds the tasks it read: the pids only filter its rows. */
static void replay_pids(struct view *v, const uint32_t *pids, size_t n)
{
	view_set_selection(v, pids, n);
	if (n)
		view_say(v, "%s", _("a recording cannot read other processes: p only filters its rows by process id"));
}

/* ---- keys ---- */

static void step_next(struct view *v, uint64_t *deadline)
{
	struct view_replay *rv = v->replay;

	if (rv->ahead) {
		rv->ahead = 0;
	} else if (!fetch(v, replay_next)) {
		view_say(v, "%s", _("this is the last reading: the recording ends here"));
		return;
	}
	show(v);
	*deadline = rv->shown_at; /* play goes on from here */
}

static void step_prev(struct view *v, uint64_t *deadline)
{
	struct view_replay *rv = v->replay;

	if (rv->ahead && fetch(v, replay_prev)) /* back over the reading ahead to the one shown */
		rv->ahead = 0;
	if (!fetch(v, replay_prev)) {
		view_say(v, "%s", _("this is the first reading: the recording starts here"));
		return;
	}
	show(v);
	*deadline = rv->shown_at;
}

/* e, E, }, {: the reading the timeline marks next (dir 1) or before (dir -1) the one shown. */
static void step_mark(struct view *v, enum timeline_mark mark, int dir, uint64_t *deadline)
{
	static const char *const none[2][2] = {
		{ N_("no trigger fired before this reading"), N_("no trigger fired after this reading") },
		{ N_("no peak of pressure before this reading"), N_("no peak of pressure after this reading") },
	};
	struct view_replay *rv = v->replay;
	const struct timeline *tl = replay_timeline(rv->r);
	long i = v->have_snap ? timeline_step(tl, rv->focus, rv->shown_ns, dir, mark) : -1;

	if (i < 0) {
		view_say(v, "%s", _(none[mark == TL_PEAK][dir > 0]));
		return;
	}
	rv->ahead = 0; /* a seek forgets it */
	if (replay_seek(rv->r, tl->p[i].t_ns) < 0 || !fetch(v, replay_next))
		return;
	show(v);
	*deadline = rv->shown_at;
	if (mark == TL_PEAK && !rv->snap.events) { /* an event says itself */
		char pct[16];

		snprintf(pct, sizeof(pct), "%.1f", tl->p[i].pressure[rv->focus] * 100.0);
		view_say(v, F_(N_("a peak of pressure: %s%% of the interval stalled")), pct);
	}
}

static void speed_text(char *buf, size_t size, int speed)
{
	if (speed >= 0)
		snprintf(buf, size, "%dx", 1 << speed);
	else
		snprintf(buf, size, "1/%dx", 1 << -speed);
}

static void change_speed(struct view *v, int step, uint64_t *deadline)
{
	struct view_replay *rv = v->replay;
	char text[16];

	if (rv->speed + step < SPEED_MIN || rv->speed + step > SPEED_MAX) {
		view_say(v, "%s", step > 0 ? _("64x is the fastest play") : _("1/4x is the slowest play"));
		return;
	}
	rv->speed += step;
	if (rv->ahead)
		*deadline = pace(rv);
	speed_text(text, sizeof(text), rv->speed);
	view_say(v, F_(N_("play at %s the recorded pace")), text);
}

/* z: play from the reading shown, or pause. */
static void play_or_pause(struct view *v, uint64_t *deadline)
{
	struct view_replay *rv = v->replay;

	v->paused = !v->paused;
	if (v->paused)
		return;
	rv->shown_at = timing_mono_ns();
	*deadline = rv->ahead ? pace(rv) : rv->shown_at;
}

/* g: the recording's rows, its cgroup rows when it has them, then its rows summed per command
 * name. */
static void switch_cgroups(struct view *v, uint64_t *deadline)
{
	if (v->want_commands)
		view_set_rows(v, v->snap.threads, 0, 0, deadline);
	else if (!v->want_cgroups && v->replay->cgroup_rows)
		view_set_rows(v, v->snap.threads, 1, 0, deadline);
	else
		view_set_rows(v, v->snap.threads, 0, 1, deadline);
}

/* J: the time of the reading shown, to edit. */
static void open_jump(struct view *v)
{
	char when[64];

	time_format(when, sizeof(when), v->replay->shown_ns);
	prompt_open(v, PROMPT_TIME, v->have_snap ? when : "");
}

static int replay_act(struct view *v, enum action a, uint64_t *deadline)
{
	switch (a) {
	case ACT_NEXT_READING: step_next(v, deadline); break;
	case ACT_PREV_READING: step_prev(v, deadline); break;
	case ACT_JUMP: open_jump(v); break;
	case ACT_FASTER: change_speed(v, 1, deadline); break;
	case ACT_SLOWER: change_speed(v, -1, deadline); break;
	case ACT_PAUSE: play_or_pause(v, deadline); break;
	case ACT_GROUP: switch_cgroups(v, deadline); break;
	case ACT_NEXT_EVENT: step_mark(v, TL_EVENT, 1, deadline); break;
	case ACT_PREV_EVENT: step_mark(v, TL_EVENT, -1, deadline); break;
	case ACT_NEXT_PEAK: step_mark(v, TL_PEAK, 1, deadline); break;
	case ACT_PREV_PEAK: step_mark(v, TL_PEAK, -1, deadline); break;
	case ACT_TIMELINE_FOCUS:
		v->replay->focus = (enum timeline_focus)((v->replay->focus + 1) % TL_FOCUS_COUNT);
		break;
	case ACT_REFRESH:
		view_say(v, "%s", _("a recording takes no readings: n or Right shows its next one"));
		break;
	case ACT_DELAY:
		view_say(v, "%s", _("a recording's interval is the one it was made with: [ and ] change the speed of play"));
		break;
	case ACT_THREADS:
		view_say(v, "%s", _("a recording shows the rows it was made with: threads only when made with -H"));
		break;
	case ACT_DELAYACCT:
		view_say(v, "%s", _("a recording shows what was read: Ctrl-T would switch this machine's kernel.task_delayacct"));
		break;
	case ACT_WHY:
		view_say(v, "%s", _("a recording shows what was recorded: --why cannot be switched on or off in it"));
		break;
	default:
		return 0;
	}
	return 1;
}

static void viewreplay_jump(struct view *v, const char *text, uint64_t *deadline);
static void viewreplay_when(const struct view *v, struct outbuf *o);
static void viewreplay_origin(const struct view *v, struct outbuf *o);
static void viewreplay_state(const struct view *v, struct outbuf *o);
static void viewreplay_around(struct view *v, double span_s, void (*feed)(void *ctx, const struct snapshot *s),
			      void *ctx);
static int viewreplay_timeline(struct view *v, int width, double *cells, unsigned char *events);
static int viewreplay_timeline_resource(const struct view *v);

static const struct view_source replay_source = {
	.start = replay_start, .fd = replay_fd, .take = replay_take, .due = replay_due,
	.group = replay_group, .pids = replay_pids, .act = replay_act,
	.when = viewreplay_when, .state = viewreplay_state, .origin = viewreplay_origin, .jump = viewreplay_jump,
	.around = viewreplay_around,
	.timeline = viewreplay_timeline, .timeline_resource = viewreplay_timeline_resource,
};

/* The readings within span_s seconds either side of the one shown, read through a reader of the
 * file's own (the screen's keeps its place); damage is passed over, said by the screen's reader
 * when it gets there. */
static void viewreplay_around(struct view *v, double span_s, void (*feed)(void *ctx, const struct snapshot *s),
			      void *ctx)
{
	struct view_replay *rv = v->replay;
	int64_t span = (int64_t)(span_s * 1e9);
	struct snapshot s;
	struct replay *r;
	char err[1024];

	if (!rv->path || replay_open(&r, rv->path, err, sizeof(err)) < 0)
		return;
	for (int skips = 0, rc = replay_seek(r, rv->shown_ns - span) == 0; rc && skips < DAMAGE_SKIPS;) {
		rc = replay_next(r, &s, err, sizeof(err));
		if (rc < 0) {
			skips++;
			continue;
		}
		if (rc == 0 || replay_time(r) > rv->shown_ns + span)
			break;
		feed(ctx, &s);
	}
	replay_close(r);
}

/* ---- the prompt and the header ---- */

static void viewreplay_jump(struct view *v, const char *text, uint64_t *deadline)
{
	struct view_replay *rv = v->replay;
	struct timespec now;
	int64_t t, first, last, now_ns;
	char err[256], shown[SHOWN_SIZE], when[64];

	if (!rv)
		return;
	clock_gettime(CLOCK_REALTIME, &now);
	now_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
	/* a time of day alone is on the day of the reading shown */
	if (time_parse_on(text, now_ns, v->have_snap ? rv->shown_ns : now_ns, &t, err, sizeof(err)) < 0) {
		view_say(v, F_(N_("'%s' is not a time: %s")), text_shown(text, shown), err);
		return;
	}
	rv->ahead = 0; /* a seek forgets it */
	if (replay_seek(rv->r, t) < 0 || !fetch(v, replay_next)) {
		view_say(v, "%s", _("the recording has no readings"));
		return;
	}
	show(v);
	*deadline = rv->shown_at;
	replay_range(rv->r, &first, &last);
	if (t < first || t > last)
		time_format(when, sizeof(when), t < first ? first : last);
	if (t < first)
		view_say(v, F_(N_("the recording starts at %s: its first reading")), when);
	else if (t > last)
		view_say(v, F_(N_("the recording ends at %s: its last reading")), when);
}

/* "RECORDING 2026-11-25 14:05:30.4": the reading's time, to a tenth of a second. */
static void viewreplay_when(const struct view *v, struct outbuf *o)
{
	char when[64];
	int64_t ns = (int64_t)v->snap.wall.tv_sec * 1000000000 + v->snap.wall.tv_nsec;

	if (!v->have_snap) {
		out_str(o, _("RECORDING"));
		return;
	}
	time_format(when, sizeof(when), ns);
	out_printf(o, F_(N_("RECORDING %s.%ld")), when, v->snap.wall.tv_nsec / 100000000);
}

static void viewreplay_origin(const struct view *v, struct outbuf *o)
{
	out_printf(o, F_(N_("%s, recorded on %s")), v->replay->file, replay_host(v->replay->r));
}

static void viewreplay_state(const struct view *v, struct outbuf *o)
{
	char speed[16];

	speed_text(speed, sizeof(speed), v->replay->speed);
	out_printf(o, v->paused ? F_(N_("PAUSED %s")) : F_(N_("PLAYING %s")), speed);
}

static int viewreplay_timeline(struct view *v, int width, double *cells, unsigned char *events)
{
	return timeline_buckets(replay_timeline(v->replay->r), v->replay->focus, width, cells, events,
				v->replay->shown_ns);
}

/* ---- set-up ---- */

static void init_replay(struct view *v, struct view_replay *rv, const struct options *o, struct replay *r)
{
	const char *slash = strrchr(o->read, '/');

	memset(rv, 0, sizeof(*rv));
	rv->r = r;
	rv->file = slash && slash[1] ? slash + 1 : o->read;
	rv->path = o->read;
	rv->has_end = o->has_end;
	rv->end_ns = o->end_ns;
	users_init(&rv->users);
	v->src = &replay_source;
	v->replay = rv;
	v->paused = 1; /* on the first reading, until z */
	v->copy.all_stacks = 1; /* the few a recording holds: the detail view shows them as it opens */
	view_set_selection(v, o->pids, o->npids); /* -p filters the rows, as p does */
	if (o->by_uid)
		str_copy(v->user_text, sizeof(v->user_text), users_name(&rv->users, o->uid));
}

int view_replay(const struct options *o, struct replay *r, int stop_fd)
{
	struct view v;
	struct view_replay rv;

	if (terminal_start() < 0)
		return EXIT_FAILURE;
	view_init(&v, o);
	init_replay(&v, &rv, o, r);
	v.colors = terminal_colors();
	v.mouse = terminal_mouse(1);
	view_loop(&v, stop_fd);
	terminal_stop();
	view_free(&v);
	users_free(&rv.users);
	return rv.damaged ? EXIT_FAILURE : EXIT_SUCCESS;
}

static int viewreplay_timeline_resource(const struct view *v)
{
	return timeline_focus_resource(v->replay->focus);
}
