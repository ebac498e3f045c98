/* htmlrep.c — what the HTML report keeps of the readings: buckets of time that double in width
 * when they fill up, each task's, cgroup's and command name's delays in them, the pressure, the
 * trigger events.
 * The page is htmlpage.c's. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "htmlrep.h"
#include "xalloc.h"

void htmlrep_init(struct htmlrep *h)
{
	memset(h, 0, sizeof(*h));
	idmap_init(&h->tasks);
}

static void delays_free(struct hr_delays *d)
{
	for (int k = 0; k < DK_COUNT; k++)
		free(d->pts[k]);
}

static void groups_free(struct hr_groups *gs)
{
	for (size_t i = 0; i < gs->n; i++) {
		free(gs->g[i].name);
		delays_free(&gs->g[i].d);
		htmllat_free(gs->g[i].lat);
	}
	free(gs->g);
	free(gs->index);
}

void htmlrep_free(struct htmlrep *h)
{
	size_t pos = 0;
	uint32_t id;
	void *val;

	while (idmap_next(&h->tasks, &pos, &id, &val))
		for (struct hr_task *t = val, *next; t; t = next) {
			next = t->next;
			free(t->comm);
			free(t->cmdline);
			free(t->user);
			free(t->cgroup);
			delays_free(&t->d);
			htmllat_free(t->lat);
			flame_drop(t->flame);
			free(t);
		}
	idmap_free(&h->tasks);
	groups_free(&h->cgroups);
	groups_free(&h->commands);
	for (size_t i = 0; i < h->nevents; i++) {
		for (size_t k = 0; k < h->events[i].ntasks; k++)
			free(h->events[i].task[k]);
		for (size_t k = 0; k < h->events[i].ncgroups; k++)
			free(h->events[i].cgroup[k]);
		flame_drop(h->events[i].flame);
	}
	free(h->events);
	memset(h, 0, sizeof(*h));
}

/* ---- buckets ---- */

/* Merges the points of one kind in pairs of buckets, as the buckets were. */
static void halve_points(struct hr_delays *d)
{
	for (int k = 0; k < DK_COUNT; k++) {
		uint32_t out = 0;

		for (uint32_t i = 0; i < d->npts[k]; i++) {
			uint32_t b = d->pts[k][i].bucket / 2;

			if (out && d->pts[k][out - 1].bucket == b)
				d->pts[k][out - 1].ns += d->pts[k][i].ns;
			else
				d->pts[k][out++] = (struct hr_point){ b, d->pts[k][i].ns };
		}
		d->npts[k] = out;
	}
}

/* Doubles the buckets' width: each pair becomes one, in the buckets and in every series. */
static void halve(struct htmlrep *h)
{
	size_t pos = 0;
	uint32_t id;
	void *val;

	for (uint32_t i = 0; i < SVG_MAX_POINTS; i++) {
		struct hr_bucket *to = &h->b[i / 2];
		const struct hr_bucket *from = &h->b[i];

		if (i % 2 == 0) {
			*to = *from;
			continue;
		}
		to->cover_s += from->cover_s;
		to->t_sum += from->t_sum;
		to->n += from->n;
		if (from->max_interval > to->max_interval)
			to->max_interval = from->max_interval;
		for (int r = 0; r < PSI_COUNT; r++)
			for (int l = 0; l < 2; l++) {
				to->psi_s[r][l] += from->psi_s[r][l];
				to->psi_have[r][l] |= from->psi_have[r][l];
			}
	}
	memset(&h->b[SVG_MAX_POINTS / 2], 0, sizeof(h->b[0]) * (SVG_MAX_POINTS - SVG_MAX_POINTS / 2));
	h->nbuckets = (h->nbuckets + 1) / 2;
	h->width *= 2;
	while (idmap_next(&h->tasks, &pos, &id, &val))
		for (struct hr_task *t = val; t; t = t->next) {
			halve_points(&t->d);
			htmllat_halve(t->lat);
		}
	for (size_t i = 0; i < h->cgroups.n; i++) {
		halve_points(&h->cgroups.g[i].d);
		htmllat_halve(h->cgroups.g[i].lat);
	}
	for (size_t i = 0; i < h->commands.n; i++)
		halve_points(&h->commands.g[i].d);
}

