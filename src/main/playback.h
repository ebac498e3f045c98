/* playback.h — -r: a recording shown as a live run shows its readings: batch reports (text, CSV,
 * JSON) from --begin to --end, or the screen (view.h), which steps through it. */
#ifndef DELAYTOP_PLAYBACK_H
#define DELAYTOP_PLAYBACK_H

#include "options.h"

/* Runs until the end, q or a stop signal (stop_fd, stopsig.h). Returns the exit status: 1 when
 * the recording cannot be read, or when damage was met (what could be read is shown, and where
 * the damage is said on stderr). */
int playback_run(const struct options *o, int stop_fd);

#endif
