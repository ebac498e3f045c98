/* recfile.c — writing a recording's file: the header, segments of zstd frames flushed record by
 * record, and going on with a file a killed writer left (recread.c reads it). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "recfile.h"
#include "recread.h"
#include "format.h"
#include "i18n.h"
#include "users.h"
#include "xalloc.h"

/* The compression: a strong level with a small window where a segment's readings are small (a
 * key reading of a few thousand tasks: a few hundred kilobytes), a fast one where they are large
 * (100,000 threads), so that writing a reading stays well under its interval. */
#define SMALL_KEY (512u << 10)
#define LEVEL_SMALL 19
#define LEVEL_LARGE 3
#define WINDOW_LOG 20 /* 1 MiB of history, the compressor's tables bounded to match */
#define CHAIN_LOG 20
#define HASH_LOG 18

static int full_write(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		if (w == 0)
			return -EIO;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

struct recfile {
	int fd;
	uint64_t size;
	ZSTD_CCtx *cctx;
	int open; /* a segment is being written */
	struct rec_segment seg;
	struct outbuf buf;
};

static int fail(char *err, size_t errlen, int rc, const char *what)
{
	snprintf(err, errlen, "%s: %s", what, strerror(-rc));
	return rc;
}

static int patch_segment(struct recfile *f)
{
	unsigned char h[RECSEG_HEADER];

	recseg_pack(h, &f->seg);
	if (pwrite(f->fd, h, sizeof(h), f->seg.offset) != (ssize_t)sizeof(h))
		return errno ? -errno : -EIO;
	return 0;
}

/* Where a file to go on with is damaged in a way a killed writer does not leave, or -1: a
 * segment header that is unreadable, or more than one cut short after the last whole segment;
 * an ended segment the file ends inside (a copy cut short). */
static off_t refused_damage(struct recread *r)
{
	size_t n;
	const struct rec_segment *segs = recread_segments(r, &n);
	off_t damage = recread_damage(r), end;

	if (n && segs[n - 1].cut)
		return recread_size(r);
	end = n ? segs[n - 1].offset + RECSEG_HEADER + (off_t)segs[n - 1].length
		: (off_t)recread_schema(r)->header_len;
	if (damage == end && recread_size(r) - damage < RECSEG_HEADER)
		return -1; /* a segment header cut short: the file goes on from there */
	return damage;
}

/* A file whose last segment was left open by a writer that was killed: the segment ends after
 * its last whole record (or goes, with none), and the file after it. */
static int recover(struct recfile *f, const char *path, char *err, size_t errlen)
{
	struct recread *r;
	const struct rec_schema *schema;
	const struct rec_segment *segs;
	struct rec_segment s;
	size_t n, good;
	uint32_t samples = 0;
	off_t damage;
	int ended = 0, clean = 0, rc = recread_open(&r, path, err, errlen);

	if (rc < 0)
		return rc;
	schema = recread_schema(r);
	if (!rec_schema_native(schema)) {
		snprintf(err, errlen, F_(N_("it was written by another version of delaytop (format %d.%d): record to a "
					    "new file")),
			 schema->major, schema->minor);
		recread_close(r);
		return -EPROTO;
	}
	segs = recread_segments(r, &n);
	damage = refused_damage(r);
	if (damage >= 0) {
		snprintf(err, errlen, F_(N_("it is damaged at byte %lld: record to a new file")),
			 (long long)damage);
		recread_close(r);
		return -EPROTO;
	}
	/* a segment's header cut short right after the last whole segment (by a killed writer,
	 * before any of its readings): the file goes on from there */
	if (n)
		f->seg = segs[n - 1]; /* for recfile_last_ns */
	if (n == 0 || segs[n - 1].length != 0) {
		/* nothing left open: the file goes on after its last whole segment */
		f->size = n ? (uint64_t)segs[n - 1].offset + RECSEG_HEADER + segs[n - 1].length : schema->header_len;
		recread_close(r);
		return ftruncate(f->fd, (off_t)f->size) < 0 ? fail(err, errlen, -errno, _("cannot truncate")) : 0;
	}
	s = segs[n - 1];
	if (n >= 2)
		f->seg = segs[n - 2]; /* the last reading, should this segment hold none */
	else
		memset(&f->seg, 0, sizeof(f->seg));
	s.last_ns = s.first_ns;
	good = recread_whole(r, n - 1, &ended, &samples, &s.last_ns, &clean);
	recread_close(r);
	if (!clean) {
		/* not what a killed writer leaves: damage, or something else after a recording */
		snprintf(err, errlen,
			 F_(N_("it is damaged in the segment at byte %lld: record to a new file")),
			 (long long)s.offset);
		return -EPROTO;
	}
	if (!samples) {
		f->size = (uint64_t)s.offset;
		return ftruncate(f->fd, s.offset) < 0 ? fail(err, errlen, -errno, _("cannot truncate")) : 0;
	}
	f->size = (uint64_t)s.offset + RECSEG_HEADER + good;
	if (ftruncate(f->fd, (off_t)f->size) < 0 || lseek(f->fd, 0, SEEK_END) < 0)
		return fail(err, errlen, -errno, _("cannot truncate"));
	if (!ended) {
		static const unsigned char last_block[3] = { 1, 0, 0 }; /* an empty last raw block */

		rc = full_write(f->fd, last_block, sizeof(last_block));
		if (rc < 0)
			return fail(err, errlen, rc, _("cannot write"));
		good += 3;
		f->size += 3;
	}
	s.length = good;
	s.samples = samples;
	f->seg = s;
	rc = patch_segment(f);
	return rc < 0 ? fail(err, errlen, rc, _("cannot write")) : 0;
}

/* The message for a file that belongs to another user. */
static void not_owner(char *err, size_t errlen, uid_t uid)
{
	char name[64], shown[64];

	if (users_lookup(uid, name, sizeof(name), NULL, 0) < 0)
		snprintf(name, sizeof(name), "%u", (unsigned)uid);
	text_clean(shown, sizeof(shown), name);
	snprintf(err, errlen,
		 F_(N_("it belongs to %s, who could read what is recorded: record to a file of your own")), shown);
}

int recfile_create(struct recfile **out, const char *path, const char *host, char *err, size_t errlen)
{
	struct recfile *f = xcalloc(1, sizeof(*f));
	struct stat st;
	struct timespec now;
	int rc = 0, existing = 0;

	err[0] = '\0';
	f->cctx = ZSTD_createCCtx(); /* before the file is touched: without it nothing is written */
	if (!f->cctx) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		free(f);
		return -ENOMEM;
	}
	f->fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0640);
	if (f->fd < 0 && errno == EEXIST) { /* going on with a file: it must be the caller's */
		f->fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
		existing = 1;
	}
	if (f->fd < 0 || fstat(f->fd, &st) < 0) {
		rc = -errno;
	} else if (!S_ISREG(st.st_mode)) {
		rc = -EINVAL;
		snprintf(err, errlen, "%s", _("not a regular file"));
	} else if (existing && st.st_uid != geteuid()) {
		rc = -EPERM; /* its owner would read what is recorded (every command line) */
		not_owner(err, errlen, st.st_uid);
	} else if (flock(f->fd, LOCK_EX | LOCK_NB) < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s", rc == -EWOULDBLOCK ? _("another delaytop is recording to it") : strerror(-rc));
	} else if (st.st_size > 0 && (rc = recover(f, path, err, errlen)) != -ENODATA) {
		/* gone on with, or refused */
	} else if (ftruncate(f->fd, 0) < 0) { /* empty, or a header cut short: begun again */
		rc = -errno;
	} else {
		rc = 0;
		err[0] = '\0';
		clock_gettime(CLOCK_REALTIME, &now);
		rec_header_format(&f->buf, host, (int64_t)now.tv_sec * 1000000000 + now.tv_nsec);
		rc = full_write(f->fd, f->buf.data, f->buf.len);
		f->size = f->buf.len;
		f->buf.len = 0;
	}
	if (rc == 0 && lseek(f->fd, (off_t)f->size, SEEK_SET) < 0)
		rc = -errno;
	if (rc < 0) {
		if (f->fd >= 0 && !err[0])
			snprintf(err, errlen, "%s", strerror(-rc));
		else if (f->fd < 0)
			snprintf(err, errlen, "%s", strerror(-rc));
		if (f->fd >= 0)
			close(f->fd);
		out_free(&f->buf);
		ZSTD_freeCCtx(f->cctx);
		free(f);
		return rc;
	}
	*out = f;
	return 0;
}

