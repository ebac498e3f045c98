/* history.h — the last minutes of readings the screen keeps for its charts: the system's pressure
 * (a small ring of numbers a line), and each task's delays (a log of the kinds it waited on, only
 * where it waited: an idle task costs its entry alone) with the last few values of its sort
 * column (the TREND column). Fed one snapshot at a time; a snapshot older than the last (a
 * replay stepped back) or of other rows (processes, threads) starts it again. Pure code. */
#ifndef DELAYTOP_HISTORY_H
#define DELAYTOP_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "delaykind.h"
#include "idmap.h"
#include "model.h"

/* How long the store keeps a reading, seconds, and at most how many readings (5 minutes at the
 * default interval): a task that waits in every reading costs 4 bytes a kind a reading. */
#define HISTORY_SECONDS 300
#define HISTORY_READINGS 300
/* The pressure readings kept: more than a terminal is wide. */
#define PSI_HISTORY_READINGS 1024
/* The sort values a task keeps for the TREND column (its width). */
#define TREND_POINTS 8

/* The pressure lines, each as the header shows it: a resource's some or full share. */
struct psi_history {
	size_t n, head;                 /* readings kept; where the next goes */
	double when[PSI_HISTORY_READINGS]; /* seconds since the epoch */
	float pct[PSI_HISTORY_READINGS][PSI_COUNT][2]; /* [some, full]; NAN when not given */
};

/* A reading's wait of one kind, above zero, in 4 bytes: the reading's number (its low 16 bits: a
 * point is never kept for 65,536 readings), the kind (3 bits) and its share in tenths of a percent
 * (13 bits, at most 819.1%). */
struct history_point {
	uint16_t reading;
	uint16_t value; /* kind << HISTORY_KIND_SHIFT | tenths of a percent */
};
#define HISTORY_KIND_SHIFT 13
#define HISTORY_VALUE_MAX ((1u << HISTORY_KIND_SHIFT) - 1)
_Static_assert(DK_COUNT <= 8 && PSI_COUNT * 2 <= 8, "a kind or a pressure line that 3 bits do not hold");

/* One task (by id and start). */
struct task_history {
	uint64_t start_ns;
	uint32_t first, seen;       /* the readings it was first and last in */
	float trend[TREND_POINTS];  /* the sort column's last values, a ring */
	uint8_t trend_n, trend_head;
	struct history_point *log;  /* the oldest first */
	uint32_t nlog, cap;
	uint32_t trend_epoch;       /* the store's when trend was filled */
};

struct history {
	struct psi_history psi;
	struct idmap tasks;         /* by pid (process rows) or tid (thread rows) */
	struct idmap cgroups;       /* the cgroup view's cgroups, by a hash of the path (and a second
				       one in start_ns); their log's kinds are pressure lines */
	int threads;                /* the task rows are threads */
	uint32_t readings;          /* readings fed since the start */
	uint32_t oldest;            /* the oldest of them kept */
	int first_fresh;            /* reading 0's task rows had no rates (a live run's first) */
	int fed_all;                /* the last reading fed every row (a trend was asked), so that
				       an entry's last reading is known even for an idle task */
	double when[HISTORY_READINGS]; /* reading r's time, at when[r % HISTORY_READINGS] */
	double last;                /* the last reading's time; 0 before the first */
	int trend_of;               /* what the trends are of (the caller's: a sort column) */
	uint32_t trend_epoch;       /* counts the changes of trend_of */
};

/* The sort value of a row, for the trend; ctx is the caller's. */
typedef double (*history_value_fn)(const struct row *r, const void *ctx);

void history_init(struct history *h);
void history_free(struct history *h);
/* Empties the store (a replay that stepped back, another kind of rows). */
void history_clear(struct history *h);

/* Keeps snapshot s: its pressure, each task row's delays and its value under fn, which trend_of
 * names (the trends start again when it changes), each cgroup row's pressure. A task not seen for
 * HISTORY_SECONDS is let go; a snapshot of the same time as the last is the same reading again,
 * and left out. */
void history_add(struct history *h, const struct snapshot *s, history_value_fn fn, const void *ctx, int trend_of);

/* The task with this id (a pid or a tid as h->threads says) and start, or NULL. */
const struct task_history *history_task(const struct history *h, uint32_t id, uint64_t start_ns);

/* A cgroup's entry (the cgroup view's), by its path, or NULL. Its log's kind is a pressure
 * line: history_psi_line(resource, full). */
const struct task_history *history_cgroup(const struct history *h, const char *path);
static inline int history_psi_line(int res, int full)
{
	return res * 2 + full;
}

/* The row's entry: by the row's id under the store's kind of rows. */
const struct task_history *history_row(const struct history *h, const struct row *r);

/* The oldest reading kept, as a time (seconds since the epoch); 0 when empty. */
double history_since(const struct history *h);

/* How many readings the store keeps now. */
uint32_t history_readings(const struct history *h);

/* Kind k's share in each reading kept, the oldest first, spread over n columns into out (a
 * column a reading when there are n; else each column the highest share of its readings); 0
 * where the task was read and did not wait, NAN where it was not read. t: the task's entry (NULL
 * when it has none); now: its row in the newest reading, NULL when it is not there (it ended): a
 * task still there was in every reading since its first. Without trends (history_add's fn), an
 * entry is fed only when its task waits. */
void history_kind_series(const struct history *h, const struct task_history *t, const struct row *now, int k,
			 double *out, size_t n);

/* The column of n (as history_kind_series spreads them) of the reading kept of time when; -1 when
 * none is. */
long history_column(const struct history *h, double when, size_t n);

/* The task's last n sort values into out, the oldest first, NAN before the first. Returns how
 * many it had. */
size_t history_trend(const struct task_history *t, double *out, size_t n);

/* A pressure line's last n shares into out, the oldest first, NAN before the first reading. */
void history_psi(const struct history *h, int res, int full, double *out, size_t n);

/* The bytes the store holds, for delaytop(8)'s figures and the tests. */
size_t history_bytes(const struct history *h);

#endif
