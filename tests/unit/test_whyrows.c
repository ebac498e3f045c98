/* test_whyrows.c — --why in the sampler, on the fake kernel (fakekernel.h), without root: each
 * reading's waits from the eBPF side given to the rows (a thread's own in thread mode, its
 * process's threads summed in process mode, those of a thread that ended included), to an exited
 * task's row and then its departed row, and to the cgroups (their tasks and those below summed,
 * a kind lacking only where every task lacks it); the header's state, kinds and waits that did
 * not fit; the delayacct kinds while kernel.task_delayacct is off and for a task that lacks them;
 * a load that fails (one sentence, no waits on any row); the screen's copy of the waits; JSON and
 * CSV of them. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "cgtree.h"
#include "fakekernel.h"
#include "latrows.h"
#include "sampler.h"
#include "snapcopy.h"
#include "tap.h"

#define SEC 1000000000ull
#define US 1000ull
#define MS 1000000ull

static const struct row *find_row(const struct snapshot *s, uint32_t pid, uint32_t tid, int departed)
{
	for (size_t i = 0; i < s->nrows; i++)
		if (s->rows[i].pid == pid && s->rows[i].tid == tid && s->rows[i].departed == departed)
			return &s->rows[i];
	return NULL;
}

static struct sampler *open_why(struct fake_kernel *fk, int threads)
{
	struct sampler_opts o = { .threads = threads, .listen = 1, .departed = 1, .why = 1 };
	struct sampler *s = NULL;
	char err[256] = "";

	if (sampler_open_kernel(&s, &o, &fk->k, err, sizeof(err)) < 0)
		ok(0, "the sampler opens on the fake kernel: %s", err);
	return s;
}

static int tick(struct sampler *s, struct fake_kernel *fk, struct snapshot *snap)
{
	char err[256];

	fk->now += SEC;
	return sampler_tick(s, snap, err, sizeof(err));
}

/* A server (pid 100: threads 100 and 101) and a sleeper (pid 200). */
static void fixture(struct fake_kernel *fk)
{
	struct fk_proc *p;

	fk_init(fk, 100);
	p = fk_add_proc(fk, 100, 1, 0, 10, "server", "server");
	fk_add_thread(p, 100, 10, "server");
	fk_add_thread(p, 101, 20, "worker");
	fk_wait(&p->t[0], DK_CPU, 7, 1); /* as taskstats has it: not what --why reads */
	fk_run(&p->t[0], 100);
	p = fk_add_proc(fk, 200, 1, 0, 30, "sleeper", NULL);
	fk_add_thread(p, 200, 30, "sleeper");
}

/* The waits of the second reading: the server's main thread waited for a CPU three times, its
 * worker once on I/O and twice asleep; an ended thread of the server (102) once for a CPU; a
 * task that has no row (999) once. */
static void waits(struct fake_kernel *fk)
{
	fk_why_wait(fk, 100, 100, DK_CPU, 10 * US);
	fk_why_wait(fk, 100, 100, DK_CPU, 100 * US);
	fk_why_wait(fk, 100, 100, DK_CPU, 1 * MS);
	fk_why_wait(fk, 101, 100, DK_IO, 5 * MS);
	fk_why_wait(fk, 101, 100, LAT_BLOCKED, 40 * MS);
	fk_why_wait(fk, 101, 100, LAT_BLOCKED, 60 * MS);
	fk_why_wait(fk, 102, 100, DK_CPU, 2 * MS);
	fk_why_wait(fk, 999, 999, DK_CPU, 3 * MS);
}

static uint64_t count_of(const struct row *r, int kind)
{
	const struct lat_hist *h = r ? lat_waits_get(r->lat, kind) : NULL;

	return h ? h->count : 0;
}

static void test_threads(void)
{
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s;
	const struct row *r;
	const struct lat_hist *h;

	fixture(&fk);
	s = open_why(&fk, 1);
	ok(fk.why_loaded && sampler_why_notice(s) == NULL, "--why loads the eBPF side at the opening, nothing to say");
	is_int(tick(s, &fk, &snap), 0, "the first reading");
	is_int(snap.why.state, WHY_ON, "the header says --why is on");
	is_int(snap.why.measured, LAT_ALL, "every kind measured while delay accounting is on");
	waits(&fk);
	is_int(tick(s, &fk, &snap), 0, "the second reading");
	is_int(fk.why_reads, 2, "one read of the maps a reading");
	r = find_row(&snap, 100, 100, 0);
	h = r ? lat_waits_get(r->lat, DK_CPU) : NULL;
	ok(h && h->count == 3 && h->total_ns == 1110 * US && h->max_ns == 1 * MS, "thread 100: its own three CPU waits");
	ok(h && h->slot[3] == 1 && h->slot[6] == 1 && h->slot[9] == 1, "in their slots");
	ok(r && r->lat && r->lat->kinds == 1u << DK_CPU, "and no other kind");
	r = find_row(&snap, 100, 101, 0);
	ok(count_of(r, DK_IO) == 1 && count_of(r, LAT_BLOCKED) == 2 && count_of(r, DK_CPU) == 0,
	   "thread 101: one I/O wait and two sleeps, no CPU wait");
	r = find_row(&snap, 200, 200, 0);
	ok(r && r->lat == NULL, "the sleeper did not wait: no waits, nothing lacking");
	sampler_close(s);
}

