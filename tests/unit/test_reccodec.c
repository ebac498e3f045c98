/* test_reccodec.c — recordings without a file: variable-length integers and their truncation,
 * the CRC, readings encoded and decoded back to the same rows (identity, strings, rates and
 * totals since the start) over a run in which tasks start, change, stay still, end and reuse a
 * pid; a task that did not change costs no byte; a key reading made from a reader's state gives
 * that reading again; a header with a field this reader does not know and without fields it
 * knows is still read; a newer major version is refused with both versions named; a flipped byte
 * is found by the checksum; --capture writes the readings around its firings once each (a file
 * in /tmp, read back through replay.h); the times --begin and --end take; and every header fact
 * of headfield.h's table, alone and all at once, through a record and back. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgtree.h"
#include "delaykind.h"
#include "recdecode.h"
#include "recencode.h"
#include "recformat.h"
#include "recorder.h"
#include "replay.h"
#include "rowfixture.h"
#include "tap.h"
#include "timeparse.h"

/* ---- integers and the CRC ---- */

static void test_varints(void)
{
	static const uint64_t u[] = { 0, 1, 127, 128, 300, 16383, 16384, 1ull << 32, (1ull << 63) + 5, UINT64_MAX };
	static const int64_t s[] = { 0, -1, 1, -64, 63, -65, 64, INT32_MIN, INT64_MAX, INT64_MIN };
	struct outbuf o = { 0 };
	int bad = 0;

	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		const uint8_t *p, *end;
		uint64_t v = 0;

		o.len = 0;
		rec_put_uint(&o, u[i]);
		p = (const uint8_t *)o.data;
		end = p + o.len;
		if (rec_get_uint(&p, end, &v) < 0 || v != u[i] || p != end) {
			printf("#   %llu came back as %llu\n", (unsigned long long)u[i], (unsigned long long)v);
			bad++;
		}
		/* every shorter prefix is refused */
		for (size_t cut = 0; cut < o.len; cut++) {
			p = (const uint8_t *)o.data;
			if (rec_get_uint(&p, p + cut, &v) == 0) {
				printf("#   %llu cut to %zu bytes was read\n", (unsigned long long)u[i], cut);
				bad++;
			}
		}
	}
	ok(bad == 0, "unsigned varints come back whole; every prefix cut short is refused");
	o.len = 0;
	rec_put_uint(&o, 300);
	ok(o.len == 2 && (uint8_t)o.data[0] == 0xac && (uint8_t)o.data[1] == 0x02,
	   "300 is 0xac 0x02: 7 bits a byte, low first");
	o.len = 0;
	rec_put_uint(&o, UINT64_MAX);
	is_int(o.len, 10, "the largest number takes 10 bytes");

	bad = 0;
	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		const uint8_t *p, *end;
		int64_t v = 12345;

		o.len = 0;
		rec_put_int(&o, s[i]);
		p = (const uint8_t *)o.data;
		end = p + o.len;
		if (rec_get_int(&p, end, &v) < 0 || v != s[i] || p != end) {
			printf("#   %lld came back as %lld\n", (long long)s[i], (long long)v);
			bad++;
		}
		p = (const uint8_t *)o.data;
		if (o.len > 1 && rec_get_int(&p, end - 1, &v) == 0) {
			printf("#   %lld cut short was read\n", (long long)s[i]);
			bad++;
		}
	}
	ok(bad == 0, "signed varints (zigzag) come back whole, INT64_MIN and INT64_MAX too; cut short, refused");
	o.len = 0;
	rec_put_int(&o, -1);
	rec_put_int(&o, 1);
	rec_put_int(&o, -64);
	ok(o.len == 3 && o.data[0] == 1 && o.data[1] == 2 && (uint8_t)o.data[2] == 127,
	   "zigzag: -1 is 1, 1 is 2, -64 is 127 (small magnitudes take one byte)");
	{
		static const uint8_t endless[12] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
						     0x80, 0x80, 0x80, 0x80, 0x80, 0x80 };
		const uint8_t *p = endless;
		uint64_t v;

		ok(rec_get_uint(&p, endless + sizeof(endless), &v) < 0,
		   "a number whose bytes all say 'more' is refused, not read past 64 bits");
	}
	out_free(&o);

	is_int(rec_crc32(0, "123456789", 9), 0xCBF43926u, "crc32(\"123456789\") is 0xCBF43926");
	is_int(rec_crc32(rec_crc32(0, "1234", 4), "56789", 5), 0xCBF43926u, "the CRC continues across pieces");
	is_int(rec_crc32(0, "", 0), 0, "the CRC of nothing is 0");
}

/* ---- a run of synthetic readings ---- */

#define MAXT 8
#define T0 1000000000000ull /* the run's first CLOCK_MONOTONIC reading */
#define W0 1764079500000000000ll

struct ftask {
	int used, alive;
	uint32_t pid, tid, ppid, uid;
	uint64_t start;
	int departed, has_base;
	char comm[16], user[16], cmdline[64], cgroup[32];
	struct sample base, last;
	struct acct_pair acct;
	struct peaks peak;
	struct kind_totals acc;
	struct task_rates r;
};

struct run {
	struct ftask t[MAXT];
	uint64_t mono;
	int64_t wall;
	int readings;
	struct psi_snapshot psi, psi_prev;
	struct cgroup_facts facts[3];
	struct psi_snapshot cgpsi_prev[3];
	struct row rows[MAXT];
	struct cgtree tree;
	struct snapshot snap;
};

static struct ftask *add_task(struct run *run, uint32_t pid, uint64_t start, const char *comm, const char *cg)
{
	for (int i = 0; i < MAXT; i++) {
		struct ftask *t = &run->t[i];

		if (t->used)
			continue;
		memset(t, 0, sizeof(*t));
		t->used = t->alive = 1;
		t->pid = pid;
		t->ppid = 1;
		t->uid = 1000 + pid;
		t->start = start;
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
		snprintf(t->user, sizeof(t->user), "user%u", (unsigned)pid);
		snprintf(t->cmdline, sizeof(t->cmdline), "/usr/bin/%s --flag %u", comm, (unsigned)pid);
		snprintf(t->cgroup, sizeof(t->cgroup), "%s", cg);
		t->last.kind_total = t->last.kind_count = (kind_mask)((1u << DK_CPU) | (1u << DK_IO) | (1u << DK_SWAPIN));
		t->last.have_run = 1;
		t->last.threads = 1;
		t->acct.last.acct_have = ACCT_ALL;
		t->peak.kinds = t->last.kind_total;
		return t;
	}
	return NULL;
}

/* A task's next reading at the run's clock: its counters grown by the given nanoseconds of CPU
 * and I/O delay (all zero: it did not change). */
