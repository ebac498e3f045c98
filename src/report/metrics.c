/* metrics.c — counters from snapshots, and their exposition. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cgident.h"
#include "cgtree.h"
#include "metrics.h"
#include "options.h"
#include "xalloc.h"

void metrics_init(struct metrics *m, int top_commands)
{
	memset(m, 0, sizeof(*m));
	cmdrank_init(&m->commands, top_commands);
	m->expiry_s = DEFAULT_SERIES_EXPIRY;
	m->delayacct = -1;
}

static void group_free(struct metrics_group *g)
{
	free(g->name);
	free(g->waits);
}

static void groups_free(struct metrics_groups *gs)
{
	for (size_t i = 0; i < gs->n; i++)
		group_free(&gs->g[i]);
	free(gs->g);
}

void metrics_free(struct metrics *m)
{
	groups_free(&m->cgroups);
	cmdrank_free(&m->commands);
	free(m->tasks);
	free(m->next);
	for (size_t i = 0; i < m->npsi; i++)
		free(m->psi[i].cgroup);
	free(m->psi);
	memset(m, 0, sizeof(*m));
}

/* ---- counters by name ---- */

/* The group of name, made when create is set (NULL otherwise when there is none). */
static struct metrics_group *group(struct metrics_groups *gs, const char *name, int create)
{
	size_t lo = 0, hi = gs->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(gs->g[mid].name, name);

		if (c == 0)
			return &gs->g[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!create)
		return NULL;
	gs->g = xgrow(gs->g, &gs->cap, gs->n + 1, sizeof(*gs->g));
	memmove(&gs->g[lo + 1], &gs->g[lo], (gs->n - lo) * sizeof(*gs->g));
	gs->n++;
	memset(&gs->g[lo], 0, sizeof(gs->g[lo]));
	gs->g[lo].name = xstrdup(name);
	return &gs->g[lo];
}

/* Adds the interval's waits w (--why) to a cgroup's histograms, made at its first wait. */
static void add_waits(struct metrics_group *g, const struct lat_waits *w)
{
	int at = 0;

	if (!g->waits)
		g->waits = xcalloc(1, sizeof(*g->waits));
	for (int k = 0; k < LAT_KINDS; k++)
		if (w->kinds & (1u << k))
			waithist_add(&g->waits->h[k], &w->h[at++]);
	g->waits->kinds |= w->kinds;
}

/* Adds d (NULL: nothing) and the interval's waits w (NULL: none) to the cgroup path and to each
 * of its ancestors; the path takes its delegate from the task (identity_uid), and the cgroup tree
 * then says it for the cgroups it read (expire_cgroups). */
