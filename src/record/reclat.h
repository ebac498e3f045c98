/* reclat.h — the waits of --why in a record (format 1.3 on): a section after the cgroups, written
 * only when --why was asked for, holding the reading's eBPF header (on or unavailable, the kinds
 * attached and measured, the waits that did not fit, the reason) and, for each task that waited
 * in the interval or lacks a kind, its histograms: only the slots with waits. It is not predicted
 * from the reading before (each interval's waits are its own). A reader of 1.2 skips the section
 * as bytes after the cgroups; a file without it replays with --why off. doc/recording.md
 * describes it. Pure code. */
#ifndef DELAYTOP_RECLAT_H
#define DELAYTOP_RECLAT_H

#include <stddef.h>
#include <stdint.h>

#include "format.h"
#include "latency.h"

/* One task's waits as a record has them: its slot, its kinds and its histograms' place in h. */
struct rec_lat_entry {
	uint32_t slot;
	lat_mask kinds, unavail;
	size_t first; /* its first histogram in rec_lat.h; the others follow in kind order */
};

/* The waits of the last reading, as a reader (or the writer) has them. */
struct rec_lat {
	struct why_header why; /* its reason points to reason[] */
	char reason[512];
	struct rec_lat_entry *e; /* ascending slots */
	size_t n, cap;
	struct lat_hist *h;
	size_t nh, caph;
	uint32_t *at; /* per task slot: 1 + its entry, 0: none */
	size_t capat;
	struct lat_waits *w; /* per entry, made by rec_lat_of */
	size_t capw;
};

/* No waits, --why off: a record without the section. */
void rec_lat_clear(struct rec_lat *l);
void rec_lat_free(struct rec_lat *l);

/* Sets the header from wh (its reason copied). */
void rec_lat_set_header(struct rec_lat *l, const struct why_header *wh);
/* Adds task slot slot's waits w (entries added in any order; rec_lat_put sorts them). */
void rec_lat_add(struct rec_lat *l, uint32_t slot, const struct lat_waits *w);

/* Appends the section (nothing when --why is off). */
void rec_lat_put(struct outbuf *o, struct rec_lat *l);

/* Reads a section at *p (up to end) into l, the file's kind bits mapped to ours by kind_map (file
 * bit -> ours, -1 unknown: dropped); slots of max_slots or more are damage. Returns 0, or -1 when
 * it is malformed. */
int rec_lat_get(struct rec_lat *l, const uint8_t **p, const uint8_t *end, const int *kind_map,
                size_t max_slots);

/* Task slot's waits of the last reading, or NULL; valid until l changes. */
const struct lat_waits *rec_lat_of(struct rec_lat *l, size_t slot);

#endif
