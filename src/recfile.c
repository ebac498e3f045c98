/* recfile.c — a recording's file: segments of zstd frames, written, recovered and read. */
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

#include "recdecode.h"
#include "recfile.h"
#include "i18n.h"
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

/* ---- segment headers ---- */

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void seg_pack(unsigned char *h, const struct rec_segment *s)
{
	uint32_t crc;

	memset(h, 0, RECSEG_HEADER);
	memcpy(h, RECSEG_MAGIC, 8);
	put64(h + 8, (uint64_t)s->first_ns);
	put64(h + 16, (uint64_t)s->last_ns);
	put64(h + 24, s->length);
	put64(h + 32, s->samples);
	crc = rec_crc32(0, h, 40);
	put64(h + 40, crc);
}

static int seg_unpack(const unsigned char *h, struct rec_segment *s, off_t offset)
{
	if (memcmp(h, RECSEG_MAGIC, 8) != 0 || get64(h + 40) != rec_crc32(0, h, 40))
		return -1;
	s->offset = offset;
	s->first_ns = (int64_t)get64(h + 8);
	s->last_ns = (int64_t)get64(h + 16);
	s->length = get64(h + 24);
	s->samples = (uint32_t)get64(h + 32);
	s->open = 0;
	return 0;
}

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

static int full_pread(int fd, void *p, size_t n, off_t at)
{
	char *c = p;

	while (n) {
		ssize_t r = pread(fd, c, n, at);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		c += r;
		n -= (size_t)r;
		at += r;
	}
	return 0;
}

/* ---- reading ---- */

struct recread {
	int fd;
	off_t size;
	struct rec_schema schema;
	struct rec_segment *segs;
	size_t nsegs, capsegs;
	off_t damage;
	uint8_t *in, *out;
	size_t capin, capout;
	ZSTD_DCtx *dctx;
};

/* The header, up to 1 MiB. */
static int read_header(int fd, off_t size, struct rec_schema *s, char *err, size_t errlen)
{
	size_t len = size < (1 << 20) ? (size_t)size : (1 << 20);
	char *buf = xmalloc(len + 1);
	int rc = full_pread(fd, buf, len, 0);

	if (rc == 0)
		rc = rec_header_parse(s, buf, len, err, errlen);
	else
		snprintf(err, errlen, "%s", strerror(-rc));
	if (rc == -EAGAIN) {
		snprintf(err, errlen, "%s", len ? _("the header is cut short") : _("the file is empty"));
		/* ours (the magic is whole), from a writer killed while it wrote the header: it holds
		 * no reading, and a writer may begin it again */
		rc = len >= strlen(REC_MAGIC) ? -ENODATA : -EINVAL;
	}
	free(buf);
	return rc;
}

/* The offset of the next segment magic at or after from, or -1. */
static off_t find_magic(int fd, off_t from, off_t size)
{
	char buf[65536];

	while (from + RECSEG_HEADER <= size) {
		size_t n = size - from < (off_t)sizeof(buf) ? (size_t)(size - from) : sizeof(buf);
		char *m;

		if (full_pread(fd, buf, n, from) < 0)
			return -1;
		m = memmem(buf, n, RECSEG_MAGIC, 8);
		if (m)
			return from + (m - buf);
		if (n < 8)
			return -1;
		from += (off_t)(n - 7);
	}
	return -1;
}

/* Walks the segment headers from the end of the file's header. A damaged header is passed by
 * finding the next one. */
