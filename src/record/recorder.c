/* recorder.c — -w, --rotate, --keep and --capture. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "i18n.h"
#include "recdecode.h"
#include "recencode.h"
#include "recfile.h"
#include "recorder.h"
#include "trigger.h"
#include "xalloc.h"

/* A reading encoded and kept for --capture. */
struct kept {
	struct outbuf rec;
	int key;
	int64_t wall_ns;
};

struct recorder {
	struct recorder_opts o;
	struct recfile *f;
	struct rec_encoder enc;
	struct outbuf rec;
	char host[256];
	long period;         /* --rotate: the period of the file being written */
	struct kept *ring;   /* --capture: from a key reading on, oldest first */
	size_t nring, capring;
	int64_t last_key_ns; /* --capture: when the last key reading was made */
	uint32_t since_key;  /* --capture: readings since then, it included */
	int64_t until_ns;    /* --capture: readings are written until then */
	int64_t written_ns;  /* when the last reading written to the file was made; 0: none yet */
	struct rec_schema schema; /* --capture: ours, to decode the ring */
	struct row *kept;    /* the rows of the reading that -u and -c choose */
	size_t capkept;
	int failed;
};

long recorder_period(long rotate, int64_t t)
{
	time_t s = (time_t)t;
	struct tm tm;

	if (rotate >= ROTATE_SECONDS)
		return (long)(t / (rotate - ROTATE_SECONDS));
	if (rotate == ROTATE_NONE || !localtime_r(&s, &tm))
		return 0;
	return ((long)tm.tm_year * 1000 + tm.tm_yday) * (rotate == ROTATE_HOUR ? 100 : 1) +
	       (rotate == ROTATE_HOUR ? tm.tm_hour : 0);
}

void recorder_rotated_name(char *buf, size_t size, const char *path, long rotate, int64_t t)
{
	time_t s = (time_t)(rotate >= ROTATE_SECONDS ? t - t % (rotate - ROTATE_SECONDS) : t);
	struct tm tm;
	char stamp[32] = "";

	if (localtime_r(&s, &tm))
		strftime(stamp, sizeof(stamp),
			 rotate >= ROTATE_SECONDS ? "%Y-%m-%d-%H%M%S" : rotate == ROTATE_HOUR ? "%Y-%m-%d-%H" : "%Y-%m-%d",
			 &tm);
	snprintf(buf, size, "%s.%s", path, stamp);
}

static int open_file(struct recorder *r, char *err, size_t errlen)
{
	char why[512] = "";
	int rc = recfile_create(&r->f, r->o.path, r->host, why, sizeof(why));

	if (rc < 0)
		snprintf(err, errlen, F_(N_("cannot record to %s: %s")), r->o.path, why);
	return rc;
}

int recorder_open(struct recorder **out, const struct recorder_opts *o, char *err, size_t errlen)
{
	struct recorder *r = xcalloc(1, sizeof(*r));
	struct outbuf header = { 0 };
	int rc;

	r->o = *o;
	if (gethostname(r->host, sizeof(r->host) - 1) < 0)
		snprintf(r->host, sizeof(r->host), "%s", "?");
	rec_encoder_init(&r->enc);
	rc = open_file(r, err, errlen);
	if (rc < 0) {
		rec_encoder_free(&r->enc);
		free(r);
		return rc;
	}
	/* a file a run of an earlier period left: renamed after it at the first reading */
	r->written_ns = recfile_last_ns(r->f);
	if (o->rotate && r->written_ns)
		r->period = recorder_period(o->rotate, r->written_ns / 1000000000);
	if (o->capture_s > 0) {
		char why[128];

		rec_header_format(&header, r->host, 0);
		rec_header_parse(&r->schema, header.data, header.len, why, sizeof(why));
		out_free(&header);
	}
	*out = r;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The renamed files of path (path.YYYY-...), oldest first beyond keep, removed. */
static void prune(const struct recorder *r)
{
	char dir[4096], *slash, **names = NULL;
	const char *base;
	size_t n = 0, cap = 0, blen;
	DIR *d;
	struct dirent *e;

	snprintf(dir, sizeof(dir), "%s", r->o.path);
	slash = strrchr(dir, '/');
	base = slash ? r->o.path + (slash - dir) + 1 : r->o.path;
	if (slash)
		slash[slash == dir ? 1 : 0] = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	blen = strlen(base);
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		/* base.YYYY-MM-DD, base.YYYY-MM-DD-HH or base.YYYY-MM-DD-HHMMSS, maybe with -N after
		 * (rename_new), nothing else */
		size_t len = strlen(e->d_name), tail = len - blen - 1;

		if (len <= blen + 1 || strncmp(e->d_name, base, blen) != 0 || e->d_name[blen] != '.' || tail < 10 ||
		    tail > 24 || strspn(e->d_name + blen + 1, "0123456789-") != tail)
			continue;
		names = xgrow(names, &cap, n + 1, sizeof(*names));
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		if (i + r->o.keep < n) {
			char path[8192];

			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			unlink(path);
		}
		free(names[i]);
	}
	free(names);
}

