/* steady.c — which processes did not move since the last tick (see steady.h). */
#include "config.h"

#include "steady.h"

/* One step of a 64-bit mix: every input bit reaches every output bit. */
static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	h *= 0xbf58476d1ce4e5b9ull;
	return h ^ h >> 31;
}

uint64_t steady_signature(const struct task_counters *c)
{
	uint64_t h = mix(0, c->kind_total | (uint64_t)c->kind_count << 32);

	for (int k = 0; k < DK_COUNT; k++) {
		h = mix(h, c->delay[k].total_ns);
		h = mix(h, c->delay[k].count);
	}
	h = mix(h, c->run_real_ns);
	h = mix(h, c->run_virtual_ns);
	h = mix(h, c->nvcsw);
	return mix(h, c->nivcsw);
}

/* Odd multipliers, one per counter: a weighted sum of them changes with any one counter. */
static const uint64_t weight[2 * DK_COUNT + 4] = {
	0x9e3779b97f4a7c15ull, 0xbf58476d1ce4e5b9ull, 0x94d049bb133111ebull, 0xd6e8feb86659fd93ull,
	0xa0761d6478bd642full, 0xe7037ed1a0b428dbull, 0x8ebc6af09c88c6e3ull, 0x589965cc75374cc3ull,
	0x1d8e4e27c47d124full, 0xc2b2ae3d27d4eb4full, 0x165667b19e3779f9ull, 0x27d4eb2f165667c5ull,
	0xff51afd7ed558ccdull, 0xc4ceb9fe1a85ec53ull, 0x87c37b91114253d5ull, 0x4cf5ad432745937full,
	0x52dce729da3ed84bull, 0x38495ab5d1b9d5e1ull, 0xb492b66fbe98f273ull, 0x9ae16a3b2f90404full,
};
_Static_assert(2 * DK_COUNT + 4 <= sizeof(weight) / sizeof(weight[0]), "a weight per counter");

uint64_t steady_sum(const struct task_counters *c)
{
	const uint64_t *w = weight;
	uint64_t s = 0;

	for (int k = 0; k < DK_COUNT; k++) {
		s += *w++ * c->delay[k].total_ns;
		s += *w++ * c->delay[k].count;
	}
	s += *w++ * c->run_real_ns;
	s += *w++ * c->run_virtual_ns;
	s += *w++ * c->nvcsw;
	return s + *w * c->nivcsw;
}

int steady_likely_hot(const struct task_counters *c)
{
	return (c->have & HAVE_IDS) && c->delay[DK_CPU].count * 1000000ull >= c->etime_us;
}

int steady_check(struct proc *p, const struct task_counters *c, uint32_t tick, int carried_ok)
{
	uint64_t sig = c ? steady_signature(c) : 0;
	int steady = carried_ok && c && p->sig_tick && p->sig_tick + 1 == tick && p->sig == sig;

	p->sig = sig;
	p->sig_tick = c ? tick : 0;
	p->steady = steady ? tick : 0;
	return steady;
}
