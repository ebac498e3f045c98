/* recdecode.c — a record read back into a reading: the differences applied to what this reader
 * predicts, and the snapshot made from it. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "acctstate.h"
#include "i18n.h"
#include "recdecode.h"
#include "xalloc.h"

/* The slots and string ids any file may name, and the more a file of n bytes may: sparse slots
 * (a --capture key reading keeps the slots its tasks had) cost memory that no data pays for, so
 * a slot far above the rest needs a file that could have held that many tasks. */
#define BASE_TASKS 65536u
#define BASE_CGROUPS 16384u
#define BASE_STRINGS 262144u
#define MAX_STRING_ID (1u << 24)

/* Our task fields that no field of the file maps to (a file older than them). */
static void find_absent(struct rec_decoder *d)
{
	size_t n, nfile = d->schema->nfields[RO_TASK];
	const struct rec_field *ours = rec_fields(RO_TASK, &n);

	d->absent = xcalloc(n ? n : 1, sizeof(*d->absent));
	for (size_t i = 0; i < n; i++) {
		size_t f = 0;

		while (f < nfile && d->schema->map[RO_TASK][f] != (int)i)
			f++;
		if (f == nfile)
			d->absent[d->nabsent++] = &ours[i];
	}
}

void rec_decoder_init(struct rec_decoder *d, const struct rec_schema *schema)
{
	memset(d, 0, sizeof(*d));
	rec_state_init(&d->st);
	d->schema = schema;
	find_absent(d);
	d->max_tasks = d->max_cgroups = REC_MAX_SLOTS;
	d->max_strings = MAX_STRING_ID;
}

static size_t bounded(uint64_t base, uint64_t more, uint64_t max)
{
	return (size_t)(more > max - base ? max : base + more);
}

void rec_decoder_bound(struct rec_decoder *d, uint64_t file_bytes)
{
	d->max_tasks = bounded(BASE_TASKS, file_bytes / 2, REC_MAX_SLOTS);
	d->max_cgroups = bounded(BASE_CGROUPS, file_bytes / 8, REC_MAX_SLOTS);
	d->max_strings = bounded(BASE_STRINGS, file_bytes / 2, MAX_STRING_ID);
}

void rec_decoder_free(struct rec_decoder *d)
{
	rec_state_free(&d->st);
	free(d->rows);
	free(d->rates);
	free(d->still);
	free(d->facts);
	free(d->absent);
	cgtree_free(&d->tree);
	memset(d, 0, sizeof(*d));
}

/* Where a record is read: its next byte, its end, and whether it was found malformed. */
struct cursor {
	const uint8_t *p, *end;
	int bad;
	const char *field; /* the field whose value is out of range, or NULL */
};

static uint64_t get_uint(struct cursor *r)
{
	uint64_t v = 0;

	if (!r->bad && rec_get_uint(&r->p, r->end, &v) < 0)
		r->bad = 1;
	return r->bad ? 0 : v;
}

static int64_t get_int(struct cursor *r)
{
	int64_t v = 0;

	if (!r->bad && rec_get_int(&r->p, r->end, &v) < 0)
		r->bad = 1;
	return r->bad ? 0 : v;
}

static uint64_t map_bits(const int *map, uint64_t v)
{
	uint64_t out = 0;

	for (int b = 0; b < 16; b++)
		if ((v >> b) & 1 && map[b] >= 0)
			out |= 1ull << map[b];
	return out;
}

/* Applies one object's pairs to target (predicted): before the first field of each phase but the
 * first (and at the end for those with none), predict(target) from the phases before. */
