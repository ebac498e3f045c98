/* reccodec.c — readings as records: the encoder and the decoder. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reccodec.h"
#include "xalloc.h"

/* ---- the state both sides keep ---- */

void rec_state_init(struct rec_state *st)
{
	memset(st, 0, sizeof(*st));
}

void rec_state_clear(struct rec_state *st)
{
	for (size_t i = 1; i < st->nstrs; i++)
		free(st->strs[i]);
	st->nstrs = 0;
	st->ntasks = st->ncgs = 0;
	st->have_head = 0;
	memset(&st->head, 0, sizeof(st->head));
}

void rec_state_free(struct rec_state *st)
{
	rec_state_clear(st);
	free(st->tasks);
	free(st->live);
	free(st->cgs);
	free(st->cglive);
	free(st->strs);
	memset(st, 0, sizeof(*st));
}

/* Makes slot i exist (zeroed, not live, when new). */
static void task_slot(struct rec_state *st, size_t i)
{
	if (i < st->ntasks)
		return;
	st->tasks = xgrow(st->tasks, &st->captasks, i + 1, sizeof(*st->tasks));
	st->live = xrealloc(st->live, st->captasks);
	memset(&st->tasks[st->ntasks], 0, (i + 1 - st->ntasks) * sizeof(*st->tasks));
	memset(&st->live[st->ntasks], 0, i + 1 - st->ntasks);
	st->ntasks = i + 1;
}

static void cg_slot(struct rec_state *st, size_t i)
{
	if (i < st->ncgs)
		return;
	st->cgs = xgrow(st->cgs, &st->capcgs, i + 1, sizeof(*st->cgs));
	st->cglive = xrealloc(st->cglive, st->capcgs);
	memset(&st->cgs[st->ncgs], 0, (i + 1 - st->ncgs) * sizeof(*st->cgs));
	memset(&st->cglive[st->ncgs], 0, i + 1 - st->ncgs);
	st->ncgs = i + 1;
}

static void set_string(struct rec_state *st, size_t id, const char *s, size_t len)
{
	if (id >= st->nstrs) {
		st->strs = xgrow(st->strs, &st->capstrs, id + 1, sizeof(*st->strs));
		memset(&st->strs[st->nstrs], 0, (id + 1 - st->nstrs) * sizeof(*st->strs));
		st->nstrs = id + 1;
	}
	free(st->strs[id]);
	st->strs[id] = xmalloc(len + 1);
	memcpy(st->strs[id], s, len);
	st->strs[id][len] = '\0';
}

static uint64_t head_dmono(const struct rec_head *old, const struct rec_head *cur)
{
	return cur->psi.when_ns > old->psi.when_ns ? cur->psi.when_ns - old->psi.when_ns : 0;
}

/* ---- writing differences ---- */

static int is_mask(const struct rec_field *f)
{
	return f->type != RF_NUM;
}

/* The fields of phase where truth differs from pred, as (gap, difference) pairs after their
 * count; each first-phase field set in pred as in truth. Returns how many. */
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
		if (is_mask(&f[i]))
			rec_put_uint(o, a ^ b);
		else
			rec_put_int(o, (int64_t)(b - a));
		*last = i + 1;
		count++;
	}
	return count;
}

/* One object's differences: count, then pairs. The count is written first, so the pairs are
 * made in a scratch buffer. pred becomes truth, in two phases: between them, predict2(pred). */
static void put_object(struct outbuf *o, int obj, void *pred, const void *truth, size_t objsize,
		       void (*predict2)(void *pred, void *arg), void *arg)
{
	struct outbuf pairs = { 0 };
	size_t last = 0, count;

	count = put_pairs(&pairs, obj, 1, pred, truth, &last);
	{
		/* phase 1 applied: pred takes truth's first-phase fields */
		size_t n;
		const struct rec_field *f = rec_fields(obj, &n);

		for (size_t i = 0; i < n; i++)
			if (f[i].phase == 1)
				rec_set(&f[i], pred, rec_get(&f[i], truth));
	}
	if (predict2)
		predict2(pred, arg);
	count += put_pairs(&pairs, obj, 2, pred, truth, &last);
	memcpy(pred, truth, objsize);
	rec_put_uint(o, count);
	out_mem(o, pairs.data, pairs.len);
	out_free(&pairs);
}