static void grow(struct run *run, struct ftask *t, uint64_t cpu, uint64_t io, uint64_t ran)
{
	uint64_t dt = t->last.when_ns ? run->mono - t->last.when_ns : 0;

	if (t->departed) {
		rates_unavailable(&t->r); /* as rowbuild's departed rows */
		return;
	}
	if (t->last.when_ns) {
		t->base = t->last;
		t->acct.base = t->acct.last;
		t->has_base = 1;
	}
	t->last.when_ns = run->mono;
	t->last.age_ns = t->last.age_ns ? t->last.age_ns + dt : 5000000;
	t->last.total[DK_CPU] += cpu;
	t->last.count[DK_CPU] += cpu ? 3 : 0;
	t->last.total[DK_IO] += io;
	t->last.count[DK_IO] += io ? 2 : 0;
	t->last.run_ns += ran;
	for (int f = 0; f < AF_COUNT; f++)
		t->acct.last.acct[f] += ran ? (uint64_t)(f + 1) * 4096 : 0;
	if (cpu / 3 > t->peak.max[DK_CPU])
		t->peak.max[DK_CPU] = cpu / 3;
	if (t->has_base) {
		rates_compute(&t->base, &t->last, &t->peak, &t->r);
		rates_compute_acct(&t->base, &t->last, &t->acct.base, &t->acct.last, &t->r);
		totals_add_delta(&t->acc, &t->base, &t->last, &t->peak, t->r.impossible);
		totals_add_acct_delta(&t->acc, &t->acct.base, &t->acct.last);
	} else {
		rates_unavailable(&t->r);
	}
}

/* A pressure line; its averages in hundredths of a percent, as the kernel gives them and a
 * recording keeps them. */
static void set_psi_line(struct psi_line *l, uint64_t total, int avg)
{
	l->present = 1;
	l->total_us = total;
	l->avg10 = avg / 100.0;
	l->avg60 = (avg + 37) / 100.0;
	l->avg300 = (avg + 101) / 100.0;
}

/* The snapshot of the run's tasks as they are now: process rows, departed rows and a cgroup
 * tree built the way the sampler builds it. */
static void make_snapshot(struct run *run)
{
	struct snapshot *s = &run->snap;
	size_t n = 0;
	static char *paths[3] = { "/", "/a", "/b" };

	memset(s, 0, sizeof(*s));
	s->wall.tv_sec = (time_t)(run->wall / 1000000000);
	s->wall.tv_nsec = (long)(run->wall % 1000000000);
	s->interval_s = run->readings ? 0.5 : 0;
	s->elapsed_s = run->readings * 0.5;
	s->reading_s = 0.001 * (run->readings + 1);
	s->nprocs = 77;
	s->nthreads = 99 + (unsigned)run->readings;
	s->delayacct = DELAYACCT_ON;
	s->listening = 1;
	s->exits = (uint64_t)run->readings * 3;
	s->tasks_from = TASKS_FOLLOWED;
	s->task_walks = 1 + (uint64_t)run->readings / 4;
	run->psi_prev = run->psi;
	run->psi.when_ns = run->mono;
	run->psi.res[PSI_CPU].present = 1;
	set_psi_line(&run->psi.res[PSI_CPU].some, 1000 + 25000ull * (uint64_t)run->readings, 125);
	run->psi.res[PSI_IO].present = 1;
	set_psi_line(&run->psi.res[PSI_IO].some, 500, 50);
	set_psi_line(&run->psi.res[PSI_IO].full, 200, 25);
	s->psi = run->psi;
	if (run->readings)
		psi_interval(&run->psi_prev, &s->psi);
	else
		for (int r = 0; r < PSI_COUNT; r++)
			s->psi.res[r].some.pct = s->psi.res[r].full.pct = NAN;
	for (int i = 0; i < MAXT; i++) {
		struct ftask *t = &run->t[i];
		struct row *r;

		if (!t->used || !t->alive)
			continue;
		r = &run->rows[n++];
		*r = make_row(t->pid, t->tid, t->comm, 0, 0);
		r->ppid = t->ppid;
		r->nice = (int32_t)(t->pid % 40) - 20; /* negative ones too */
		r->uid = t->uid;
		r->identity_uid = t->pid % 3 == 0 ? t->uid : 0; /* some in cgroups delegated to their user */
		r->start_ns = t->start;
		r->state = t->departed ? 'X' : 'R';
		r->user = t->user;
		r->cmdline = t->cmdline;
		r->cgroup = t->cgroup;
		r->nthreads = 1;
		r->parent = -1;
		r->r = t->r;
		r->acc = &t->acc;
		r->departed = r->exited = (uint8_t)t->departed;
		if (!t->departed) {
			r->last = &t->last;
			r->acct = &t->acct;
			r->peak = &t->peak;
			r->base = t->has_base ? &t->base : NULL;
			r->fresh = !t->has_base;
		}
	}
	s->rows = run->rows;
	s->nrows = n;
	for (int c = 0; c < 3; c++) {
		struct cgroup_facts *f = &run->facts[c];
		struct psi_snapshot prev = f->psi;

		f->path = paths[c];
		f->psi.when_ns = run->mono;
		f->psi.res[PSI_CPU].present = 1;
		set_psi_line(&f->psi.res[PSI_CPU].some, 100 * (uint64_t)(c + 1) * (uint64_t)(run->readings + 1), 10 * c);
		set_psi_line(&f->psi.res[PSI_CPU].full, 10 * (uint64_t)(c + 1) * (uint64_t)run->readings, c);
		if (run->readings)
			psi_interval(&prev, &f->psi);
		else
			f->psi.res[PSI_CPU].some.pct = f->psi.res[PSI_CPU].full.pct = NAN;
		f->busy = c < 2;
		f->identity_uid = c == 2 ? 1000 : 0; /* /b delegated to uid 1000 */
	}
	s->cgroups = 1;
	s->cgroup_source = "tasks";
	s->ncgroup_rows = cgtree_build(&run->tree, run->facts, 3, s->rows, s->nrows, 1);
	s->cgroup_rows = run->tree.rows;
}

/* The run's clock moves on by half a second. */
static void tick(struct run *run)
{
	run->mono += 500000000;
	run->wall += 500000000;
	run->readings++;
}

static void run_init(struct run *run)
{
	memset(run, 0, sizeof(*run));
	run->mono = T0;
	run->wall = W0;
}

/* ---- comparing snapshots ---- */