/* The bucket of a reading at t, the buckets made wider until it fits. */
static uint32_t bucket_of(struct htmlrep *h, double t)
{
	double i;

	if (!h->nreadings) {
		h->t0 = t;
		h->first_s = t;
	}
	for (;;) {
		i = floor((t - h->t0) / h->width);
		if (i < SVG_MAX_POINTS)
			break;
		halve(h);
	}
	if (i < 0)
		i = 0; /* a clock that went back: with the first */
	if ((uint32_t)i + 1 > h->nbuckets)
		h->nbuckets = (uint32_t)i + 1;
	return (uint32_t)i;
}

/* ---- series ---- */

static void delays_add(struct hr_delays *d, int k, uint32_t bucket, double ns)
{
	uint32_t n = d->npts[k];

	d->total_ns[k] += ns;
	if (n && d->pts[k][n - 1].bucket == bucket) {
		d->pts[k][n - 1].ns += (float)ns;
		return;
	}
	if (n == d->cap[k]) {
		size_t cap = d->cap[k];

		d->pts[k] = xgrow(d->pts[k], &cap, n + 1, sizeof(*d->pts[k]));
		d->cap[k] = (uint32_t)cap;
	}
	d->pts[k][n] = (struct hr_point){ bucket, (float)ns };
	d->npts[k] = n + 1;
}

/* ---- tasks and cgroups ---- */

static char *copy_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* The task a row stands for, made when new. */
static struct hr_task *task_of(struct htmlrep *h, const struct row *r)
{
	uint32_t id = r->tid ? r->tid : r->pid;
	struct hr_task *first = idmap_get(&h->tasks, id), *t;

	for (t = first; t; t = t->next)
		if (t->pid == r->pid && t->tid == r->tid && t->start_ns == r->start_ns)
			return t;
	t = xcalloc(1, sizeof(*t));
	t->pid = r->pid;
	t->tid = r->tid;
	t->start_ns = r->start_ns;
	t->next = first;
	idmap_put(&h->tasks, id, t);
	return t;
}

/* Keeps a copy of the row's strings (as they are now: a command may exec another). */
static void task_strings(struct hr_task *t, const struct row *r)
{
	char **mine[ROW_STRING_COUNT] = { &t->user, &t->comm, &t->cmdline, &t->cgroup };
	const char *theirs[ROW_STRING_COUNT] = { r->user, r->comm, r->cmdline, r->cgroup };

	for (int i = 0; i < ROW_STRING_COUNT; i++) {
		if (theirs[i] == t->seen[i] && (!theirs[i] || *mine[i]))
			continue;
		t->seen[i] = theirs[i];
		if (*mine[i] && theirs[i] && strcmp(*mine[i], theirs[i]) == 0)
			continue;
		free(*mine[i]);
		*mine[i] = copy_or_null(theirs[i]);
	}
}

static uint64_t str_hash(const char *s)
{
	uint64_t x = 1469598103934665603ull;

	while (*s)
		x = (x ^ (unsigned char)*s++) * 1099511628211ull;
	return x;
}

/* The index of the group of a name (a cgroup's path, a command name), made when new. */
static size_t group_of(struct hr_groups *gs, const char *name)
{
	size_t mask, i;

	if (gs->n * 2 >= gs->slots) {
		size_t slots = gs->slots ? gs->slots * 2 : 64;

		free(gs->index);
		gs->index = xcalloc(slots, sizeof(*gs->index));
		gs->slots = slots;
		for (size_t c = 0; c < gs->n; c++) {
			for (i = str_hash(gs->g[c].name) & (slots - 1); gs->index[i]; i = (i + 1) & (slots - 1))
				;
			gs->index[i] = (uint32_t)c + 1;
		}
	}
	mask = gs->slots - 1;
	for (i = str_hash(name) & mask; gs->index[i]; i = (i + 1) & mask)
		if (strcmp(gs->g[gs->index[i] - 1].name, name) == 0)
			return gs->index[i] - 1;
	gs->g = xgrow(gs->g, &gs->cap, gs->n + 1, sizeof(*gs->g));
	memset(&gs->g[gs->n], 0, sizeof(gs->g[0]));
	gs->g[gs->n].name = xstrdup(name);
	gs->index[i] = (uint32_t)++gs->n;
	return gs->n - 1;
}