static void build_index(struct recread *r)
{
	off_t at = (off_t)r->schema.header_len;

	r->damage = -1;
	while (at + RECSEG_HEADER <= r->size) {
		unsigned char h[RECSEG_HEADER];
		struct rec_segment s;

		if (full_pread(r->fd, h, sizeof(h), at) < 0 || seg_unpack(h, &s, at) < 0) {
			off_t next = find_magic(r->fd, at + 1, r->size);

			if (r->damage < 0)
				r->damage = at;
			if (next < 0)
				break;
			at = next;
			continue;
		}
		if (s.length == 0 || s.length > (uint64_t)(r->size - at - RECSEG_HEADER)) {
			s.length = 0; /* being written, or cut short: read to the end */
			s.open = 1;
		}
		r->segs = xgrow(r->segs, &r->capsegs, r->nsegs + 1, sizeof(*r->segs));
		r->segs[r->nsegs++] = s;
		if (!s.length) {
			/* the rest is this segment's, unless a later writer started one after it */
			off_t next = find_magic(r->fd, at + RECSEG_HEADER, r->size);

			if (next < 0)
				break;
			r->segs[r->nsegs - 1].length = (uint64_t)(next - at - RECSEG_HEADER);
			at = next;
			continue;
		}
		at += RECSEG_HEADER + (off_t)s.length;
	}
}

int recread_open(struct recread **out, const char *path, char *err, size_t errlen)
{
	struct recread *r = xcalloc(1, sizeof(*r));
	struct stat st;
	int rc;

	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0 || fstat(r->fd, &st) < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s", strerror(-rc));
		if (r->fd >= 0)
			close(r->fd);
		free(r);
		return rc;
	}
	r->size = st.st_size;
	rc = read_header(r->fd, r->size, &r->schema, err, errlen);
	if (rc < 0) {
		close(r->fd);
		free(r);
		return rc;
	}
	r->dctx = ZSTD_createDCtx();
	build_index(r);
	*out = r;
	return 0;
}

void recread_close(struct recread *r)
{
	if (!r)
		return;
	close(r->fd);
	rec_schema_free(&r->schema);
	ZSTD_freeDCtx(r->dctx);
	free(r->segs);
	free(r->in);
	free(r->out);
	free(r);
}

const struct rec_schema *recread_schema(const struct recread *r)
{
	return &r->schema;
}

const struct rec_segment *recread_segments(const struct recread *r, size_t *n)
{
	*n = r->nsegs;
	return r->segs;
}

off_t recread_damage(const struct recread *r)
{
	return r->damage;
}

/* Decompresses in[0..n) into r->out, a piece of the input at a time: zstd keeps nothing of a
 * call that meets damage, so what comes before the damaged block is kept this way. Stops at the
 * frame's end (*ended set) or at damage (-EIO, *bad: about where in the input). */
static int inflate_frame(struct recread *r, const uint8_t *in, size_t n, size_t *len, size_t *bad, int *ended)
{
	size_t fed = 0;

	*len = 0;
	*ended = 0;
	ZSTD_DCtx_reset(r->dctx, ZSTD_reset_session_only);
	while (fed < n) {
		ZSTD_inBuffer ib = { in + fed, n - fed < 4096 ? n - fed : 4096, 0 };

		for (;;) {
			ZSTD_outBuffer ob;
			size_t rc, was = ib.pos;

			if (r->capout - *len < ZSTD_DStreamOutSize())
				r->out = xgrow(r->out, &r->capout, *len + ZSTD_DStreamOutSize(), 1);
			ob = (ZSTD_outBuffer){ r->out + *len, r->capout - *len, 0 };
			rc = ZSTD_decompressStream(r->dctx, &ob, &ib);
			*len += ob.pos;
			if (ZSTD_isError(rc)) {
				*bad = fed + ib.pos;
				return -EIO;
			}
			if (rc == 0) {
				*ended = 1; /* the frame's end */
				return 0;
			}
			if ((ib.pos == ib.size && ob.pos < ob.size) || (ob.pos == 0 && ib.pos == was))
				break; /* the piece is taken, and nothing waits to be flushed */
		}
		fed += ib.size;
	}
	return 0;
}

static size_t frame_short_at(const uint8_t *frame, size_t n);