static void get_object(struct rec_decoder *d, struct cursor *r, int obj, void *target, rec_phase_fn *predict, void *arg)
{
	size_t nf, count = get_uint(r), index = 0;
	const struct rec_field *f = rec_fields(obj, &nf);
	const struct rec_schema *s = d->schema;
	int phase = 1;

	for (size_t k = 0; k < count && !r->bad; k++) {
		size_t at = index + get_uint(r);
		int ours = at < s->nfields[obj] ? s->map[obj][at] : -1;
		const struct rec_field *mine = ours >= 0 ? &f[ours] : NULL;

		if (at >= s->nfields[obj]) {
			r->bad = 1;
			break;
		}
		while (phase < s->phases[obj][at] && phase < REC_PHASES) {
			if (predict)
				predict(target, arg, phase + 1);
			phase++;
		}
		switch (s->types[obj][at]) {
		case RF_KINDS:
		case RF_ACCTS: {
			uint64_t x = get_uint(r);

			if (mine)
				rec_set(mine, target, rec_get(mine, target) ^
							       map_bits(mine->type == RF_KINDS ? s->kind_map : s->acct_map, x));
			break;
		}
		case RF_US: {
			uint64_t v = get_uint(r), z = v >> 1;
			int64_t diff = (int64_t)((z >> 1) ^ (~(z & 1) + 1));

			if (mine)
				rec_set(mine, target, rec_get(mine, target) + (v & 1 ? (uint64_t)diff : (uint64_t)diff * 1000u));
			break;
		}
		case RF_NUM: {
			int64_t diff = get_int(r);

			if (mine)
				rec_set(mine, target, rec_get(mine, target) + (uint64_t)diff);
			break;
		}
		default:
			get_uint(r); /* a field of a type this delaytop does not know */
		}
		index = at + 1;
	}
	while (phase < REC_PHASES) {
		if (predict)
			predict(target, arg, phase + 1);
		phase++;
	}
}

/* A count of things that take a byte at least each: more than the bytes left is damage. */
static size_t get_count(struct cursor *r)
{
	uint64_t n = get_uint(r);

	if (n <= (uint64_t)(r->end - r->p))
		return (size_t)n;
	r->bad = 1;
	return 0;
}

/* ---- the values a front end may be given ---- */

static void out_of_range(struct cursor *r, const char *field)
{
	if (field && !r->bad) {
		r->bad = 1;
		r->field = field;
	}
}

static int flag(uint64_t v)
{
	return v <= 1;
}

/* A pressure share: a percent, or NaN for none. */
static int share(uint64_t bits)
{
	double v;

	memcpy(&v, &bits, 8);
	return isnan(v) || (v >= 0 && v <= 100);
}

/* The name of the first field of a pressure reading out of range, or NULL. */
static const char *bad_psi(const struct rec_psi *p)
{
	for (int r = 0; r < PSI_COUNT; r++) {
		if (!flag(p->present[r]))
			return "psi.present";
		for (int l = 0; l < 2; l++) {
			if (!flag(p->line[r][l]))
				return "psi.line";
			if (!share(p->pct[r][l]))
				return "psi.share";
		}
	}
	return NULL;
}

/* A yes/no field by name: the first of n that is neither names the damage, else NULL. */
struct flag_field {
	const char *name;
	uint64_t v;
};

static const char *bad_flag(const struct flag_field *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!flag(f[i].v))
			return f[i].name;
	return NULL;
}

#define BAD_FLAG(...) bad_flag((const struct flag_field[]){ __VA_ARGS__ }, \
			       sizeof((const struct flag_field[]){ __VA_ARGS__ }) / sizeof(struct flag_field))

/* The first header fact (headfield.h) whose value fails its check, else the pressure's damage, or
 * NULL. */
static const char *bad_head(const struct rec_head *h)
{
#define HEAD_FIELD_CHECK(member, type, snap, conv, check) \
	if (!check(h->member)) \
		return #member;
	HEAD_FIELDS(HEAD_FIELD_CHECK)
#undef HEAD_FIELD_CHECK
	return bad_psi(&h->psi);
}

/* The first row field (rowfield.h) whose value fails its check, or NULL. */
static const char *bad_row_field(const struct rec_task *t)
{
#define ROW_FIELD_CHECK(member, type, dims, record, check, none, show, from) \
	if (!check(t->member)) \
		return #member;
	ROW_FIELDS(ROW_FIELD_CHECK)
#undef ROW_FIELD_CHECK
	return NULL;
}