/* Task t's delay of kind k in bucket into its command name's group (index cmd): the task counts
 * there once per kind. */
static void command_add(struct htmlrep *h, struct hr_task *t, size_t cmd, int k, uint32_t bucket, double ns)
{
	struct hr_group *g = &h->commands.g[cmd];

	if (t->command != cmd + 1) { /* new, or its name changed (an exec) */
		t->command = (uint32_t)cmd + 1;
		t->counted = 0;
	}
	if (!(t->counted & (1u << k))) {
		t->counted |= (kind_mask)(1u << k);
		g->tasks[k]++;
	}
	delays_add(&g->d, k, bucket, ns);
}

/* A row's delays of the interval into its task, its cgroup and its command name. */
static void add_row(struct htmlrep *h, const struct row *r, uint32_t bucket, double interval_s)
{
	struct hr_task *t = NULL;
	struct hr_group *c = NULL;
	size_t cmd = 0;

	if (r->departed || !(r->r.total_pct > 0))
		return; /* its totals only, or it did not wait: nothing of this interval */
	for (int k = 0; k < DK_COUNT; k++) {
		double pct = r->r.kind[k].pct, ns;

		if (!(pct > 0))
			continue;
		ns = pct / 100 * interval_s * 1e9;
		if (!t) {
			t = task_of(h, r);
			task_strings(t, r);
			if (r->cgroup)
				c = &h->cgroups.g[group_of(&h->cgroups, r->cgroup)];
			cmd = group_of(&h->commands, r->comm ? r->comm : "?");
		}
		delays_add(&t->d, k, bucket, ns);
		if (c)
			delays_add(&c->d, k, bucket, ns);
		command_add(h, t, cmd, k, bucket, ns);
		h->kinds |= (kind_mask)(1u << k);
	}
}

/* A row's waits of --why in the interval into its task and its cgroup. */
static void add_row_lat(struct htmlrep *h, const struct row *r, uint32_t bucket)
{
	struct hr_task *t;
	struct hr_group *c = NULL;
	size_t i = 0;

	if (r->departed || !r->lat || !r->lat->kinds)
		return;
	t = task_of(h, r);
	task_strings(t, r);
	if (r->cgroup)
		c = &h->cgroups.g[group_of(&h->cgroups, r->cgroup)];
	for (int k = 0; k < LAT_KINDS; k++) {
		if (!(r->lat->kinds & (1u << k)))
			continue;
		htmllat_add(&t->lat, k, bucket, &r->lat->h[i]);
		if (c)
			htmllat_add(&c->lat, k, bucket, &r->lat->h[i]);
		h->lat_kinds |= (lat_mask)(1u << k);
		i++;
	}
}

/* ---- off-CPU stacks ---- */

void htmlrep_task_name(char *buf, size_t size, const char *comm, uint32_t pid, uint32_t tid)
{
	snprintf(buf, size, "%s (%u)", comm ? comm : "?", tid ? tid : pid);
}

/* A row's stacks of the reading into its task's flame graph. */
static void add_row_stacks(struct htmlrep *h, const struct row *r)
{
	struct hr_task *t;
	char name[256];

	if (r->departed || !r->stacks || !r->stacks->n)
		return;
	t = task_of(h, r);
	task_strings(t, r);
	if (!t->flame) {
		htmlrep_task_name(name, sizeof(name), r->comm, r->pid, r->tid);
		t->flame = flame_new(name);
	}
	flame_add_list(t->flame, NULL, r->stacks);
	h->nstacks += r->stacks->n;
}

/* The stacks of the tasks that stalled (as the event names them), each task a group, as one
 * flame graph named root (NULL when none has any): those a recording keeps with the event. */
static struct flame *stallers_flame(const struct trigger_stallers *st, const char *root)
{
	struct flame *f = NULL;
	const struct row *named[2 * TRIGGER_TOP];
	size_t n = trigger_named(st, named);
	char name[256];

	for (size_t i = 0; i < n; i++) {
		const struct row *r = named[i];

		if (r->departed || !r->stacks || !r->stacks->n)
			continue;
		if (!f)
			f = flame_new(root);
		htmlrep_task_name(name, sizeof(name), r->comm, r->pid, r->tid);
		flame_add_list(f, name, r->stacks);
	}
	return f;
}