static void predict_task2(void *pred, void *arg)
{
	struct task_rates r;

	(void)arg;
	rec_predict_totals(pred, &r);
}

static void predict_shares2(void *pred, void *arg)
{
	rec_predict_shares(&((struct rec_cgroup *)pred)->psi, arg);
}

static void predict_head2(void *pred, void *arg)
{
	rec_predict_shares(&((struct rec_head *)pred)->psi, arg);
}

/* ---- the encoder ---- */

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
	set_string(&e->st, m->ids[j], s, len);
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
	task_slot(&e->st, i);
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
	x->pid = r->pid;
	x->tid = r->tid;
	x->ppid = r->ppid;
	x->uid = r->uid;
	x->start_ns = r->start_ns;
	x->nthreads = r->nthreads;
	for (int s = 0; s < CG_STATES; s++)
		x->states[s] = r->states[s];
	x->state = (uint8_t)r->state;
	x->exited = r->exited;
	x->fresh = r->fresh;
	x->partial = r->partial;
	x->departed = r->departed;
	x->have_states = r->have_states;
	x->str[RS_USER] = intern(e, r->user, defs, ndefs);
	x->str[RS_COMM] = intern(e, r->comm, defs, ndefs);
	x->str[RS_CMDLINE] = intern(e, r->cmdline, defs, ndefs);
	x->str[RS_CGROUP] = intern(e, r->cgroup, defs, ndefs);
	if (r->base && !r->fresh)
		x->base = *r->base;
	if (r->last)
		x->last = *r->last;
	if (r->peak)
		x->peak = *r->peak;
	if (r->acc)
		x->acc = *r->acc;
}

static void head_truth(struct rec_head *h, const struct snapshot *snap)
{
	memset(h, 0, sizeof(*h));
	h->wall_ns = (int64_t)snap->wall.tv_sec * 1000000000 + snap->wall.tv_nsec;
	memcpy(&h->interval, &snap->interval_s, 8);
	memcpy(&h->elapsed, &snap->elapsed_s, 8);
	memcpy(&h->reading, &snap->reading_s, 8);
	h->threads = (uint8_t)snap->threads;
	h->delayacct = (uint8_t)snap->delayacct;
	h->limited = (uint8_t)snap->limited;
	h->listening = (uint8_t)snap->listening;
	h->cgroups = (uint8_t)snap->cgroups;
	h->states_from_tasks = snap->cgroup_source && strcmp(snap->cgroup_source, "cgroupstats") != 0;
	h->nprocs = snap->nprocs;
	h->nthreads = snap->nthreads;
	h->exits = snap->exits;
	h->exits_lost = snap->exits_lost;
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
	size_t ndefs, ntasks, ncgs;
	uint32_t *gone, *cggone;
	size_t ngone, capgone, ncggone, capcggone;
};

/* Changed and new tasks, slot order; the slots not seen are gone. */
static void encode_tasks(struct rec_encoder *e, const struct snapshot *snap, uint64_t dmono, struct encoding *x)
{
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

		e->seen[i] = e->nsample;
		task_truth(e, &truth, &e->st.tasks[i], &snap->rows[r], &x->defs, &x->ndefs);
		if (isnew) {
			struct rec_task zero;

			memset(&zero, 0, sizeof(zero));
			e->st.tasks[i] = zero;
		}
		put_object(&bodies[i], RO_TASK, &e->st.tasks[i], &truth, sizeof(truth), predict_task2, NULL);
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
			cg_slot(&e->st, i);
			memset(&e->st.cgs[i], 0, sizeof(e->st.cgs[i]));
			e->st.cglive[i] = 2; /* new: written even when all its fields are 0 */
			s = i + 1;
			idmap_put(&e->cg_by_path, path, (void *)s);
		}
		e->cgseen[s - 1] = e->nsample;
		old = e->st.cgs[s - 1];
		old.psi.when_ns -= dmono; /* the reading before, as it was */
		cg_truth(&truth, node->facts, path);
		put_object(&bodies[s - 1], RO_CGROUP, &e->st.cgs[s - 1], &truth, sizeof(truth), predict_shares2, &old.psi);
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
}

