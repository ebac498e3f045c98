/* tasktable.c — the task table. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "delayacct.h"
#include "tasktable.h"
#include "xalloc.h"

/* Where a task keeps totals, they follow it in its allocation, and its longest waits them. */
struct task_kept {
	struct task task;
	struct kind_totals acc;
	struct peaks peak;
};

/* Totals a task keeps apart from it (tasktable.moved_totals), its longest waits after them. */
struct totals_kept {
	struct kind_totals acc;
	struct peaks peak;
};

/* An exited task's identity, kept while /proc may still list it. */
struct gone {
	uint64_t start_ns;
	uint32_t tick; /* the last tick that retired or saw it */
	uint32_t start_span_us; /* the task's */
};

void tasktable_init(struct tasktable *t)
{
	memset(t, 0, sizeof(*t));
	idmap_init(&t->map);
	idmap_init(&t->gone);
}

void task_free(struct task *t)
{
	proc_repoint(&t->proc, NULL);
	free(t->acct);
	if (!t->acc)
		free(t->peak);
	else if (t->acc_apart)
		free(t->acc); /* the struct totals_kept, its peak included */
	free(t);
}

void task_keep_totals(struct task *t)
{
	struct totals_kept *k;

	if (t->acc)
		return;
	k = xcalloc(1, sizeof(*k));
	if (t->peak) {
		k->peak = *t->peak;
		free(t->peak);
	}
	t->peak = &k->peak;
	t->acc = &k->acc;
	t->acc_apart = 1;
}

const struct kind_totals *tasktable_zero_totals(struct tasktable *t, const struct task *task)
{
	kind_mask kinds = task->base.kind_total & task->last.kind_total;
	kind_mask counted = task->base.kind_count & task->last.kind_count;
	kind_mask longest = task->peak ? task->peak->kinds & kinds : 0;
	struct kind_totals *z;

	for (int k = 0; k < DK_COUNT; k++)
		if ((longest & (1u << k)) && task->peak->max[k])
			return NULL; /* a longest wait to keep: the totals keep the task's life's */
	for (size_t i = 0; i < t->nzeros; i++)
		if (t->zeros[i]->kinds == kinds && t->zeros[i]->kinds_count == counted && t->zeros[i]->kinds_max == longest)
			return t->zeros[i];
	if (t->nzeros == sizeof(t->zeros) / sizeof(t->zeros[0]))
		return NULL;
	z = xcalloc(1, sizeof(*z));
	z->kinds = kinds;
	z->kinds_count = counted;
	z->kinds_max = longest; /* read (wanted), and 0 */
	t->zeros[t->nzeros++] = z;
	return z;
}

static void free_values(struct idmap *m, void (*fn)(void *))
{
	size_t pos = 0;
	void *v;

	while (idmap_next(m, &pos, NULL, &v))
		fn(v);
	idmap_free(m);
	idmap_init(m);
}

void tasktable_clear(struct tasktable *t)
{
	for (size_t i = 0; i < t->nall; i++)
		if (t->all[i])
			task_free(t->all[i]);
	t->nall = 0;
	idmap_free(&t->map);
	idmap_init(&t->map);
	free_values(&t->gone, free);
	for (size_t i = 0; i < t->nreplaced; i++)
		task_free(t->replaced[i]);
	t->nreplaced = 0;
}

void tasktable_free(struct tasktable *t)
{
	tasktable_clear(t);
	for (size_t i = 0; i < t->nzeros; i++)
		free(t->zeros[i]);
	idmap_free(&t->map);
	idmap_free(&t->gone);
	free(t->replaced);
	free(t->all);
	memset(t, 0, sizeof(*t));
}

size_t tasktable_size(const struct tasktable *t)
{
	return t->map.len + t->nreplaced;
}

struct task *tasktable_get(const struct tasktable *t, uint32_t id)
{
	return idmap_get(&t->map, id);
}

/* Whether start estimates a and b, each possibly later than the start by up to its span, are
 * of the same start: one later than the other by less than SAME_START_NS and the later one's span. */
static int same_start(uint64_t a, uint64_t a_span, uint64_t b, uint64_t b_span)
{
	return a > b ? a - b < SAME_START_NS + a_span : b - a < SAME_START_NS + b_span;
}

static uint32_t span_us(uint64_t span_ns)
{
	return span_ns / 1000 < UINT32_MAX ? (uint32_t)((span_ns + 999) / 1000) : UINT32_MAX;
}

struct task *tasktable_add(struct tasktable *t, uint32_t id, uint64_t start_ns)
{
	struct task *task;