int recread_segment(struct recread *r, size_t i, const uint8_t **data, size_t *len, off_t *at)
{
	const struct rec_segment *s = &r->segs[i];
	off_t from = s->offset + RECSEG_HEADER;
	size_t n = s->length ? s->length : (size_t)(r->size - from), bad = 0;
	int rc, ended;

	r->in = xgrow(r->in, &r->capin, n ? n : 1, 1);
	rc = full_pread(r->fd, r->in, n, from);
	if (rc < 0) {
		*len = 0;
		*at = from;
		return -EIO;
	}
	rc = inflate_frame(r, r->in, n, len, &bad, &ended);
	if (rc == 0 && !ended && !s->open) {
		/* its header was ended, but its frame does not end: damage, which zstd alone does
		 * not see (a block's size grown past the end makes it wait for more) */
		rc = -EIO;
		bad = frame_short_at(r->in, n);
	}
	*data = r->out;
	*at = from + (off_t)bad;
	return rc;
}

/* ---- writing ---- */

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

	seg_pack(h, &f->seg);
	if (pwrite(f->fd, h, sizeof(h), f->seg.offset) != (ssize_t)sizeof(h))
		return errno ? -errno : -EIO;
	return 0;
}

/* The size of a zstd frame's header (RFC 8878, 3.1.1.1): magic, descriptor, window, dictionary
 * id, content size; 0 when n does not hold it. */
static size_t frame_header_size(const uint8_t *frame, size_t n)
{
	static const size_t did[4] = { 0, 1, 2, 4 }, fcs[4] = { 0, 2, 4, 8 };
	uint8_t fhd;
	int single;
	size_t size;

	if (n < 5)
		return 0;
	fhd = frame[4];
	single = fhd >> 5 & 1;
	size = 5 + (single ? 0 : 1) + did[fhd & 3] + (fhd >> 6 == 0 ? (size_t)single : fcs[fhd >> 6]);
	return size <= n ? size : 0;
}

/* The block of frame[0..n) at *pos (each a 3-byte header: last, type, size, then its body):
 * 1 with *pos moved past it and *last set when it is the frame's last; 0 when there is none
 * whole there (the frame was cut short) or it is not a block. */
static int next_block(const uint8_t *frame, size_t n, size_t *pos, int *last)
{
	uint32_t bh;
	size_t body;

	if (*pos + 3 > n)
		return 0;
	bh = frame[*pos] | frame[*pos + 1] << 8 | (uint32_t)frame[*pos + 2] << 16;
	body = (bh >> 1 & 3) == 1 ? 1 : bh >> 3; /* RLE: one byte, repeated */
	if ((bh >> 1 & 3) == 3 || body > n - *pos - 3)
		return 0;
	*pos += 3 + body;
	*last = bh & 1;
	return 1;
}

/* Where a frame cut short in frame[0..n) stops making sense: the header of its first block that
 * runs past the end, or n. */
static size_t frame_short_at(const uint8_t *frame, size_t n)
{
	size_t pos = frame_header_size(frame, n);
	int last;

	while (pos && next_block(frame, n, &pos, &last))
		;
	return pos;
}

/* Decompresses in[0..n) on from what r->dctx had, appending to r->out at *len. Returns 0, or
 * -EIO at damage. */
static int inflate_more(struct recread *r, const uint8_t *in, size_t n, size_t *len)
{
	ZSTD_inBuffer ib = { in, n, 0 };

	while (ib.pos < ib.size) {
		ZSTD_outBuffer ob;
		size_t rc;

		r->out = xgrow(r->out, &r->capout, *len + ZSTD_DStreamOutSize(), 1);
		ob = (ZSTD_outBuffer){ r->out + *len, r->capout - *len, 0 };
		rc = ZSTD_decompressStream(r->dctx, &ob, &ib);
		*len += ob.pos;
		if (ZSTD_isError(rc))
			return -EIO;
		if (rc == 0 || (ob.pos == 0 && ib.pos == ib.size))
			break;
	}
	return 0;
}

/* The end of the last block of frame[0..n) after which the records decompressed are whole, and
 * whether the frame ended there: the blocks are decompressed one after the other, and the
 * records decoded as they become whole (once each). */
