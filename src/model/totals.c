/* totals.c — sums of delays per kind. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "totals.h"

void totals_from_counters(struct kind_totals *t, const struct task_counters *c, kind_mask mask)
{
	memset(t, 0, sizeof(*t));
	t->kinds = c->kind_total & mask;
	t->kinds_count = c->kind_count & mask;
	t->kinds_max = c->kind_max & mask;
	for (int k = 0; k < DK_COUNT; k++) {
		kind_mask bit = (kind_mask)(1u << k);

		if (t->kinds & bit)
			t->total_ns[k] = c->delay[k].total_ns;
		if (t->kinds_count & bit) {
			t->count[k] = c->delay[k].count;
			t->counted_ns[k] = t->total_ns[k];
		}
		if (t->kinds_max & bit)
			t->max_ns[k] = c->delay[k].max_ns;
		if ((t->kinds_max & c->kind_max_ts & bit))
			t->max_at_ns[k] = c->delay[k].max_ts_sec * 1000000000ll + c->delay[k].max_ts_nsec;
	}
	if (c->have & HAVE_RUN)
		t->run_ns = c->run_virtual_ns;
	t->acct_have = acct_have(c);
	for (int f = 0; f < AF_COUNT; f++)
		if (t->acct_have & (1u << f))
			t->acct[f] = acct_get(c, f);
}

/* Adds one accounting field: a counter's amount, or a high-water mark that may be the highest. */
static void acct_add(struct kind_totals *sum, int f, uint64_t v)
{
	if (!acct_is_level(f))
		sum->acct[f] += v;
	else if (v > sum->acct[f])
		sum->acct[f] = v;
	sum->acct_have |= (acct_mask)(1u << f);
}

void totals_add(struct kind_totals *sum, const struct kind_totals *a)
{
	for (int k = 0; k < DK_COUNT; k++) {
		sum->total_ns[k] += a->total_ns[k];
		sum->count[k] += a->count[k];
		sum->counted_ns[k] += a->counted_ns[k];
		if (a->max_ns[k] > sum->max_ns[k]) {
			sum->max_ns[k] = a->max_ns[k];
			sum->max_at_ns[k] = a->max_at_ns[k];
		}
	}
	sum->run_ns += a->run_ns;
	sum->kinds |= a->kinds;
	sum->kinds_count |= a->kinds_count;
	sum->kinds_max |= a->kinds_max;
	for (int f = 0; f < AF_COUNT; f++)
		if (a->acct_have & (1u << f))
			acct_add(sum, f, a->acct[f]);
}

static uint64_t grown(uint64_t from, uint64_t to)
{
	return to >= from ? to - from : 0;
}

void totals_add_delta(struct kind_totals *sum, const struct sample *base, const struct sample *last,
		      const struct peaks *peaks, kind_mask impossible)
{
	for (int k = 0; k < DK_COUNT; k++) {
		kind_mask bit = (kind_mask)(1u << k);
		uint64_t waited = 0;

		if (impossible & bit)
			continue;
		if (base->kind_total & last->kind_total & bit) {
			waited = grown(base->total[k], last->total[k]);
			sum->total_ns[k] += waited;
			sum->kinds |= bit;
		}
		if (base->kind_count & last->kind_count & bit) {
			sum->count[k] += grown(base->count[k], last->count[k]);
			sum->counted_ns[k] += waited;
			sum->kinds_count |= bit;
		}
		if (peaks && (peaks->kinds & bit)) {
			sum->kinds_max |= bit;
			if (peaks->max[k] > sum->max_ns[k]) {
				sum->max_ns[k] = peaks->max[k];
				sum->max_at_ns[k] = (peaks->kinds_ts & bit) ? peaks->max_at_ns[k] : 0;
			}
		}
	}
	if (base->have_run && last->have_run)
		sum->run_ns += grown(base->run_ns, last->run_ns);
}

void totals_add_acct_delta(struct kind_totals *sum, const struct acct_sample *base, const struct acct_sample *last)
{
	static const struct acct_sample none;

	if (!base)
		base = &none;
	for (int f = 0; last && last->acct_have && f < AF_COUNT; f++) {
		unsigned bit = 1u << f;

		if (acct_is_level(f) && (last->acct_have & bit))
			acct_add(sum, f, last->acct[f]);
		else if (base->acct_have & last->acct_have & bit)
			acct_add(sum, f, grown(base->acct[f], last->acct[f]));
	}
}

void totals_drop_impossible(struct kind_totals *t, uint64_t lived_ns)
{
	double most = lived_ns * 1.1 + 5e6;

	for (int k = 0; k < DK_COUNT; k++) {
		kind_mask bit = (kind_mask)(1u << k);

		if (!(t->kinds & bit) || t->total_ns[k] <= most)
			continue;
		t->kinds &= (kind_mask)~bit;
		t->kinds_count &= (kind_mask)~bit;
		t->kinds_max &= (kind_mask)~bit;
		t->total_ns[k] = t->count[k] = t->counted_ns[k] = t->max_ns[k] = 0;
		t->max_at_ns[k] = 0;
	}
}

double totals_acct(const struct kind_totals *t, int f)
{
	if (!(t->acct_have & (1u << f)))
		return NAN;
	switch (acct_fields[f].unit) {
	case AU_USEC: return t->acct[f] / 1e6;
	case AU_KIB: return t->acct[f] * 1024.0;
	default: return (double)t->acct[f];
	}
}

double totals_avg_ms(const struct kind_totals *t, int k)
{
	kind_mask bit = (kind_mask)(1u << k);

	if (!(t->kinds & bit) || !(t->kinds_count & bit))
		return NAN;
	return t->count[k] ? t->counted_ns[k] / 1e6 / (double)t->count[k] : 0.0;
}

uint64_t totals_waited(const struct kind_totals *t)
{
	uint64_t sum = 0;

	for (int k = 0; k < DK_COUNT; k++)
		sum += t->total_ns[k];
	return sum;
}