	if (t->no_totals || t->moved_totals) {
		task = xcalloc(1, sizeof(*task));
	} else {
		struct task_kept *k = xcalloc(1, sizeof(*k));

		task = &k->task;
		task->acc = &k->acc;
		task->peak = &k->peak;
	}
	task->id = id;
	task->start_ns = start_ns;
	task->state = '?';
	task->need_state = 1;
	idmap_put(&t->map, id, task);
	t->all = xgrow(t->all, &t->capall, t->nall + 1, sizeof(*t->all));
	task->slot = (uint32_t)t->nall;
	t->all[t->nall++] = task;
	return task;
}

struct task *tasktable_lookup(struct tasktable *t, uint32_t id, uint64_t start_ns)
{
	return tasktable_lookup_span(t, id, start_ns, 0);
}

struct task *tasktable_lookup_span(struct tasktable *t, uint32_t id, uint64_t start_ns, uint64_t span_ns)
{
	struct task *task = idmap_get(&t->map, id);

	if (task) {
		if (same_start(task->start_ns, task->start_span_us * 1000ull, start_ns, span_ns) && !task->exited)
			return task;
		idmap_del(&t->map, id);
		t->all[task->slot] = NULL;
		t->replaced = xgrow(t->replaced, &t->capreplaced, t->nreplaced + 1, sizeof(*t->replaced));
		t->replaced[t->nreplaced++] = task;
	}
	task = tasktable_add(t, id, start_ns);
	task->start_span_us = span_us(span_ns);
	return task;
}

struct task *tasktable_exiting(const struct tasktable *t, uint32_t id)
{
	for (size_t i = 0; i < t->nreplaced; i++)
		if (t->replaced[i]->id == id && !t->replaced[i]->exited)
			return t->replaced[i];
	return idmap_get(&t->map, id);
}

int tasktable_gone(struct tasktable *t, uint32_t id, uint64_t start_ns, uint32_t tick)
{
	return tasktable_gone_span(t, id, start_ns, 0, tick);
}

int tasktable_gone_span(struct tasktable *t, uint32_t id, uint64_t start_ns, uint64_t span_ns, uint32_t tick)
{
	struct gone *g = idmap_get(&t->gone, id);

	if (!g)
		return 0;
	if (same_start(g->start_ns, g->start_span_us * 1000ull, start_ns, span_ns)) {
		g->tick = tick;
		return 1;
	}
	free(idmap_del(&t->gone, id));
	return 0;
}

/* Remembers an exited task that leaves the table, for tasktable_gone. */
static void remember_gone(struct tasktable *t, const struct task *task, uint32_t tick)
{
	struct gone *g;

	if (task->start_guessed)
		return;
	g = idmap_get(&t->gone, task->id);
	if (!g) {
		g = xmalloc(sizeof(*g));
		idmap_put(&t->gone, task->id, g);
	}
	g->start_ns = task->start_ns;
	g->start_span_us = task->start_span_us;
	g->tick = tick;
}

/* Forgets the exited tasks that the tick did not see again: /proc lists them no more. */
static void forget_gone(struct tasktable *t, uint32_t tick)
{
	size_t pos = 0;
	uint32_t id;
	void *v;

	while (idmap_next(&t->gone, &pos, &id, &v)) {
		if (((struct gone *)v)->tick >= tick)
			continue;
		free(idmap_del(&t->gone, id));
		pos--; /* the deletion may have shifted a later entry into this slot */
	}
}

void tasktable_retire(struct tasktable *t, uint32_t tick, void (*keep)(void *arg, struct task *task), void *arg)
{
	size_t kept = 0;

	forget_gone(t, tick);
	for (size_t i = 0; i < t->nall; i++) {
		struct task *task = t->all[i];

		if (!task)
			continue;
		if (task->seen == tick && !task->exited) {
			task->base = task->last;
			if (task->acct)
				task->acct->base = task->acct->last;
			task->has_base = 1;
			task->slot = (uint32_t)kept;
			t->all[kept++] = task;
			continue;
		}
		idmap_del(&t->map, task->id);
		if (task->exited) {
			remember_gone(t, task, tick);
			keep(arg, task);
		} else {
			task_free(task);
		}
	}
	t->nall = kept;
	for (size_t i = 0; i < t->nreplaced; i++) {
		if (t->replaced[i]->exited)
			keep(arg, t->replaced[i]);
		else
			task_free(t->replaced[i]);
	}
	t->nreplaced = 0;
}

int tasktable_next(const struct tasktable *t, size_t *pos, struct task **out)
{
	while (*pos < t->nall) {
		struct task *task = t->all[(*pos)++];

		if (task) {
			*out = task;
			return 1;
		}
	}
	if (*pos - t->nall < t->nreplaced) {
		*out = t->replaced[*pos - t->nall];
		(*pos)++;
		return 1;
	}
	return 0;
}

/* A non-CPU kind counted a wait: only a task the kernel accounts them for can have one. */
static int waited_non_cpu(const struct sample *x)
{
	for (int k = 0; k < DK_COUNT; k++)
		if (k != DK_CPU && (x->kind_total & (1u << k)) && (x->total[k] || x->count[k]))
			return 1;
	return 0;
}