/* ---- events ---- */

/* Keeps event i's flame graph if it is among the HTMLREP_EVENT_FLAMES longest so far (the earlier
 * of two as long), dropping the shortest kept otherwise: the page and the memory stay bounded
 * when a trigger fires all day. */
static void keep_event_flame(struct htmlrep *h, size_t i)
{
	struct hr_event *e = &h->events[i];
	size_t low = 0;

	if (!e->flame)
		return;
	if (h->nflamed < HTMLREP_EVENT_FLAMES) {
		h->flamed[h->nflamed++] = i;
		return;
	}
	for (size_t k = 1; k < h->nflamed; k++)
		if (flame_ms(h->events[h->flamed[k]].flame) < flame_ms(h->events[h->flamed[low]].flame))
			low = k;
	h->flames_dropped++;
	if (flame_ms(e->flame) > flame_ms(h->events[h->flamed[low]].flame)) {
		flame_drop(h->events[h->flamed[low]].flame);
		h->events[h->flamed[low]].flame = NULL;
		h->flamed[low] = i;
	} else {
		flame_drop(e->flame);
		e->flame = NULL;
	}
}

static void add_event(struct htmlrep *h, const struct snapshot *snap, const struct trigger_spec *spec)
{
	struct trigger_stallers st;
	const struct row *named[2 * TRIGGER_TOP];
	struct hr_event *e;

	h->events = xgrow(h->events, &h->capevents, h->nevents + 1, sizeof(*h->events));
	e = &h->events[h->nevents++];
	memset(e, 0, sizeof(*e));
	e->t = (double)snap->wall.tv_sec + snap->wall.tv_nsec / 1e9;
	e->spec = *spec;
	trigger_stallers(snap, spec, &st);
	e->ntasks = trigger_named(&st, named);
	for (size_t i = 0; i < e->ntasks; i++) {
		e->task[i] = xstrdup(named[i]->comm ? named[i]->comm : "?");
		e->task_pid[i] = named[i]->tid ? named[i]->tid : named[i]->pid;
		e->task_pct[i] = i < st.ntasks ? st.task_pct[i] : 0;
		e->task_waiting[i] = i >= st.ntasks;
	}
	for (size_t i = 0; i < st.ncgroups; i++) {
		e->cgroup[i] = xstrdup(st.cgroup[i] ? st.cgroup[i] : "?");
		e->cgroup_pct[i] = st.cgroup_pct[i];
	}
	e->ncgroups = st.ncgroups;
	e->flame = stallers_flame(&st, spec->text);
	keep_event_flame(h, h->nevents - 1);
}

/* The events of a reading: one trigger a line, as --trigger takes it. */
static void add_events(struct htmlrep *h, const struct snapshot *snap)
{
	const char *line = snap->events;

	while (line && *line) {
		size_t len = strcspn(line, "\n");
		char text[1100], why[256];
		struct trigger_spec t;

		snprintf(text, sizeof(text), "%.*s", (int)len, line);
		if (trigger_parse(text, &t, why, sizeof(why)) == 0)
			add_event(h, snap, &t);
		line += len + (line[len] == '\n');
	}
}

/* ---- readings ---- */

/* The reading's facts and pressure, into its bucket. */
static void add_head(struct htmlrep *h, const struct snapshot *snap, struct hr_bucket *b, double t)
{
	b->cover_s += snap->interval_s;
	b->t_sum += t;
	b->n++;
	if (snap->interval_s > b->max_interval)
		b->max_interval = snap->interval_s;
	for (int r = 0; r < PSI_COUNT; r++) {
		const struct psi_line *lines[2] = { &snap->psi.res[r].some, &snap->psi.res[r].full };

		for (int l = 0; l < 2; l++)
			if (snap->psi.res[r].present && lines[l]->present && !isnan(lines[l]->pct)) {
				b->psi_s[r][l] += lines[l]->pct / 100 * snap->interval_s;
				b->psi_have[r][l] = 1;
			}
	}
	if (!h->nreadings)
		h->delayacct_first = snap->delayacct;
	h->delayacct_last = snap->delayacct;
	h->limited |= snap->limited;
	h->threads |= snap->threads;
	if (snap->nprocs > h->max_procs)
		h->max_procs = snap->nprocs;
	if (snap->nthreads > h->max_threads)
		h->max_threads = snap->nthreads;
	if (snap->exits_lost > h->exits_lost)
		h->exits_lost = snap->exits_lost;
	h->last_s = t;
	h->cover_s += snap->interval_s;
	h->nreadings++;
}