static void encoding_free(struct encoding *x)
{
	out_free(&x->head);
	out_free(&x->defs);
	out_free(&x->tasks);
	out_free(&x->cgs);
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
	old = e->st.head;
	put_object(&x.head, RO_HEAD, &e->st.head, &truth, sizeof(truth), predict_head2, &old.psi);
	dmono = head_dmono(&old, &truth);
	e->st.have_head = 1;
	encode_tasks(e, snap, dmono, &x);
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

	memset(&x, 0, sizeof(x));
	memset(&zero_head, 0, sizeof(zero_head));
	{
		struct rec_psi none;

		memset(&none, 0, sizeof(none));
		put_object(&x.head, RO_HEAD, &zero_head, &st->head, sizeof(zero_head), predict_head2, &none);
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
		put_object(&x.tasks, RO_TASK, &zero, &st->tasks[i], sizeof(zero), predict_task2, NULL);
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
		put_object(&x.cgs, RO_CGROUP, &zero, &st->cgs[i], sizeof(zero), predict_shares2, &none);
		x.ncgs++;
	}
	assemble(&body, &x);
	put_record(out, REC_KEY, &body);
	out_free(&body);
	encoding_free(&x);
}

/* ---- the decoder ---- */

void rec_decoder_init(struct rec_decoder *d, const struct rec_schema *schema)
{
	memset(d, 0, sizeof(*d));
	rec_state_init(&d->st);
	d->schema = schema;
}

void rec_decoder_free(struct rec_decoder *d)
{
	rec_state_free(&d->st);
	free(d->rows);
	free(d->rates);
	free(d->facts);
	cgtree_free(&d->tree);
	memset(d, 0, sizeof(*d));
}

struct reader {
	const uint8_t *p, *end;
	int bad;
};

static uint64_t get_uint(struct reader *r)
{
	uint64_t v = 0;

	if (!r->bad && rec_get_uint(&r->p, r->end, &v) < 0)
		r->bad = 1;
	return r->bad ? 0 : v;
}

static int64_t get_int(struct reader *r)
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

/* Applies one object's pairs to obj (predicted), predict2 between the phases. */
static void get_object(struct rec_decoder *d, struct reader *r, int obj, void *target,
		       void (*predict2)(void *pred, void *arg), void *arg)
{
	size_t nf, count = get_uint(r), index = 0;
	const struct rec_field *f = rec_fields(obj, &nf);
	const struct rec_schema *s = d->schema;
	int phase = 1;

	for (size_t k = 0; k < count && !r->bad; k++) {
		size_t at = index + get_uint(r);
		int ours = at < s->nfields[obj] ? s->map[obj][at] : -1;
		const struct rec_field *mine = ours >= 0 ? &f[ours] : NULL;

		if (at >= s->nfields[obj])
			r->bad = 1;
		if (mine && mine->phase == 2 && phase == 1) {
			if (predict2)
				predict2(target, arg);
			phase = 2;
		}
		if (mine && is_mask(mine)) {
			const int *map = mine->type == RF_KINDS ? s->kind_map : s->acct_map;

			rec_set(mine, target, rec_get(mine, target) ^ map_bits(map, get_uint(r)));
		} else if (mine) {
			rec_set(mine, target, rec_get(mine, target) + (uint64_t)get_int(r));
		} else {
			get_uint(r); /* a field this delaytop does not know */
		}
		index = at + 1;
	}
	if (phase == 1 && predict2)
		predict2(target, arg);
}

static void read_strings(struct rec_decoder *d, struct reader *r)
{
	size_t n = get_uint(r);

	for (size_t k = 0; k < n && !r->bad; k++) {
		uint64_t id = get_uint(r), len = get_uint(r);

		if (r->bad || id == 0 || id > (1u << 24) || len > (size_t)(r->end - r->p)) {
			r->bad = 1;
			return;
		}
		set_string(&d->st, id, (const char *)r->p, len);
		r->p += len;
	}
}