static void test_processes(void)
{
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s;
	const struct row *r;
	const struct lat_hist *h;

	fixture(&fk);
	s = open_why(&fk, 0);
	tick(s, &fk, &snap);
	waits(&fk);
	tick(s, &fk, &snap);
	r = find_row(&snap, 100, 0, 0);
	h = r ? lat_waits_get(r->lat, DK_CPU) : NULL;
	ok(h && h->count == 4 && h->total_ns == 3110 * US && h->max_ns == 2 * MS,
	   "process 100 sums its threads' CPU waits, the ended thread's included");
	ok(count_of(r, DK_IO) == 1 && count_of(r, LAT_BLOCKED) == 2, "and its worker's I/O and sleeps");
	ok(find_row(&snap, 999, 0, 0) == NULL, "a task without a row gets none");
	sampler_close(s);
}

/* A thread that exits: its last waits go to its exited row; waits read after it left the table
 * go to its departed row. */
static void test_departed(void)
{
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s;
	const struct row *r;

	fixture(&fk);
	s = open_why(&fk, 1);
	tick(s, &fk, &snap);
	tick(s, &fk, &snap);
	fk_exit(&fk, &fk.p[0], &fk.p[0].t[1]);
	fk_why_wait(&fk, 101, 100, LAT_BLOCKED, 7 * MS);
	tick(s, &fk, &snap);
	r = find_row(&snap, 100, 101, 0);
	ok(r && r->exited && count_of(r, LAT_BLOCKED) == 1, "the exited thread's row has its last wait");
	fk_why_wait(&fk, 101, 100, DK_CPU, 1 * MS);
	tick(s, &fk, &snap);
	r = find_row(&snap, 100, 101, 1);
	ok(r && count_of(r, DK_CPU) == 1, "a wait read after it left goes to its departed row");
	sampler_close(s);
}

static void test_header(void)
{
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s;
	const struct row *r;

	fixture(&fk);
	fk.why_kinds = (lat_mask)(1u << DK_CPU | 1u << DK_IO | 1u << LAT_BLOCKED);
	fk.why_note = "--why: swapin, reclaim, thrashing, compact, wpcopy, irq not measured: refused";
	s = open_why(&fk, 1);
	is_str(sampler_why_notice(s), fk.why_note, "the kinds left out are said once");
	fk.why_lost = 5;
	tick(s, &fk, &snap);
	ok(snap.why.attached == fk.why_kinds && snap.why.measured == fk.why_kinds,
	   "the header has the kinds attached, and measured");
	is_str(snap.why.reason, fk.why_note, "and why the others are not");
	ok(snap.why.not_fitted == 5 && snap.why.not_fitted_total == 5, "waits that did not fit: 5");
	fk.why_lost = 8;
	fk.delayacct = DELAYACCT_OFF;
	fk.why_kinds = LAT_ALL;
	tick(s, &fk, &snap);
	ok(snap.why.not_fitted == 3 && snap.why.not_fitted_total == 8, "3 more in the next interval, 8 in all");
	sampler_close(s);

	fixture(&fk);
	s = open_why(&fk, 1);
	fk.delayacct = DELAYACCT_OFF;
	tick(s, &fk, &snap);
	is_int(snap.why.measured, LAT_ALL & ~LAT_DELAYACCT_KINDS,
	       "kernel.task_delayacct off: the delayacct kinds are not measured (the kernel does not call them)");
	fk.delayacct = DELAYACCT_ON;
	tick(s, &fk, &snap);
	r = find_row(&snap, 100, 100, 0);
	ok(r && r->lat && (r->lat->unavail & LAT_DELAYACCT_KINDS) == LAT_DELAYACCT_KINDS,
	   "switched on later: a task read while it was off lacks them, never shows 0");
	sampler_close(s);

	fixture(&fk);
	fk.why_err = -EPERM;
	fk.why_msg = "--why needs CAP_BPF and CAP_PERFMON (or root): wait latencies are not measured.";
	s = open_why(&fk, 0);
	is_str(sampler_why_notice(s), fk.why_msg, "a load refused: its one sentence");
	fk_why_wait(&fk, 100, 100, DK_CPU, 10 * US);
	tick(s, &fk, &snap);
	ok(snap.why.state == WHY_UNAVAILABLE && snap.why.reason && strcmp(snap.why.reason, fk.why_msg) == 0,
	   "the header says unavailable, and why");
	is_int(fk.why_reads, 0, "nothing is read");
	r = find_row(&snap, 100, 0, 0);
	ok(r && r->lat == NULL && snap.nrows == 2, "the rows are there, without waits");
	sampler_close(s);
}

