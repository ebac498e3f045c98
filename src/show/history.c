/* history.c — the screen's last minutes of readings: pressure as a ring of numbers, each task's
 * delays as a log of its waits above zero, its sort values as a small ring. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cgtree.h"
#include "history.h"
#include "xalloc.h"

static double seconds(const struct timespec *t)
{
	return (double)t->tv_sec + t->tv_nsec / 1e9;
}

void history_init(struct history *h)
{
	memset(h, 0, sizeof(*h));
	idmap_init(&h->tasks);
	idmap_init(&h->cgroups);
}

static void task_free(struct task_history *t)
{
	free(t->log);
	free(t);
}

void history_clear(struct history *h)
{
	uint32_t id;
	void *val;

	for (size_t i = 0; idmap_next(&h->tasks, &i, &id, &val);)
		task_free(val);
	for (size_t i = 0; idmap_next(&h->cgroups, &i, &id, &val);)
		task_free(val);
	idmap_free(&h->tasks);
	idmap_free(&h->cgroups);
	history_init(h);
}

void history_free(struct history *h)
{
	history_clear(h);
	idmap_free(&h->tasks);
	idmap_free(&h->cgroups);
}

/* ---- pressure ---- */

static void psi_add(struct psi_history *p, const struct snapshot *s, double when)
{
	size_t at = p->head;

	p->when[at] = when;
	for (int r = 0; r < PSI_COUNT; r++) {
		const struct psi_resource *res = &s->psi.res[r];

		p->pct[at][r][0] = res->present && res->some.present ? (float)res->some.pct : NAN;
		p->pct[at][r][1] = res->present && res->full.present ? (float)res->full.pct : NAN;
	}
	p->head = (at + 1) % PSI_HISTORY_READINGS;
	if (p->n < PSI_HISTORY_READINGS)
		p->n++;
}

void history_psi(const struct history *h, int res, int full, double *out, size_t n)
{
	const struct psi_history *p = &h->psi;

	for (size_t i = 0; i < n; i++) {
		size_t back = n - i; /* 1 is the newest */

		if (back > p->n) {
			out[i] = NAN;
			continue;
		}
		out[i] = p->pct[(p->head + PSI_HISTORY_READINGS - back) % PSI_HISTORY_READINGS][res][full];
	}
}

/* ---- tasks ---- */

static uint32_t row_id(const struct history *h, const struct row *r)
{
	return h->threads ? r->tid : r->pid;
}

/* A cgroup's path as an id (never 0) and a second hash to tell two paths of one id apart:
 * FNV-1a, 32 and 64 bits. */
static uint32_t path_id(const char *path, uint64_t *check)
{
	uint32_t h32 = 2166136261u;
	uint64_t h64 = 14695981039346656037ull;

	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		h32 = (h32 ^ *p) * 16777619u;
		h64 = (h64 ^ *p) * 1099511628211ull;
	}
	*check = h64;
	return h32 ? h32 : 1;
}

/* The number of the oldest reading kept (the last one found, moved on). */
static uint32_t oldest_reading(const struct history *h)
{
	uint32_t r = h->readings > HISTORY_READINGS ? h->readings - HISTORY_READINGS : 0;

	if (h->oldest > r)
		r = h->oldest;
	while (r + 1 < h->readings && h->when[r % HISTORY_READINGS] < h->last - HISTORY_SECONDS)
		r++;
	return r;
}

/* The first reading from oldest on whose rows had rates: reading 0 of a live run had none. */
static uint32_t first_rated(const struct history *h, uint32_t oldest)
{
	return oldest + (oldest == 0 && h->first_fresh);
}

/* The entry of id in map, new when its id is new or was another's (a reused id); a new one's
 * readings begin now when born (its first reading), else with the oldest kept. */
static struct task_history *map_entry(struct history *h, struct idmap *map, uint32_t id, uint64_t start_ns, int born)
{
	struct task_history *t = idmap_get(map, id);

	if (t && t->start_ns == start_ns)
		return t;
	if (t)
		task_free(t);
	t = xcalloc(1, sizeof(*t));
	t->start_ns = start_ns;
	t->first = born ? h->readings : first_rated(h, oldest_reading(h));
	idmap_put(map, id, t);
	return t;
}

/* Whether a row waited in its interval (a share above zero in a kind). */
static int row_waited(const struct row *r)
{
	for (int k = 0; k < DK_COUNT; k++)
		if (r->r.kind[k].pct > 0)
			return 1;
	return 0;
}

/* A point's reading, in full: the newest with its low 16 bits up to now. */
static uint32_t point_reading(const struct history *h, const struct history_point *p)
{
	return h->readings - (uint16_t)((uint16_t)h->readings - p->reading);
}

static int point_kind(const struct history_point *p)
{
	return p->value >> HISTORY_KIND_SHIFT;
}

static double point_pct(const struct history_point *p)
{
	return (p->value & HISTORY_VALUE_MAX) / 10.0;
}