/* A new frame's compression, for a segment whose key reading is key bytes. */
static void compression(struct recfile *f, size_t key)
{
	ZSTD_CCtx_reset(f->cctx, ZSTD_reset_session_and_parameters);
	ZSTD_CCtx_setParameter(f->cctx, ZSTD_c_compressionLevel, key < SMALL_KEY ? LEVEL_SMALL : LEVEL_LARGE);
	if (key < SMALL_KEY) {
		ZSTD_CCtx_setParameter(f->cctx, ZSTD_c_windowLog, WINDOW_LOG);
		ZSTD_CCtx_setParameter(f->cctx, ZSTD_c_chainLog, CHAIN_LOG);
		ZSTD_CCtx_setParameter(f->cctx, ZSTD_c_hashLog, HASH_LOG);
	}
	ZSTD_CCtx_setParameter(f->cctx, ZSTD_c_checksumFlag, 0); /* each record has its own */
}

/* Compresses in[0..n) with mode into f->buf. */
static int squeeze(struct recfile *f, const void *in, size_t n, ZSTD_EndDirective mode)
{
	ZSTD_inBuffer ib = { in, n, 0 };
	size_t left;

	do {
		ZSTD_outBuffer ob;

		out_reserve(&f->buf, ZSTD_CStreamOutSize());
		ob = (ZSTD_outBuffer){ f->buf.data + f->buf.len, f->buf.cap - f->buf.len, 0 };
		left = ZSTD_compressStream2(f->cctx, &ob, &ib, mode);
		if (ZSTD_isError(left))
			return -EIO;
		f->buf.len += ob.pos;
	} while (left || ib.pos < ib.size);
	return 0;
}

