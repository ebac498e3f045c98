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

int steady_check(struct proc *p, const struct task_counters *c, uint32_t tick, int carried_ok)
{
	uint64_t sig = c ? steady_signature(c) : 0;
	int steady = carried_ok && c && p->sig_tick && p->sig_tick + 1 == tick && p->sig == sig;

	p->sig = sig;
	p->sig_tick = c ? tick : 0;
	p->steady = steady ? tick : 0;
	return steady;
}