static int same_float(float a, float b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

static int same_rates(const struct task_rates *a, const struct task_rates *b)
{
	for (int k = 0; k < DK_COUNT; k++)
		if (!same_float(a->kind[k].pct, b->kind[k].pct) || !same_float(a->kind[k].avg_ms, b->kind[k].avg_ms) ||
		    !same_float(a->kind[k].per_s, b->kind[k].per_s) || !same_float(a->kind[k].max_ms, b->kind[k].max_ms))
			return 0;
	for (int f = 0; f < AF_COUNT; f++)
		if (!same_float(a->acct[f], b->acct[f]))
			return 0;
	return same_float(a->run_pct, b->run_pct) && same_float(a->total_pct, b->total_pct) &&
	       a->impossible == b->impossible && a->carried == b->carried;
}

static int same_totals(const struct kind_totals *a, const struct kind_totals *b)
{
	if (!a || !b)
		return a == b;
	for (int k = 0; k < DK_COUNT; k++)
		if (a->total_ns[k] != b->total_ns[k] || a->count[k] != b->count[k] || a->counted_ns[k] != b->counted_ns[k] ||
		    a->max_ns[k] != b->max_ns[k] || a->max_at_ns[k] != b->max_at_ns[k])
			return 0;
	for (int f = 0; f < AF_COUNT; f++)
		if (a->acct[f] != b->acct[f])
			return 0;
	return a->run_ns == b->run_ns && a->kinds == b->kinds && a->kinds_count == b->kinds_count &&
	       a->kinds_max == b->kinds_max && a->acct_have == b->acct_have;
}

static int same_sample(const struct sample *a, const struct sample *b)
{
	if (!a || !b)
		return a == b;
	for (int k = 0; k < DK_COUNT; k++)
		if (a->count[k] != b->count[k] || a->total[k] != b->total[k])
			return 0;
	return a->when_ns == b->when_ns && a->run_ns == b->run_ns && a->age_ns == b->age_ns &&
	       a->threads == b->threads && a->kind_total == b->kind_total && a->kind_count == b->kind_count &&
	       a->have_run == b->have_run;
}

static int same_acct(const struct acct_sample *a, const struct acct_sample *b)
{
	for (int f = 0; f < AF_COUNT; f++)
		if (a->acct[f] != b->acct[f])
			return 0;
	return a->acct_have == b->acct_have;
}

/* A row's readings' accounting fields, as the recorder takes them (none: zeros). */
static int same_acct_pair(const struct row *a, const struct row *b)
{
	static const struct acct_pair none;
	const struct acct_pair *x = a->acct ? a->acct : &none, *y = b->acct ? b->acct : &none;

	return same_acct(&x->last, &y->last) && (!a->base || same_acct(&x->base, &y->base));
}

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* How the decoded snapshot d differs from the original o: NULL when it does not. */
static const char *snapshot_differs(const struct snapshot *o, const struct snapshot *d, char *why, size_t size)
{
	if (o->nrows != d->nrows)
		return snprintf(why, size, "%zu rows, not %zu", d->nrows, o->nrows), why;
	if (o->wall.tv_sec != d->wall.tv_sec || o->wall.tv_nsec != d->wall.tv_nsec || o->interval_s != d->interval_s ||
	    o->elapsed_s != d->elapsed_s || o->reading_s != d->reading_s || o->nprocs != d->nprocs ||
	    o->nthreads != d->nthreads || o->exits != d->exits || o->delayacct != d->delayacct ||
	    o->listening != d->listening || o->tasks_from != d->tasks_from || o->task_walks != d->task_walks)
		return snprintf(why, size, "%s", "the header facts differ"), why;
	for (int r = 0; r < PSI_COUNT; r++) {
		const struct psi_resource *a = &o->psi.res[r], *b = &d->psi.res[r];

		if (a->present != b->present || a->some.total_us != b->some.total_us ||
		    a->full.total_us != b->full.total_us || a->some.avg10 != b->some.avg10 ||
		    a->some.avg300 != b->some.avg300 || !same_float((float)a->some.pct, (float)b->some.pct) ||
		    !same_float((float)a->full.pct, (float)b->full.pct))
			return snprintf(why, size, "the system's pressure (%s) differs", psi_name(r)), why;
	}
	for (size_t i = 0; i < o->nrows; i++) {
		const struct row *a = &o->rows[i], *b = NULL;

		for (size_t j = 0; j < d->nrows; j++)
			if (d->rows[j].pid == a->pid && d->rows[j].tid == a->tid && d->rows[j].start_ns == a->start_ns &&
			    d->rows[j].departed == a->departed)
				b = &d->rows[j];
		if (!b)
			return snprintf(why, size, "no row for pid %u start %llu", (unsigned)a->pid,
					(unsigned long long)a->start_ns), why;
#define REC_NO(member) 1
#define REC_YES(member) (memcmp(&a->member, &b->member, sizeof(a->member)) == 0)
#define ROW_FIELD_SAME(member, type, dims, record, check, none, show, from) &&record(member)
		if (!(1 ROW_FIELDS(ROW_FIELD_SAME)))
			return snprintf(why, size, "pid %u: its recorded fields differ", (unsigned)a->pid), why;
#undef ROW_FIELD_SAME
#undef REC_YES
#undef REC_NO
		if (!same_str(a->user, b->user) || !same_str(a->comm, b->comm) || !same_str(a->cmdline, b->cmdline) ||
		    !same_str(a->cgroup, b->cgroup))
			return snprintf(why, size, "pid %u: its strings differ (comm '%s', got '%s')", (unsigned)a->pid,
					a->comm, b->comm), why;
		if (!same_rates(&a->r, &b->r))
			return snprintf(why, size, "pid %u: its rates differ (cpu %.3f%%, got %.3f%%)", (unsigned)a->pid,
					a->r.kind[DK_CPU].pct, b->r.kind[DK_CPU].pct), why;
		if (!same_totals(a->acc, b->acc))
			return snprintf(why, size, "pid %u: its totals since the start differ", (unsigned)a->pid), why;
		if (!same_sample(a->last, b->last) || !same_sample(a->base, b->base) || !same_acct_pair(a, b))
			return snprintf(why, size, "pid %u: its readings differ", (unsigned)a->pid), why;
		if ((a->peak == NULL) != (b->peak == NULL) ||
		    (a->peak && memcmp(a->peak->max, b->peak->max, sizeof(a->peak->max)) != 0))
			return snprintf(why, size, "pid %u: its longest waits differ", (unsigned)a->pid), why;
	}
	if (o->ncgroup_rows != d->ncgroup_rows)
		return snprintf(why, size, "%zu cgroup rows, not %zu", d->ncgroup_rows, o->ncgroup_rows), why;
	for (size_t i = 0; i < o->ncgroup_rows; i++) {
		const struct row *a = &o->cgroup_rows[i], *b = &d->cgroup_rows[i];
		const struct cgroup_facts *fa = a->cg->facts, *fb = b->cg->facts;

		if (!same_str(a->cg->path, b->cg->path) || a->cg->tasks != b->cg->tasks || !fa != !fb ||
		    !same_rates(&a->r, &b->r) || !same_totals(a->acc, b->acc) || a->identity_uid != b->identity_uid)
			return snprintf(why, size, "cgroup row %zu (%s) differs", i, a->cg->path), why;
		if (fa && (fa->busy != fb->busy ||
			   fa->psi.res[PSI_CPU].some.total_us != fb->psi.res[PSI_CPU].some.total_us ||
			   !same_float((float)fa->psi.res[PSI_CPU].some.pct, (float)fb->psi.res[PSI_CPU].some.pct) ||
			   fa->psi.res[PSI_CPU].some.avg10 != fb->psi.res[PSI_CPU].some.avg10))
			return snprintf(why, size, "cgroup %s: its pressure differs", a->cg->path), why;
	}
	return NULL;
}

/* ---- the codec over a run ---- */

static struct rec_schema native;

static void schema_init(void)
{
	struct outbuf h = { 0 };
	char err[256];

	rec_header_format(&h, "testhost", W0);
	if (rec_header_parse(&native, h.data, h.len, err, sizeof(err)) != 0)
		printf("# our own header did not parse: %s\n", err);
	out_free(&h);
}

/* ---- the header facts (headfield.h) ---- */

/* A fact the encoder and decoder fill themselves (HF_OWN): set in s, or 0 when this test does not
 * know it (then it fails: a new such fact needs its round trip here). */
static int own_set(const char *name, struct snapshot *s)
{
	if (strcmp(name, "states_from_tasks") == 0) {
		s->cgroups = 1;
		s->cgroup_source = "tasks";
		return 1;
	}
	if (strcmp(name, "events") == 0) {
		s->events = "cpu some 150ms 1s\n";
		return 1;
	}
	return 0;
}

static int from_tasks(const struct snapshot *s)
{
	return s->cgroup_source && strcmp(s->cgroup_source, "tasks") == 0;
}

static int own_same(const char *name, const struct snapshot *a, const struct snapshot *b)
{
	if (strcmp(name, "states_from_tasks") == 0)
		return from_tasks(a) == from_tasks(b);
	if (strcmp(name, "events") == 0)
		return same_str(a->events, b->events);
	return 0;
}

/* Fact i (member, of struct snapshot's smember) set in s to a value of its own, not 0 (the value
 * of a fact not carried), that its check allows. */
#define HF_PLAIN_SET(s, m, sm, i, check) (s)->sm = check((int)(i) + 2) ? (int)(i) + 2 : 1;
#define HF_BITS_SET(s, m, sm, i, check) (s)->sm = (i) + 0.25;
#define HF_WALL_SET(s, m, sm, i, check) (s)->sm = (struct timespec){ 1700000000 + (i), 123456789 };
#define HF_OWN_SET(s, m, sm, i, check) known &= own_set(#m, s);
#define HF_PLAIN_SAME(a, b, m, sm) ((a)->sm == (b)->sm)
#define HF_BITS_SAME(a, b, m, sm) (memcmp(&(a)->sm, &(b)->sm, sizeof((a)->sm)) == 0)
#define HF_WALL_SAME(a, b, m, sm) ((a)->sm.tv_sec == (b)->sm.tv_sec && (a)->sm.tv_nsec == (b)->sm.tv_nsec)
#define HF_OWN_SAME(a, b, m, sm) own_same(#m, a, b)

/* Every header fact of the table through a key record and back: for each fact alone (so that one
 * copied into another's place shows) and for all at once, each fact of the decoded reading must
 * be the one encoded. */
static void test_head_fields(void)
{
	static const char *const names[] = {
#define HEAD_FIELD_NAME(member, type, snap, conv, check) #member,
		HEAD_FIELDS(HEAD_FIELD_NAME)
#undef HEAD_FIELD_NAME
	};
	size_t n = sizeof(names) / sizeof(names[0]);

	for (size_t only = 0; only <= n; only++) {
		struct rec_encoder e;
		struct rec_decoder d;
		struct outbuf rec = { 0 };
		struct snapshot s, got;
		char err[256] = "";
		const char *bad = NULL;
		int type = -1, known = 1;
		long used;
		size_t i = 0;

		memset(&s, 0, sizeof(s));
#define HEAD_FIELD_SET(member, type, smember, conv, check) \
	if (only == n || only == i) { \
		conv##_SET(&s, member, smember, i, check) \
	} \
	i++;
		HEAD_FIELDS(HEAD_FIELD_SET)
#undef HEAD_FIELD_SET
		rec_encoder_init(&e);
		rec_decoder_init(&d, &native);
		rec_encode(&e, &s, 1, &rec);
		used = rec_decode(&d, (const uint8_t *)rec.data, rec.len, &type, err, sizeof(err));
		rec_decoder_snapshot(&d, &got);
#define HEAD_FIELD_SAME(member, type, smember, conv, check) \
	if (!bad && !conv##_SAME(&s, &got, member, smember)) \
		bad = #member;
		HEAD_FIELDS(HEAD_FIELD_SAME)
#undef HEAD_FIELD_SAME
		ok(known && used == (long)rec.len && !bad, "header facts: %s%s through a key record", only == n ? "all" : names[only],
		   only == n ? "" : " alone");
		if (!known)
			printf("#   an HF_OWN fact this test does not set (own_set)\n");
		if (used != (long)rec.len)
			printf("#   used %ld of %zu bytes: %s\n", used, rec.len, err);
		if (bad)
			printf("#   %s is not the one encoded\n", bad);
		rec_decoder_free(&d);
		rec_encoder_free(&e);
		out_free(&rec);
	}
}

/* Encodes the run's snapshot (key or not) as one record, decodes it with d and compares. */
static void round_trip(struct run *run, struct rec_encoder *e, struct rec_decoder *d, int key, const char *what,
		       size_t *size)
{
	struct outbuf rec = { 0 };
	struct snapshot got;
	char err[256] = "", why[256];
	const char *diff;
	int type = -1;
	long used;

	make_snapshot(run);
	rec_encode(e, &run->snap, key, &rec);
	used = rec_decode(d, (const uint8_t *)rec.data, rec.len, &type, err, sizeof(err));
	ok(used == (long)rec.len && type == (key ? REC_KEY : REC_SAMPLE), "%s: the record decodes whole, as a %s",
	   what, key ? "key" : "sample");
	if (used != (long)rec.len)
		printf("#   used %ld of %zu bytes: %s\n", used, rec.len, err);
	rec_decoder_snapshot(d, &got);
	diff = snapshot_differs(&run->snap, &got, why, sizeof(why));
	ok(!diff, "%s: the decoded reading is the one encoded (rows, strings, rates, totals, cgroups)", what);
	if (diff)
		printf("#   %s\n", diff);
	if (size)
		*size = rec.len;
	out_free(&rec);
}

static void test_run(void)
{
	struct run *run = calloc(1, sizeof(*run));
	struct rec_encoder e;
	struct rec_decoder d, d2;
	struct ftask *a, *b, *c, *dep, *f;
	struct outbuf key = { 0 };
	struct snapshot s1, s2;
	char why[256], err[256];
	const char *diff;
	int type;

	run_init(run);
	rec_encoder_init(&e);
	rec_decoder_init(&d, &native);
	a = add_task(run, 100, 11, "alpha", "/a");
	b = add_task(run, 200, 22, "beta", "/a");
	c = add_task(run, 300, 33, "gamma", "/b");
	dep = add_task(run, 400, 0, "gone-long-ago", "/b");
	dep->departed = 1;
	dep->acc.total_ns[DK_CPU] = 123456789;
	dep->acc.count[DK_CPU] = 7;
	dep->acc.kinds = 1u << DK_CPU;
	for (int i = 0; i < MAXT; i++)
		if (run->t[i].used)
			grow(run, &run->t[i], 0, 0, 0);
	round_trip(run, &e, &d, 1, "the first reading (fresh tasks, a departed one)", NULL);

	tick(run);
	grow(run, a, 250000000, 0, 200000000);
	grow(run, b, 0, 0, 0);
	grow(run, c, 1000000, 300000000, 50000000);
	round_trip(run, &e, &d, 0, "the second reading (rates, one task still)", NULL);

	tick(run);
	snprintf(a->comm, sizeof(a->comm), "%s", "alpha-renamed"); /* exec */
	grow(run, a, 100000000, 5000000, 400000000);
	grow(run, b, 0, 0, 0);
	c->alive = c->used = 0; /* pid 300 ends, and is reused at once */
	f = add_task(run, 300, 44, "gamma-2", "/b");
	grow(run, f, 0, 0, 0);
	f = add_task(run, 500, 55, "epsilon", "/a");
	grow(run, f, 0, 0, 0);
	dep->acc.total_ns[DK_CPU] += 1000; /* another departed task folded in */
	round_trip(run, &e, &d, 0, "the third reading (a rename, a pid reused, a new task)", NULL);

	/* the reader's state as a key reading gives that reading again */
	rec_decoder_snapshot(&d, &s1);
	rec_encode_state(&d.st, &key);
	rec_decoder_init(&d2, &native);
	is_int(rec_decode(&d2, (const uint8_t *)key.data, key.len, &type, err, sizeof(err)), key.len,
	       "rec_encode_state: a key record that decodes whole");
	is_int(type, REC_KEY, "rec_encode_state: of type key");
	rec_decoder_snapshot(&d2, &s2);
	diff = snapshot_differs(&s1, &s2, why, sizeof(why));
	ok(!diff, "rec_encode_state: read by a new reader, it gives the same reading (rates and totals included)");
	if (diff)
		printf("#   %s\n", diff);

	/* and the readings after it follow on from it, as from the original */
	tick(run);
	for (int i = 0; i < MAXT; i++)
		if (run->t[i].used && run->t[i].alive)
			grow(run, &run->t[i], run->t[i].pid == 500 ? 70000000 : 0, 0, 1000000);
	{
		struct outbuf rec = { 0 };
		struct snapshot got;

		make_snapshot(run);
		rec_encode(&e, &run->snap, 0, &rec);
		is_int(rec_decode(&d2, (const uint8_t *)rec.data, rec.len, &type, err, sizeof(err)), rec.len,
		       "the writer's next sample decodes after the state's key record");
		rec_decoder_snapshot(&d2, &got);
		diff = snapshot_differs(&run->snap, &got, why, sizeof(why));
		ok(!diff, "and gives the writer's reading");
		if (diff)
			printf("#   %s\n", diff);
		out_free(&rec);
	}
	rec_decoder_free(&d2);

	/* a key reading in the middle forgets the past: a new reader can start there */
	tick(run);
	for (int i = 0; i < MAXT; i++)
		if (run->t[i].used && run->t[i].alive)
			grow(run, &run->t[i], 1000, 0, 1000);
	{
		struct outbuf rec = { 0 };
		struct snapshot got;
		struct rec_decoder d3;

		make_snapshot(run);
		rec_encode(&e, &run->snap, 1, &rec);
		rec_decoder_init(&d3, &native);
		is_int(rec_decode(&d3, (const uint8_t *)rec.data, rec.len, &type, err, sizeof(err)), rec.len,
		       "a key reading later in the run decodes on its own");
		rec_decoder_snapshot(&d3, &got);
		diff = snapshot_differs(&run->snap, &got, why, sizeof(why));
		ok(!diff, "and gives the whole reading, rates and totals included");
		if (diff)
			printf("#   %s\n", diff);
		rec_decoder_free(&d3);
		out_free(&rec);
	}

	out_free(&key);
	rec_decoder_free(&d);
	rec_encoder_free(&e);
	cgtree_free(&run->tree);
	free(run);
}

/* Record sizes of a run of two readings: tasks a and b, and when with_still, a third task that
 * does not change; in the second reading a changes, and still changes too when it_moves. */
static void sizes(int with_still, int it_moves, size_t *key_size, size_t *sample_size)
{
	struct run *run = calloc(1, sizeof(*run));
	struct rec_encoder e;
	struct rec_decoder d;
	struct ftask *a, *b, *still = NULL;
	char what[128];

	run_init(run);
	rec_encoder_init(&e);
	rec_decoder_init(&d, &native);
	a = add_task(run, 100, 11, "alpha", "/a");
	b = add_task(run, 200, 22, "beta", "/a");
	if (with_still)
		still = add_task(run, 300, 33, "still", "/b");
	grow(run, a, 0, 0, 0);
	grow(run, b, 0, 0, 0);
	if (still)
		grow(run, still, 0, 0, 0);
	snprintf(what, sizeof(what), "sizes (%s)", with_still ? it_moves ? "a third task that moves" : "a still third task" : "two tasks");
	round_trip(run, &e, &d, 1, what, key_size);
	tick(run);
	grow(run, a, 250000000, 1000, 100000000);
	grow(run, b, 1000, 0, 1000);
	if (still)
		grow(run, still, it_moves ? 1000000 : 0, 0, it_moves ? 1000 : 0);
	round_trip(run, &e, &d, 0, what, sample_size);
	rec_decoder_free(&d);
	rec_encoder_free(&e);
	cgtree_free(&run->tree);
	free(run);
}

static void test_sizes(void)
{
	size_t k2, s2, k3, s3, km, sm;

	sizes(0, 0, &k2, &s2);
	sizes(1, 0, &k3, &s3);
	sizes(1, 1, &km, &sm);
	ok(k3 > k2, "a key reading carries every task: a third task makes it larger (%zu > %zu bytes)", k3, k2);
	is_int(s3, s2, "a task that did not change costs 0 bytes in a sample record (same size with and without it)");
	ok(sm > s3, "a task that changed does cost bytes (%zu > %zu)", sm, s3);
}

/* ---- headers ---- */

/* text with the first "from" replaced by "to", into a new string. */
/* text with from replaced by to, and its header's CRC line made again (as a writer of the edited
 * header would have made it). */
static char *replace(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from), *crc;
	size_t n = strlen(text) + strlen(to) + 1;
	char *out = malloc(n);
	struct outbuf sealed = { 0 };

	if (!at)
		snprintf(out, n, "%s", text);
	else
		snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	crc = strstr(out, "\ncrc ");
	if (!crc)
		return out;
	out_mem(&sealed, out, (size_t)(crc - out) + 1);
	rec_header_seal(&sealed, 0);
	out_char(&sealed, '\0');
	free(out);
	return sealed.data;
}

static void test_headers(void)
{
	struct outbuf h = { 0 };
	struct rec_schema s;
	char err[512] = "", ours[32], ver[16], *text, *t2;
	int rc;

	rec_header_format(&h, "host with\tcontrol", 42);
	out_char(&h, '\0');
	text = h.data;
	snprintf(ours, sizeof(ours), "format %d.%d\n", REC_MAJOR, REC_MINOR);
	ok(strncmp(text, REC_MAGIC, strlen(REC_MAGIC)) == 0 && strncmp(text + strlen(REC_MAGIC), ours, strlen(ours)) == 0,
	   "the header starts with the magic and '%.*s'", (int)strlen(ours) - 1, ours);
	rc = rec_header_parse(&s, text, strlen(text), err, sizeof(err));
	is_int(rc, 0, "our own header parses");
	ok(rc == 0 && rec_schema_native(&s), "and is native (a writer may append to it)");
	is_str(s.host, "host?with?control", "the host name, its spaces and control characters made '?'");
	is_int(s.started_ns, 42, "the start time");
	is_int(s.header_len, strlen(text), "the header's length, its empty line included");
	rec_schema_free(&s);

	is_int(rec_header_parse(&s, text, strlen(text) - 1, err, sizeof(err)), -EAGAIN,
	       "a header without its empty line: more is needed (-EAGAIN)");
	is_int(rec_header_parse(&s, text, 5, err, sizeof(err)), -EAGAIN, "part of the magic: more is needed");
	err[0] = '\0';
	is_int(rec_header_parse(&s, "root:x:0:0:root:/root:/bin/bash\n", 32, err, sizeof(err)), -EPROTO,
	       "a file of another kind is not a recording (-EPROTO)");
	ok(strstr(err, "not a delaytop recording") != NULL, "and the message says so: '%s'", err);

	/* a newer major version is refused, naming both */
	t2 = replace(text, ours, "format 2.0\n");
	err[0] = '\0';
	is_int(rec_header_parse(&s, t2, strlen(t2), err, sizeof(err)), -ENOTSUP, "format 2.0 is refused (-ENOTSUP)");
	snprintf(ver, sizeof(ver), "%d.%d", REC_MAJOR, REC_MINOR);
	ok(strstr(err, "2.0") && strstr(err, ver), "the message names both versions: '%s'", err);
	free(t2);
	/* a newer minor version is read, but not appended to */
	t2 = replace(text, ours, "format 1.77\n");
	rc = rec_header_parse(&s, t2, strlen(t2), err, sizeof(err));
	is_int(rc, 0, "format 1.77 (a newer minor) is read");
	ok(rc == 0 && !rec_schema_native(&s), "but is not native: a writer records to another file");
	if (rc == 0)
		rec_schema_free(&s);
	free(t2);
	t2 = replace(text, ours, "");
	err[0] = '\0';
	is_int(rec_header_parse(&s, t2, strlen(t2), err, sizeof(err)), -EINVAL, "a header without its version: -EINVAL");
	ok(err[0] != '\0', "with a message: '%s'", err);
	free(t2);
	/* a damaged header (a field's name changed, and nothing else) is refused */
	t2 = strdup(text);
	*strstr(t2, "last.count.cpu") = 'L';
	err[0] = '\0';
	is_int(rec_header_parse(&s, t2, strlen(t2), err, sizeof(err)), -EINVAL,
	       "a header with a byte changed is refused (-EINVAL)");
	ok(strstr(err, "checksum") != NULL, "the message says its checksum does not match: '%s'", err);
	free(t2);
	out_free(&h);
}

/* A record by hand: type, length, body, CRC. */
static void hand_record(struct outbuf *out, int type, const struct outbuf *body)
{
	char t = (char)type;
	uint32_t crc = rec_crc32(rec_crc32(0, &t, 1), body->data, body->len);

	out_char(out, t);
	rec_put_uint(out, body->len);
	out_mem(out, body->data, body->len);
	for (int i = 0; i < 4; i++)
		out_char(out, (char)(crc >> (8 * i)));
}

/* A header written by another delaytop: fields this one does not know, in another order, and
 * without most of the fields this one knows; another order of kinds, one unknown. */
static void test_foreign_header(void)
{
	static const char unsealed[] = REC_MAGIC "format 1.3\n"
					       "writer delaytop 9.9\n"
					       "host elsewhere\n"
					       "started 5\n"
					       "kinds io future_kind cpu\n"
					       "accts\n"
					       "something new: skipped\n"
					       "fields head 1 wall_ns:n future.head:n nprocs:n\n"
					       "fields head 2\n"
					       "fields task 1 pid:n future.task:n comm:n last.kind_total:k\n"
					       "fields task 2 future.total:n\n"
					       "fields widget 1 x:n\n"
					       "fields cgroup 1 path:n\n";
	struct rec_schema s;
	struct rec_decoder d;
	struct outbuf body = { 0 }, rec = { 0 };
	struct snapshot snap;
	char err[256] = "";
	int type = 0, rc;
	long used;

	struct outbuf sealed = { 0 };
	const char *header;

	out_str(&sealed, unsealed);
	rec_header_seal(&sealed, 0);
	header = sealed.data;
	rc = rec_header_parse(&s, header, sealed.len, err, sizeof(err));
	is_int(rc, 0, "a header with unknown fields, objects and lines, and most fields missing, is read");
	if (rc != 0) {
		printf("#   %s\n", err);
		out_free(&sealed);
		return;
	}
	ok(s.nfields[RO_HEAD] == 3 && s.map[RO_HEAD][1] == -1 && s.map[RO_TASK][1] == -1 && s.map[RO_TASK][4] == -1,
	   "the unknown fields map to nothing");
	ok(s.kind_map[0] == DK_IO && s.kind_map[1] == -1 && s.kind_map[2] == DK_CPU,
	   "the file's kinds map by name: io, (unknown), cpu");
	ok(!rec_schema_native(&s), "not native");

	/* a key reading in the file's fields: head wall_ns, future.head (777), nprocs; one string;
	 * one task: pid, future.task, comm, last.kind_total (the file's bits io and cpu), and
	 * future.total in the second phase */
	rec_put_uint(&body, 3);
	rec_put_uint(&body, 0), rec_put_int(&body, W0);
	rec_put_uint(&body, 0), rec_put_int(&body, 777);
	rec_put_uint(&body, 0), rec_put_int(&body, 42);
	rec_put_uint(&body, 1); /* strings */
	rec_put_uint(&body, 1), rec_put_uint(&body, 5), out_mem(&body, "hello", 5);
	rec_put_uint(&body, 0); /* gone */
	rec_put_uint(&body, 1); /* tasks */
	rec_put_uint(&body, 0); /* slot 0 */
	rec_put_uint(&body, 5);
	rec_put_uint(&body, 0), rec_put_int(&body, 1234);
	rec_put_uint(&body, 0), rec_put_int(&body, 99999);
	rec_put_uint(&body, 0), rec_put_int(&body, 1);
	rec_put_uint(&body, 0), rec_put_uint(&body, 0x7); /* a mask: bits io, future_kind, cpu */
	rec_put_uint(&body, 0), rec_put_int(&body, -5);
	rec_put_uint(&body, 0); /* cgroups gone */
	rec_put_uint(&body, 0); /* cgroups */
	hand_record(&rec, REC_KEY, &body);
	rec_decoder_init(&d, &s);
	used = rec_decode(&d, (const uint8_t *)rec.data, rec.len, &type, err, sizeof(err));
	is_int(used, rec.len, "a record in those fields decodes whole (the unknown fields' values skipped)");
	if (used != (long)rec.len)
		printf("#   %s\n", err);
	rec_decoder_snapshot(&d, &snap);
	ok(snap.wall.tv_sec == W0 / 1000000000 && snap.nprocs == 42, "the known header fields are read");
	ok(snap.nrows == 1 && snap.rows[0].pid == 1234 && strcmp(snap.rows[0].comm, "hello") == 0,
	   "the task's known fields are read: pid 1234, comm 'hello'");
	ok(snap.nrows == 1 && snap.rows[0].uid == 0 && snap.rows[0].user && strcmp(snap.rows[0].user, "?") == 0 &&
		   snap.rows[0].cmdline == NULL,
	   "the fields the file lacks are zero, unknown, or absent");
	ok(snap.nrows == 1 && snap.rows[0].nice == ROW_NICE_NONE,
	   "a field the file lacks whose unknown is not zero (nice) reads as unknown");
	ok(snap.nrows == 1 && snap.rows[0].identity_uid == 0,
	   "a file without identity_uid (before 1.2): not delegated as far as it says (0, written null)");
	ok(snap.nrows == 1 && snap.rows[0].last &&
		   snap.rows[0].last->kind_total == ((1u << DK_IO) | (1u << DK_CPU)),
	   "a set of kinds is mapped to ours bit by bit (the unknown kind dropped)");
	rec_decoder_free(&d);
	rec_schema_free(&s);
	out_free(&body);
	out_free(&rec);
	out_free(&sealed);
}

/* ---- damage ---- */

static void test_damage(void)
{
	struct run *run = calloc(1, sizeof(*run));
	struct rec_encoder e;
	struct rec_decoder d;
	struct outbuf rec = { 0 }, rec2 = { 0 };
	char err[256];
	int type, bad = 0;
	long used;

	run_init(run);
	rec_encoder_init(&e);
	add_task(run, 100, 11, "alpha", "/a");
	add_task(run, 200, 22, "beta", "/b");
	grow(run, &run->t[0], 0, 0, 0);
	grow(run, &run->t[1], 0, 0, 0);
	make_snapshot(run);
	rec_encode(&e, &run->snap, 1, &rec);
	tick(run);
	grow(run, &run->t[0], 1000000, 0, 1000);
	grow(run, &run->t[1], 0, 0, 0);
	make_snapshot(run);
	rec_encode(&e, &run->snap, 0, &rec2);

	for (size_t at = 0; at < rec.len; at++) {
		rec_decoder_init(&d, &native);
		rec.data[at] ^= 0x10;
		err[0] = '\0';
		used = rec_decode(&d, (const uint8_t *)rec.data, rec.len, &type, err, sizeof(err));
		rec.data[at] ^= 0x10;
		/* a flipped byte in the length may make the record look longer: more is needed (0) */
		if (used > 0 || (used == 0 && at > 0 && at > 3)) {
			printf("#   a flipped byte at %zu of %zu: %ld, '%s'\n", at, rec.len, used, err);
			bad++;
		}
		rec_decoder_free(&d);
	}
	ok(bad == 0, "a flipped bit in any byte of a key record: refused (-1), or cut short only in its length");
	rec_decoder_init(&d, &native);
	rec.data[rec.len / 2] ^= 0xff;
	err[0] = '\0';
	is_int(rec_decode(&d, (const uint8_t *)rec.data, rec.len, &type, err, sizeof(err)), -1,
	       "a flipped byte in the middle of a record: -1");
	ok(strstr(err, "checksum") != NULL, "the checksum found it: '%s'", err);
	rec.data[rec.len / 2] ^= 0xff;
	is_int(rec_decode(&d, (const uint8_t *)rec.data, rec.len - 1, &type, err, sizeof(err)), 0,
	       "a record cut short: 0 (more may come)");
	is_int(rec_decode(&d, (const uint8_t *)rec.data, 0, &type, err, sizeof(err)), 0, "no bytes: 0");
	rec_decoder_free(&d);

	/* a sample record without the key record before it is passed, not misread */
	rec_decoder_init(&d, &native);
	type = -1;
	is_int(rec_decode(&d, (const uint8_t *)rec2.data, rec2.len, &type, err, sizeof(err)), rec2.len,
	       "a sample record with no key before it is passed whole");
	is_int(type, 0, "and said unreadable (type 0)");
	rec_decoder_free(&d);
	rec_encoder_free(&e);

	/* a row field out of its range (rowfield.h's check) is damage that names it */
	rec_encoder_init(&e);
	make_snapshot(run);
	run->rows[1].nice = 20;
	rec.len = 0;
	rec_encode(&e, &run->snap, 1, &rec);
	rec_decoder_init(&d, &native);
	err[0] = '\0';
	is_int(rec_decode(&d, (const uint8_t *)rec.data, rec.len, &type, err, sizeof(err)), -1,
	       "a nice value of 20 in a record: -1");
	ok(strstr(err, "nice out of range") != NULL, "the message names the field: '%s'", err);
	rec_decoder_free(&d);

	rec_encoder_free(&e);
	cgtree_free(&run->tree);
	out_free(&rec);
	out_free(&rec2);
	free(run);
}

/* ---- --capture ---- */

/* Readings every 0.5 s from 0 to 12 s, a trigger firing with those of 4 s and 6.5 s (just after
 * the 2 s window of the first ended, at 6 s): the file holds the readings from 2 s to 8.5 s, each
 * once, the first a key reading with its rates. */
static void test_capture(void)
{
	struct run *run = calloc(1, sizeof(*run));
	struct recorder_opts o = { 0 };
	struct recorder *rec = NULL;
	struct replay *rp = NULL;
	struct snapshot snap;
	char path[] = "/tmp/test_reccodec.XXXXXX", err[512] = "", got[512] = "", want[512] = "";
	int fd = mkstemp(path), rc, bad = 0, first_rates = -1;

	if (fd < 0) {
		ok(0, "--capture: a temporary file");
		free(run);
		return;
	}
	close(fd);
	unlink(path); /* recfile_create makes it */
	o.path = path;
	o.capture_s = 2;
	run_init(run);
	add_task(run, 100, 11, "alpha", "/a");
	rc = recorder_open(&rec, &o, err, sizeof(err));
	is_int(rc, 0, "--capture: the recorder opens");
	for (int i = 0; rc == 0 && i <= 24; i++) {
		if (i)
			tick(run);
		grow(run, &run->t[0], i ? 1000000 : 0, 0, i ? 1000000 : 0);
		make_snapshot(run);
		if (recorder_write(rec, &run->snap, i == 8 || i == 13 ? "cpu some 100ms 2s" : NULL, err, sizeof(err)) < 0)
			bad++;
	}
	ok(rc == 0 && !bad && recorder_close(rec, err, sizeof(err)) == 0, "--capture: 25 readings written, closed");
	if (rc == 0 && replay_open(&rp, path, err, sizeof(err)) == 0) {
		int n = 0;

		while ((rc = replay_next(rp, &snap, err, sizeof(err))) != 0) {
			char t[16];

			if (rc < 0) {
				bad++;
				continue;
			}
			if (first_rates < 0)
				first_rates = snap.interval_s > 0 && snap.nrows == 1 && !isnan(snap.rows[0].r.kind[DK_CPU].pct);
			snprintf(t, sizeof(t), "%s%.1f", n++ ? " " : "",
				 (double)(snap.wall.tv_sec - W0 / 1000000000) + snap.wall.tv_nsec / 1e9);
			strncat(got, t, sizeof(got) - strlen(got) - 1);
		}
		replay_close(rp);
	} else {
		bad++;
	}
	for (int i = 4; i <= 17; i++) {
		char t[16];

		snprintf(t, sizeof(t), "%s%.1f", i > 4 ? " " : "", i * 0.5);
		strncat(want, t, sizeof(want) - strlen(want) - 1);
	}
	is_str(got, want, "--capture: the readings from 2 s before the first firing to 2 s after the last, each once");
	ok(first_rates == 1, "--capture: the first reading in the file is a key reading, with its interval and rates");
	ok(!bad, "--capture: the file replays without damage");
	unlink(path);
	cgtree_free(&run->tree);
	free(run);
}

/* ---- times ---- */

static void test_times(void)
{
	const int64_t now = 1764079500ll * 1000000000; /* 2025-11-25 14:05:00 UTC */
	static const char *const bad[] = { "tomorrow", "25:00", "10 parsecs ago", "", "10 minutes", "14:60",
					   "2026-13-01", "@", "@12x", "-", "ago", "10m later" };
	struct tm tm = { .tm_year = 2026 - 1900, .tm_mon = 10, .tm_mday = 25, .tm_hour = 14, .tm_min = 5 };
	char err[256], buf[64];
	int64_t t = 0;
	int refused = 0;

	setenv("TZ", "UTC", 1);
	tzset();
	ok(time_parse("10 minutes ago", now, &t, err, sizeof(err)) == 0 && t == now - 600ll * 1000000000,
	   "'10 minutes ago' is now - 600 s");
	ok(time_parse("-10m", now, &t, err, sizeof(err)) == 0 && t == now - 600ll * 1000000000, "'-10m' is too");
	ok(time_parse("10m ago", now, &t, err, sizeof(err)) == 0 && t == now - 600ll * 1000000000, "'10m ago' is too");
	ok(time_parse("1.5h ago", now, &t, err, sizeof(err)) == 0 && t == now - 5400ll * 1000000000,
	   "'1.5h ago' is now - 5400 s");
	ok(time_parse("now", now, &t, err, sizeof(err)) == 0 && t == now, "'now' is now");
	ok(time_parse("@1764079500", now, &t, err, sizeof(err)) == 0 && t == 1764079500ll * 1000000000,
	   "'@1764079500' is that second since the epoch");
	ok(time_parse("2026-11-25 14:05", now, &t, err, sizeof(err)) == 0 && t == (int64_t)timegm(&tm) * 1000000000,
	   "'2026-11-25 14:05' is that minute (local time, here UTC)");
	ok(time_parse("2026-11-25T14:05:07", now, &t, err, sizeof(err)) == 0 &&
		   t == ((int64_t)timegm(&tm) + 7) * 1000000000,
	   "'2026-11-25T14:05:07' too, with seconds");
	ok(time_parse("14:05:30", now, &t, err, sizeof(err)) == 0 && t == now + 30ll * 1000000000,
	   "'14:05:30' is today's");
	ok(time_parse("09:00", now, &t, err, sizeof(err)) == 0 && t == now - (5 * 3600 + 300) * 1000000000ll,
	   "'09:00' is today's");
	ok(time_parse_on("14:05:30", now, now - 3 * 86400ll * 1000000000, &t, err, sizeof(err)) == 0 &&
		   t == now - (3 * 86400 - 30) * 1000000000ll,
	   "time_parse_on: '14:05:30' is on the day given (the reading shown), not today");
	ok(time_parse_on("10m ago", now, now - 3 * 86400ll * 1000000000, &t, err, sizeof(err)) == 0 &&
		   t == now - 600ll * 1000000000,
	   "time_parse_on: '10m ago' is still from now");
	ok(time_parse_on("2026-11-25 14:05", now, now - 3 * 86400ll * 1000000000, &t, err, sizeof(err)) == 0 &&
		   t == (int64_t)timegm(&tm) * 1000000000,
	   "time_parse_on: a date and time is that date and time");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		t = 12345;
		if (time_parse(bad[i], now, &t, err, sizeof(err)) == 0 || !err[0]) {
			printf("#   '%s' was taken as %lld\n", bad[i], (long long)t);
			refused++;
		}
	}
	ok(refused == 0, "'tomorrow', '25:00', '10 parsecs ago', a future time and other bad values are refused, with a message");
	time_format(buf, sizeof(buf), now);
	is_str(buf, "2025-11-25 14:05:00", "time_format: local time, to the second");
}

int main(void)
{
	schema_init();
	test_varints();
	test_run();
	test_head_fields();
	test_sizes();
	test_headers();
	test_foreign_header();
	test_damage();
	test_capture();
	test_times();
	rec_schema_free(&native);
	return tap_done();
}
