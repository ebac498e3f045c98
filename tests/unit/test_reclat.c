/* test_reclat.c — the waits' section of a record (reclat.h): written and read back whole, only the
 * slots with waits; the kinds mapped by the file's "waits" line; nothing written with --why off;
 * damage refused (a slot out of order, a log2 slot past the last, an empty slot, a cut section). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "recformat.h"
#include "reclat.h"
#include "tap.h"

static const int same_map[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, -1, -1, -1, -1, -1, -1, -1};

static struct lat_hist hist(uint64_t total_ns, uint64_t max_ns, int s1, uint32_t c1, int s2, uint32_t c2)
{
	struct lat_hist h;

	memset(&h, 0, sizeof(h));
	h.total_ns = total_ns;
	h.max_ns = max_ns;
	h.slot[s1] += c1;
	h.slot[s2] += c2;
	h.count = (uint64_t)c1 + c2;
	return h;
}

static int same_hist(const struct lat_hist *a, const struct lat_hist *b)
{
	return a->count == b->count && a->total_ns == b->total_ns && a->max_ns == b->max_ns &&
	       memcmp(a->slot, b->slot, sizeof(a->slot)) == 0;
}

/* A section of two tasks (slots 7 and 2, added out of order), one of them lacking a kind. */
static void make(struct rec_lat *l, struct outbuf *o, struct lat_hist h[3])
{
	struct why_header wh = {.state = WHY_ON,
	                        .reason = "swapin not measured",
	                        .attached = 0x103,
	                        .measured = 0x103,
	                        .not_fitted = 3,
	                        .not_fitted_total = 9};
	struct lat_waits a = {.kinds = 1u << DK_CPU | 1u << LAT_BLOCKED, .h = h},
	                 b = {.kinds = 1u << DK_IO, .unavail = 1u << DK_SWAPIN, .h = &h[2]};

	h[0] = hist(5000000, 4000000, 3, 10, 11, 2);
	h[1] = hist(900000000, 800000000, 0, 1, LAT_SLOTS - 1, 1);
	h[2] = hist(1000000, 600000, 9, 4, 9, 0);
	memset(l, 0, sizeof(*l));
	rec_lat_set_header(l, &wh);
	rec_lat_add(l, 7, &a);
	rec_lat_add(l, 2, &b);
	rec_lat_put(o, l);
}

static void test_round_trip(void)
{
	struct rec_lat w, r;
	struct outbuf o = {0};
	struct lat_hist h[3];
	const struct lat_waits *x, *y;
	const uint8_t *p;

	make(&w, &o, h);
	memset(&r, 0, sizeof(r));
	p = (const uint8_t *)o.data;
	is_int(rec_lat_get(&r, &p, p + o.len, same_map, 100), 0, "a section reads back");
	ok(p == (const uint8_t *)o.data + o.len, "whole");
	ok(r.why.state == WHY_ON && r.why.attached == 0x103 && r.why.measured == 0x103 &&
	           r.why.not_fitted == 3 && r.why.not_fitted_total == 9 && r.why.reason &&
	           strcmp(r.why.reason, "swapin not measured") == 0,
	   "its header: on, the kinds, what did not fit, the reason");
	x = rec_lat_of(&r, 7);
	y = rec_lat_of(&r, 2);
	ok(x && x->kinds == (1u << DK_CPU | 1u << LAT_BLOCKED) && x->unavail == 0 &&
	           same_hist(lat_waits_get(x, DK_CPU), &h[0]) &&
	           same_hist(lat_waits_get(x, LAT_BLOCKED), &h[1]),
	   "slot 7: cpu and blocked, each histogram as written (the last log2 slot too)");
	ok(y && y->kinds == 1u << DK_IO && y->unavail == 1u << DK_SWAPIN &&
	           same_hist(lat_waits_get(y, DK_IO), &h[2]),
	   "slot 2: io, lacking swapin");
	ok(!rec_lat_of(&r, 3) && !rec_lat_of(&r, 1000), "a slot without waits has none");
	/* a record of the next reading without the section: nothing is left of this one */
	rec_lat_clear(&r);
	ok(!rec_lat_of(&r, 7) && r.why.state == WHY_OFF,
	   "cleared: no waits, --why off (a record without the section)");
	rec_lat_free(&r);
	rec_lat_free(&w);
	out_free(&o);
}

static void test_compact(void)
{
	struct rec_lat l;
	struct outbuf o = {0};
	struct lat_hist h[3];
	struct why_header off = {.state = WHY_OFF};

	make(&l, &o, h);
	/* header 5 + reason 20, 2 entries: slot, kinds, unavail; 3 histograms of total, max, n and 2 pairs
	   (io's one slot: 1 pair) */
	ok(o.len < 80, "two tasks, three kinds, five slots with waits: %zu bytes", o.len);
	o.len = 0;
	rec_lat_clear(&l);
	rec_lat_set_header(&l, &off);
	rec_lat_put(&o, &l);
	is_int(o.len, 0, "--why off: no section at all");
	{
		struct why_header on = {.state = WHY_ON};
		struct lat_waits w = {.kinds = 1u << DK_CPU, .h = h};
		struct rec_lat r;
		const uint8_t *p;

		rec_lat_clear(&l);
		rec_lat_set_header(&l, &on);
		rec_lat_add(&l, 5, &w);
		rec_lat_add(&l, 5, &w);
		rec_lat_put(&o, &l);
		memset(&r, 0, sizeof(r));
		p = (const uint8_t *)o.data;
		ok(rec_lat_get(&r, &p, p + o.len, same_map, 100) == 0 && r.n == 1 && rec_lat_of(&r, 5),
		   "a slot given twice is written once, and reads");
		rec_lat_free(&r);
	}
	rec_lat_free(&l);
	out_free(&o);
}

