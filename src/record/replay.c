/* replay.c — a recording read back as snapshots. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "recdecode.h"
#include "recfile.h"
#include "replay.h"
#include "i18n.h"
#include "timeline.h"
#include "xalloc.h"

struct replay {
	struct recread *rr;
	const struct rec_segment *segs;
	size_t nsegs;
	struct rec_decoder dec;
	size_t seg;       /* the segment loaded; nsegs before any */
	const uint8_t *data;
	size_t len, pos;
	off_t damage;     /* the loaded segment's frame is damaged there; -1: it is not */
	int told;         /* the damage was said */
	size_t index;     /* readings decoded in the loaded segment, the current one included */
	int pending;      /* a seek stopped at a reading that replay_next has yet to give */
	int64_t cur, first, last;
	off_t index_damage; /* the index passed damage there; -1: none */
	char seek_err[512];  /* the first damage a seek passed, to say */
	struct timeline tl;  /* made at the first replay_timeline */
	int have_tl;
};

static void clock_text(char *buf, size_t size, int64_t ns)
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, size, "%s", "?");
}

static void load(struct replay *r, size_t i)
{
	off_t at = -1;
	int rc = recread_segment(r->rr, i, &r->data, &r->len, &at);

	r->seg = i;
	r->pos = 0;
	r->index = 0;
	r->damage = rc < 0 ? at : -1;
	r->told = 0;
}

/* Decodes the next reading of the loaded segment: 1; 0 when it has no more; -1 at damage. */
static int decode_one(struct replay *r, char *err, size_t errlen)
{
	char why[128], when[64];

	while (r->pos < r->len) {
		int type;
		long used = rec_decode(&r->dec, r->data + r->pos, r->len - r->pos, &type, why, sizeof(why));

		if (used > 0) {
			r->pos += (size_t)used;
			if (!type)
				continue;
			r->index++;
			r->cur = rec_decoder_wall(&r->dec);
			return 1;
		}
		r->pos = r->len; /* a record cut short ends the segment: the reading being written */
		if (used == 0 && !r->segs[r->seg].open && r->damage < 0) {
			/* but a segment that was ended holds whole records only */
			used = -1;
			snprintf(why, sizeof(why), "%s", _("a record runs past the end of its segment"));
		}
		if (used < 0) {
			clock_text(when, sizeof(when), r->cur);
			if (r->index)
				snprintf(err, errlen, F_(N_("damaged in the segment at byte %lld, after the reading of %s (%s)")),
					 (long long)r->segs[r->seg].offset, when, why);
			else
				snprintf(err, errlen, F_(N_("damaged in the segment at byte %lld, before its first reading (%s)")),
					 (long long)r->segs[r->seg].offset, why);
			r->told = 1; /* one message for the segment */
			return -1;
		}
	}
	if (r->damage >= 0 && !r->told) {
		r->told = 1;
		clock_text(when, sizeof(when), r->cur);
		if (r->segs[r->seg].cut)
			snprintf(err, errlen,
				 F_(N_("cut short at byte %lld, in the segment at byte %lld: the rest of its readings "
				       "are lost")),
				 (long long)r->damage, (long long)r->segs[r->seg].offset);
		else if (r->index)
			snprintf(err, errlen,
				 F_(N_("damaged at byte %lld, after the reading of %s: the rest of its segment is lost")),
				 (long long)r->damage, when);
		else
			snprintf(err, errlen, F_(N_("damaged at byte %lld: its segment is lost")), (long long)r->damage);
		return -1;
	}
	return 0;
}

/* The next reading, segments after segments. */
static int advance(struct replay *r, char *err, size_t errlen)
{
	for (;;) {
		int rc = r->seg < r->nsegs ? decode_one(r, err, errlen) : 0;

		if (rc != 0)
			return rc;
		/* no segment at all (a file with a header only): nothing to load */
		if (r->nsegs == 0 || (r->seg + 1 >= r->nsegs && r->seg < r->nsegs))
			return 0;
		load(r, r->seg < r->nsegs ? r->seg + 1 : 0);
	}
}

/* Goes to reading n (from 1) of segment i. */
static void goto_reading(struct replay *r, size_t i, size_t n)
{
	char err[256];

	load(r, i);
	while (r->index < n && decode_one(r, err, sizeof(err)) != 0)
		;
}

int replay_open(struct replay **out, const char *path, char *err, size_t errlen)
{
	struct replay *r = xcalloc(1, sizeof(*r));
	int rc = recread_open(&r->rr, path, err, errlen);
	char skip[256];

	if (rc < 0) {
		free(r);
		return rc;
	}
	r->segs = recread_segments(r->rr, &r->nsegs);
	r->index_damage = recread_damage(r->rr);
	rec_decoder_init(&r->dec, recread_schema(r->rr));
	rec_decoder_bound(&r->dec, (uint64_t)recread_size(r->rr));
	r->seg = r->nsegs;
	r->damage = -1;
	if (r->nsegs) {
		r->first = r->segs[0].first_ns;
		r->last = r->segs[r->nsegs - 1].last_ns;
	}
	if (r->nsegs && r->segs[r->nsegs - 1].open) {
		/* the last segment is being written (or its writer was killed): it ends where its
		 * readings do */
		load(r, r->nsegs - 1);
		while (decode_one(r, skip, sizeof(skip)) > 0)
			r->last = r->cur;
		r->seg = r->nsegs;
		r->cur = 0;
	}
	*out = r;
	return 0;
}

