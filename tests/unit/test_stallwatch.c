/* test_stallwatch.c — the tasks --why --trigger keeps chosen for their stacks (stallwatch.h): the
 * five that stalled most in a reading in a trigger's kinds join, and a task waiting in D for an
 * io trigger, in thread mode by tid; they stay for the next readings and leave once not named for
 * STALL_KEEP; no task that did not stall is named; two triggers' kinds each name their own; at
 * most STALL_WATCH_MAX, the latest named kept first. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stallwatch.h"
#include "tap.h"

#define NROWS 48

static struct row rows[NROWS];

/* A reading of n task rows, pids base..base+n-1 (tids 10000 more), each waiting io_pct[i] % on
 * I/O and cpu_pct[i] % for a CPU (0 when the arrays are shorter). */
static void reading(struct snapshot *s, size_t n, uint32_t base, const double *io, size_t nio, const double *cpu,
		    size_t ncpu, int threads)
{
	memset(s, 0, sizeof(*s));
	memset(rows, 0, sizeof(rows));
	for (size_t i = 0; i < n; i++) {
		row_fields_none(&rows[i].fields);
		rows[i].pid = base + (uint32_t)i;
		rows[i].tid = threads ? 10000 + base + (uint32_t)i : 0;
		rows[i].comm = "t";
		for (int k = 0; k < DK_COUNT; k++)
			rows[i].r.kind[k].pct = 0;
		rows[i].r.kind[DK_IO].pct = (float)(i < nio ? io[i] : 0);
		rows[i].r.kind[DK_CPU].pct = (float)(i < ncpu ? cpu[i] : 0);
	}
	s->interval_s = 1;
	s->threads = threads;
	s->rows = rows;
	s->nrows = n;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The ids chosen, sorted, as "a b c". */
static const char *ids(const struct stallwatch *w)
{
	static char buf[1024];
	uint32_t id[STALL_WATCH_MAX];
	size_t n = stallwatch_ids(w, id), len = 0;

	qsort(id, n, sizeof(*id), cmp_u32);
	buf[0] = '\0';
	for (size_t i = 0; i < n && len < sizeof(buf) - 16; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%u", i ? " " : "", id[i]);
	return buf;
}

int main(void)
{
	struct trigger_spec io, both[2], four[4];
	struct stallwatch w;
	struct snapshot s;
	const double seven[] = { 1, 50, 0, 3, 9, 20, 7, 2 };
	const double none[] = { 0 };
	char err[256];

	trigger_parse("io some 100ms 1s", &io, err, sizeof(err));
	both[0] = io;
	trigger_parse("cpu some 100ms 1s", &both[1], err, sizeof(err));
	four[0] = both[1];
	four[1] = io;
	trigger_parse("memory some 100ms 1s", &four[2], err, sizeof(err));
	trigger_parse("irq full 100ms 1s", &four[3], err, sizeof(err));

	stallwatch_init(&w, &io, 1);
	reading(&s, 8, 100, seven, 8, NULL, 0, 0);
	stallwatch_update(&w, &s);
	ok(strcmp(ids(&w), "101 103 104 105 106") == 0,
	   "the five that stalled most on I/O join (not 100 at 1%%, 107 at 2%%, nor 102 at 0): %s", ids(&w));
	reading(&s, 8, 100, none, 1, NULL, 0, 0);
	for (int r = 1; r < STALL_KEEP; r++) {
		stallwatch_update(&w, &s);
		ok(strcmp(ids(&w), "101 103 104 105 106") == 0, "a reading later (%d) with no stall, they stay", r);
	}
	stallwatch_update(&w, &s);
	ok(strcmp(ids(&w), "") == 0, "not named for %d readings, they leave: '%s'", STALL_KEEP, ids(&w));

	reading(&s, 8, 100, seven, 8, NULL, 0, 1);
	stallwatch_update(&w, &s);
	ok(strcmp(ids(&w), "10101 10103 10104 10105 10106") == 0, "thread rows: by tid: %s", ids(&w));

	stallwatch_init(&w, &io, 1);
	reading(&s, 3, 500, none, 1, NULL, 0, 0);
	rows[1].state = 'D'; /* blocked since before the reading: no share yet */
	stallwatch_update(&w, &s);
	ok(strcmp(ids(&w), "501") == 0, "a task waiting in D with nothing counted yet joins: %s", ids(&w));

	{ /* seven io triggers with five waiting each, and a cpu trigger's five stalled: 40 > 32 */
		struct trigger_spec eight[8];
		static char paths[7][8];
		uint32_t id[STALL_WATCH_MAX];
		size_t n, stalled = 0;

		reading(&s, 40, 600, NULL, 0, NULL, 0, 0);
		for (int k = 0; k < 7; k++) {
			char spec[64];

			snprintf(paths[k], sizeof(paths[k]), "/c%d", k);
			snprintf(spec, sizeof(spec), "io some 100ms 1s /c%d", k);
			trigger_parse(spec, &eight[k], err, sizeof(err));
		}
		eight[7] = both[1];
		for (int i = 0; i < 35; i++) {
			rows[i].state = 'D';
			rows[i].cgroup = paths[i / 5];
		}
		for (int i = 35; i < 40; i++)
			rows[i].r.kind[DK_CPU].pct = 10;
		stallwatch_init(&w, eight, 8);
		stallwatch_update(&w, &s);
		n = stallwatch_ids(&w, id);
		for (size_t i = 0; i < n; i++)
			stalled += id[i] >= 635;
		ok(n == STALL_WATCH_MAX && stalled == 5,
		   "full: the last trigger's stalled come before the others' waiting (%zu of 5, %zu in all)", stalled,
		   n);
	}

	stallwatch_init(&w, both, 2);
	{
		const double cpu[] = { 0, 0, 0, 0, 0, 0, 0, 0, 9, 8, 7, 6, 5 };

		reading(&s, 13, 200, seven, 8, cpu, 13, 0);
		stallwatch_update(&w, &s);
		ok(strcmp(ids(&w), "201 203 204 205 206 208 209 210 211 212") == 0,
		   "two triggers, I/O and cpu: each names its own five: %s", ids(&w));
	}
	stallwatch_init(&w, &io, 1);
	for (uint32_t r = 0; r < 8; r++) { /* five new ones a reading */
		const double five[] = { 5, 4, 3, 2, 1 };

		reading(&s, 5, 300 + 10 * r, five, 5, NULL, 0, 0);
		stallwatch_update(&w, &s);
	}
	ok(w.n == 3 * 5 && strcmp(ids(&w), "350 351 352 353 354 360 361 362 363 364 370 371 372 373 374") == 0,
	   "five new a reading: the last %d readings' named stay: %s", STALL_KEEP, ids(&w));
	{ /* four triggers naming 20 new tasks a reading: 60 named in 3 readings */
		int res_kind[4] = { DK_CPU, DK_IO, DK_RECLAIM, DK_IRQ }, latest = 1;
		size_t most = 0;

		stallwatch_init(&w, four, 4);
		for (uint32_t r = 0; r < 6; r++) {
			uint32_t id[STALL_WATCH_MAX];
			size_t n;

			reading(&s, 20, 2000 + 100 * r, NULL, 0, NULL, 0, 0);
			for (int i = 0; i < 20; i++)
				rows[i].r.kind[res_kind[i % 4]].pct = (float)(1 + i);
			stallwatch_update(&w, &s);
			n = stallwatch_ids(&w, id);
			most = n > most ? n : most;
			for (uint32_t t = 2000 + 100 * r; t < 2020 + 100 * r; t++) { /* this reading's all in */
				size_t k = 0;

				while (k < n && id[k] != t)
					k++;
				latest &= k < n;
			}
		}
		ok(most == STALL_WATCH_MAX && latest, "bounded: at most %d (%zu), each reading's named kept first",
		   STALL_WATCH_MAX, most);
	}
	return tap_done();
}