/* The file's kinds in another order ("waits blocked cpu"): its bits mapped to ours, an unknown
 * kind's histogram skipped. */
static void test_map(void)
{
	int map[16];
	struct outbuf o = {0};
	struct rec_lat r;
	const uint8_t *p;
	const struct lat_waits *w;

	for (int i = 0; i < 16; i++)
		map[i] = -1;
	map[0] = LAT_BLOCKED;
	map[1] = DK_CPU; /* bit 2: a kind this reader does not know */
	rec_put_uint(&o, WHY_ON);
	rec_put_uint(&o, 7), rec_put_uint(&o, 7), rec_put_uint(&o, 0), rec_put_uint(&o, 0),
	        rec_put_uint(&o, 0);
	rec_put_uint(&o, 1); /* one task */
	rec_put_uint(&o, 4); /* slot 4 */
	rec_put_uint(&o, 7); /* blocked, cpu, the unknown one */
	rec_put_uint(&o, 0); /* lacks none */
	for (int k = 0; k < 3; k++) {
		rec_put_uint(&o, 1000 * (k + 1)), rec_put_uint(&o, 900);
		rec_put_uint(&o, 1), rec_put_uint(&o, (uint64_t)k), rec_put_uint(&o, 5); /* slot k: 5 waits */
	}
	memset(&r, 0, sizeof(r));
	p = (const uint8_t *)o.data;
	is_int(rec_lat_get(&r, &p, p + o.len, map, 100), 0, "a section in another order of kinds reads");
	w = rec_lat_of(&r, 4);
	ok(w && w->kinds == (1u << DK_CPU | 1u << LAT_BLOCKED) &&
	           lat_waits_get(w, DK_CPU)->total_ns == 2000 && lat_waits_get(w, DK_CPU)->slot[1] == 5 &&
	           lat_waits_get(w, LAT_BLOCKED)->total_ns == 1000 &&
	           lat_waits_get(w, LAT_BLOCKED)->slot[0] == 5,
	   "its bits are ours by name (cpu's histogram is cpu's), the unknown kind dropped");
	ok(r.why.attached == (1u << DK_CPU | 1u << LAT_BLOCKED), "the header's kinds too");
	rec_lat_free(&r);
	out_free(&o);
}

/* Each damaged section is refused and leaves no waits. */
static void test_damage(void)
{
	struct rec_lat w, r;
	struct outbuf o = {0}, bad = {0};
	struct lat_hist h[3];
	const uint8_t *p;
	int refused = 1;

	make(&w, &o, h);
	memset(&r, 0, sizeof(r));
	for (size_t cut = 0; cut < o.len; cut++) {
		p = (const uint8_t *)o.data;
		if (rec_lat_get(&r, &p, p + cut, same_map, 100) == 0)
			refused = 0;
	}
	ok(refused, "cut anywhere before its end: refused (%zu places)", o.len);
	p = (const uint8_t *)o.data;
	ok(rec_lat_get(&r, &p, p + o.len, same_map, 5) < 0 && !rec_lat_of(&r, 2),
	   "a slot past the bound: refused, no waits");

	/* hand-made: header, then one entry with a log2 slot past the last, then an empty one, then
	   two entries of one slot */
	for (int c = 0; c < 4; c++) {
		bad.len = 0;
		rec_put_uint(&bad, c == 3 ? 9 : WHY_ON); /* case 3: an unknown state */
		rec_put_uint(&bad, 1), rec_put_uint(&bad, 1), rec_put_uint(&bad, 0), rec_put_uint(&bad, 0);
		rec_put_uint(&bad, 0);
		rec_put_uint(&bad, c == 2 ? 2 : 1);
		for (int e = 0; e < (c == 2 ? 2 : 1); e++) {
			rec_put_uint(&bad, e ? 0 : 1); /* the second at the same slot */
			rec_put_uint(&bad, 1), rec_put_uint(&bad, 0);
			rec_put_uint(&bad, 10), rec_put_uint(&bad, 10), rec_put_uint(&bad, 1);
			rec_put_uint(&bad, c == 0 ? LAT_SLOTS : 0);
			rec_put_uint(&bad, c == 1 ? 0 : 1);
		}
		p = (const uint8_t *)bad.data;
		ok(rec_lat_get(&r, &p, p + bad.len, same_map, 100) < 0 && r.why.state == WHY_OFF,
		   "%s: refused",
		   c == 0   ? "a log2 slot past the last"
		   : c == 1 ? "a slot of 0 waits"
		   : c == 2 ? "two entries of one task"
		            : "an unknown state");
	}
	rec_lat_free(&r);
	rec_lat_free(&w);
	out_free(&o);
	out_free(&bad);
}

int main(void)
{
	test_round_trip();
	test_compact();
	test_map();
	test_damage();
	return tap_done();
}