static size_t good_blocks(struct recread *r, const uint8_t *frame, size_t n, int *ended, uint32_t *samples,
			  int64_t *last_ns)
{
	size_t pos = frame_header_size(frame, n), from = 0, good = 0, len = 0, parsed = 0;
	struct rec_decoder d;
	uint32_t count = 0;
	int64_t wall = *last_ns;
	char err[128];
	int last = 0;

	*ended = 0;
	*samples = 0;
	if (!pos)
		return 0;
	rec_decoder_init(&d, &r->schema);
	ZSTD_DCtx_reset(r->dctx, ZSTD_reset_session_only);
	while (next_block(frame, n, &pos, &last) && inflate_more(r, frame + from, pos - from, &len) == 0) {
		long used;
		int type;

		from = pos;
		while ((used = rec_decode(&d, r->out + parsed, len - parsed, &type, err, sizeof(err))) > 0) {
			parsed += (size_t)used;
			if (type) {
				count++;
				wall = rec_decoder_wall(&d);
			}
		}
		if (used < 0)
			break; /* damage: the file goes on after the records before it */
		if (parsed == len) {
			good = pos;
			*samples = count;
			*last_ns = wall;
		}
		if (last) {
			*ended = parsed == len;
			break;
		}
	}
	rec_decoder_free(&d);
	return good;
}

/* A file whose last segment was left open by a writer that was killed: the segment ends after
 * its last whole record (or goes, with none), and the file after it. */
static int recover(struct recfile *f, const char *path, char *err, size_t errlen)
{
	struct recread *r;
	const struct rec_segment *segs;
	struct rec_segment s;
	size_t n, good;
	uint32_t samples = 0;
	int ended = 0, rc = recread_open(&r, path, err, errlen);
	uint8_t *frame;

	if (rc < 0)
		return rc;
	if (!rec_schema_native(recread_schema(r))) {
		snprintf(err, errlen, F_(N_("it was written by another version of delaytop (format %d.%d): record to a "
					    "new file")),
			 r->schema.major, r->schema.minor);
		recread_close(r);
		return -EPROTO;
	}
	segs = recread_segments(r, &n);
	if (recread_damage(r) >= 0 && recread_damage(r) != (off_t)(n ? segs[n - 1].offset + RECSEG_HEADER +
									  (off_t)segs[n - 1].length
									: (off_t)r->schema.header_len)) {
		snprintf(err, errlen, F_(N_("it is damaged at byte %lld: record to a new file")),
			 (long long)recread_damage(r));
		recread_close(r);
		return -EPROTO;
	}
	/* damage right after the last whole segment: a segment's header cut short by a killed
	 * writer, before any of its readings; the file goes on from there */
	if (n)
		f->seg = segs[n - 1]; /* for recfile_last_ns */
	if (n == 0 || segs[n - 1].length != 0) {
		/* nothing left open: the file goes on after its last whole segment */
		f->size = n ? (uint64_t)segs[n - 1].offset + RECSEG_HEADER + segs[n - 1].length : r->schema.header_len;
		recread_close(r);
		return ftruncate(f->fd, (off_t)f->size) < 0 ? fail(err, errlen, -errno, _("cannot truncate")) : 0;
	}
	s = segs[n - 1];
	if (n >= 2)
		f->seg = segs[n - 2]; /* the last reading, should this segment hold none */
	else
		memset(&f->seg, 0, sizeof(f->seg));
	n = (size_t)(r->size - s.offset - RECSEG_HEADER);
	frame = xmalloc(n ? n : 1);
	rc = full_pread(r->fd, frame, n, s.offset + RECSEG_HEADER);
	s.last_ns = s.first_ns;
	good = rc < 0 ? 0 : good_blocks(r, frame, n, &ended, &samples, &s.last_ns);
	free(frame);
	recread_close(r);
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

int recfile_create(struct recfile **out, const char *path, const char *host, char *err, size_t errlen)
{
	struct recfile *f = xcalloc(1, sizeof(*f));
	struct stat st;
	struct timespec now;
	int rc = 0;

	f->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0640);
	if (f->fd < 0 || fstat(f->fd, &st) < 0) {
		rc = -errno;
	} else if (!S_ISREG(st.st_mode)) {
		rc = -EINVAL;
		snprintf(err, errlen, "%s", _("not a regular file"));
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
		free(f);
		return rc;
	}
	f->cctx = ZSTD_createCCtx();
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
		seg_pack(h, &f->seg);
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
