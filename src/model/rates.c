/* rates.c — per-interval rates from two samples. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "rates.h"

void sample_from_counters(struct sample *s, const struct task_counters *c, uint64_t when_ns, uint32_t threads)
{
	memset(s, 0, sizeof(*s));
	s->when_ns = sample_unit(when_ns);
	s->threads = threads ? threads : 1;
	s->age_ns = (c->have & HAVE_IDS) ? c->etime_us * 1000 : 0;
	for (int k = 0; k < DK_COUNT; k++) {
		s->count[k] = c->delay[k].count;
		s->total[k] = sample_unit(c->delay[k].total_ns);
	}
	s->kind_total = c->kind_total;
	s->kind_count = c->kind_count;
	s->have_run = (c->have & HAVE_RUN) != 0;
	s->run_ns = sample_unit(c->run_virtual_ns);
}

void acct_sample_from_counters(struct acct_sample *a, const struct task_counters *c, acct_mask want)
{
	memset(a, 0, sizeof(*a));
	a->acct_have = want ? acct_have(c) & want : 0;
	for (int f = 0; a->acct_have && f < AF_COUNT; f++)
		if (a->acct_have & (1u << f))
			a->acct[f] = acct_get(c, f);
}

void peaks_from_counters(struct peaks *p, const struct task_counters *c)
{
	memset(p, 0, sizeof(*p));
	p->kinds = c->kind_max;
	p->kinds_ts = c->kind_max_ts & c->kind_max;
	for (int k = 0; k < DK_COUNT; k++) {
		p->max[k] = sample_unit(c->delay[k].max_ns);
		if (p->kinds_ts & (1u << k))
			p->max_at_ns[k] = c->delay[k].max_ts_sec * 1000000000ll + c->delay[k].max_ts_nsec;
	}
}

void sample_zero_like(struct sample *zero, const struct sample *cur, uint64_t when_ns)
{
	memset(zero, 0, sizeof(*zero));
	zero->when_ns = sample_unit(when_ns);
	zero->kind_total = cur->kind_total;
	zero->kind_count = cur->kind_count;
	zero->have_run = cur->have_run;
	zero->threads = cur->threads;
}

void acct_sample_zero_like(struct acct_sample *zero, const struct acct_sample *cur)
{
	memset(zero, 0, sizeof(*zero));
	zero->acct_have = cur->acct_have;
}

static void add_value(float *sum, float v)
{
	if (isnan(v))
		return;
	*sum = isnan(*sum) ? v : *sum + v;
}

static void max_value(float *max, float v)
{
	if (!isnan(v) && (isnan(*max) || v > *max))
		*max = v;
}

void rates_add(struct task_rates *sum, const struct task_rates *r)
{
	for (int k = 0; k < DK_COUNT; k++) {
		add_value(&sum->kind[k].pct, r->kind[k].pct);
		add_value(&sum->kind[k].per_s, r->kind[k].per_s);
		max_value(&sum->kind[k].max_ms, r->kind[k].max_ms);
	}
	add_value(&sum->run_pct, r->run_pct);
	add_value(&sum->total_pct, r->total_pct);
	for (int f = 0; f < AF_COUNT; f++) {
		if (acct_is_level(f))
			max_value(&sum->acct[f], r->acct[f]);
		else
			add_value(&sum->acct[f], r->acct[f]);
	}
}

void rates_finish_sum(struct task_rates *r)
{
	for (int k = 0; k < DK_COUNT; k++) {
		struct kind_rate *kr = &r->kind[k];

		if (isnan(kr->pct) || isnan(kr->per_s))
			kr->avg_ms = NAN;
		else
			kr->avg_ms = kr->per_s > 0 ? kr->pct / kr->per_s * 10.0f : 0.0f;
	}
}

void rates_unavailable(struct task_rates *out)
{
	for (int k = 0; k < DK_COUNT; k++)
		out->kind[k] = (struct kind_rate){ NAN, NAN, NAN, NAN };
	out->run_pct = NAN;
	out->total_pct = NAN;
	out->impossible = 0;
	out->carried = 0;
	for (int f = 0; f < AF_COUNT; f++)
		out->acct[f] = NAN;
}

static uint64_t forward(uint64_t prev, uint64_t cur)
{
	return cur >= prev ? cur - prev : 0;
}

/* The threads a task had over an interval: the more of the two readings, at least 1. */
static uint32_t threads_of(const struct sample *prev, const struct sample *cur)
{
	uint32_t threads = prev->threads > cur->threads ? prev->threads : cur->threads;

	return threads ? threads : 1;
}

/* How long before cur a wait of kind k counted in it may have begun (0: not known): since the
 * task began, and since the switch was last found off, for a kind the switch gates. */
static uint64_t wait_span_ns(const struct sample *cur, int k)
{
	uint64_t span = cur->age_ns;

	if (k != DK_CPU && cur->off_ns && cur->when_ns > cur->off_ns && (!span || cur->when_ns - cur->off_ns < span))
		span = cur->when_ns - cur->off_ns;
	return span;
}

