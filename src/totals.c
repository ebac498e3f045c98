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
	}
	if (c->have & HAVE_RUN)
		t->run_ns = c->run_virtual_ns;
}

void totals_add(struct kind_totals *sum, const struct kind_totals *a)
{
	for (int k = 0; k < DK_COUNT; k++) {
		sum->total_ns[k] += a->total_ns[k];
		sum->count[k] += a->count[k];
		sum->counted_ns[k] += a->counted_ns[k];
		if (a->max_ns[k] > sum->max_ns[k])
			sum->max_ns[k] = a->max_ns[k];
	}
	sum->run_ns += a->run_ns;
	sum->kinds |= a->kinds;
	sum->kinds_count |= a->kinds_count;
	sum->kinds_max |= a->kinds_max;
}

static uint64_t grown(uint64_t from, uint64_t to)
{
	return to >= from ? to - from : 0;
}

void totals_add_delta(struct kind_totals *sum, const struct sample *base, const struct sample *last,
		      kind_mask impossible)
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
		if (last->kind_max & bit) {
			sum->kinds_max |= bit;
			if (last->max[k] > sum->max_ns[k])
				sum->max_ns[k] = last->max[k];
		}
	}
	if (base->have_run && last->have_run)
		sum->run_ns += grown(base->run_ns, last->run_ns);
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
