/* whymap.c — a generation's map of waits as the model's entries (see whymap.h). */
#include "config.h"

#include "whymap.h"

_Static_assert(WHY_KIND_CPU == DK_CPU && WHY_KIND_IO == DK_IO && WHY_KIND_SWAPIN == DK_SWAPIN &&
		       WHY_KIND_RECLAIM == DK_RECLAIM && WHY_KIND_THRASHING == DK_THRASHING &&
		       WHY_KIND_COMPACT == DK_COMPACT && WHY_KIND_WPCOPY == DK_WPCOPY && WHY_KIND_IRQ == DK_IRQ &&
		       WHY_KIND_BLOCKED == LAT_BLOCKED && WHY_KINDS == LAT_KINDS,
	       "the eBPF programs number the kinds as latency.h does");
_Static_assert(WHY_SLOTS == LAT_SLOTS, "the eBPF programs' histograms have latency.h's slots");

size_t whymap_decode(const struct why_key *keys, const struct why_val *vals, size_t n, struct lat_batch *b)
{
	size_t left_out = 0;

	for (size_t i = 0; i < n; i++) {
		const struct why_val *v = &vals[i];
		uint64_t count = 0;
		struct lat_entry *e;

		for (int s = 0; s < WHY_SLOTS; s++)
			count += v->slot[s];
		if (!keys[i].tid || keys[i].kind >= WHY_KINDS || !count) {
			left_out++;
			continue;
		}
		e = lat_batch_push(b, keys[i].tid, v->tgid, keys[i].kind);
		e->h.count = count;
		e->h.total_ns = v->total_ns;
		e->h.max_ns = v->max_ns;
		for (int s = 0; s < WHY_SLOTS; s++)
			e->h.slot[s] = v->slot[s];
	}
	return left_out;
}
