/* recorder.h — -w: every reading written to a recording (recencode.h, recfile.h), a key reading
 * starting each segment; --rotate: a new file every hour or day, the last one renamed after its
 * period, and --keep: the oldest of those removed; --capture: the readings kept in memory for a
 * while and written only around the moments a PSI trigger fires. */
#ifndef DELAYTOP_RECORDER_H
#define DELAYTOP_RECORDER_H

#include <stddef.h>
#include <stdint.h>

#include "filter.h"
#include "model.h"
#include "optvalue.h"

struct recorder_opts {
	const char *path;
	long rotate;      /* enum rotate, or ROTATE_SECONDS + seconds */
	unsigned keep;    /* renamed files kept; 0: all */
	double capture_s; /* 0: write every reading */
	struct filter rows; /* the rows recorded (-u, -c); its strings must outlive the recorder */
};

struct recorder;

/* Opens (creates, or goes on with) the recording. Returns 0, or a negative errno with a message
 * that names the file in err. */
int recorder_open(struct recorder **out, const struct recorder_opts *o, char *err, size_t errlen);
/* Records a reading; events: the triggers that fired just before it (trigger_events), recorded
 * with it, or NULL. Returns 0, or a negative errno with a message in err (-ENOSPC: the disk is
 * full), after which the recording is closed, readable, and takes no more. */
int recorder_write(struct recorder *r, const struct snapshot *snap, const char *events, char *err, size_t errlen);
/* Ends the recording. Returns 0, or a negative errno with a message in err. */
int recorder_close(struct recorder *r, char *err, size_t errlen);

/* The name a rotated file takes: path.YYYY-MM-DD (day), path.YYYY-MM-DD-HH (hour) or
 * path.YYYY-MM-DD-HHMMSS (seconds) of the period that t (seconds since the epoch, local time) is
 * in, which the period's first second names. */
void recorder_rotated_name(char *buf, size_t size, const char *path, long rotate, int64_t t);
/* The period t (seconds since the epoch) is in, a number that grows with time. */
long recorder_period(long rotate, int64_t t);

#endif
