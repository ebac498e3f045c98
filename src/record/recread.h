/* recread.h — a recording's file as a reader sees it: the header (recformat.h), then segments,
 * each a fixed header and one zstd frame of records (recdecode.h) that starts with a key reading.
 * A segment's header gets its length and time range when its writer ends it, so a reader walks
 * the segment headers (an index of times and offsets) rather than the data; a segment whose
 * writer was killed runs to the next one or to the end of the file. */
#ifndef DELAYTOP_RECREAD_H
#define DELAYTOP_RECREAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "recformat.h"

#define RECSEG_MAGIC "DTSEG01\n"
#define RECSEG_HEADER 48
#define RECSEG_MAX_SAMPLES 256 /* a key reading at least this often: a seek reads no more */

struct rec_segment {
	off_t offset;      /* of its header */
	int64_t first_ns, last_ns; /* its first and last reading, ns since the epoch */
	uint64_t length;   /* of its frame; 0 while it is being written (or its writer was killed) */
	uint32_t samples;
	int open;          /* its header was not ended: last_ns and samples are not known */
	int cut;           /* its header was ended, but the file ends before its frame does: the
			      file was cut short (a copy's), not left by a killed writer */
};

/* A segment's header as the file holds it (RECSEG_HEADER bytes). */
void recseg_pack(unsigned char *h, const struct rec_segment *s);

struct recread;

/* Opens a recording (a regular file: a FIFO or a device is refused without waiting on it): its
 * header and the index of its segments. Returns 0, or a negative errno with a message in err (not
 * a recording, a newer format, unreadable, not a regular file). */
int recread_open(struct recread **out, const char *path, char *err, size_t errlen);
void recread_close(struct recread *r);
const struct rec_schema *recread_schema(const struct recread *r);
/* The segments; a damaged header ends the index (recread_damage says where). */
const struct rec_segment *recread_segments(const struct recread *r, size_t *n);
/* Where the index stopped at damage (the byte offset), or -1. */
off_t recread_damage(const struct recread *r);
/* The records of segment i, decompressed, into *data (owned by r, valid until the next call);
 * *len bytes. Returns 0, or -EIO when the frame is damaged, decompresses to more than a segment
 * can hold (recread_inflate_limit), or was cut short (the segment's cut): *len then holds what
 * came before the damage and *at the file offset where it was found (for a cut, the file's end). */
int recread_segment(struct recread *r, size_t i, const uint8_t **data, size_t *len, off_t *at);

/* The most a frame of n bytes may decompress to: what the writer's records compress to, with
 * room to spare; more is damage (a crafted frame), and a reader allocates no more. */
size_t recread_inflate_limit(size_t n);
/* The file's size in bytes. */
off_t recread_size(const struct recread *r);

/* Of segment i, left open by a writer that was killed: the bytes of its frame up to the end of
 * the last block after which its records decompress whole (0: none is), how many readings those
 * hold and the time of the last (into *samples, *last_ns), and whether the frame ended there;
 * *clean: what follows is what a killed writer leaves (blocks that decompress, the last cut short
 * by the file's end), not damage or the bytes of something else. */
size_t recread_whole(struct recread *r, size_t i, int *ended, uint32_t *samples, int64_t *last_ns,
		     int *clean);

#endif