/* The most a task can wait in kind k over wall_s (rates_compute). */
static double most_waited_ns(const struct sample *prev, const struct sample *cur, int k, double wall_s)
{
	uint64_t span = wait_span_ns(cur, k);
	uint32_t threads = threads_of(prev, cur);

	if (!span)
		return wall_s * 1e9 * (threads + 1) * 1.1 + 5e6;
	return (double)span * threads + wall_s * 1e9 * 1.1 + 5e6;
}

/* Returns 0; 1 when the kind's share is above 100% per thread (a wait carried over from an earlier
 * interval); -1 when its delta is impossible. */
static int kind_rate(const struct sample *prev, const struct sample *cur, const struct peaks *pk, int k,
		     double wall_s, struct kind_rate *r)
{
	unsigned bit = 1u << k;
	int counted = (prev->kind_count & cur->kind_count & bit) != 0;
	uint64_t dcount = counted ? forward(prev->count[k], cur->count[k]) : 0;
	uint64_t dtotal;

	*r = (struct kind_rate){ NAN, NAN, NAN, NAN };
	if (pk && (pk->kinds & bit) && !(cur->age_ns && pk->max[k] > cur->age_ns))
		r->max_ms = (float)(pk->max[k] / 1e6);
	if (!(prev->kind_total & cur->kind_total & bit))
		return 0;
	dtotal = forward(prev->total[k], cur->total[k]);
	/* The kernel restarts a total at 0 when it would overflow (CPU delay at 2^63, the others at
	 * 2^64); anything else going backwards is a reset, or a thread counted twice while it exits,
	 * and gives 0. */
	if (cur->total[k] < prev->total[k] && dcount > 0 && prev->total[k] > (uint64_t)INT64_MAX / 2)
		dtotal = cur->total[k];
	if (dtotal == 0 && dcount == 0) { /* the usual case: nothing waited, no division needed */
		r->pct = 0;
		if (counted)
			r->per_s = r->avg_ms = 0;
		return 0;
	}
	if (dtotal > most_waited_ns(prev, cur, k, wall_s))
		return -1;
	r->pct = (float)(dtotal / 1e9 / wall_s * 100.0);
	if (counted) {
		r->per_s = (float)(dcount / wall_s);
		r->avg_ms = dcount ? (float)(dtotal / 1e6 / (double)dcount) : 0.0f;
	}
	return dtotal > wall_s * 1e9 * threads_of(prev, cur);
}

/* One accounting field over wall_s: a counter's growth per second or, for CPU time, as a percent
 * of the interval; a level's value. NAN when a reading lacks it. */
static float acct_rate(const struct acct_sample *prev, const struct acct_sample *cur, int f, double wall_s)
{
	unsigned bit = 1u << f;

	if (!(cur->acct_have & bit))
		return NAN;
	if (acct_is_level(f))
		return (float)(cur->acct[f] * 1024.0);
	if (!(prev->acct_have & bit))
		return NAN;
	if (acct_fields[f].unit == AU_USEC)
		return (float)(forward(prev->acct[f], cur->acct[f]) / 1e6 / wall_s * 100.0);
	return (float)(forward(prev->acct[f], cur->acct[f]) / wall_s);
}

void rates_compute(const struct sample *prev, const struct sample *cur, const struct peaks *peaks,
		   struct task_rates *out)
{
	double wall_s;
	int any = 0;

	rates_unavailable(out);
	if (cur->when_ns <= prev->when_ns)
		return;
	wall_s = (cur->when_ns - prev->when_ns) / 1e9;
	out->total_pct = 0;
	for (int k = 0; k < DK_COUNT; k++) {
		int rc = kind_rate(prev, cur, peaks, k, wall_s, &out->kind[k]);

		if (rc < 0)
			out->impossible |= (kind_mask)(1u << k);
		else if (rc > 0)
			out->carried |= (kind_mask)(1u << k);
		if (!isnan(out->kind[k].pct)) {
			out->total_pct += out->kind[k].pct;
			any = 1;
		}
	}
	if (!any)
		out->total_pct = NAN;
	if (prev->have_run && cur->have_run)
		out->run_pct = (float)(forward(prev->run_ns, cur->run_ns) / 1e9 / wall_s * 100.0);
}

void rates_compute_acct(const struct sample *prev, const struct sample *cur, const struct acct_sample *aprev,
			const struct acct_sample *acur, struct task_rates *out)
{
	static const struct acct_sample none;
	double wall_s;

	if (!acur || !acur->acct_have || cur->when_ns <= prev->when_ns)
		return;
	wall_s = (cur->when_ns - prev->when_ns) / 1e9;
	for (int f = 0; f < AF_COUNT; f++)
		out->acct[f] = acct_rate(aprev ? aprev : &none, acur, f, wall_s);
}
