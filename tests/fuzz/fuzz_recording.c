/* fuzz_recording.c — a recording's file read back as -r reads it (replay.c: recread.c's header,
 * index of segments and frames, recdecode.c's records), every reading made into a snapshot and
 * formatted as a JSON and a text report (batch.c), then a seek to the middle and a step back,
 * the screen's timeline (a pass over the readings' headers, bucketed, its marks stepped to) and
 * the reading after;
 * then -w's going on with the file (recfile.c's recovery of a killed writer's last segment). The
 * input is written to a temporary file of its own, removed after. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "fuzz.h"
#include "options.h"
#include "recfile.h"
#include "replay.h"
#include "timeline.h"

/* A batch printer of format fmt ("json", "text"), from a command line as main parses it. */
static void printer(struct batch_printer *bp, struct options *o, const char *fmt)
{
	char *argv[] = { "delaytop", "-b", "--format", (char *)fmt, NULL };
	char err[512];

	memset(o, 0, sizeof(*o));
	if (options_parse(4, argv, o, err, sizeof(err)) != OPTIONS_OK)
		abort();
	batch_init(bp, o);
}

static void report(struct batch_printer *bp, const struct snapshot *snap)
{
	bp->spec.display.threads = snap->threads;
	batch_format(bp, snap);
	bp->out.len = 0;
}

/* The timeline as the screen draws it and steps through it; then the reading after the one shown. */
static void timeline_all(struct replay *r)
{
	const struct timeline *tl = replay_timeline(r);
	double cells[80];
	unsigned char events[80];
	struct snapshot snap;
	char err[1024];
	int64_t t = tl->n ? tl->p[tl->n / 2].t_ns : 0;

	if (timeline_buckets(tl, TL_ALL, 80, cells, events, t) >= 80)
		abort();
	for (int mark = TL_EVENT; mark <= TL_PEAK; mark++)
		for (int dir = -1; dir <= 1; dir += 2) {
			long i = timeline_step(tl, TL_ALL, t, dir, (enum timeline_mark)mark);

			if (i >= (long)tl->n)
				abort();
		}
	replay_next(r, &snap, err, sizeof(err));
}

/* Every reading, as playback.c takes them; then a seek and a step back. */
static void replay_all(const char *path)
{
	struct batch_printer json, text;
	struct options oj, ot;
	struct replay *r;
	struct snapshot snap;
	char err[1024] = "";
	int64_t first, last;
	int rc, n = 0;

	if (replay_open(&r, path, err, sizeof(err)) < 0) {
		if (!err[0])
			abort(); /* a refusal says why */
		return;
	}
	printer(&json, &oj, "json");
	printer(&text, &ot, "text");
	while ((rc = replay_next(r, &snap, err, sizeof(err))) != 0 && n < 100000) {
		if (rc < 0) {
			if (!err[0])
				abort(); /* damage says where */
			err[0] = '\0';
			continue;
		}
		n++;
		report(&json, &snap);
		report(&text, &snap);
	}
	replay_range(r, &first, &last);
	if (replay_seek(r, first + (last - first) / 2) == 0 && replay_next(r, &snap, err, sizeof(err)) > 0) {
		report(&json, &snap);
		if (replay_prev(r, &snap, err, sizeof(err)) > 0)
			report(&text, &snap);
	}
	timeline_all(r);
	batch_free(&json);
	batch_free(&text);
	options_free(&oj);
	options_free(&ot);
	replay_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/fuzz_recording.XXXXXX", err[1024];
	struct recfile *f;
	int fd = mkstemp(path);

	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
	replay_all(path);
	if (recfile_create(&f, path, "fuzz", err, sizeof(err)) == 0)
		recfile_close(f, err, sizeof(err));
	unlink(path);
	return 0;
}
