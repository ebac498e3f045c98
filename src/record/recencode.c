/* recencode.c — a reading as a record: what differs from what a reader predicts. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cgtree.h"
#include "recencode.h"
#include "xalloc.h"

/* A difference of a microsecond field: in microseconds when it is whole ones (the low bit 0),
 * else in nanoseconds (1). */
static void put_us(struct outbuf *o, int64_t d)
{
	uint64_t z;

	if (d % 1000 == 0) {
		d /= 1000;
		z = ((uint64_t)d << 1) ^ (uint64_t)(d >> 63);
		rec_put_uint(o, z << 1);
	} else {
		z = ((uint64_t)d << 1) ^ (uint64_t)(d >> 63);
		rec_put_uint(o, z << 1 | 1);
	}
}

/* The fields of phase where truth differs from pred, as (gap, difference) pairs. Returns how
 * many. */
static size_t put_pairs(struct outbuf *o, int obj, int phase, const void *pred, const void *truth, size_t *last)
{
	size_t n, count = 0;
	const struct rec_field *f = rec_fields(obj, &n);

	for (size_t i = 0; i < n; i++) {
		uint64_t a, b;

		if (f[i].phase != phase)
			continue;
		a = rec_get(&f[i], pred);
		b = rec_get(&f[i], truth);
		if (a == b)
			continue;
		rec_put_uint(o, i - *last);
		if (rec_field_is_set(&f[i]))
			rec_put_uint(o, a ^ b);
		else if (f[i].type == RF_US)
			put_us(o, (int64_t)(b - a));
		else
			rec_put_int(o, (int64_t)(b - a));
		*last = i + 1;
		count++;
	}
	return count;
}

/* One object's differences: count, then pairs, phase after phase (the count is written first, so
 * the pairs are made in a scratch buffer); before each phase but the first, predict(pred) from
 * the phases before, as a reader does. pred becomes truth. */
static void put_object(struct outbuf *o, int obj, void *pred, const void *truth, size_t objsize, rec_phase_fn *predict,
		       void *arg)
{
	struct outbuf pairs = { 0 };
	size_t last = 0, count = 0, n;
	const struct rec_field *f = rec_fields(obj, &n);

	for (int phase = 1; phase <= REC_PHASES; phase++) {
		if (phase > 1 && predict)
			predict(pred, arg, phase);
		count += put_pairs(&pairs, obj, phase, pred, truth, &last);
		for (size_t i = 0; i < n; i++)
			if (f[i].phase == phase)
				rec_set(&f[i], pred, rec_get(&f[i], truth));
	}
	memcpy(pred, truth, objsize);
	rec_put_uint(o, count);
	out_mem(o, pairs.data, pairs.len);
	out_free(&pairs);
}

void rec_encoder_init(struct rec_encoder *e)
{
	memset(e, 0, sizeof(*e));
	rec_state_init(&e->st);
	idmap_init(&e->by_id);
	idmap_init(&e->cg_by_path);
}

static void strmap_clear(struct rec_strmap *m)
{
	if (m->ids)
		memset(m->ids, 0, m->cap * sizeof(*m->ids));
	m->len = 0;
}

static void encoder_forget(struct rec_encoder *e)
{
	rec_state_clear(&e->st);
	idmap_free(&e->by_id);
	idmap_init(&e->by_id);
	idmap_free(&e->cg_by_path);
	idmap_init(&e->cg_by_path);
	strmap_clear(&e->strmap);
}