void htmlrep_add(struct htmlrep *h, const struct snapshot *snap)
{
	double t = (double)snap->wall.tv_sec + snap->wall.tv_nsec / 1e9;
	uint32_t bucket;

	if (snap->events)
		add_events(h, snap);
	for (size_t i = 0; i < snap->nrows; i++)
		add_row_stacks(h, &snap->rows[i]);
	if (!(snap->interval_s > 0))
		return; /* no rates */
	if (!h->nreadings)
		h->width = snap->interval_s > 1e-3 ? snap->interval_s : 1e-3;
	bucket = bucket_of(h, t);
	add_head(h, snap, &h->b[bucket], t);
	if (snap->why.state == WHY_ON)
		h->why = 1;
	for (size_t i = 0; i < snap->nrows; i++) {
		add_row(h, &snap->rows[i], bucket, snap->interval_s);
		add_row_lat(h, &snap->rows[i], bucket);
	}
}

/* ---- what the page draws ---- */

/* Whether the line breaks before bucket b, the bucket with readings before it being prev: no
 * reading for longer than two buckets and two intervals. */
static int gap_before(const struct htmlrep *h, uint32_t prev, uint32_t b)
{
	double tp = h->b[prev].t_sum / h->b[prev].n, tb = h->b[b].t_sum / h->b[b].n;

	return tb - tp > 2 * h->width + 2 * h->b[b].max_interval;
}

/* The buckets with readings as points, the values from value(b) (NAN: none). */
static size_t series(const struct htmlrep *h, double (*value)(const struct htmlrep *, uint32_t, const void *),
		     const void *arg, double *t, double *v)
{
	size_t n = 0;
	int have_prev = 0;
	uint32_t prev = 0;

	for (uint32_t b = 0; b < h->nbuckets && n < SVG_MAX_POINTS; b++) {
		if (!h->b[b].n || !(h->b[b].cover_s > 0))
			continue;
		if (have_prev && gap_before(h, prev, b) && n + 1 < SVG_MAX_POINTS) {
			t[n] = h->b[prev].t_sum / h->b[prev].n;
			v[n++] = NAN;
		}
		t[n] = h->b[b].t_sum / h->b[b].n;
		v[n++] = value(h, b, arg);
		prev = b;
		have_prev = 1;
	}
	return n;
}

struct delay_arg {
	const struct hr_delays *d;
	int k;
	uint32_t *cursor; /* the next point to look at */
};

static double delay_value(const struct htmlrep *h, uint32_t b, const void *arg)
{
	const struct delay_arg *a = arg;
	const struct hr_point *p = a->d->pts[a->k];
	uint32_t *i = a->cursor;

	while (*i < a->d->npts[a->k] && p[*i].bucket < b)
		(*i)++;
	if (*i < a->d->npts[a->k] && p[*i].bucket == b)
		return p[*i].ns / 1e9 / h->b[b].cover_s * 100;
	return 0;
}

size_t htmlrep_delay_series(const struct htmlrep *h, const struct hr_delays *d, int k, double *t, double *v)
{
	uint32_t cursor = 0;
	struct delay_arg a = { d, k, &cursor };

	return series(h, delay_value, &a, t, v);
}

struct psi_arg {
	int res, line;
};

static double psi_value(const struct htmlrep *h, uint32_t b, const void *arg)
{
	const struct psi_arg *a = arg;

	if (!h->b[b].psi_have[a->res][a->line])
		return NAN;
	return h->b[b].psi_s[a->res][a->line] / h->b[b].cover_s * 100;
}

size_t htmlrep_psi_series(const struct htmlrep *h, int res, int line, double *t, double *v)
{
	struct psi_arg a = { res, line };

	return series(h, psi_value, &a, t, v);
}

