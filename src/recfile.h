/* recfile.h — a recording's file: the header (recformat.h), then segments, each a fixed header
 * and one zstd frame of records (recencode.h, recdecode.h) that starts with a key reading. Every record is
 * flushed to the file as it is written, so that a writer killed at any moment loses at most the
 * record it was writing; a segment's header gets its length and time range when it ends, and a
 * reader walks the segment headers (an index of times and offsets) rather than the data. A writer
 * that opens a file left by one that was killed ends its last segment after its last whole
 * record and goes on after it. */
#ifndef DELAYTOP_RECFILE_H
#define DELAYTOP_RECFILE_H

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
};

/* ---- writing ---- */

struct recfile;

/* Creates path (mode 0640), or opens it to go on recording (it must be a recording of this
 * format's fields: else err says to record to another file, and it is left as it was). The file
 * is locked: a second writer is refused. Returns 0, or a negative errno with a message in err. */
int recfile_create(struct recfile **out, const char *path, const char *host, char *err, size_t errlen);
/* Appends one record of a reading made at wall_ns, flushed to the file; key: a key record, which
 * starts a new segment. Returns 0, or a negative errno (-ENOSPC: the disk is full) with a message
 * in err; the file then ends after the last whole record. */
int recfile_append(struct recfile *f, const void *rec, size_t n, int key, int64_t wall_ns, char *err,
		   size_t errlen);
/* Readings in the segment being written. */
uint32_t recfile_segment_samples(const struct recfile *f);
/* Ends the segment being written, if any. */
int recfile_end_segment(struct recfile *f, char *err, size_t errlen);
/* Ends the segment and closes the file. Returns 0 or a negative errno. */
int recfile_close(struct recfile *f, char *err, size_t errlen);
/* The time of the last reading in the file (one a killed writer left included), or 0. */
int64_t recfile_last_ns(const struct recfile *f);
/* Bytes written to the file so far. */
uint64_t recfile_size(const struct recfile *f);

/* ---- reading ---- */

struct recread;

/* Opens a recording: its header and the index of its segments. Returns 0, or a negative errno
 * with a message in err (not a recording, a newer format, unreadable). */
int recread_open(struct recread **out, const char *path, char *err, size_t errlen);
void recread_close(struct recread *r);
const struct rec_schema *recread_schema(const struct recread *r);
/* The segments; a damaged header ends the index (recread_damage says where). */
const struct rec_segment *recread_segments(const struct recread *r, size_t *n);
/* Where the index stopped at damage (the byte offset), or -1. */
off_t recread_damage(const struct recread *r);
/* The records of segment i, decompressed, into *data (owned by r, valid until the next call);
 * *len bytes. Returns 0, or -EIO when the frame is damaged: *len then holds what came before
 * the damage and *at the file offset where it was found. */
int recread_segment(struct recread *r, size_t i, const uint8_t **data, size_t *len, off_t *at);

#endif
