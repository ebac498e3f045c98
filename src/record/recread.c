/* recread.c — reading a recording's file: its header, the index of its segments (their headers),
 * a segment's frame decompressed, and what of a killed writer's last segment is whole; the
 * segment header's layout. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "i18n.h"
#include "recdecode.h"
#include "recread.h"
#include "xalloc.h"

/* What a frame may decompress to: the writer's records compress by a few times (a key reading of
 * idle tasks, at level 19, by some tens), so a frame of n bytes holds at most INFLATE_SLACK +
 * INFLATE_RATIO * n bytes; and the window it may ask for (the writer's is 1 or 2 MiB). */
#define INFLATE_SLACK ((size_t)16 << 20)
#define INFLATE_RATIO 64
#define WINDOW_LOG_MAX 24
#define HEADER_WRITTEN_MAX (64u << 10) /* a header this delaytop writes is well under this */

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

void recseg_pack(unsigned char *h, const struct rec_segment *s)
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
	s->cut = 0;
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

/* Whether buf[0..len) could be the start of a header a writer wrote (its header is some
 * kilobytes of printable ASCII lines). */
static int header_text(const char *buf, size_t len)
{
	if (len > HEADER_WRITTEN_MAX)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (buf[i] != '\n' && (buf[i] < ' ' || buf[i] > '~'))
			return 0;
	return 1;
}

/* The length of the key of a header line whose value differs from writer to writer and run to
 * run ("host " and the like), or 0 for a line every writer of this format writes the same. */
static size_t header_free_key(const char *line, size_t len)
{
	static const char *const keys[] = { "writer ", "host ", "started ", "crc " };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (len >= strlen(keys[i]) && memcmp(line, keys[i], strlen(keys[i])) == 0)
			return strlen(keys[i]);
	return 0;
}

/* Whether line a (alen bytes, cut short when !whole) is what this writer writes as line b. */
static int header_line_same(const char *a, size_t alen, int whole, const char *b, size_t blen)
{
	size_t key = header_free_key(b, blen);

	if (key) /* its key, or as much of it as was written; the value is the writer's */
		return memcmp(a, b, alen < key ? alen : key) == 0;
	return (whole ? alen == blen : alen <= blen) && memcmp(a, b, alen) == 0;
}

/* Whether buf[0..len) is the start of the header this delaytop writes, cut short: each line as
 * rec_header_format writes it (those of the writer, the host, the start and the CRC with any
 * value), the last one maybe cut. What a writer killed while it wrote the header leaves, and no
 * other file that merely begins with the magic. */
static int header_cut(const char *buf, size_t len)
{
	struct outbuf ours = { 0 };
	const char *a = buf, *aend = buf + len, *b, *bend;
	int same = 1;

	rec_header_format(&ours, "", 0);
	b = ours.data;
	bend = ours.data + ours.len;
	while (same && a < aend) {
		const char *anl = memchr(a, '\n', (size_t)(aend - a)), *bnl = NULL;

		if (b < bend)
			bnl = memchr(b, '\n', (size_t)(bend - b));
		if (!bnl || bnl == b) { /* past the header's last line */
			same = 0;
			break;
		}
		same = header_line_same(a, anl ? (size_t)(anl - a) : (size_t)(aend - a), anl != NULL, b, (size_t)(bnl - b));
		if (!anl)
			break;
		a = anl + 1;
		b = bnl + 1;
	}
	out_free(&ours);
	return same;
}

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
		/* ours (the magic is whole, the rest a header's text, no longer than a header, its
		 * lines those this delaytop writes), from a writer killed while it wrote the header: it
		 * holds no reading, and a writer may begin it again; a file that merely begins like one
		 * is not a recording */
		rc = len >= strlen(REC_MAGIC) && header_text(buf, len) ? -ENODATA : -EINVAL;
		if (rc == -ENODATA && !header_cut(buf, len)) {
			snprintf(err, errlen, "%s", _("not a delaytop recording"));
			rc = -EINVAL;
		}
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
			/* being written (or its writer was killed: its header says length 0), or an
			 * ended segment the file ends inside: read to the end */
			s.cut = s.length != 0;
			s.length = 0;
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
	if (at < r->size && at + RECSEG_HEADER > r->size && r->damage < 0)
		r->damage = at; /* a segment header cut short */
}

int recread_open(struct recread **out, const char *path, char *err, size_t errlen)
{
	struct recread *r = xcalloc(1, sizeof(*r));
	struct stat st;
	int rc;

	r->dctx = ZSTD_createDCtx();
	if (!r->dctx) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		free(r);
		return -ENOMEM;
	}
	/* O_NONBLOCK: a FIFO is refused, not waited on */
	r->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (r->fd < 0 || fstat(r->fd, &st) < 0)
		rc = -errno;
	else if (!S_ISREG(st.st_mode))
		rc = -EINVAL;
	else
		rc = 0;
	if (rc < 0) {
		snprintf(err, errlen, "%s", rc == -EINVAL ? _("not a regular file") : strerror(-rc));
		if (r->fd >= 0)
			close(r->fd);
		ZSTD_freeDCtx(r->dctx);
		free(r);
		return rc;
	}
	r->size = st.st_size;
	rc = read_header(r->fd, r->size, &r->schema, err, errlen);
	if (rc < 0) {
		close(r->fd);
		ZSTD_freeDCtx(r->dctx);
		free(r);
		return rc;
	}
	/* the writer's windows are 1 or 2 MiB: a frame that asks for a larger one is refused
	 * rather than given the memory */
	ZSTD_DCtx_setParameter(r->dctx, ZSTD_d_windowLogMax, WINDOW_LOG_MAX);
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

off_t recread_size(const struct recread *r)
{
	return r->size;
}