/* Rows in cgroups: /a has two tasks, /a/b one, /c one; the tasks of /c lack swapin. */
static void test_cgroups(void)
{
	struct cgroup_facts facts[4] = { { .path = (char *)"/" }, { .path = (char *)"/a" }, { .path = (char *)"/a/b" },
					 { .path = (char *)"/c" } };
	struct row rows[4];
	struct lat_hist hist[4];
	struct lat_waits w[4];
	struct cgtree t;
	const char *cg[4] = { "/a", "/a", "/a/b", "/c" };
	size_t n;

	memset(rows, 0, sizeof(rows));
	memset(hist, 0, sizeof(hist));
	memset(&t, 0, sizeof(t));
	for (int i = 0; i < 4; i++) {
		rows[i].pid = (uint32_t)(10 + i);
		rows[i].cgroup = cg[i];
		rows[i].comm = "x";
		rows[i].user = "root";
		rates_unavailable(&rows[i].r);
		hist[i].count = (uint64_t)i + 1;
		hist[i].total_ns = ((uint64_t)i + 1) * MS;
		hist[i].max_ns = ((uint64_t)i + 1) * MS;
		hist[i].slot[lat_slot_of(((uint64_t)i + 1) * MS)] = (uint32_t)i + 1;
		w[i] = (struct lat_waits){ .kinds = 1u << DK_CPU, .h = &hist[i] };
		rows[i].lat = &w[i];
	}
	w[3].unavail = 1u << DK_SWAPIN;
	rows[1].lat = NULL; /* a task of /a that did not wait */
	n = cgtree_build(&t, facts, 4, rows, 4, 1);
	cgtree_sum_latency(&t, rows, 4);
	is_int((int)n, 4, "four cgroups");
	ok(count_of(&t.rows[0], DK_CPU) == 1 + 3 + 4, "the root sums every task's waits");
	ok(count_of(&t.rows[1], DK_CPU) == 1 + 3, "/a its task's and /a/b's");
	ok(t.rows[1].lat && lat_waits_get(t.rows[1].lat, DK_CPU)->max_ns == 3 * MS, "with the longest of them");
	ok(count_of(&t.rows[2], DK_CPU) == 3 && count_of(&t.rows[3], DK_CPU) == 4, "/a/b and /c their own");
	ok(t.rows[3].lat && t.rows[3].lat->unavail == 1u << DK_SWAPIN, "/c lacks swapin: its only task does");
	ok(t.rows[0].lat && t.rows[0].lat->unavail == 0, "the root does not: other tasks have it");
	cgtree_free(&t);
}

/* A tree that grows from one reading to the next (20 cgroups, then 30) keeps room for every
 * cgroup's histograms: each sums its one task's waits (the sanitizer build would see an overrun). */
static void test_cgroups_grow(void)
{
	struct cgroup_facts facts[31];
	char paths[31][16];
	struct row rows[30];
	struct lat_hist hist[30];
	struct lat_waits w[30];
	struct cgtree t;
	int good = 1;

	memset(&t, 0, sizeof(t));
	memset(rows, 0, sizeof(rows));
	memset(hist, 0, sizeof(hist));
	facts[0] = (struct cgroup_facts){ .path = (char *)"/" };
	for (int i = 0; i < 30; i++) {
		snprintf(paths[i], sizeof(paths[i]), "/g%02d", i);
		facts[i + 1] = (struct cgroup_facts){ .path = paths[i] };
		rows[i].pid = (uint32_t)(100 + i);
		rows[i].cgroup = paths[i];
		rows[i].comm = "x";
		rows[i].user = "root";
		rates_unavailable(&rows[i].r);
		hist[i].count = 1;
		hist[i].total_ns = ((uint64_t)i + 1) * MS;
		hist[i].max_ns = hist[i].total_ns;
		hist[i].slot[lat_slot_of(hist[i].total_ns)] = 1;
		w[i] = (struct lat_waits){ .kinds = 1u << LAT_BLOCKED, .h = &hist[i] };
		rows[i].lat = &w[i];
	}
	for (int round = 0; round < 2; round++) {
		int ncg = round ? 30 : 20;
		size_t n = cgtree_build(&t, facts, (size_t)ncg + 1, rows, (size_t)ncg, 1);

		cgtree_sum_latency(&t, rows, (size_t)ncg);
		good &= n == (size_t)ncg + 1 && count_of(&t.rows[0], LAT_BLOCKED) == (uint64_t)ncg;
		for (int i = 1; i <= ncg; i++)
			good &= count_of(&t.rows[i], LAT_BLOCKED) == 1 &&
				lat_waits_get(t.rows[i].lat, LAT_BLOCKED)->total_ns == (uint64_t)i * MS;
	}
	ok(good, "a tree of 20 cgroups, then of 30: every cgroup has its task's wait, the root all of them");
	cgtree_free(&t);
}