static const char *bad_task(const struct rec_task *t)
{
	const char *bad = bad_row_field(t);

	if (!bad)
		bad = BAD_FLAG({ "have_run", (uint64_t)t->last.have_run }, { "have_run", (uint64_t)t->base.have_run });
	if (bad)
		return bad;
	for (int k = 0; k < DK_COUNT; k++)
		if ((int64_t)t->peak.max_at_ns[k] < 0 || (int64_t)t->acc.max_at_ns[k] < 0)
			return "max_at";
	return NULL;
}

static const char *bad_cgroup(const struct rec_cgroup *c)
{
	const char *bad = BAD_FLAG({ "have_states", (uint64_t)c->have_states }, { "busy", (uint64_t)c->busy });

	return bad ? bad : bad_psi(&c->psi);
}

static void read_strings(struct rec_decoder *d, struct cursor *r)
{
	size_t n = get_count(r);

	for (size_t k = 0; k < n && !r->bad; k++) {
		uint64_t id = get_uint(r), len = get_uint(r);

		if (r->bad || id == 0 || id > d->max_strings || len > (size_t)(r->end - r->p)) {
			r->bad = 1;
			return;
		}
		rec_state_set_string(&d->st, id, (const char *)r->p, len);
		r->p += len;
	}
}

static void read_gone(struct cursor *r, uint8_t *live, size_t nslots)
{
	size_t n = get_count(r);
	uint64_t h = 0;

	for (size_t k = 0; k < n && !r->bad; k++) {
		h += get_uint(r);
		if (h >= nslots)
			r->bad = 1;
		else
			live[h] = 0;
	}
}

/* Sets done[i] (done grows as the slots do: they may be sparse). */
static uint8_t *mark(uint8_t *done, size_t *cap, size_t i)
{
	size_t was = *cap;

	done = xgrow(done, cap, i + 1, 1);
	memset(done + was, 0, *cap - was);
	done[i] = 1;
	return done;
}

static struct task_rates *rates_of(struct rec_decoder *d)
{
	d->rates = xgrow(d->rates, &d->caprates, d->st.ntasks ? d->st.ntasks : 1, sizeof(*d->rates));
	return d->rates;
}

/* Whether a task's counters did not move from its reading before to its last one, and its
 * longest waits show whatever its age: then the rates of its next such reading are the same, and
 * its totals do not grow (a replay of a long recording skips most of its work so). */
static int unmoved(const struct rec_task *t)
{
	const struct sample *a = &t->base, *b = &t->last;
	const struct acct_sample *aa = &t->acct.base, *ab = &t->acct.last;

	if (t->departed || t->fresh || a->threads != b->threads || a->kind_total != b->kind_total ||
	    a->kind_count != b->kind_count || a->have_run != b->have_run || a->run_ns != b->run_ns ||
	    aa->acct_have != ab->acct_have || memcmp(a->count, b->count, sizeof(a->count)) != 0 ||
	    memcmp(a->total, b->total, sizeof(a->total)) != 0 || memcmp(aa->acct, ab->acct, sizeof(aa->acct)) != 0)
		return 0;
	for (int k = 0; k < DK_COUNT; k++)
		if ((t->peak.kinds & (1u << k)) && b->age_ns && t->peak.max[k] > b->age_ns)
			return 0; /* hidden now, shown once the task is older */
	return 1;
}

/* rec_predict_task for a task whose reading before is its last one but for the time (unmoved):
 * only the times change. */
static void still_on(struct rec_task *t, uint64_t dmono)
{
	dmono = sample_unit(dmono);
	t->base.when_ns = t->last.when_ns;
	t->base.age_ns = t->last.age_ns;
	t->last.when_ns += dmono;
	if (t->last.age_ns)
		t->last.age_ns += dmono;
	t->fresh = 0;
}

