/* htmllat.h — the waits of --why that the HTML report keeps of a window, for its latency heat maps:
 * per task and per cgroup, per kind, the waits counted in each (time bucket, log2 slot) cell,
 * with the buckets of htmlrep.h (merged in pairs as they are). A task or cgroup keeps at most
 * SVG_MAX_POINTS x LAT_SLOTS cells a kind, and only cells that had waits. Pure code. */
#ifndef DELAYTOP_HTMLLAT_H
#define DELAYTOP_HTMLLAT_H

#include <stddef.h>
#include <stdint.h>

#include "latency.h"

/* How many tasks and how many cgroups get a heat map, per kind. */
#define HTMLLAT_TOP 3

/* The waits of one cell: a bucket of time and a slot of latency.h. */
struct hl_cell {
	uint16_t bucket;
	uint8_t slot;
	uint32_t count;
};

/* One kind's cells, ordered by bucket then slot, and the kind's waits in the window. */
struct hl_cells {
	struct hl_cell *c;
	uint32_t n, cap;
	uint64_t count, total_ns;
};

/* A task's or cgroup's waits, by kind. */
struct hr_lat {
	struct hl_cells k[LAT_KINDS];
};

/* Adds one interval's histogram of a kind into bucket b of *lat (made when NULL). */
void htmllat_add(struct hr_lat **lat, int kind, uint32_t bucket, const struct lat_hist *hist);
/* Merges each pair of buckets into one (bucket i becomes i / 2). */
void htmllat_halve(struct hr_lat *lat);
void htmllat_free(struct hr_lat *lat);

/* The first and last slot with waits of kind k (returns 0 when none). */
int htmllat_slots(const struct hr_lat *lat, int kind, int *first, int *last);

#endif