void rec_encoder_free(struct rec_encoder *e)
{
	rec_state_free(&e->st);
	idmap_free(&e->by_id);
	idmap_free(&e->cg_by_path);
	free(e->chain);
	free(e->seen);
	free(e->cgseen);
	free(e->strmap.ids);
	out_free(&e->body);
	memset(e, 0, sizeof(*e));
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static void strmap_grow(struct rec_encoder *e)
{
	struct rec_strmap *m = &e->strmap;
	size_t cap = m->cap ? m->cap * 2 : 256;
	uint32_t *ids = xcalloc(cap, sizeof(*ids));

	for (size_t i = 0; i < m->cap; i++) {
		size_t j;

		if (!m->ids[i])
			continue;
		for (j = str_hash(e->st.strs[m->ids[i]]) & (cap - 1); ids[j]; j = (j + 1) & (cap - 1))
			;
		ids[j] = m->ids[i];
	}
	free(m->ids);
	m->ids = ids;
	m->cap = cap;
}

/* The id of string s (0 for NULL), defined in defs when new. */
static uint32_t intern(struct rec_encoder *e, const char *s, struct outbuf *defs, size_t *ndefs)
{
	struct rec_strmap *m = &e->strmap;
	size_t j, len;

	if (!s)
		return 0;
	if ((m->len + 1) * 2 > m->cap)
		strmap_grow(e);
	for (j = str_hash(s) & (m->cap - 1); m->ids[j]; j = (j + 1) & (m->cap - 1))
		if (strcmp(e->st.strs[m->ids[j]], s) == 0)
			return m->ids[j];
	len = strlen(s);
	m->ids[j] = (uint32_t)(e->st.nstrs ? e->st.nstrs : 1);
	rec_state_set_string(&e->st, m->ids[j], s, len);
	m->len++;
	rec_put_uint(defs, m->ids[j]);
	rec_put_uint(defs, len);
	out_mem(defs, s, len);
	(*ndefs)++;
	return m->ids[j];
}

static void grow_meta(struct rec_encoder *e, size_t need)
{
	size_t cap = e->capmeta;

	if (need <= cap)
		return;
	e->chain = xgrow(e->chain, &cap, need, sizeof(*e->chain));
	cap = e->capmeta;
	e->seen = xgrow(e->seen, &cap, need, sizeof(*e->seen));
	memset(&e->chain[e->capmeta], 0, (cap - e->capmeta) * sizeof(*e->chain));
	memset(&e->seen[e->capmeta], 0, (cap - e->capmeta) * sizeof(*e->seen));
	e->capmeta = cap;
}

static uint32_t row_key(const struct row *r)
{
	return (r->tid ? r->tid : r->pid) + 1;
}

/* The slot of row r: the one that had it at the last reading, or a new one (free slots are
 * reused). *isnew tells which. */
static size_t find_task(struct rec_encoder *e, const struct row *r, int *isnew)
{
	uint32_t key = row_key(r);
	uintptr_t first = (uintptr_t)idmap_get(&e->by_id, key);
	size_t i;

	for (uintptr_t s = first; s; s = e->chain[s - 1]) {
		const struct rec_task *t = &e->st.tasks[s - 1];

		if (e->seen[s - 1] != e->nsample && t->pid == r->pid && t->tid == r->tid &&
		    t->start_ns == r->start_ns && t->departed == r->departed) {
			*isnew = 0;
			return s - 1;
		}
	}
	for (i = 0; i < e->st.ntasks && e->st.live[i]; i++)
		;
	rec_state_task_slot(&e->st, i);
	grow_meta(e, e->st.ntasks);
	memset(&e->st.tasks[i], 0, sizeof(e->st.tasks[i]));
	e->st.live[i] = 1;
	e->chain[i] = (uint32_t)first;
	idmap_put(&e->by_id, key, (void *)(uintptr_t)(i + 1));
	*isnew = 1;
	return i;
}

/* Takes slot i out of its id's chain. */
static void unchain(struct rec_encoder *e, size_t i)
{
	const struct rec_task *t = &e->st.tasks[i];
	uint32_t key = (t->tid ? t->tid : t->pid) + 1;
	uintptr_t s = (uintptr_t)idmap_get(&e->by_id, key);

	if (s == i + 1) {
		if (e->chain[i])
			idmap_put(&e->by_id, key, (void *)(uintptr_t)e->chain[i]);
		else
			idmap_del(&e->by_id, key);
		return;
	}
	while (s && e->chain[s - 1] != i + 1)
		s = e->chain[s - 1];
	if (s)
		e->chain[s - 1] = e->chain[i];
}

static void task_truth(struct rec_encoder *e, struct rec_task *x, const struct rec_task *pred, const struct row *r,
		       struct outbuf *defs, size_t *ndefs)
{
	*x = *pred;
	x->fields = r->fields;
#define ROW_STRING_INTERN(member, none) x->str[ROWSTR_##member] = intern(e, r->member, defs, ndefs);
	ROW_STRINGS(ROW_STRING_INTERN)
#undef ROW_STRING_INTERN
	if (r->base && !r->fresh) {
		x->base = *r->base;
		x->acct.base = r->acct ? r->acct->base : (struct acct_sample){ 0 };
	}
	if (r->last) {
		x->last = *r->last;
		x->acct.last = r->acct ? r->acct->last : (struct acct_sample){ 0 };
	}
	if (r->peak)
		x->peak = *r->peak;
	if (r->acc)
		x->acc = *r->acc;
}

/* The header facts of snap as recorded (headfield.h); its events are interned by the caller. */
static void head_truth(struct rec_head *h, const struct snapshot *snap)
{
	memset(h, 0, sizeof(*h));
#define HEAD_FIELD_PUT(member, type, smember, conv, check) conv##_PUT(h, snap, member, smember)
	HEAD_FIELDS(HEAD_FIELD_PUT)
#undef HEAD_FIELD_PUT
	h->states_from_tasks = snap->cgroup_source && strcmp(snap->cgroup_source, "cgroupstats") != 0;
	rec_psi_from(&h->psi, &snap->psi);
}

/* A list of handles as ascending differences, after its count. */
static void put_handles(struct outbuf *o, const uint32_t *h, size_t n)
{
	uint32_t prev = 0;

	rec_put_uint(o, n);
	for (size_t i = 0; i < n; i++) {
		rec_put_uint(o, h[i] - prev);
		prev = h[i];
	}
}

struct encoding {
	struct outbuf head, defs, tasks, cgs;
	struct rec_lat lat; /* --why: the rows' waits by slot */
	struct rec_stk stk; /* --why: the stacks of the rows chosen, by slot */
	size_t ndefs, ntasks, ncgs;
	uint32_t *gone, *cggone;
	size_t ngone, capgone, ncggone, capcggone;
};

/* Whether truth is what pred predicts but for the times of its readings (when a reading was made
 * and how old the task was then). Such a task is not written: its counters did not move, so its
 * rates are 0 however long the interval, and a reader's prediction of its times stands until it
 * changes, when its base reading is written with the rest. pred then becomes what a reader
 * predicts. */
static int only_later(struct rec_task *pred, const struct rec_task *truth)
{
	struct rec_task t = *truth, p = *pred;
	size_t n;
	const struct rec_field *f = rec_fields(RO_TASK, &n);
	struct task_rates r;

	t.base = p.base;
	t.acct.base = p.acct.base;
	t.last.when_ns = p.last.when_ns;
	t.last.age_ns = p.last.age_ns;
	for (size_t i = 0; i < n; i++)
		if (f[i].phase < REC_PHASES && rec_get(&f[i], &p) != rec_get(&f[i], &t))
			return 0;
	rec_predict_totals(&p, &r);
	for (size_t i = 0; i < n; i++)
		if (f[i].phase == REC_PHASES && rec_get(&f[i], &p) != rec_get(&f[i], &t))
			return 0;
	*pred = p;
	return 1;
}

/* A task whose row is still (model.h) at the reading after the one before: what a reader predicts
 * of it is the truth but for the times of its readings, as only_later would find, so it is not
 * made and compared; the prediction goes on from it. */
static void still_task(struct rec_task *pred)
{
	struct task_rates r;

	rec_predict_totals(pred, &r);
}

/* Whether row r is one whose stacks the record keeps. */
static int stacks_kept(const struct rec_encoder *e, const struct row *r)
{
	for (size_t i = 0; i < e->nstack_rows; i++)
		if (e->stack_rows[i] == r)
			return 1;
	return 0;
}

void rec_encoder_keep_stacks(struct rec_encoder *e, const struct row *const *rows, size_t n)
{
	e->stack_rows = rows;
	e->nstack_rows = n;
}

/* Changed and new tasks, slot order; the slots not seen are gone. */
static void encode_tasks(struct rec_encoder *e, const struct snapshot *snap, uint64_t dmono, struct encoding *x)
{
	struct rec_task_phase tp = { dmono, NULL };
	size_t nslots, *order, norder = 0;
	uint8_t *changed;
	struct outbuf *bodies;

	grow_meta(e, e->st.ntasks + snap->nrows);
	for (size_t i = 0; i < e->st.ntasks; i++)
		if (e->st.live[i])
			rec_predict_task(&e->st.tasks[i], dmono);
	nslots = e->st.ntasks + snap->nrows;
	changed = xcalloc(nslots, 1);
	bodies = xcalloc(nslots, sizeof(*bodies));
	for (size_t r = 0; r < snap->nrows; r++) {
		int isnew;
		size_t i = find_task(e, &snap->rows[r], &isnew);
		struct rec_task truth;

		if (snap->rows[r].lat && x->lat.why.state == WHY_ON)
			rec_lat_add(&x->lat, (uint32_t)i, snap->rows[r].lat);
		if (x->stk.present && snap->rows[r].stacks && stacks_kept(e, &snap->rows[r]))
			rec_stk_add(&x->stk, (uint32_t)i, snap->rows[r].stacks);
		if (!isnew && snap->rows[r].still && e->seen[i] + 1 == e->nsample) {
			still_task(&e->st.tasks[i]); /* as only_later finds it */
			e->seen[i] = e->nsample;
			continue;
		}
		e->seen[i] = e->nsample;
		task_truth(e, &truth, &e->st.tasks[i], &snap->rows[r], &x->defs, &x->ndefs);
		if (isnew) {
			struct rec_task zero;

			memset(&zero, 0, sizeof(zero));
			e->st.tasks[i] = zero;
		}
		if (!isnew && only_later(&e->st.tasks[i], &truth))
			continue; /* a reader predicts it, but for the times of its readings */
		put_object(&bodies[i], RO_TASK, &e->st.tasks[i], &truth, sizeof(truth), rec_phase_task, &tp);
		changed[i] = isnew || bodies[i].len > 1;
	}
	for (size_t i = 0; i < e->st.ntasks; i++) {
		if (e->st.live[i] && e->seen[i] != e->nsample) {
			x->gone = xgrow(x->gone, &x->capgone, x->ngone + 1, sizeof(*x->gone));
			x->gone[x->ngone++] = (uint32_t)i;
			unchain(e, i);
			e->st.live[i] = 0;
		}
	}
	order = xmalloc(nslots * sizeof(*order));
	for (size_t i = 0; i < e->st.ntasks; i++)
		if (changed[i])
			order[norder++] = i;
	{
		uint32_t prev = 0;

		for (size_t k = 0; k < norder; k++) {
			rec_put_uint(&x->tasks, order[k] - prev);
			prev = (uint32_t)order[k];
			out_mem(&x->tasks, bodies[order[k]].data, bodies[order[k]].len);
		}
	}
	x->ntasks = norder;
	for (size_t i = 0; i < nslots; i++)
		out_free(&bodies[i]);
	free(bodies);
	free(changed);
	free(order);
}

static void cg_truth(struct rec_cgroup *c, const struct cgroup_facts *f, uint32_t path)
{
	memset(c, 0, sizeof(*c));
	c->path = path;
	for (int s = 0; s < CG_STATES; s++)
		c->states[s] = f->states[s];
	c->have_states = (uint8_t)f->have_states;
	c->busy = (uint8_t)f->busy;
	c->identity_uid = f->identity_uid;
	rec_psi_from(&c->psi, &f->psi);
}

static void encode_cgroups(struct rec_encoder *e, const struct snapshot *snap, uint64_t dmono, struct encoding *x)
{
	uint32_t prev = 0;
	size_t cap = e->capcgseen, nslots;
	struct outbuf *bodies;

	e->cgseen = xgrow(e->cgseen, &cap, e->st.ncgs + snap->ncgroup_rows + 1, sizeof(*e->cgseen));
	memset(&e->cgseen[e->capcgseen], 0, (cap - e->capcgseen) * sizeof(*e->cgseen));
	e->capcgseen = cap;
	for (size_t i = 0; i < e->st.ncgs; i++)
		if (e->st.cglive[i])
			rec_predict_psi(&e->st.cgs[i].psi, dmono);
	nslots = e->st.ncgs + snap->ncgroup_rows;
	bodies = xcalloc(nslots + 1, sizeof(*bodies));
	for (size_t r = 0; r < snap->ncgroup_rows; r++) {
		const struct cgroup_node *node = snap->cgroup_rows[r].cg;
		struct rec_cgroup truth, old;
		uint32_t path;
		uintptr_t s;

		if (!node || !node->facts)
			continue;
		path = intern(e, node->facts->path, &x->defs, &x->ndefs);
		s = (uintptr_t)idmap_get(&e->cg_by_path, path);
		if (s && e->cgseen[s - 1] == e->nsample)
			continue; /* a path twice: the first counts */
		if (!s) {
			size_t i;

			for (i = 0; i < e->st.ncgs && e->st.cglive[i]; i++)
				;
			rec_state_cg_slot(&e->st, i);
			memset(&e->st.cgs[i], 0, sizeof(e->st.cgs[i]));
			e->st.cglive[i] = 2; /* new: written even when all its fields are 0 */
			s = i + 1;
			idmap_put(&e->cg_by_path, path, (void *)s);
		}
		e->cgseen[s - 1] = e->nsample;
		old = e->st.cgs[s - 1];
		old.psi.when_ns -= dmono; /* the reading before, as it was */
		cg_truth(&truth, node->facts, path);
		put_object(&bodies[s - 1], RO_CGROUP, &e->st.cgs[s - 1], &truth, sizeof(truth), rec_phase_shares, &old.psi);
		if (bodies[s - 1].len <= 1 && e->st.cglive[s - 1] != 2)
			bodies[s - 1].len = 0;
		e->st.cglive[s - 1] = 1;
	}
	for (size_t i = 0; i < e->st.ncgs; i++) {
		if (e->st.cglive[i] && e->cgseen[i] != e->nsample) {
			x->cggone = xgrow(x->cggone, &x->capcggone, x->ncggone + 1, sizeof(*x->cggone));
			x->cggone[x->ncggone++] = (uint32_t)i;
			idmap_del(&e->cg_by_path, e->st.cgs[i].path);
			e->st.cglive[i] = 0;
		} else if (bodies[i].len) {
			rec_put_uint(&x->cgs, (uint32_t)i - prev);
			prev = (uint32_t)i;
			out_mem(&x->cgs, bodies[i].data, bodies[i].len);
			x->ncgs++;
		}
	}
	for (size_t i = 0; i < nslots + 1; i++)
		out_free(&bodies[i]);
	free(bodies);
}

static void put_record(struct outbuf *out, int type, const struct outbuf *body)
{
	unsigned char crc[4];
	char t = (char)type;
	uint32_t c = rec_crc32(rec_crc32(0, &t, 1), body->data, body->len);

	out_char(out, t);
	rec_put_uint(out, body->len);
	out_mem(out, body->data, body->len);
	for (int i = 0; i < 4; i++)
		crc[i] = (unsigned char)(c >> (8 * i));
	out_mem(out, (const char *)crc, 4);
}

static void assemble(struct outbuf *body, struct encoding *x)
{
	body->len = 0;
	out_mem(body, x->head.data, x->head.len);
	rec_put_uint(body, x->ndefs);
	out_mem(body, x->defs.data, x->defs.len);
	put_handles(body, x->gone, x->ngone);
	rec_put_uint(body, x->ntasks);
	out_mem(body, x->tasks.data, x->tasks.len);
	put_handles(body, x->cggone, x->ncggone);
	rec_put_uint(body, x->ncgs);
	out_mem(body, x->cgs.data, x->cgs.len);
	rec_lat_put(body, &x->lat);
	rec_stk_put(body, &x->stk); /* after the waits, which a reading with stacks has */
}

static void encoding_free(struct encoding *x)
{
	out_free(&x->head);
	out_free(&x->defs);
	out_free(&x->tasks);
	out_free(&x->cgs);
	rec_lat_free(&x->lat);
	rec_stk_free(&x->stk);
	free(x->gone);
	free(x->cggone);
}

void rec_encode(struct rec_encoder *e, const struct snapshot *snap, int key, struct outbuf *out)
{
	struct encoding x;
	struct rec_head truth, old;
	uint64_t dmono;

	memset(&x, 0, sizeof(x));
	if (key)
		encoder_forget(e);
	e->nsample++;
	head_truth(&truth, snap);
	truth.events = intern(e, snap->events, &x.defs, &x.ndefs);
	old = e->st.head;
	put_object(&x.head, RO_HEAD, &e->st.head, &truth, sizeof(truth), rec_phase_head, &old.psi);
	dmono = rec_head_dmono(&old, &truth);
	e->st.have_head = 1;
	rec_lat_set_header(&x.lat, &snap->why);
	if (snap->why.state == WHY_ON && snap->why.stacks)
		rec_stk_start(&x.stk, snap->why.stacks_lost);
	encode_tasks(e, snap, dmono, &x);
	e->stack_rows = NULL; /* for that record only */
	e->nstack_rows = 0;
	encode_cgroups(e, snap, dmono, &x);
	assemble(&e->body, &x);
	put_record(out, key ? REC_KEY : REC_SAMPLE, &e->body);
	encoding_free(&x);
}

void rec_encode_state(const struct rec_state *st, struct outbuf *out)
{
	struct encoding x;
	struct outbuf body = { 0 };
	struct rec_head zero_head;
	uint32_t prev = 0;
	struct rec_task_phase tp = { 0, NULL };

	memset(&x, 0, sizeof(x));
	memset(&zero_head, 0, sizeof(zero_head));
	tp.dmono = rec_head_dmono(&zero_head, &st->head); /* as a reader of a key reading has it */
	{
		struct rec_psi none;

		memset(&none, 0, sizeof(none));
		put_object(&x.head, RO_HEAD, &zero_head, &st->head, sizeof(zero_head), rec_phase_head, &none);
	}
	for (size_t i = 1; i < st->nstrs; i++) {
		if (!st->strs[i])
			continue;
		rec_put_uint(&x.defs, i);
		rec_put_uint(&x.defs, strlen(st->strs[i]));
		out_str(&x.defs, st->strs[i]);
		x.ndefs++;
	}
	for (size_t i = 0; i < st->ntasks; i++) {
		struct rec_task zero;

		if (!st->live[i])
			continue;
		memset(&zero, 0, sizeof(zero));
		rec_put_uint(&x.tasks, (uint32_t)i - prev);
		prev = (uint32_t)i;
		put_object(&x.tasks, RO_TASK, &zero, &st->tasks[i], sizeof(zero), rec_phase_task, &tp);
		x.ntasks++;
	}
	prev = 0;
	for (size_t i = 0; i < st->ncgs; i++) {
		struct rec_cgroup zero;
		struct rec_psi none;

		if (!st->cglive[i])
			continue;
		memset(&zero, 0, sizeof(zero));
		memset(&none, 0, sizeof(none));
		rec_put_uint(&x.cgs, (uint32_t)i - prev);
		prev = (uint32_t)i;
		put_object(&x.cgs, RO_CGROUP, &zero, &st->cgs[i], sizeof(zero), rec_phase_shares, &none);
		x.ncgs++;
	}
	rec_lat_set_header(&x.lat, &st->lat.why); /* the waits of that reading, as they were */
	for (size_t i = 0; i < st->lat.n; i++) {
		const struct rec_lat_entry *le = &st->lat.e[i];
		struct lat_waits w = { .kinds = le->kinds, .unavail = le->unavail, .h = &st->lat.h[le->first] };

		if (le->slot < st->ntasks && st->live[le->slot])
			rec_lat_add(&x.lat, le->slot, &w);
	}
	if (st->stk.present && st->lat.why.state == WHY_ON) { /* and its stacks */
		rec_stk_start(&x.stk, st->stk.lost);
		for (size_t i = 0; i < st->stk.nt; i++) {
			uint32_t slot = st->stk.t[i].slot;

			if (slot < st->ntasks && st->live[slot])
				rec_stk_add(&x.stk, slot, rec_stk_of(&st->stk, slot));
		}
	}
	assemble(&body, &x);
	put_record(out, REC_KEY, &body);
	out_free(&body);
	encoding_free(&x);
}