static void read_gone(struct reader *r, uint8_t *live, size_t nslots)
{
	size_t n = get_uint(r);
	uint64_t h = 0;

	for (size_t k = 0; k < n && !r->bad; k++) {
		h += get_uint(r);
		if (h >= nslots)
			r->bad = 1;
		else
			live[h] = 0;
	}
}

static struct task_rates *rates_of(struct rec_decoder *d)
{
	d->rates = xgrow(d->rates, &d->caprates, d->st.ntasks ? d->st.ntasks : 1, sizeof(*d->rates));
	return d->rates;
}

static void read_tasks(struct rec_decoder *d, struct reader *r, uint64_t dmono)
{
	size_t n;
	uint64_t h = 0;
	uint8_t *done;

	read_gone(r, d->st.live, d->st.ntasks);
	for (size_t i = 0; i < d->st.ntasks; i++)
		if (d->st.live[i])
			rec_predict_task(&d->st.tasks[i], dmono);
	n = get_uint(r);
	done = xcalloc(d->st.ntasks + n + 1, 1);
	for (size_t k = 0; k < n && !r->bad; k++) {
		h += get_uint(r);
		if (h > d->st.ntasks + n || h > (1u << 24)) {
			r->bad = 1;
			break;
		}
		task_slot(&d->st, h);
		if (!d->st.live[h]) {
			memset(&d->st.tasks[h], 0, sizeof(d->st.tasks[h]));
			d->st.live[h] = 1;
		}
		get_object(d, r, RO_TASK, &d->st.tasks[h], predict_task2, NULL);
		done[h] = 1;
	}
	rates_of(d);
	for (size_t i = 0; i < d->st.ntasks; i++) {
		if (!d->st.live[i])
			continue;
		if (done[i]) {
			/* rates again, from the applied reading (rec_predict_totals grew the totals by them) */
			struct rec_task t = d->st.tasks[i];

			memset(&t.acc, 0, sizeof(t.acc));
			rec_predict_totals(&t, &d->rates[i]);
		} else {
			rec_predict_totals(&d->st.tasks[i], &d->rates[i]);
		}
	}
	free(done);
}