/* Renames from to name (of size bytes), never over a file there (a period's name can come twice:
 * the hour repeated when summer time ends, a clock set back): then to name-1, name-2, ... */
static int rename_new(const char *from, char *name, size_t size)
{
	size_t len = strlen(name);

	for (int i = 0; i < 100; i++) {
		if (i)
			snprintf(name + len, size - len, "-%d", i);
		if (renameat2(AT_FDCWD, from, AT_FDCWD, name, RENAME_NOREPLACE) == 0)
			return 0;
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

/* --rotate: the file of the last period renamed after it, a new one opened. */
static int rotate(struct recorder *r, int64_t wall_ns, char *err, size_t errlen)
{
	long period = recorder_period(r->o.rotate, wall_ns / 1000000000);
	char why[512], name[4096];
	int rc;

	if (r->o.rotate == ROTATE_NONE || period == r->period)
		return 0;
	if (!r->period || !r->written_ns) {
		r->period = period; /* nothing written to the file yet: it goes on */
		return 0;
	}
	recorder_rotated_name(name, sizeof(name), r->o.path, r->o.rotate, r->written_ns / 1000000000);
	rc = recfile_close(r->f, why, sizeof(why));
	r->f = NULL;
	if (rc == 0 && rename_new(r->o.path, name, sizeof(name)) < 0)
		rc = -errno, snprintf(why, sizeof(why), "%s", strerror(errno));
	if (rc < 0) {
		snprintf(err, errlen, F_(N_("cannot rotate %s: %s")), r->o.path, why);
		return rc;
	}
	if (r->o.keep)
		prune(r);
	r->period = period;
	rec_encoder_free(&r->enc);
	rec_encoder_init(&r->enc);
	for (size_t i = 0; i < r->nring; i++) /* --capture: the kept readings went with the file */
		out_free(&r->ring[i].rec);
	r->nring = 0; /* a --capture window goes on in the new file, from a key reading */
	r->written_ns = 0;
	return open_file(r, err, errlen);
}

static int append(struct recorder *r, const struct outbuf *rec, int key, int64_t wall_ns, char *err, size_t errlen)
{
	char why[512];
	int rc = recfile_append(r->f, rec->data, rec->len, key, wall_ns, why, sizeof(why));

	if (rc < 0)
		snprintf(err, errlen, F_(N_("recording to %s stopped: %s")), r->o.path, why);
	else
		r->written_ns = wall_ns;
	return rc;
}

/* --capture: drops the kept readings before the last key reading at or before cutoff. */
static void ring_trim(struct recorder *r, int64_t cutoff)
{
	size_t from = 0;

	for (size_t i = 0; i < r->nring; i++)
		if (r->ring[i].key && r->ring[i].wall_ns <= cutoff)
			from = i;
	for (size_t i = 0; i < from; i++)
		out_free(&r->ring[i].rec);
	memmove(r->ring, r->ring + from, (r->nring - from) * sizeof(*r->ring));
	r->nring -= from;
}

/* --capture, a trigger fired: the kept readings of the last capture_s seconds, the first made a
 * key reading of what a reader knows at it. */
static int write_kept(struct recorder *r, int64_t cutoff, char *err, size_t errlen)
{
	struct rec_decoder d;
	struct outbuf key = { 0 };
	size_t first = 0;
	char why[128];
	int type, rc = 0;

	rec_decoder_init(&d, &r->schema);
	while (first + 1 < r->nring && r->ring[first].wall_ns < cutoff) {
		rec_decode(&d, (const uint8_t *)r->ring[first].rec.data, r->ring[first].rec.len, &type, why, sizeof(why));
		first++;
	}
	rec_decode(&d, (const uint8_t *)r->ring[first].rec.data, r->ring[first].rec.len, &type, why, sizeof(why));
	rec_encode_state(&d.st, &key);
	rc = append(r, &key, 1, r->ring[first].wall_ns, err, errlen);
	for (size_t i = first + 1; rc == 0 && i < r->nring; i++)
		rc = append(r, &r->ring[i].rec, r->ring[i].key, r->ring[i].wall_ns, err, errlen);
	out_free(&key);
	rec_decoder_free(&d);
	return rc;
}

static int capture(struct recorder *r, const struct snapshot *snap, int fired, int64_t wall, char *err,
		   size_t errlen)
{
	int64_t window = (int64_t)(r->o.capture_s * 1e9);
	/* a key reading every window, and at least every RECSEG_MAX_SAMPLES (a seek's bound) */
	int key = !r->nring || wall - r->last_key_ns >= window || r->since_key >= RECSEG_MAX_SAMPLES;
	struct kept *k;
	int writing = wall <= r->until_ns, rc = 0;

	r->ring = xgrow(r->ring, &r->capring, r->nring + 1, sizeof(*r->ring));
	k = &r->ring[r->nring++];
	memset(k, 0, sizeof(*k));
	rec_encode(&r->enc, snap, key, &k->rec);
	k->key = key;
	k->wall_ns = wall;
	r->since_key = key ? 1 : r->since_key + 1;
	if (key)
		r->last_key_ns = wall;
	if (writing) {
		rc = append(r, &k->rec, key, wall, err, errlen);
	} else if (fired) {
		/* the kept readings of the last window, but none written already (a firing soon
		 * after the window of the one before) */
		r->until_ns = wall + window;
		rc = write_kept(r, wall - window > r->written_ns ? wall - window : r->written_ns + 1, err, errlen);
	} else if (r->until_ns) {
		r->until_ns = 0; /* the window after the last firing is over */
		rc = recfile_end_segment(r->f, err, errlen);
	}
	ring_trim(r, wall - window);
	return rc;
}

/* snap with its events and only the rows o.rows chooses (departed ones included, in r->kept). */
static const struct snapshot *chosen(struct recorder *r, const struct snapshot *snap, struct snapshot *out,
				     const char *events)
{
	struct display d = { .threads = snap->threads, .accumulate = 1 };
	size_t n = 0;

	*out = *snap;
	out->events = events && events[0] ? events : NULL;
	if (!r->o.rows.by_uid && !r->o.rows.cgroup && !r->o.rows.unit)
		return out;
	r->kept = xgrow(r->kept, &r->capkept, snap->nrows ? snap->nrows : 1, sizeof(*r->kept));
	for (size_t i = 0; i < snap->nrows; i++)
		if (filter_match(&r->o.rows, &snap->rows[i], &d))
			r->kept[n++] = snap->rows[i];
	out->rows = r->kept;
	out->nrows = n;
	return out;
}

/* --why --trigger: the rows whose off-CPU stacks a reading made when triggers fired keeps, into
 * out (STALLED_ROWS_MAX at most): those its events name as the tasks that stalled most or wait now
 * (trigger_stallers, as a replay names them), when their stacks were taken. How many. */
#define STALLED_ROWS_MAX (TRIGGER_MAX * 2 * TRIGGER_TOP)
static size_t stalled_rows(const struct snapshot *snap, const struct row **out)
{
	const char *line = snap->events;
	size_t n = 0;

	if (!line || snap->why.state != WHY_ON || !snap->why.stacks)
		return 0;
	while (*line) {
		size_t len = strcspn(line, "\n");
		char text[1100], why[256];
		struct trigger_spec t;
		struct trigger_stallers st;
		const struct row *named[2 * TRIGGER_TOP];
		size_t nnamed;

		snprintf(text, sizeof(text), "%.*s", (int)len, line);
		line += len + (line[len] == '\n');
		if (trigger_parse(text, &t, why, sizeof(why)) < 0)
			continue;
		trigger_stallers(snap, &t, &st);
		nnamed = trigger_named(&st, named);
		for (size_t i = 0; i < nnamed && n < STALLED_ROWS_MAX; i++) {
			size_t j = 0;

			while (j < n && out[j] != named[i])
				j++;
			if (j == n && named[i]->stacks)
				out[n++] = named[i];
		}
	}
	return n;
}

int recorder_write(struct recorder *r, const struct snapshot *all, const char *events, char *err, size_t errlen)
{
	int64_t wall = (int64_t)all->wall.tv_sec * 1000000000 + all->wall.tv_nsec;
	struct snapshot some;
	const struct snapshot *snap = chosen(r, all, &some, events);
	int rc, key, fired = events && events[0];
	const struct row *stalled[STALLED_ROWS_MAX];

	if (r->failed)
		return 0;
	rc = rotate(r, wall, err, errlen);
	rec_encoder_keep_stacks(&r->enc, stalled, stalled_rows(snap, stalled)); /* after a new file's encoder */
	if (rc == 0 && r->o.capture_s > 0) {
		rc = capture(r, snap, fired, wall, err, errlen);
		if (fired && wall <= r->until_ns)
			r->until_ns = wall + (int64_t)(r->o.capture_s * 1e9);
	} else if (rc == 0) {
		key = recfile_segment_samples(r->f) == 0 || recfile_segment_samples(r->f) >= RECSEG_MAX_SAMPLES;
		r->rec.len = 0;
		rec_encode(&r->enc, snap, key, &r->rec);
		rc = append(r, &r->rec, key, wall, err, errlen);
	}
	if (rc < 0) {
		char why[256];

		r->failed = 1;
		if (r->f)
			recfile_close(r->f, why, sizeof(why));
		r->f = NULL;
	}
	return rc;
}

int recorder_close(struct recorder *r, char *err, size_t errlen)
{
	int rc = 0;

	if (!r)
		return 0;
	if (r->f)
		rc = recfile_close(r->f, err, errlen);
	for (size_t i = 0; i < r->nring; i++)
		out_free(&r->ring[i].rec);
	free(r->ring);
	rec_encoder_free(&r->enc);
	out_free(&r->rec);
	rec_schema_free(&r->schema);
	free(r->kept);
	free(r);
	return rc;
}