size_t recread_inflate_limit(size_t n)
{
	return n > (SIZE_MAX - INFLATE_SLACK) / INFLATE_RATIO ? SIZE_MAX : INFLATE_SLACK + INFLATE_RATIO * n;
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

/* Decompresses in[0..n) into r->out from *len on, going on with the frame r->dctx is in, a piece
 * of the input at a time: zstd keeps nothing of a call that meets damage, so what comes before
 * the damaged block is kept this way. Stops at the frame's end (*ended set) or at damage (-EIO,
 * *bad: about where in the input). */
static int inflate(struct recread *r, const uint8_t *in, size_t n, size_t limit, size_t *len, size_t *bad,
		   int *ended)
{
	size_t fed = 0;

	*ended = 0;
	while (fed < n) {
		ZSTD_inBuffer ib = { in + fed, n - fed < 4096 ? n - fed : 4096, 0 };

		for (;;) {
			ZSTD_outBuffer ob;
			size_t rc, was = ib.pos, room;

			if (r->capout - *len < ZSTD_DStreamOutSize() && r->capout < limit)
				r->out = xgrow(r->out, &r->capout, *len + ZSTD_DStreamOutSize(), 1);
			room = (r->capout < limit ? r->capout : limit) - *len;
			if (!room) { /* more than the frame can honestly hold */
				*bad = fed + ib.pos;
				return -EIO;
			}
			ob = (ZSTD_outBuffer){ r->out + *len, room, 0 };
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

int recread_segment(struct recread *r, size_t i, const uint8_t **data, size_t *len, off_t *at)
{
	const struct rec_segment *s = &r->segs[i];
	off_t from = s->offset + RECSEG_HEADER;
	size_t n = s->length ? s->length : (size_t)(r->size - from), bad = 0;
	unsigned long long fcs;
	int rc, ended;

	r->in = xgrow(r->in, &r->capin, n ? n : 1, 1);
	rc = full_pread(r->fd, r->in, n, from);
	if (rc < 0) {
		*len = 0;
		*at = from;
		return -EIO;
	}
	*len = 0;
	ZSTD_DCtx_reset(r->dctx, ZSTD_reset_session_only);
	fcs = ZSTD_getFrameContentSize(r->in, n);
	if (fcs != ZSTD_CONTENTSIZE_UNKNOWN && fcs != ZSTD_CONTENTSIZE_ERROR &&
	    fcs > recread_inflate_limit(n))
		rc = -EIO; /* it says so itself: damage at its start */
	else
		rc = inflate(r, r->in, n, recread_inflate_limit(n), len, &bad, &ended);
	if (rc == 0 && !ended && s->cut) {
		rc = -EIO; /* the file ends where the frame should go on: damage at the end */
		bad = n;
	} else if (rc == 0 && !ended && !s->open) {
		/* its header was ended, but its frame does not end: damage, which zstd alone does
		 * not see (a block's size grown past the end makes it wait for more) */
		rc = -EIO;
		bad = frame_short_at(r->in, n);
	}
	*data = r->out;
	*at = from + (off_t)bad;
	return rc;
}

/* Whether what is at frame[pos..n) is a block cut short by the end (or nothing): what a writer
 * killed while it wrote leaves, unlike a block header that is not one. */
static int block_cut_short(const uint8_t *frame, size_t n, size_t pos)
{
	uint32_t bh;

	if (pos + 3 > n)
		return 1;
	bh = frame[pos] | frame[pos + 1] << 8 | (uint32_t)frame[pos + 2] << 16;
	return (bh >> 1 & 3) != 3;
}

/* The blocks are decompressed one after the other, and the records decoded as they become whole
 * (once each). */
static size_t whole_blocks(struct recread *r, const uint8_t *frame, size_t n, int *ended, uint32_t *samples,
			   int64_t *last_ns, int *clean)
{
	size_t pos = frame_header_size(frame, n), from = 0, good = 0, len = 0, parsed = 0, bad;
	struct rec_decoder d;
	uint32_t count = 0;
	int64_t wall = *last_ns;
	char err[128];
	int last = 0, frame_end;

	*ended = 0;
	*samples = 0;
	*clean = n < 18; /* a frame's header cut short (it takes up to 18 bytes), or no frame */
	if (!pos)
		return 0;
	rec_decoder_init(&d, &r->schema);
	rec_decoder_bound(&d, (uint64_t)r->size);
	ZSTD_DCtx_reset(r->dctx, ZSTD_reset_session_only);
	*clean = 0;
	while (next_block(frame, n, &pos, &last) &&
	       inflate(r, frame + from, pos - from, recread_inflate_limit(n), &len, &bad, &frame_end) == 0) {
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
		if (used < 0) {
			from = n + 1; /* damage, not a cut: the file goes on after the records before it */
			break;
		}
		if (parsed == len) {
			good = pos;
			*samples = count;
			*last_ns = wall;
		}
		if (last) {
			*ended = parsed == len;
			*clean = *ended && pos == n;
			break;
		}
	}
	if (!last && pos == from) /* the walk stopped at a block, not at damage */
		*clean = block_cut_short(frame, n, pos);
	rec_decoder_free(&d);
	return good;
}

size_t recread_whole(struct recread *r, size_t i, int *ended, uint32_t *samples, int64_t *last_ns, int *clean)
{
	const struct rec_segment *s = &r->segs[i];
	off_t from = s->offset + RECSEG_HEADER;
	size_t n = (size_t)(r->size - from);

	*ended = 0;
	*samples = 0;
	*clean = 0;
	r->in = xgrow(r->in, &r->capin, n ? n : 1, 1);
	if (full_pread(r->fd, r->in, n, from) < 0)
		return 0;
	return whole_blocks(r, r->in, n, ended, samples, last_ns, clean);
}
