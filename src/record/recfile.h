/* recfile.h — writing a recording's file (recread.h describes it). Every record is flushed to the
 * file as it is written, so that a writer killed at any moment loses at most the record it was
 * writing; a segment's header gets its length and time range when it ends. A writer that opens a
 * file left by one that was killed ends its last segment after its last whole record and goes on
 * after it. */
#ifndef DELAYTOP_RECFILE_H
#define DELAYTOP_RECFILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "recread.h"

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

#endif