/* Inserts (item, key) into the first n of the top list, largest first, at most max. */
static size_t top_insert(const void **items, double *keys, size_t n, size_t max, const void *item, double key)
{
	size_t i = n < max ? n++ : max;

	if (i == max && !(key > keys[max - 1]))
		return n;
	if (i == max)
		i = max - 1;
	while (i > 0 && keys[i - 1] < key) {
		items[i] = items[i - 1];
		keys[i] = keys[i - 1];
		i--;
	}
	items[i] = item;
	keys[i] = key;
	return n;
}

/* rank_fn: whether a task or group ranks in kind k (its delays d, its --why waits lat, a task's
 * --why stacks f, a group's NULL), and by which key. */
typedef int rank_fn(const struct hr_delays *d, const struct hr_lat *lat, const struct flame *f, int k,
		    double *key);

/* Ranks by the delay of kind k: those that waited in it. */
static int delay_rank(const struct hr_delays *d, const struct hr_lat *lat, const struct flame *f, int k,
		      double *key)
{
	(void)lat;
	(void)f;
	*key = d->total_ns[k];
	return d->total_ns[k] > 0;
}

/* Ranks by the waits of latency kind k that --why measured: those that had any. */
static int lat_rank(const struct hr_delays *d, const struct hr_lat *lat, const struct flame *f, int k,
		    double *key)
{
	(void)d;
	(void)f;
	*key = lat ? (double)lat->k[k].total_ns : 0;
	return lat && lat->k[k].count;
}

/* Ranks by the off-CPU time of the --why stacks (any kind): those that have any. */
static int stack_rank(const struct hr_delays *d, const struct hr_lat *lat, const struct flame *f, int k,
		      double *key)
{
	(void)d;
	(void)lat;
	(void)k;
	*key = f ? flame_ms(f) : 0;
	return f && flame_ms(f) > 0;
}

/* The tasks that rank highest in kind k by rank, at most max (and HTMLREP_TABLE). */
static size_t top_tasks(const struct htmlrep *h, rank_fn *rank, int k, const struct hr_task **out, size_t max)
{
	double keys[HTMLREP_TABLE], key;
	size_t n = 0, pos = 0;
	uint32_t id;
	void *val;

	if (max > HTMLREP_TABLE)
		max = HTMLREP_TABLE;
	while (max && idmap_next(&h->tasks, &pos, &id, &val))
		for (const struct hr_task *t = val; t; t = t->next)
			if (rank(&t->d, t->lat, t->flame, k, &key))
				n = top_insert((const void **)out, keys, n, max, t, key);
	return n;
}

/* The groups that rank highest in kind k, as top_tasks. */
static size_t top_groups(const struct hr_groups *gs, rank_fn *rank, int k, const struct hr_group **out, size_t max)
{
	double keys[HTMLREP_TABLE], key;
	size_t n = 0;

	if (max > HTMLREP_TABLE)
		max = HTMLREP_TABLE;
	for (size_t i = 0; max && i < gs->n; i++)
		if (rank(&gs->g[i].d, gs->g[i].lat, NULL, k, &key))
			n = top_insert((const void **)out, keys, n, max, &gs->g[i], key);
	return n;
}

size_t htmlrep_top_tasks(const struct htmlrep *h, int k, const struct hr_task **out, size_t max)
{
	return top_tasks(h, delay_rank, k, out, max);
}

size_t htmlrep_top_cgroups(const struct htmlrep *h, int k, const struct hr_group **out, size_t max)
{
	return top_groups(&h->cgroups, delay_rank, k, out, max);
}

size_t htmlrep_top_commands(const struct htmlrep *h, int k, const struct hr_group **out, size_t max)
{
	return top_groups(&h->commands, delay_rank, k, out, max);
}

size_t htmlrep_top_lat_tasks(const struct htmlrep *h, int k, const struct hr_task **out, size_t max)
{
	return top_tasks(h, lat_rank, k, out, max);
}

size_t htmlrep_top_stack_tasks(const struct htmlrep *h, const struct hr_task **out, size_t max)
{
	return top_tasks(h, stack_rank, 0, out, max);
}

size_t htmlrep_top_lat_cgroups(const struct htmlrep *h, int k, const struct hr_group **out, size_t max)
{
	return top_groups(&h->cgroups, lat_rank, k, out, max);
}
