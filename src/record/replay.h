/* replay.h — a recording read back as snapshots: in order, from a time (through the index of
 * segments: a seek decodes one segment at most), a reading back, with the damage it meets said
 * where it is and passed. The snapshots are made as a live reading's are (recdecode.h), so that
 * every front end shows them the same way. */
#ifndef DELAYTOP_REPLAY_H
#define DELAYTOP_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

struct replay;

/* Opens path. Returns 0, or a negative errno with a message in err. */
int replay_open(struct replay **out, const char *path, char *err, size_t errlen);
void replay_close(struct replay *r);

/* The times of the first and the last reading, ns since the epoch (both 0 when there is none). */
void replay_range(const struct replay *r, int64_t *first_ns, int64_t *last_ns);
/* The host the recording was made on. */
const char *replay_host(const struct replay *r);
/* The program and version that wrote it ("" when the file does not say). */
const char *replay_writer(const struct replay *r);

/* How many segments the file has (0: no reading at all). */
size_t replay_segments(const struct replay *r);
/* Damage met but not said yet (a segment header the index passed, a frame a seek passed): 1
 * with the message in err (each said once), else 0. replay_next says it first. */
int replay_pending(struct replay *r, char *err, size_t errlen);

/* The next reading into snap (valid until the next call), 1; 0 at the end; -1 at damage, with
 * where it is in err (the next call goes on after it). */
int replay_next(struct replay *r, struct snapshot *snap, char *err, size_t errlen);
/* Goes to the first reading at or after t (the last one when t is after it), so that
 * replay_next gives it. Returns 0, or -1 when there is no reading. */
int replay_seek(struct replay *r, int64_t t_ns);
/* The reading before the one replay_next gave last, into snap: 1, or 0 at the first. */
int replay_prev(struct replay *r, struct snapshot *snap, char *err, size_t errlen);
/* The time of the reading replay_next or replay_prev gave last; 0 before any. */
int64_t replay_time(const struct replay *r);

struct timeline;
/* The recording's timeline (timeline.h): every reading's time, pressure and events, made by one
 * pass over the file that decodes only the readings' header facts, at the first call; owned by
 * r. The reading replay_next would give next stays the same. */
const struct timeline *replay_timeline(struct replay *r);

#endif