void replay_close(struct replay *r)
{
	if (!r)
		return;
	rec_decoder_free(&r->dec);
	timeline_free(&r->tl);
	recread_close(r->rr);
	free(r);
}

void replay_range(const struct replay *r, int64_t *first_ns, int64_t *last_ns)
{
	*first_ns = r->first;
	*last_ns = r->last;
}

const char *replay_host(const struct replay *r)
{
	return recread_schema(r->rr)->host;
}

const char *replay_writer(const struct replay *r)
{
	return recread_schema(r->rr)->writer;
}

int64_t replay_time(const struct replay *r)
{
	return r->cur;
}

size_t replay_segments(const struct replay *r)
{
	return r->nsegs;
}

int replay_pending(struct replay *r, char *err, size_t errlen)
{
	if (r->seek_err[0]) { /* damage a seek passed: said before the reading it went to */
		snprintf(err, errlen, "%s", r->seek_err);
		r->seek_err[0] = '\0';
		return 1;
	}
	if (r->index_damage >= 0) {
		/* said once, before the first reading given */
		snprintf(err, errlen, F_(N_("damaged at byte %lld: a segment's header is unreadable")),
			 (long long)r->index_damage);
		r->index_damage = -1;
		return 1;
	}
	return 0;
}

int replay_next(struct replay *r, struct snapshot *snap, char *err, size_t errlen)
{
	int rc;

	if (replay_pending(r, err, errlen))
		return -1;
	if (r->pending) {
		r->pending = 0;
		rec_decoder_snapshot(&r->dec, snap);
		return 1;
	}
	rc = advance(r, err, errlen);
	if (rc > 0)
		rec_decoder_snapshot(&r->dec, snap);
	return rc;
}

int replay_seek(struct replay *r, int64_t t)
{
	size_t lo = 0, hi = r->nsegs, last_seg = 0, last_index = 0;
	char err[256];

	if (!r->nsegs)
		return -1;
	while (hi - lo > 1) { /* the last segment that starts at or before t */
		size_t mid = (lo + hi) / 2;

		if (r->segs[mid].first_ns <= t)
			lo = mid;
		else
			hi = mid;
	}
	load(r, lo);
	for (;;) {
		int rc = advance(r, err, sizeof(err));

		if (rc == 0)
			break;
		if (rc < 0) {
			if (!r->seek_err[0])
				snprintf(r->seek_err, sizeof(r->seek_err), "%s", err);
			continue;
		}
		last_seg = r->seg;
		last_index = r->index;
		if (r->cur >= t) {
			r->pending = 1;
			return 0;
		}
	}
	if (!last_index)
		return -1;
	goto_reading(r, last_seg, last_index);
	r->pending = 1;
	return 0;
}

int replay_prev(struct replay *r, struct snapshot *snap, char *err, size_t errlen)
{
	size_t seg = r->seg, index = r->index;

	(void)err;
	(void)errlen;
	r->pending = 0;
	if (seg >= r->nsegs || index == 0)
		return 0;
	if (index > 1) {
		goto_reading(r, seg, index - 1);
	} else {
		size_t at = seg;
		char skip[256];

		do { /* the last reading of the nearest segment before that has one */
			if (at == 0) {
				goto_reading(r, seg, 1);
				return 0;
			}
			load(r, --at);
			while (decode_one(r, skip, sizeof(skip)) != 0)
				;
		} while (r->index == 0);
	}
	rec_decoder_snapshot(&r->dec, snap);
	return 1;
}

/* The heads of segment i's readings into the timeline, through dec (a decoder of its own); a
 * reading past damage is not there. */
static void scan_segment(struct replay *r, struct rec_decoder *dec, size_t i)
{
	const uint8_t *data;
	size_t len, pos = 0;
	off_t at;
	char why[128];

	recread_segment(r->rr, i, &data, &len, &at); /* when damaged, len holds what came before */
	while (pos < len) {
		struct psi_snapshot psi;
		double interval;
		int type;
		long used = rec_decode_head(dec, data + pos, len - pos, &type, why, sizeof(why));

		if (used <= 0)
			return;
		pos += (size_t)used;
		if (!type)
			continue;
		rec_psi_to(&dec->st.head.psi, &psi);
		memcpy(&interval, &dec->st.head.interval, sizeof(interval));
		timeline_add_psi(&r->tl, dec->st.head.wall_ns, interval, &psi, dec->st.head.events != 0);
	}
}

const struct timeline *replay_timeline(struct replay *r)
{
	struct rec_decoder dec;
	size_t seg = r->seg, index = r->index;

	if (r->have_tl)
		return &r->tl;
	r->have_tl = 1;
	rec_decoder_init(&dec, recread_schema(r->rr));
	for (size_t i = 0; i < r->nsegs; i++)
		scan_segment(r, &dec, i);
	rec_decoder_free(&dec);
	timeline_finish(&r->tl);
	if (seg < r->nsegs) /* the pass took the frame buffer: the segment being read, again */
		goto_reading(r, seg, index);
	return &r->tl;
}