/* Non-CPU delays are not accounted while kernel.task_delayacct is 0, and never for a task forked
 * while it was 0: unavailable, not 0. A thread row that ever counted a non-CPU wait proves the
 * kernel accounts it; a process row cannot, as its other threads may still be without. */
static void mask_sample(struct task *t, struct sample *x, int boot, const struct reading_rules *rules)
{
	if (!t->forked_off && forkedoff_maybe(rules->off, t->start_ns, boot, !rules->threads))
		t->forked_off = 1;
	if (rules->threads && waited_non_cpu(x))
		t->accounted = 1;
	if (rules->delayacct != DELAYACCT_OFF && !(t->forked_off && !t->accounted))
		return;
	x->kind_total &= 1u << DK_CPU;
	x->kind_count &= 1u << DK_CPU;
	if (t->peak) {
		t->peak->kinds &= 1u << DK_CPU;
		t->peak->kinds_ts &= 1u << DK_CPU;
	}
}

uint64_t task_activity(const struct task_counters *c)
{
	return c->run_virtual_ns + c->delay[DK_CPU].count;
}

/* The reading's accounting fields, while they are wanted: made beside the readings (the one before
 * has none the first time), and given up when they are wanted no more. */
static void read_acct(struct task *t, const struct task_counters *c, const struct reading_rules *rules)
{
	if (!rules->acct) {
		if (t->acct) {
			free(t->acct);
			t->acct = NULL;
		}
		return;
	}
	if (!t->acct)
		t->acct = xcalloc(1, sizeof(*t->acct));
	acct_sample_from_counters(&t->acct->last, c, ACCT_ALL);
}

/* Whether two readings differ in what totals add up: a task still between them adds nothing. */
int sample_moved(const struct sample *a, const struct sample *b)
{
	return a->run_ns != b->run_ns || memcmp(a->total, b->total, sizeof(a->total)) != 0 ||
	       memcmp(a->count, b->count, sizeof(a->count)) != 0;
}

/* The reading's longest waits, while they are wanted; always where the task keeps totals (which
 * keep the longest), in its allocation, and (rules->peaks_moved) from the reading it first moved
 * at, where its totals begin. */
static void read_peaks(struct task *t, const struct task_counters *c, const struct reading_rules *rules, int moving)
{
	if (!rules->peaks && !t->acc && !moving) {
		if (t->peak) {
			free(t->peak);
			t->peak = NULL;
		}
		return;
	}
	if (!t->peak)
		t->peak = xmalloc(sizeof(*t->peak));
	peaks_from_counters(t->peak, c);
}

/* How long the task had lived at when (mono), by its start (on the boot clock with boot), where
 * the answer did not say: 0 when not known. A start from /proc is cut to the clock tick, so the
 * age is at most a tick too long. */
static uint64_t age_by_start(const struct task *t, uint64_t when, int boot, const struct tick_times *tt)
{
	uint64_t now = boot ? when + (tt->now_boot - tt->now_mono) : when;

	return !t->start_guessed && t->start_ns && now > t->start_ns ? now - t->start_ns : 0;
}

void task_read(struct task *t, const struct task_counters *c, uint64_t when, uint32_t threads, int born_since,
	       int boot, const struct tick_times *tt, const struct reading_rules *rules)
{
	int moving;

	sample_from_counters(&t->last, c, when, threads);
	if (!t->last.age_ns)
		t->last.age_ns = age_by_start(t, when, boot, tt);
	t->last.off_ns = rules->off ? rules->off->off_mono : 0;
	read_acct(t, c, rules);
	/* a task born since starts from zero: it moved */
	moving = rules->peaks_moved && (t->has_base ? sample_moved(&t->base, &t->last) : born_since && tt->tick > 1);
	read_peaks(t, c, rules, moving);
	mask_sample(t, &t->last, boot, rules);
	if (!t->has_base && born_since && tt->tick > 1) {
		sample_zero_like(&t->base, &t->last, tt->prev_mono);
		if (t->acct)
			acct_sample_zero_like(&t->acct->base, &t->acct->last);
		t->has_base = 1;
	}
	t->seen = tt->tick;
	if (task_activity(c) != t->activity) {
		t->activity = task_activity(c);
		t->need_state = 1;
	}
}

void task_carry(struct task *t, uint64_t when, int boot, const struct tick_times *tt,
		const struct reading_rules *rules)
{
	when = sample_unit(when);
	if (t->last.age_ns && when > t->last.when_ns)
		t->last.age_ns += when - t->last.when_ns;
	t->last.when_ns = when;
	t->last.off_ns = rules->off ? rules->off->off_mono : 0;
	mask_sample(t, &t->last, boot, rules);
	t->seen = t->carried = tt->tick;
}