static void read_tasks(struct rec_decoder *d, struct cursor *r, uint64_t dmono)
{
	struct rec_task_phase tp = { dmono, NULL };
	size_t n;
	uint64_t h = 0;
	uint8_t *done;
	size_t capdone;

	read_gone(r, d->st.live, d->st.ntasks);
	for (size_t i = 0; i < d->st.ntasks; i++) {
		if (!d->st.live[i])
			continue;
		if (i < d->capstill && d->still[i])
			still_on(&d->st.tasks[i], dmono);
		else
			rec_predict_task(&d->st.tasks[i], dmono);
	}
	n = get_count(r);
	d->listed = n;
	done = xcalloc(d->st.ntasks + 1, 1);
	capdone = d->st.ntasks + 1;
	for (size_t k = 0; k < n && !r->bad; k++) {
		h += get_uint(r);
		if (h >= d->max_tasks) { /* slots may be sparse (a key reading of a state), not endless */
			r->bad = 1;
			break;
		}
		rec_state_task_slot(&d->st, h);
		if (!d->st.live[h]) {
			memset(&d->st.tasks[h], 0, sizeof(d->st.tasks[h]));
			d->st.live[h] = 1;
		}
		tp.rates = &rates_of(d)[h]; /* made as the totals are predicted */
		get_object(d, r, RO_TASK, &d->st.tasks[h], rec_phase_task, &tp);
		out_of_range(r, bad_task(&d->st.tasks[h]));
		done = mark(done, &capdone, h);
	}
	rates_of(d);
	if (d->st.ntasks > d->capstill) {
		size_t old = d->capstill;

		d->still = xgrow(d->still, &d->capstill, d->st.ntasks, 1);
		memset(d->still + old, 0, d->capstill - old);
	}
	for (size_t i = 0; i < d->st.ntasks; i++) { /* the tasks not listed: predicted whole */
		if (!d->st.live[i] || done[i]) {
			d->still[i] = 0;
			continue;
		}
		if (d->still[i] && sample_unit(dmono) > 0)
			continue; /* the same rates as before, nothing to add */
		rec_predict_totals(&d->st.tasks[i], &d->rates[i]);
		d->still[i] = sample_unit(dmono) > 0 && unmoved(&d->st.tasks[i]);
	}
	free(done);
}

static void read_cgroups(struct rec_decoder *d, struct cursor *r, uint64_t dmono)
{
	size_t n;
	uint64_t h = 0;
	uint8_t *done;
	size_t capdone;

	read_gone(r, d->st.cglive, d->st.ncgs);
	for (size_t i = 0; i < d->st.ncgs; i++)
		if (d->st.cglive[i])
			rec_predict_psi(&d->st.cgs[i].psi, dmono);
	n = get_count(r);
	done = xcalloc(d->st.ncgs + 1, 1);
	capdone = d->st.ncgs + 1;
	for (size_t k = 0; k < n && !r->bad; k++) {
		struct rec_cgroup old;

		h += get_uint(r);
		if (h >= d->max_cgroups) {
			r->bad = 1;
			break;
		}
		rec_state_cg_slot(&d->st, h);
		if (!d->st.cglive[h]) {
			memset(&d->st.cgs[h], 0, sizeof(d->st.cgs[h]));
			d->st.cglive[h] = 1;
		}
		old = d->st.cgs[h];
		old.psi.when_ns -= dmono; /* the reading before, as it was */
		get_object(d, r, RO_CGROUP, &d->st.cgs[h], rec_phase_shares, &old.psi);
		out_of_range(r, bad_cgroup(&d->st.cgs[h]));
		done = mark(done, &capdone, h);
	}
	/* an unchanged cgroup's shares follow from unchanged totals */
	for (size_t i = 0; i < d->st.ncgs; i++)
		if (d->st.cglive[i] && !done[i]) {
			struct rec_psi before = d->st.cgs[i].psi;

			before.when_ns -= dmono;
			rec_predict_shares(&d->st.cgs[i].psi, &before);
		}
	free(done);
}

static long damaged(char *err, size_t errlen, const char *why)
{
	snprintf(err, errlen, "%s", why);
	return -1;
}

/* A record's frame at p[0..n): its type, payload (*payload, *len) and whole size (returned,
 * > 0), its checksum checked when check; 0 when the bytes end before it does; -1 at damage. */