/* The screen's copy keeps the waits when the sampler moves on. */
static void test_copy(void)
{
	struct fake_kernel fk;
	struct snapshot snap;
	struct snapcopy c;
	struct sampler *s;
	const struct row *r;

	fixture(&fk);
	s = open_why(&fk, 1);
	tick(s, &fk, &snap);
	waits(&fk);
	tick(s, &fk, &snap);
	snapcopy_init(&c);
	snapcopy_take(&c, &snap, 1);
	tick(s, &fk, &snap); /* no waits now: the sampler's rows have none */
	r = find_row(&c.snap, 100, 100, 0);
	ok(r && count_of(r, DK_CPU) == 3 && lat_waits_get(r->lat, DK_CPU)->max_ns == 1 * MS,
	   "the copy keeps thread 100's waits after the next reading");
	ok(r && (const void *)r->lat >= (const void *)c.lat && (const void *)r->lat < (const void *)(c.lat + c.caplat),
	   "in the copy's own memory");
	ok(c.snap.why.state == WHY_ON && c.snap.why.measured == LAT_ALL, "and the header's word on --why");
	snapcopy_free(&c);
	sampler_close(s);
}

/* JSON and CSV of one row's waits. */
static void test_output(void)
{
	struct fake_kernel fk;
	struct snapshot snap;
	struct sampler *s;
	struct options o;
	struct batch_printer b;
	const char *line;

	fixture(&fk);
	fk.why_kinds = (lat_mask)(LAT_ALL & ~(lat_mask)(1u << DK_IRQ));
	s = open_why(&fk, 1);
	tick(s, &fk, &snap);
	waits(&fk);
	tick(s, &fk, &snap);
	options_defaults(&o);
	o.format = FORMAT_JSON;
	o.threads = 1;
	o.why = 1;
	batch_init(&b, &o);
	batch_format(&b, &snap);
	out_char(&b.out, '\0');
	ok(strstr(b.out.data, "\"why\":{\"state\":\"on\",\"kinds\":[\"cpu\",\"io\",\"swapin\",\"reclaim\",\"thrashing\","
			      "\"compact\",\"wpcopy\",\"blocked\"],\"unavailable\":[\"irq\"],\"reason\":null,"
			      "\"not_fitted\":0,\"not_fitted_total\":0}") != NULL,
	   "the JSON header says what --why measures");
	line = strstr(b.out.data, "\"tid\":100,");
	ok(line && strstr(line, "\"why\":{\"latency\":{\"cpu\":{\"count\":3,\"total_ms\":1.110,\"p50_ms\":0.096,"
				"\"p90_ms\":0.854,\"p99_ms\":0.985,\"max_ms\":1.000,\"buckets\":[[0.016,1],[0.128,1],"
				"[1.024,1]]},\"io\":{\"count\":0,\"total_ms\":0.000,\"p50_ms\":null,\"p90_ms\":null,"
				"\"p99_ms\":null,\"max_ms\":null,\"buckets\":[]},"),
	   "thread 100's record: its CPU waits, with buckets [le_ms, count]; no I/O wait");
	ok(line && strstr(line, "\"irq\":null,\"blocked\":{\"count\":0,"), "a kind not measured is null, never 0");
	batch_free(&b);

	o.format = FORMAT_CSV;
	batch_init(&b, &o);
	batch_format(&b, &snap);
	out_char(&b.out, '\0');
	ok(strstr(b.out.data, ",total_pct,cpu_wait_count,cpu_wait_total_ms,cpu_p50_ms,cpu_p90_ms,cpu_p99_ms,"
			      "cpu_wait_max_ms,io_wait_count,") != NULL &&
		   strstr(b.out.data, ",blocked_p99_ms,blocked_wait_max_ms,exited,") != NULL,
	   "CSV: six columns a kind, blocked last");
	ok(strstr(b.out.data, ",3,1.110,0.096,0.854,0.985,1.000,0,0.000,,,,,0,") != NULL,
	   "thread 100's line: its CPU waits, no I/O wait (empty percentiles)");
	ok(strstr(b.out.data, ",0.000,,,,,,,,,,,0,0.000,,,,") != NULL, "irq not measured: six empty fields between wpcopy and blocked");
	batch_free(&b);
	sampler_close(s);
}

int main(void)
{
	test_threads();
	test_processes();
	test_departed();
	test_header();
	test_cgroups();
	test_cgroups_grow();
	test_copy();
	test_output();
	return tap_done();
}