/* Drops the log's points older than reading oldest; an empty log is freed. */
static void log_trim(const struct history *h, struct task_history *t, uint32_t oldest)
{
	uint32_t drop = 0;

	while (drop < t->nlog && point_reading(h, &t->log[drop]) < oldest)
		drop++;
	if (!drop)
		return;
	memmove(t->log, t->log + drop, (t->nlog - drop) * sizeof(*t->log));
	t->nlog -= drop;
	if (!t->nlog) {
		free(t->log);
		t->log = NULL;
		t->cap = 0;
	}
}

static void log_add(const struct history *h, struct task_history *t, int k, double pct, uint32_t oldest)
{
	long tenths = lround(pct * 10);

	if (t->nlog == t->cap) {
		log_trim(h, t, oldest);
		if (t->nlog == t->cap) {
			t->cap = t->cap ? t->cap * 2 : 4;
			t->log = xrealloc(t->log, t->cap * sizeof(*t->log));
		}
	}
	if (tenths < 1)
		tenths = 1; /* above zero, so never drawn as none */
	t->log[t->nlog++] = (struct history_point){
		.reading = (uint16_t)h->readings,
		.value = (uint16_t)((unsigned)k << HISTORY_KIND_SHIFT |
				    (tenths > (long)HISTORY_VALUE_MAX ? HISTORY_VALUE_MAX : (unsigned)tenths)),
	};
}

static void task_add(struct history *h, struct task_history *t, const struct row *r, double value, uint32_t oldest)
{
	t->seen = h->readings;
	if (t->trend_epoch != h->trend_epoch) {
		t->trend_epoch = h->trend_epoch;
		t->trend_n = t->trend_head = 0;
	}
	t->trend[t->trend_head] = (float)value;
	t->trend_head = (uint8_t)((t->trend_head + 1) % TREND_POINTS);
	if (t->trend_n < TREND_POINTS)
		t->trend_n++;
	if (r->fresh) { /* no rates yet: its charts start with the next reading */
		if (t->first == h->readings)
			t->first++;
		return;
	}
	for (int k = 0; k < DK_COUNT; k++) {
		double pct = r->r.kind[k].pct;

		if (!(pct > 0)) /* zero, or not known */
			continue;
		log_add(h, t, k, pct, oldest);
	}
}

/* A cgroup row's pressure: each line above zero, in its log. */
static void cgroup_add(struct history *h, const struct row *r, uint32_t oldest)
{
	uint64_t check;
	uint32_t id;
	struct task_history *t;

	if (!r->cgroup || !r->cg || !r->cg->facts)
		return;
	id = path_id(r->cgroup, &check); /* before check is read */
	t = map_entry(h, &h->cgroups, id, check, 1);
	t->seen = h->readings;
	for (int res = 0; res < PSI_COUNT; res++) {
		const struct psi_resource *p = &r->cg->facts->psi.res[res];

		if (!p->present)
			continue;
		if (p->some.present && p->some.pct > 0)
			log_add(h, t, history_psi_line(res, 0), p->some.pct, oldest);
		if (p->full.present && p->full.pct > 0)
			log_add(h, t, history_psi_line(res, 1), p->full.pct, oldest);
	}
}

/* Lets go the entries of map not seen since before the oldest reading kept, and the points of
 * the others older than it. */
static void map_expire(const struct history *h, struct idmap *map, uint32_t oldest)
{
	uint32_t id;
	void *val;

	for (size_t i = 0; idmap_next(map, &i, &id, &val);) {
		struct task_history *t = val;

		if (t->seen >= oldest) {
			log_trim(h, t, oldest);
			continue;
		}
		idmap_del(map, id);
		task_free(t);
		i--;
	}
}

/* Whether every task row of s is a first reading, without rates (a live run's first). */
static int all_fresh(const struct snapshot *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nrows; i++) {
		if (s->rows[i].departed)
			continue;
		if (!s->rows[i].fresh)
			return 0;
		n++;
	}
	return n > 0;
}

