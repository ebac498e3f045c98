/* playback.c — -r: batch reports of a recording, or the screen on it. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "htmlfile.h"
#include "i18n.h"
#include "playback.h"
#include "replay.h"
#include "stopsig.h"
#include "timeparse.h"
#include "view.h"

/* The damage the replay met and has not said yet, on stderr. Returns 1 when there was some. */
static int say_pending(const struct options *o, struct replay *r)
{
	char err[1024];
	int any = 0;

	while (replay_pending(r, err, sizeof(err))) {
		fprintf(stderr, "%s: %s: %s\n", PACKAGE, o->read, err);
		any = 1;
	}
	return any;
}

static void no_readings(const struct options *o)
{
	fprintf(stderr, "%s: %s: %s\n", PACKAGE, o->read, _("the recording has no readings"));
}

/* Opens the recording and goes to --begin. Returns NULL after a message, with the exit status in
 * *status: also when the file holds no reading (a header alone: 0; segments none of which could
 * be read: 1, their damage said first). */
static struct replay *open_replay(const struct options *o, int *status)
{
	struct replay *r;
	char err[1024], when[64];

	*status = EXIT_FAILURE;
	if (replay_open(&r, o->read, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: ", PACKAGE);
		fprintf(stderr, F_(N_("cannot read the recording %s: %s")), o->read, err);
		fputc('\n', stderr);
		return NULL;
	}
	if (!replay_segments(r) || (o->has_begin && replay_seek(r, o->begin_ns) < 0)) {
		*status = say_pending(o, r) ? EXIT_FAILURE : EXIT_SUCCESS;
		no_readings(o);
		replay_close(r);
		return NULL;
	}
	if (o->has_begin) {
		int64_t first, last;

		replay_range(r, &first, &last);
		if (last < o->begin_ns) {
			time_format(when, sizeof(when), last);
			fprintf(stderr, "%s: %s: ", PACKAGE, o->read);
			fprintf(stderr, F_(N_("the recording ends before --begin, at %s")), when);
			fputc('\n', stderr);
			replay_close(r);
			return NULL;
		}
	}
	return r;
}

/* A reading made when triggers fired: their events, as a live run printed them (-n does not count
 * them, nor does it there). Returns as batch_print. */
static int print_events(struct batch_printer *bp, const struct snapshot *snap)
{
	const char *line = snap->events;

	while (*line) {
		size_t len = strcspn(line, "\n");
		char text[1100], why[256];
		struct trigger_spec t;

		snprintf(text, sizeof(text), "%.*s", (int)len, line);
		if (trigger_parse(text, &t, why, sizeof(why)) == 0 && batch_event(bp, snap, &t, stdout) < 0)
			return -1;
		line += len + (line[len] == '\n');
	}
	return 0;
}

/* Reports of every reading from --begin to --end (or -n of them). */
static int print_all(const struct options *o, struct replay *r, int stop_fd)
{
	struct batch_printer bp;
	struct snapshot snap;
	char err[1024];
	int status = EXIT_SUCCESS;
	long printed = 0, nread = 0;

	batch_init(&bp, o);
	bp.spec.filter.pids = o->pids; /* a recording holds the tasks it read: -p only filters its rows */
	bp.spec.filter.npids = o->npids;
	while (!stopsig_requested(stop_fd) && (!o->iterations || printed < o->iterations)) {
		int rc = replay_next(r, &snap, err, sizeof(err));

		if (rc == 0)
			break;
		if (rc < 0) {
			fprintf(stderr, "%s: %s: %s\n", PACKAGE, o->read, err);
			status = EXIT_FAILURE;
			continue;
		}
		nread++;
		if (o->has_end && replay_time(r) > o->end_ns)
			break;
		if (snap.interval_s <= 0)
			continue; /* a run's first reading has no rates: a live run prints none for it */
		bp.spec.display.threads = snap.threads; /* the rows as recorded */
		if (snap.events && (o->format == FORMAT_CSV || o->format == FORMAT_OPENMETRICS))
			continue; /* events are text or JSON (a live run refuses --trigger with these) */
		if ((snap.events ? print_events(&bp, &snap) : batch_print(&bp, &snap, stdout)) < 0) {
			if (errno != EPIPE) { /* a closed pipe (| head) is the reader's choice, as live */
				fprintf(stderr, "%s: %s: %s\n", PACKAGE, _("cannot write the report"), strerror(errno));
				status = EXIT_FAILURE;
			}
			break;
		}
		printed += !snap.events;
	}
	batch_free(&bp);
	if (!nread && !stopsig_requested(stop_fd))
		no_readings(o); /* every segment was damaged (status 1), or held no whole record */
	return status;
}

int playback_run(const struct options *o, int stop_fd)
{
	int rc;
	struct replay *r = open_replay(o, &rc);

	if (!r)
		return rc;
	if (o->format == FORMAT_HTML)
		rc = htmlfile_replay(o, r, stop_fd);
	else
		rc = o->batch ? print_all(o, r, stop_fd) : view_replay(o, r, stop_fd);
	replay_close(r);
	return rc;
}