static void add_to_cgroups(struct metrics *m, const char *path, uint32_t identity_uid,
			   const struct metrics_delays *d, const struct lat_waits *w)
{
	char buf[1024];
	size_t len = strlen(path);
	int leaf = 1;

	if (len >= sizeof(buf))
		return;
	memcpy(buf, path, len + 1);
	for (;;) {
		struct metrics_group *g = group(&m->cgroups, buf, 1);
		char *slash;

		if (leaf && identity_uid)
			g->identity_uid = identity_uid;
		leaf = 0;
		if (d)
			metrics_delays_add(&g->d, d);
		if (w && w->kinds)
			add_waits(g, w);
		g->seen_s = m->now_s;
		if (strcmp(buf, "/") == 0)
			return;
		slash = strrchr(buf, '/');
		if (!slash)
			return;
		if (slash == buf)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
}

/* ---- tasks ---- */

static int task_cmp(const void *a, const void *b)
{
	const struct metrics_task *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

static const struct metrics_task *last_seen(const struct metrics *m, const struct metrics_task *key)
{
	return m->ntasks ? bsearch(key, m->tasks, m->ntasks, sizeof(*m->tasks), task_cmp) : NULL;
}

static uint64_t grown(uint64_t from, uint64_t to)
{
	return to > from ? to - from : 0;
}

/* What a task waited since it was last seen, and its totals for the next time. */
static void task_delta(const struct row *r, const struct metrics_task *last, struct metrics_task *now,
		       struct metrics_delays *d)
{
	memset(d, 0, sizeof(*d));
	now->pid = r->pid;
	now->tid = r->tid;
	now->start_ns = r->start_ns;
	for (int k = 0; k < DK_COUNT; k++) {
		now->ns[k] = r->acc->total_ns[k];
		now->count[k] = r->acc->count[k];
		d->ns[k] = grown(last ? last->ns[k] : 0, now->ns[k]);
		d->count[k] = grown(last ? last->count[k] : 0, now->count[k]);
	}
	d->kinds = r->acc->kinds;
	d->kinds_count = r->acc->kinds_count;
}

static void add_tasks(struct metrics *m, const struct snapshot *snap)
{
	size_t n = 0;

	m->next = xgrow(m->next, &m->capnext, snap->nrows + 1, sizeof(*m->next));
	for (size_t i = 0; i < snap->nrows; i++) {
		const struct row *r = &snap->rows[i];
		struct metrics_task key = { r->pid, r->tid, r->start_ns, { 0 }, { 0 } };
		struct metrics_delays d;

		if (r->departed || !r->acc) {
			/* its totals were counted while it lived; its waits of the interval were not */
			if (r->cgroup && r->lat && r->lat->kinds)
				add_to_cgroups(m, r->cgroup, r->identity_uid, NULL, r->lat);
			continue;
		}
		task_delta(r, last_seen(m, &key), &m->next[n++], &d);
		if (r->cgroup)
			add_to_cgroups(m, r->cgroup, r->identity_uid, &d, r->lat);
		cmdrank_add(&m->commands, r->comm ? r->comm : "", &d);
	}
	cmdrank_settle(&m->commands, m->now_s);
	qsort(m->next, n, sizeof(*m->next), task_cmp);
	{ /* the readings of this snapshot are the next one's baseline */
		struct metrics_task *swap = m->tasks;
		size_t cap = m->captasks;

		m->tasks = m->next;
		m->captasks = m->capnext;
		m->ntasks = n;
		m->next = swap;
		m->capnext = cap;
	}
}

/* ---- expiry ---- */

/* Marks the cgroups of the snapshot's cgroup tree that exist as there, then drops the series of
 * those gone (no such tree row, no task) for more than expiry_s. */
static void expire_cgroups(struct metrics *m, const struct snapshot *snap)
{
	struct metrics_groups *gs = &m->cgroups;
	size_t kept = 0;

	for (size_t i = 0; i < snap->ncgroup_rows; i++) {
		const struct row *r = &snap->cgroup_rows[i];
		struct metrics_group *g;

		if (!r->cgroup || !r->cg || !r->cg->facts)
			continue; /* not read from the hierarchy: only named by tasks, maybe departed */
		g = group(gs, r->cgroup, 0);
		if (g) {
			g->seen_s = m->now_s;
			g->identity_uid = r->identity_uid; /* as read now: a cgroup made again may differ */
		}
	}
	for (size_t i = 0; i < gs->n; i++) {
		if (m->now_s - gs->g[i].seen_s > m->expiry_s) {
			group_free(&gs->g[i]);
			continue;
		}
		gs->g[kept++] = gs->g[i]; /* the order, so the search, stays */
	}
	gs->n = kept;
}

/* ---- pressure and health ---- */

static void take_psi(struct metrics *m, const struct snapshot *snap)
{
	for (size_t i = 0; i < m->npsi; i++)
		free(m->psi[i].cgroup);
	m->npsi = 0;
	m->system = snap->psi;
	m->have_system = 1;
	for (size_t i = 0; i < snap->ncgroup_rows; i++) {
		const struct row *r = &snap->cgroup_rows[i];
		struct metrics_psi *p;

		if (!r->cg || !r->cg->facts)
			continue;
		m->psi = xgrow(m->psi, &m->cappsi, m->npsi + 1, sizeof(*m->psi));
		p = &m->psi[m->npsi++];
		memset(p, 0, sizeof(*p));
		p->cgroup = xstrdup(r->cgroup);
		p->identity_uid = r->identity_uid;
		for (int res = 0; res < PSI_COUNT; res++) {
			const struct psi_resource *pr = &r->cg->facts->psi.res[res];

			p->some[res] = pr->present && pr->some.present;
			p->full[res] = pr->present && pr->full.present;
			p->some_us[res] = pr->some.total_us;
			p->full_us[res] = pr->full.total_us;
		}
	}
}

void metrics_update(struct metrics *m, const struct snapshot *snap, double reading_s)
{
	m->now_s = snap->elapsed_s;
	add_tasks(m, snap);
	expire_cgroups(m, snap);
	take_psi(m, snap);
	m->readings++;
	m->reading_s = reading_s;
	m->delayacct = snap->delayacct;
	m->limited = snap->limited;
	m->listening = snap->listening;
	m->exits = snap->exits;
	m->exits_lost = snap->exits_lost;
	m->procs = snap->nprocs;
	m->threads = snap->nthreads;
}

/* ---- exposition ---- */

const char *metrics_content_type(int openmetrics)
{
	return openmetrics ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
			   : "text/plain; version=0.0.4; charset=utf-8";
}

/* The HELP, TYPE (and in OpenMetrics UNIT) lines of a family. A counter's family name in
 * OpenMetrics has no _total; its samples do. unit: "seconds" or NULL. */
static void family(struct outbuf *o, int om, const char *name, const char *type, const char *unit,
		   const char *help)
{
	size_t len = strlen(name);
	int strip = om && strcmp(type, "counter") == 0 && len > 6 && strcmp(name + len - 6, "_total") == 0;
	int n = (int)(strip ? len - 6 : len);

	out_printf(o, "# HELP %.*s %s\n# TYPE %.*s %s\n", n, name, help, n, name, type);
	if (om && unit)
		out_printf(o, "# UNIT %.*s %s\n", n, name, unit);
}

static void number(struct outbuf *o, double v)
{
	char buf[40];

	out_mem(o, buf, fmt_fixed(buf, v, 9));
	/* trailing zeros say nothing */
	while (o->len > 1 && o->data[o->len - 1] == '0' && o->data[o->len - 2] != '.')
		o->len--;
}

#define MARK "\xef\xbf\xbd" /* U+FFFD */

/* A label value in quotes that keeps every byte of s and tells any two names apart: backslash,
 * double quote and newline escaped as the format says; each byte of a control character (C0, DEL,
 * C1, a format control such as U+202E) or of what is not UTF-8 as U+FFFD and its two hex digits;
 * a U+FFFD of s as two. command: s is a command name,
 * which gets one more _ in front when it starts with one, so that none reads as METRICS_OTHER. */
static void label_value(struct outbuf *o, const char *s, int command)
{
	const unsigned char *u = (const unsigned char *)s;

	out_char(o, '"');
	if (command && u[0] == '_')
		out_char(o, '_');
	while (*u) {
		uint32_t cp;
		int n = *u >= 0x80 ? utf8_decode((const char *)u, &cp) : 1;

		if (*u == '\\' || *u == '"')
			out_printf(o, "\\%c", *u);
		else if (*u == '\n')
			out_str(o, "\\n");
		else if (n == 3 && memcmp(u, MARK, 3) == 0)
			out_str(o, MARK MARK);
		else if (n < 0 || *u < 0x20 || *u == 0x7f)
			out_printf(o, MARK "%02X", (unsigned)*u);
		else if (n > 1 && (cp < 0xa0 || format_control(cp)))
			for (int i = 0; i < n; i++) /* shown by its bytes: distinct, and inert */
				out_printf(o, MARK "%02X", (unsigned)u[i]);
		else
			out_mem(o, (const char *)u, (size_t)n);
		u += n > 0 ? n : 1;
	}
	out_char(o, '"');
}

/* After a cgroup's label, what its path names (cgident.h): unit, container_id, pod_uid, qos, each
 * only where known, and identity_uid, the user the cgroup is delegated to (who could have named
 * them all), only where there is one: `sum by (container_id, identity_uid)` keeps a container a
 * user named apart from the system's. Functions of the cgroup (the first of its path, the last of
 * its directories' owners): they add no series but when a cgroup is made again owned otherwise. */
static void ident_labels(struct outbuf *o, const char *path, uint32_t identity_uid)
{
	struct cgident id;
	const char *v[4];
	static const char *const names[4] = { "unit", "container_id", "pod_uid", "qos" };

	cgident_parse(path, &id);
	v[0] = id.unit;
	v[1] = id.container;
	v[2] = id.pod_uid;
	v[3] = id.qos;
	for (int i = 0; i < 4; i++)
		if (v[i] && v[i][0]) {
			out_printf(o, ",%s=", names[i]);
			label_value(o, v[i], 0);
		}
	if (identity_uid)
		out_printf(o, ",identity_uid=\"%u\"", identity_uid);
}

/* The labels inside the braces: label="value",kind="k" (either may be NULL); the value NULL
 * stands for METRICS_OTHER. A cgroup's label is followed by what its path names and by its
 * delegate, ident (0: none). */
static void labels(struct outbuf *o, const char *label, const char *value, uint32_t ident, const char *kind)
{
	if (label) {
		out_printf(o, "%s=", label);
		if (value == NULL) /* the others' sum */
			out_str(o, "\"" METRICS_OTHER "\"");
		else
			label_value(o, value, strcmp(label, "command") == 0);
		if (value && strcmp(label, "cgroup") == 0)
			ident_labels(o, value, ident);
	}
	if (kind)
		out_printf(o, "%skind=\"%s\"", label ? "," : "", kind);
}

/* name{labels} value (labels()); whole: an integer. */
static void sample(struct outbuf *o, const char *name, const char *label, const char *value, uint32_t ident,
		   const char *kind, double v, int whole)
{
	out_str(o, name);
	if (label || kind) {
		out_char(o, '{');
		labels(o, label, value, ident, kind);
		out_char(o, '}');
	}
	out_char(o, ' ');
	if (whole)
		out_printf(o, "%llu", (unsigned long long)v);
	else
		number(o, v);
	out_char(o, '\n');
}

/* The delay counters of one label value (NULL: METRICS_OTHER), a series a kind: seconds, or
 * waits; ident: the cgroup's delegate (identity_uid), 0 for none. */
static void delay_series(struct outbuf *o, const char *name, const char *label, const char *value,
			 uint32_t ident, const struct metrics_delays *d, int waits)
{
	for (int k = 0; k < DK_COUNT; k++) {
		kind_mask bit = (kind_mask)(1u << k);

		if (!((waits ? d->kinds_count : d->kinds) & bit))
			continue; /* never available: no series, not a 0 */
		if (waits)
			sample(o, name, label, value, ident, delay_kinds[k].key, (double)d->count[k], 1);
		else
			sample(o, name, label, value, ident, delay_kinds[k].key, d->ns[k] / 1e9, 0);
	}
}

static void cgroup_delays(const struct metrics *m, struct outbuf *o, const char *name, int waits)
{
	for (size_t i = 0; i < m->cgroups.n; i++)
		delay_series(o, name, "cgroup", m->cgroups.g[i].name, m->cgroups.g[i].identity_uid, &m->cgroups.g[i].d,
			     waits);
}

/* The series of the names holding a slot, then _other's. */
static void command_delays(const struct metrics *m, struct outbuf *o, const char *name, int waits)
{
	const struct cmdrank *c = &m->commands;

	for (size_t i = 0; i < c->n; i++)
		if (c->v[i]->slot)
			delay_series(o, name, "command", c->v[i]->name, 0, &c->v[i]->d, waits);
	delay_series(o, name, "command", NULL, 0, &c->other, waits);
}

static void delays(const struct metrics *m, struct outbuf *o, int om)
{
	family(o, om, "delaytop_cgroup_delay_seconds_total", "counter", "seconds",
	       "Time the tasks in a cgroup and below waited, by kind of delay, since delaytop started; "
	       "tasks that exited included.");
	cgroup_delays(m, o, "delaytop_cgroup_delay_seconds_total", 0);
	family(o, om, "delaytop_cgroup_delays_total", "counter", NULL,
	       "Waits of the tasks in a cgroup and below, by kind of delay, since delaytop started.");
	cgroup_delays(m, o, "delaytop_cgroup_delays_total", 1);
	family(o, om, "delaytop_command_delay_seconds_total", "counter", "seconds",
	       "Time the tasks of a command name waited, by kind of delay, since delaytop started, while "
	       "the name held one of the --top-commands series: the names that waited most lately hold "
	       "them, and a name takes another's only with over twice its delay of the last minutes "
	       "(each minute's counting half the next's); all other waits are summed as _other.");
	command_delays(m, o, "delaytop_command_delay_seconds_total", 0);
	family(o, om, "delaytop_command_delays_total", "counter", NULL,
	       "Waits of the tasks of a command name, by kind of delay, since delaytop started, while "
	       "the name held its series (see delaytop_command_delay_seconds_total).");
	command_delays(m, o, "delaytop_command_delays_total", 1);
}

#define WAIT_HIST "delaytop_cgroup_wait_seconds"

/* One cgroup's histogram of one kind: its buckets, cumulative, then the waits' sum and count
 * (which is the +Inf bucket's). */
static void wait_histogram(struct outbuf *o, const struct metrics_group *g, int kind)
{
	const struct waithist *h = &g->waits->h[kind];
	const char *key = lat_kind_key(kind);
	uint64_t cum[WAITHIST_BUCKETS];

	waithist_cumulative(h, cum);
	for (int b = 0; b < WAITHIST_BUCKETS; b++) {
		out_str(o, WAIT_HIST "_bucket{");
		labels(o, "cgroup", g->name, g->identity_uid, key);
		out_printf(o, ",le=\"%s\"} %llu\n", waithist_le(b), (unsigned long long)cum[b]);
	}
	sample(o, WAIT_HIST "_sum", "cgroup", g->name, g->identity_uid, key, h->sum_ns / 1e9, 0);
	sample(o, WAIT_HIST "_count", "cgroup", g->name, g->identity_uid, key, (double)cum[WAITHIST_BUCKETS - 1], 1);
}

/* --why: each cgroup's histograms, of the kinds its tasks waited on; none without --why. */
static void wait_histograms(const struct metrics *m, struct outbuf *o, int om)
{
	int done = 0;

	for (size_t i = 0; i < m->cgroups.n; i++) {
		const struct metrics_group *g = &m->cgroups.g[i];

		for (int k = 0; g->waits && k < LAT_KINDS; k++) {
			if (!(g->waits->kinds & (1u << k)))
				continue;
			if (!done++)
				family(o, om, WAIT_HIST, "histogram", "seconds",
				       "How long the tasks in a cgroup and below waited, each wait measured as it "
				       "ended by delaytop's eBPF programs (--why), since delaytop started, by kind: "
				       "cpu (run-queue latency: from a wakeup or preemption to running), io "
				       "(synchronous block I/O), the other delay kinds where the kernel lets them be "
				       "measured, and blocked (interruptible sleep: locks, futexes, the network, "
				       "timers), which is not a delay and is in no delay counter.");
			wait_histogram(o, g, k);
		}
	}
}

/* The stall counters of one resource: system-wide, then per cgroup. */
static void pressure(const struct metrics *m, struct outbuf *o, int om, int res, int full)
{
	char name[96], cgname[96], help[160];
	const char *what = full ? "stalled" : "waiting";
	const struct psi_line *line = full ? &m->system.res[res].full : &m->system.res[res].some;

	snprintf(name, sizeof(name), "delaytop_pressure_%s_%s_seconds_total", psi_name(res), what);
	snprintf(cgname, sizeof(cgname), "delaytop_cgroup_pressure_%s_%s_seconds_total", psi_name(res), what);
	if (m->have_system && m->system.res[res].present && line->present) {
		snprintf(help, sizeof(help), "Time %s tasks of the system were stalled on %s (PSI %s).",
			 full ? "all non-idle" : "some", psi_name(res), full ? "full" : "some");
		family(o, om, name, "counter", "seconds", help);
		sample(o, name, NULL, NULL, 0, NULL, line->total_us / 1e6, 0);
	}
	snprintf(help, sizeof(help), "Time %s tasks of a cgroup were stalled on %s (its PSI %s).",
		 full ? "all non-idle" : "some", psi_name(res), full ? "full" : "some");
	for (size_t i = 0, done = 0; i < m->npsi; i++) {
		const struct metrics_psi *p = &m->psi[i];

		if (!(full ? p->full[res] : p->some[res]))
			continue;
		if (!done++)
			family(o, om, cgname, "counter", "seconds", help);
		sample(o, cgname, "cgroup", p->cgroup, p->identity_uid, NULL,
		       (full ? p->full_us[res] : p->some_us[res]) / 1e6, 0);
	}
}

static void health(const struct metrics *m, struct outbuf *o, int om)
{
	family(o, om, "delaytop_readings_total", "counter", NULL, "Readings delaytop took.");
	sample(o, "delaytop_readings_total", NULL, NULL, 0, NULL, (double)m->readings, 1);
	family(o, om, "delaytop_reading_duration_seconds", "gauge", "seconds", "How long the last reading took.");
	sample(o, "delaytop_reading_duration_seconds", NULL, NULL, 0, NULL, m->reading_s, 0);
	if (m->listening) {
		family(o, om, "delaytop_exit_records_total", "counter", NULL, "Exit records of tasks received.");
		sample(o, "delaytop_exit_records_total", NULL, NULL, 0, NULL, (double)m->exits, 1);
		family(o, om, "delaytop_exit_records_lost_total", "counter", NULL,
		       "Exit records the kernel dropped or delaytop had no room for: their tasks are missing.");
		sample(o, "delaytop_exit_records_lost_total", NULL, NULL, 0, NULL, (double)m->exits_lost, 1);
	}
	if (m->delayacct >= 0) {
		family(o, om, "delaytop_delay_accounting_enabled", "gauge", NULL,
		       "1 when kernel.task_delayacct is on; when 0 only CPU delay is counted.");
		sample(o, "delaytop_delay_accounting_enabled", NULL, NULL, 0, NULL, m->delayacct, 1);
	}
	family(o, om, "delaytop_privileged", "gauge", NULL,
	       "1 with CAP_NET_ADMIN (every kind, exits seen); 0 limited to CPU and I/O delay from /proc.");
	sample(o, "delaytop_privileged", NULL, NULL, 0, NULL, !m->limited, 1);
	family(o, om, "delaytop_processes", "gauge", NULL, "Processes on the system at the last reading.");
	sample(o, "delaytop_processes", NULL, NULL, 0, NULL, m->procs, 1);
	family(o, om, "delaytop_threads", "gauge", NULL, "Threads on the system at the last reading.");
	sample(o, "delaytop_threads", NULL, NULL, 0, NULL, m->threads, 1);
}

void metrics_format(const struct metrics *m, struct outbuf *o, int openmetrics)
{
	delays(m, o, openmetrics);
	wait_histograms(m, o, openmetrics);
	for (int res = 0; res < PSI_COUNT; res++) {
		pressure(m, o, openmetrics, res, 0);
		pressure(m, o, openmetrics, res, 1);
	}
	health(m, o, openmetrics);
	if (openmetrics)
		out_str(o, "# EOF\n");
}