static long frame(const uint8_t *p, size_t n, int check, const uint8_t **payload, uint64_t *len, char *err,
		  size_t errlen)
{
	const uint8_t *q = p + 1, *end = p + n;
	uint64_t crc;

	if (n < 1)
		return 0;
	if (p[0] != REC_KEY && p[0] != REC_SAMPLE)
		return damaged(err, errlen, _("unknown record type"));
	if (rec_get_uint(&q, end, len) < 0)
		return n > 11 ? damaged(err, errlen, _("bad record length")) : 0;
	if (*len > (1ull << 32))
		return damaged(err, errlen, _("bad record length"));
	if ((size_t)(end - q) < *len + 4)
		return 0;
	crc = (uint64_t)q[*len] | (uint64_t)q[*len + 1] << 8 | (uint64_t)q[*len + 2] << 16 |
	      (uint64_t)q[*len + 3] << 24;
	if (check && rec_crc32(rec_crc32(0, p, 1), q, *len) != crc)
		return damaged(err, errlen, _("checksum mismatch"));
	*payload = q;
	return (long)(q - p + *len + 4);
}

/* The record's head into d->st.head (the head before it into *old); 0, or -1 when the record has
 * no key reading before it (*type then 0). */
static int start_record(struct rec_decoder *d, const uint8_t *p, int *type, struct cursor *r, const uint8_t *q,
			uint64_t len, struct rec_head *old)
{
	*type = p[0];
	if (p[0] == REC_KEY) {
		rec_state_clear(&d->st);
		d->samples = 0;
	} else if (!d->st.have_head) {
		*type = 0; /* no key reading before it: it cannot be read */
		return -1;
	}
	*r = (struct cursor){ q, q + len, 0, NULL };
	*old = d->st.head;
	get_object(d, r, RO_HEAD, &d->st.head, rec_phase_head, &old->psi);
	out_of_range(r, bad_head(&d->st.head));
	d->st.have_head = 1;
	return 0;
}

/* The message for a record found malformed; -1. */
static long malformed(struct rec_decoder *d, const struct cursor *r, char *err, size_t errlen)
{
	rec_state_clear(&d->st); /* what it left is no reading: nothing of it is shown, and the
				    records after it are skipped */
	if (!r->field)
		return damaged(err, errlen, _("malformed record"));
	snprintf(err, errlen, F_(N_("malformed record: %s out of range")), r->field);
	return -1;
}

long rec_decode(struct rec_decoder *d, const uint8_t *p, size_t n, int *type, char *err, size_t errlen)
{
	const uint8_t *q = NULL;
	uint64_t len = 0;
	struct cursor r;
	struct rec_head old;
	uint64_t dmono;
	long size = frame(p, n, 1, &q, &len, err, errlen);

	if (size <= 0)
		return size;
	if (start_record(d, p, type, &r, q, len, &old) < 0)
		return size;
	dmono = rec_head_dmono(&old, &d->st.head);
	read_strings(d, &r);
	read_tasks(d, &r, dmono);
	read_cgroups(d, &r, dmono);
	if (r.bad)
		return malformed(d, &r, err, errlen);
	rec_lat_clear(&d->st.lat); /* none: --why off at that reading, or a file before 1.3 */
	if (r.p < r.end && rec_lat_get(&d->st.lat, &r.p, r.end, d->schema->wait_map, d->max_tasks) < 0)
		return malformed(d, &r, err, errlen); /* the waits' section (1.3 on) */
	d->samples++;
	return size;
}

long rec_decode_head(struct rec_decoder *d, const uint8_t *p, size_t n, int *type, char *err, size_t errlen)
{
	const uint8_t *q = NULL;
	uint64_t len = 0;
	struct cursor r;
	struct rec_head old;
	long size = frame(p, n, 0, &q, &len, err, errlen);

	if (size <= 0)
		return size;
	if (start_record(d, p, type, &r, q, len, &old) < 0)
		return size;
	if (r.bad)
		return malformed(d, &r, err, errlen);
	return size;
}

int64_t rec_decoder_wall(const struct rec_decoder *d)
{
	return d->st.head.wall_ns;
}