void history_add(struct history *h, const struct snapshot *s, history_value_fn fn, const void *ctx, int trend_of)
{
	double when = seconds(&s->wall);
	uint32_t oldest;

	if ((h->readings && when < h->last) || (h->readings && h->threads != s->threads))
		history_clear(h);
	if (h->readings && when == h->last)
		return; /* the same reading again */
	h->threads = s->threads;
	if (trend_of != h->trend_of) {
		h->trend_of = trend_of;
		h->trend_epoch++;
	}
	h->last = when;
	h->when[h->readings % HISTORY_READINGS] = when;
	psi_add(&h->psi, s, when);
	oldest = h->oldest = oldest_reading(h);
	if (!h->readings)
		h->first_fresh = all_fresh(s);
	h->fed_all = fn != NULL;
	for (size_t i = 0; i < s->nrows; i++) {
		const struct row *r = &s->rows[i];

		if (r->departed || !row_id(h, r))
			continue;
		/* Without trends, a task's entry is made at its first reading (but the store's first:
		 * every task is new there) and fed when it waits: at 100,000 idle threads a look-up
		 * each reading would cost more than the reading. An entry not fed is let go after the
		 * readings kept; its task was there all along (history_kind_series). */
		if (!fn && (!r->fresh || !h->readings) && !row_waited(r))
			continue;
		task_add(h, map_entry(h, &h->tasks, row_id(h, r), r->start_ns, r->fresh), r, fn ? fn(r, ctx) : NAN,
			 oldest);
	}
	for (size_t i = 0; s->cgroup_rows && i < s->ncgroup_rows; i++) /* shown or not (a replay's) */
		cgroup_add(h, &s->cgroup_rows[i], oldest);
	h->readings++;
	if (h->readings % 16 == 0) { /* now and then: the sweep costs a look at every task */
		map_expire(h, &h->tasks, oldest);
		map_expire(h, &h->cgroups, oldest);
	}
}

const struct task_history *history_task(const struct history *h, uint32_t id, uint64_t start_ns)
{
	const struct task_history *t = id ? idmap_get(&h->tasks, id) : NULL;

	return t && t->start_ns == start_ns ? t : NULL;
}

const struct task_history *history_row(const struct history *h, const struct row *r)
{
	return history_task(h, row_id(h, r), r->start_ns);
}

const struct task_history *history_cgroup(const struct history *h, const char *path)
{
	uint64_t check;
	const struct task_history *t = idmap_get(&h->cgroups, path_id(path, &check));

	return t && t->start_ns == check ? t : NULL;
}

double history_since(const struct history *h)
{
	return h->readings ? h->when[oldest_reading(h) % HISTORY_READINGS] : 0;
}

uint32_t history_readings(const struct history *h)
{
	return h->readings - oldest_reading(h);
}

/* The column of n over the kept readings from oldest on (count of them) that reading r is in. */
static size_t column_of(uint32_t r, uint32_t oldest, uint32_t count, size_t n)
{
	return (size_t)((uint64_t)(r - oldest) * n / count);
}

void history_kind_series(const struct history *h, const struct task_history *t, const struct row *now, int k,
			 double *out, size_t n)
{
	uint32_t oldest = oldest_reading(h), count = h->readings - oldest, first, last;

	for (size_t i = 0; i < n; i++)
		out[i] = NAN;
	if ((!t && !now) || !count || !n)
		return;
	/* the readings the task was in: 0 (waited nothing) until a point says otherwise; a task in
	 * the newest reading was in every one since its first, and one without an entry since
	 * before the oldest kept (its entry, made at its first reading, was let go) */
	first = t ? t->first : first_rated(h, oldest);
	last = t && (h->fed_all || !now) ? t->seen : h->readings - 1;
	for (uint32_t r = first > oldest ? first : oldest; r <= last && r < h->readings; r++) {
		size_t c = column_of(r, oldest, count, n);

		if (isnan(out[c]))
			out[c] = 0;
	}
	for (uint32_t i = 0; t && i < t->nlog; i++) {
		const struct history_point *p = &t->log[i];
		size_t c;

		if (point_kind(p) != k || point_reading(h, p) < oldest)
			continue;
		c = column_of(point_reading(h, p), oldest, count, n);
		if (!(out[c] >= point_pct(p)))
			out[c] = point_pct(p);
	}
}

long history_column(const struct history *h, double when, size_t n)
{
	uint32_t oldest = oldest_reading(h), count = h->readings - oldest;

	for (uint32_t r = oldest; n && r < h->readings; r++)
		if (h->when[r % HISTORY_READINGS] == when)
			return (long)column_of(r, oldest, count, n);
	return -1;
}

size_t history_trend(const struct task_history *t, double *out, size_t n)
{
	size_t have = t ? t->trend_n : 0;

	for (size_t i = 0; i < n; i++) {
		size_t back = n - i;

		out[i] = back > have ? NAN : t->trend[(t->trend_head + TREND_POINTS - back) % TREND_POINTS];
	}
	return have;
}

size_t history_bytes(const struct history *h)
{
	size_t bytes = sizeof(*h) + h->tasks.cap * (sizeof(uint32_t) + sizeof(void *));
	uint32_t id;
	void *val;

	for (size_t i = 0; idmap_next(&h->tasks, &i, &id, &val);)
		bytes += sizeof(struct task_history) + ((const struct task_history *)val)->cap * sizeof(struct history_point);
	bytes += h->cgroups.cap * (sizeof(uint32_t) + sizeof(void *));
	for (size_t i = 0; idmap_next(&h->cgroups, &i, &id, &val);)
		bytes += sizeof(struct task_history) + ((const struct task_history *)val)->cap * sizeof(struct history_point);
	return bytes;
}
