/* reader.h — the screen's reading thread. Readings run on it, off the screen's thread, so that
 * keys never wait for one: the screen asks for a reading, goes on answering keys, and takes the
 * reading as its own copy when the thread says it is ready. Changes of view and selection are
 * requests, applied by the thread before its next reading. Between readings the thread reads the
 * exit records as they arrive. */
#ifndef DELAYTOP_READER_H
#define DELAYTOP_READER_H

#include <stddef.h>
#include <stdint.h>

#include "sampler.h"
#include "snapcopy.h"
#include "recorder.h"
#include "trigger.h"

struct reader;

/* Starts the thread, which owns s from now until reader_stop(), and watches the PSI triggers
 * specs[0..n) registered on fds[0..n) (trigger.h; at most TRIGGER_MAX): one that fires is counted
 * and asks for a reading at once. rec (-w, or NULL): each reading is recorded there, on the thread, with
 * every field. Returns 0 or a negative errno. */
int reader_start(struct reader **out, struct sampler *s, const int *fds, const struct trigger_spec *specs, int n,
		 struct recorder *rec);
/* Why the recording stopped (a full disk), once: 1 with the message in err, else 0. */
int reader_recording_error(struct reader *r, char *err, size_t errlen);
/* Stops the thread after the reading under way, if any; s is the caller's again. */
void reader_stop(struct reader *r);

/* Asks for a reading as soon as the thread is free; asks made meanwhile make one reading. */
void reader_ask(struct reader *r);
/* Requests for the next reading (which they also ask for): the view, and the pid selection
 * (pids are copied). */
void reader_set_group(struct reader *r, int threads, int cgroups);
/* What process rows read beyond the kernel's answer (sampler_set_wants), from the next reading. */
void reader_set_wants(struct reader *r, unsigned wants);
/* The eBPF side (--why) on or off (sampler_set_why), from the next reading; whether that reading
 * is the one that applied it, reader_why_changed says. */
void reader_set_why(struct reader *r, int on);
void reader_set_pids(struct reader *r, const uint32_t *pids, size_t npids);
/* The detail view's task whose off-CPU stacks --why takes (sampler_set_stack_task; 0: none): at
 * once when the thread waits between readings, else before the next reading. Asks for none. */
void reader_set_stack_task(struct reader *r, uint32_t id);
/* How often each trigger fired, when it last did (0: never), and whether its pressure file went
 * away (its cgroup was removed, so it is no longer watched): TRIGGER_MAX of each. */
void reader_fired(struct reader *r, unsigned *counts, time_t *last, uint8_t *gone);

/* Readable when a reading is ready to take. */
int reader_fd(const struct reader *r);

enum reader_result { READER_NONE, READER_SNAPSHOT, READER_ERROR };
/* Takes the reading that is ready, if any, into c (READER_SNAPSHOT; totals: with the totals since
 * the start, see snapcopy_take()), or its error message into err (READER_ERROR); READER_NONE when
 * none is ready. */
enum reader_result reader_take(struct reader *r, struct snapcopy *c, int totals, char *err, size_t errlen);

/* After a reading that applied reader_set_pids(): the selection it made (the listed ids, threads
 * resolved to their process; n = 0 for all) and what it said about it (or NULL). Both belong to
 * the screen's thread and live until the next reader_take(). */
const uint32_t *reader_pids(const struct reader *r, size_t *n);
const char *reader_pids_notice(const struct reader *r);
/* Whether the reading last taken applied a new selection. */
int reader_pids_changed(const struct reader *r);
/* Whether the reading last taken applied a switch of reader_set_why (its snapshot's why says
 * how it went). */
int reader_why_changed(const struct reader *r);

#endif