/* Writes f->buf at the end of the file; on failure the file is cut back to where it was. */
static int put_out(struct recfile *f, char *err, size_t errlen)
{
	int rc = full_write(f->fd, f->buf.data, f->buf.len);

	if (rc < 0) {
		if (ftruncate(f->fd, (off_t)f->size) == 0)
			lseek(f->fd, (off_t)f->size, SEEK_SET);
		f->buf.len = 0;
		return fail(err, errlen, rc, _("cannot write"));
	}
	f->size += f->buf.len;
	f->buf.len = 0;
	return 0;
}

int recfile_end_segment(struct recfile *f, char *err, size_t errlen)
{
	int rc;

	if (!f->open)
		return 0;
	f->open = 0;
	f->buf.len = 0;
	if (squeeze(f, NULL, 0, ZSTD_e_end) < 0)
		return fail(err, errlen, -EIO, _("cannot compress"));
	rc = put_out(f, err, errlen);
	if (rc < 0)
		return rc;
	f->seg.length = f->size - (uint64_t)f->seg.offset - RECSEG_HEADER;
	rc = patch_segment(f);
	if (rc == 0 && fdatasync(f->fd) < 0 && errno != EINVAL)
		rc = -errno;
	return rc < 0 ? fail(err, errlen, rc, _("cannot write")) : 0;
}

int recfile_append(struct recfile *f, const void *rec, size_t n, int key, int64_t wall_ns, char *err,
		   size_t errlen)
{
	uint64_t was = f->size;
	int rc;

	if (key || !f->open) {
		unsigned char h[RECSEG_HEADER];

		rc = recfile_end_segment(f, err, errlen);
		if (rc < 0)
			return rc;
		was = f->size;
		memset(&f->seg, 0, sizeof(f->seg));
		f->seg.offset = (off_t)f->size;
		f->seg.first_ns = f->seg.last_ns = wall_ns;
		recseg_pack(h, &f->seg);
		out_mem(&f->buf, (const char *)h, sizeof(h));
		compression(f, n);
		f->open = 1;
	}
	if (squeeze(f, rec, n, ZSTD_e_flush) < 0) {
		f->buf.len = 0;
		return fail(err, errlen, -EIO, _("cannot compress"));
	}
	rc = put_out(f, err, errlen);
	if (rc < 0) {
		f->size = was;
		f->open = 0; /* the compressor's state went ahead of the file: a new segment next */
		return rc;
	}
	f->seg.samples++;
	f->seg.last_ns = wall_ns;
	return 0;
}

uint32_t recfile_segment_samples(const struct recfile *f)
{
	return f->open ? f->seg.samples : 0;
}

int64_t recfile_last_ns(const struct recfile *f)
{
	return f->seg.samples || f->open ? f->seg.last_ns : 0;
}

uint64_t recfile_size(const struct recfile *f)
{
	return f->size;
}

int recfile_close(struct recfile *f, char *err, size_t errlen)
{
	int rc;

	if (!f)
		return 0;
	rc = recfile_end_segment(f, err, errlen);
	if (close(f->fd) < 0 && rc == 0)
		rc = fail(err, errlen, -errno, _("cannot close"));
	ZSTD_freeCCtx(f->cctx);
	out_free(&f->buf);
	free(f);
	return rc;
}