static void read_cgroups(struct rec_decoder *d, struct reader *r, uint64_t dmono)
{
	size_t n;
	uint64_t h = 0;
	uint8_t *done;

	read_gone(r, d->st.cglive, d->st.ncgs);
	for (size_t i = 0; i < d->st.ncgs; i++)
		if (d->st.cglive[i])
			rec_predict_psi(&d->st.cgs[i].psi, dmono);
	n = get_uint(r);
	done = xcalloc(d->st.ncgs + n + 1, 1);
	for (size_t k = 0; k < n && !r->bad; k++) {
		struct rec_cgroup old;

		h += get_uint(r);
		if (h > d->st.ncgs + n || h > (1u << 24)) {
			r->bad = 1;
			break;
		}
		cg_slot(&d->st, h);
		if (!d->st.cglive[h]) {
			memset(&d->st.cgs[h], 0, sizeof(d->st.cgs[h]));
			d->st.cglive[h] = 1;
		}
		old = d->st.cgs[h];
		old.psi.when_ns -= dmono; /* the reading before, as it was */
		get_object(d, r, RO_CGROUP, &d->st.cgs[h], predict_shares2, &old.psi);
		done[h] = 1;
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

static long fail(char *err, size_t errlen, const char *why)
{
	snprintf(err, errlen, "%s", why);
	return -1;
}

long rec_decode(struct rec_decoder *d, const uint8_t *p, size_t n, int *type, char *err, size_t errlen)
{
	const uint8_t *q = p + 1, *end = p + n;
	uint64_t len, crc;
	struct reader r;
	struct rec_head old;
	uint64_t dmono;

	if (n < 1)
		return 0;
	*type = p[0];
	if (p[0] != REC_KEY && p[0] != REC_SAMPLE)
		return fail(err, errlen, "unknown record type");
	if (rec_get_uint(&q, end, &len) < 0)
		return n > 11 ? fail(err, errlen, "bad record length") : 0;
	if (len > (1ull << 32))
		return fail(err, errlen, "bad record length");
	if ((size_t)(end - q) < len + 4)
		return 0;
	crc = (uint64_t)q[len] | (uint64_t)q[len + 1] << 8 | (uint64_t)q[len + 2] << 16 | (uint64_t)q[len + 3] << 24;
	if (rec_crc32(rec_crc32(0, p, 1), q, len) != crc)
		return fail(err, errlen, "checksum mismatch");
	if (p[0] == REC_KEY) {
		rec_state_clear(&d->st);
		d->samples = 0;
	} else if (!d->st.have_head) {
		*type = 0; /* no key reading before it: it cannot be read */
		return (long)(q - p + len + 4);
	}
	r = (struct reader){ q, q + len, 0 };
	old = d->st.head;
	get_object(d, &r, RO_HEAD, &d->st.head, predict_head2, &old.psi);
	dmono = head_dmono(&old, &d->st.head);
	d->st.have_head = 1;
	read_strings(d, &r);
	read_tasks(d, &r, dmono);
	read_cgroups(d, &r, dmono);
	if (r.bad)
		return fail(err, errlen, "malformed record");
	d->samples++;
	return (long)(q - p + len + 4);
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
	memset(row, 0, sizeof(*row));
	row->pid = t->pid;
	row->tid = t->tid;
	row->ppid = t->ppid;
	row->start_ns = t->start_ns;
	row->uid = t->uid;
	row->state = (char)t->state;
	row->exited = t->exited;
	row->departed = t->departed;
	row->fresh = t->fresh;
	row->partial = t->partial;
	row->user = str_of(d, t->str[RS_USER], "?");
	row->comm = str_of(d, t->str[RS_COMM], "?");
	row->cmdline = str_of(d, t->str[RS_CMDLINE], NULL);
	row->cgroup = str_of(d, t->str[RS_CGROUP], NULL);
	row->nthreads = t->nthreads;
	for (int s = 0; s < CG_STATES; s++)
		row->states[s] = t->states[s];
	row->have_states = t->have_states;
	row->parent = -1;
	row->r = *r;
	row->acc = &t->acc;
	if (!t->departed) {
		row->last = &t->last;
		row->peak = &t->peak;
		if (!t->fresh)
			row->base = &t->base;
	}
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
		n++;
	}
	qsort(d->facts, n, sizeof(*d->facts), facts_by_path);
	snap->cgroups = 1;
	snap->cgroup_source = d->st.head.states_from_tasks ? "tasks" : "cgroupstats";
	if (!n)
		return;
	snap->ncgroup_rows = cgtree_build(&d->tree, d->facts, n, snap->rows, snap->nrows, d->st.head.states_from_tasks);
	snap->cgroup_rows = d->tree.rows;
}

void rec_decoder_snapshot(struct rec_decoder *d, struct snapshot *snap)
{
	const struct rec_head *h = &d->st.head;
	size_t n = 0;

	memset(snap, 0, sizeof(*snap));
	snap->wall.tv_sec = (time_t)(h->wall_ns / 1000000000);
	snap->wall.tv_nsec = (long)(h->wall_ns % 1000000000);
	memcpy(&snap->interval_s, &h->interval, 8);
	memcpy(&snap->elapsed_s, &h->elapsed, 8);
	memcpy(&snap->reading_s, &h->reading, 8);
	snap->threads = h->threads;
	snap->nprocs = h->nprocs;
	snap->nthreads = h->nthreads;
	snap->delayacct = h->delayacct;
	snap->limited = h->limited;
	snap->listening = h->listening;
	snap->exits = h->exits;
	snap->exits_lost = h->exits_lost;
	rec_psi_to(&h->psi, &snap->psi);
	d->rows = xgrow(d->rows, &d->caprows, d->st.ntasks ? d->st.ntasks : 1, sizeof(*d->rows));
	rates_of(d);
	for (size_t i = 0; i < d->st.ntasks; i++)
		if (d->st.live[i])
			task_row(d, &d->rows[n++], &d->st.tasks[i], &d->rates[i]);
	snap->rows = d->rows;
	snap->nrows = n;
	if (h->cgroups)
		build_cgroups(d, snap);
}