static const char *str_of(const struct rec_decoder *d, uint32_t id, const char *none)
{
	return id && id < d->st.nstrs && d->st.strs[id] ? d->st.strs[id] : none;
}

static void task_row(const struct rec_decoder *d, struct row *row, struct rec_task *t, const struct task_rates *r)
{
	for (size_t i = 0; i < d->nabsent; i++) /* fields the file is older than */
		rec_set(d->absent[i], t, d->absent[i]->none);
	row->fields = t->fields; /* every member is set here: no memset of the whole row first */
#define ROW_STRING_OF(member, none) row->member = str_of(d, t->str[ROWSTR_##member], none);
	ROW_STRINGS(ROW_STRING_OF)
#undef ROW_STRING_OF
	row->parent = -1;
	row->cg = NULL;
	row->r = *r;
	row->acc = &t->acc;
	row->last = t->departed ? NULL : &t->last;
	row->acct = t->departed ? NULL : &t->acct;
	row->peak = t->departed ? NULL : &t->peak;
	row->base = t->departed || t->fresh ? NULL : &t->base;
	row->lat = NULL; /* a recording keeps no waits of --why */
	row->stacks = NULL; /* nor stacks: the screen's copy of a replay reads them */
	row->still = 0;
	row->procs = 0;
}

static int facts_by_path(const void *a, const void *b)
{
	return strcmp(((const struct cgroup_facts *)a)->path, ((const struct cgroup_facts *)b)->path);
}

static void build_cgroups(struct rec_decoder *d, struct snapshot *snap)
{
	size_t n = 0;

	d->facts = xgrow(d->facts, &d->capfacts, d->st.ncgs ? d->st.ncgs : 1, sizeof(*d->facts));
	for (size_t i = 0; i < d->st.ncgs; i++) {
		const struct rec_cgroup *c = &d->st.cgs[i];
		struct cgroup_facts *f = &d->facts[n];

		if (!d->st.cglive[i] || !str_of(d, c->path, NULL))
			continue;
		memset(f, 0, sizeof(*f));
		f->path = (char *)str_of(d, c->path, NULL);
		rec_psi_to(&c->psi, &f->psi);
		for (int s = 0; s < CG_STATES; s++)
			f->states[s] = c->states[s];
		f->have_states = c->have_states;
		f->busy = c->busy;
		f->identity_uid = c->identity_uid;
		n++;
	}
	qsort(d->facts, n, sizeof(*d->facts), facts_by_path);
	snap->cgroups = 1;
	snap->cgroup_source = d->st.head.states_from_tasks ? "tasks" : "cgroupstats";
	if (!n)
		return;
	snap->ncgroup_rows = cgtree_build(&d->tree, d->facts, n, snap->rows, snap->nrows, d->st.head.states_from_tasks);
	snap->cgroup_rows = d->tree.rows;
	if (snap->why.state == WHY_ON) /* as the sampler sums them */
		cgtree_sum_latency(&d->tree, snap->rows, snap->nrows);
}

void rec_decoder_snapshot(struct rec_decoder *d, struct snapshot *snap)
{
	const struct rec_head *h = &d->st.head;
	size_t n = 0;

	memset(snap, 0, sizeof(*snap));
#define HEAD_FIELD_GET(member, type, smember, conv, check) conv##_GET(h, snap, member, smember)
	HEAD_FIELDS(HEAD_FIELD_GET)
#undef HEAD_FIELD_GET
	rec_psi_to(&h->psi, &snap->psi);
	snap->events = str_of(d, h->events, NULL);
	d->rows = xgrow(d->rows, &d->caprows, d->st.ntasks ? d->st.ntasks : 1, sizeof(*d->rows));
	rates_of(d);
	for (size_t i = 0; i < d->st.ntasks; i++)
		if (d->st.live[i]) {
			task_row(d, &d->rows[n], &d->st.tasks[i], &d->rates[i]);
			d->rows[n++].lat = rec_lat_of(&d->st.lat, i);
		}
	snap->why = d->st.lat.why;
	snap->rows = d->rows;
	snap->nrows = n;
	if (h->cgroups)
		build_cgroups(d, snap);
}

