/* test_htmlrep.c — htmlrep.c and htmlpage.c: the readings of a window kept in buckets (a day
 * of readings draws as at most 600 points, the totals exact), the tasks, command names and cgroups
 * that waited most, the pressure, the trigger events with who stalled, the off-CPU stacks (a flame
 * graph of each event's and of the tasks' whose stacks add up longest, or the sentence of readings
 * without any), and the page; command mode's section of stacks (a graph per state, or a
 * sentence). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "htmlrep.h"
#include "rowfixture.h"
#include "tap.h"
#include "xalloc.h"

#define T0 1767225600 /* 2026-01-01 00:00:00 UTC */

/* A reading at second i: three processes, "big" waiting 40% on the CPU, "small" 10%, "io" 20%
 * on I/O, in two cgroups; CPU pressure some 25%. */
static void reading(struct snapshot *snap, struct row *rows, long i)
{
	memset(snap, 0, sizeof(*snap));
	snap->wall.tv_sec = T0 + i;
	snap->interval_s = i ? 1.0 : 0;
	snap->delayacct = DELAYACCT_ON;
	snap->nprocs = 3;
	snap->nthreads = 3;
	rows[0] = make_row(100, 0, "big", 40, 0);
	rows[1] = make_row(200, 0, "small", 10, 0);
	rows[2] = make_row(300, 0, "<img src=x onerror=alert(1)>", 0, 20);
	rows[0].cgroup = "/a.slice";
	rows[1].cgroup = "/b.slice";
	rows[2].cgroup = "/b.slice";
	rows[2].cmdline = "\"><script>x</script>";
	snap->rows = rows;
	snap->nrows = 3;
	snap->psi.res[PSI_CPU].present = 1;
	snap->psi.res[PSI_CPU].some.present = 1;
	snap->psi.res[PSI_CPU].some.pct = 25;
}

static void test_day(void)
{
	struct htmlrep *h = xmalloc(sizeof(*h));
	struct snapshot snap;
	struct row rows[3];
	const struct hr_task *top[HTMLREP_TABLE];
	const struct hr_group *cg[HTMLREP_TABLE];
	double t[SVG_MAX_POINTS], v[SVG_MAX_POINTS];
	size_t n;

	htmlrep_init(h);
	for (long i = 0; i <= 86400; i++) {
		reading(&snap, rows, i);
		htmlrep_add(h, &snap);
	}
	is_int(h->nreadings, 86400, "every reading with an interval counts (the first has none)");
	ok(h->nbuckets <= SVG_MAX_POINTS && h->nbuckets > SVG_MAX_POINTS / 4, "a day in at most 600 buckets (%u)",
	   h->nbuckets);
	n = htmlrep_top_tasks(h, DK_CPU, top, HTMLREP_TABLE);
	is_int(n, 2, "two tasks waited on the CPU");
	is_str(top[0]->comm, "big", "the one that waited most first");
	is_num(top[0]->d.total_ns[DK_CPU] / 1e9, 0.4 * 86400, 1e-3, "its total over the day is exact");
	n = htmlrep_delay_series(h, &top[0]->d, DK_CPU, t, v);
	ok(n <= SVG_MAX_POINTS && n == h->nbuckets, "its series: one point a bucket (%zu)", n);
	is_num(v[n / 2], 40, 1e-3, "each point its share of the bucket's time");
	n = htmlrep_top_cgroups(h, DK_IO, cg, HTMLREP_TABLE);
	ok(n == 1 && strcmp(cg[0]->name, "/b.slice") == 0, "the cgroup of the task that waited on I/O");
	n = htmlrep_top_cgroups(h, DK_CPU, cg, HTMLREP_TABLE);
	ok(n == 2 && strcmp(cg[0]->name, "/a.slice") == 0, "cgroups by their tasks' waits, largest first");
	n = htmlrep_psi_series(h, PSI_CPU, 0, t, v);
	is_num(v[0], 25, 1e-6, "the pressure's share of each bucket");
	n = htmlrep_psi_series(h, PSI_MEMORY, 0, t, v);
	ok(n > 0 && isnan(v[0]), "a resource not recorded has no values");
	ok((h->kinds & (1u << DK_CPU)) && (h->kinds & (1u << DK_IO)) && !(h->kinds & (1u << DK_SWAPIN)),
	   "the kinds waited in");
	htmlrep_free(h);
	free(h);
}

/* Command names: their tasks' delays added, the tasks of a name that waited counted once a kind
 * (a pid used again is another task), a task that execs another program counted under each name
 * it waited with. */
static void test_commands(void)
{
	struct htmlrep *h = xmalloc(sizeof(*h));
	struct snapshot snap;
	struct row rows[4];
	const struct hr_group *top[HTMLREP_TABLE];
	size_t n;

	htmlrep_init(h);
	for (long i = 1; i <= 10; i++) {
		memset(&snap, 0, sizeof(snap));
		snap.wall.tv_sec = T0 + i;
		snap.interval_s = 1.0;
		rows[0] = make_row(100, 0, "cc1", 20, 0);
		rows[1] = make_row(101, 0, "cc1", 30, 10);
		rows[2] = make_row(200, 0, "postgres", 40, 0);
		rows[3] = make_row(300, 0, i <= 5 ? "sh" : "cc1", 2, 0); /* sh execs cc1 */
		rows[1].start_ns = i <= 5 ? 1 : 2; /* 101 ends and its pid is used again by another cc1 */
		snap.rows = rows;
		snap.nrows = 4;
		htmlrep_add(h, &snap);
	}
	n = htmlrep_top_commands(h, DK_CPU, top, HTMLREP_TABLE);
	ok(n == 3 && strcmp(top[0]->name, "cc1") == 0 && strcmp(top[1]->name, "postgres") == 0 &&
	   strcmp(top[2]->name, "sh") == 0, "cc1 (20 + 30 + 2 of sh's exec), postgres (40), sh: the largest first");
	is_num(top[0]->d.total_ns[DK_CPU] / 1e9, 10 * 0.5 + 5 * 0.02, 1e-6, "cc1's seconds: its tasks' added");
	is_int(top[0]->tasks[DK_CPU], 4, "cc1's tasks that waited on the CPU: 100, both 101s and 300 after its exec");
	is_int(top[2]->tasks[DK_CPU], 1, "sh's: 300 before it");
	n = htmlrep_top_commands(h, DK_IO, top, HTMLREP_TABLE);
	ok(n == 1 && top[0]->tasks[DK_IO] == 2 && top[0]->d.total_ns[DK_IO] == 1000000000ull,
	   "I/O: cc1 alone, of the two 101s (1 s)");
	htmlrep_free(h);
	free(h);
}

/* A gap in the readings breaks the lines. */
static void test_gap(void)
{
	struct htmlrep *h = xmalloc(sizeof(*h));
	struct snapshot snap;
	struct row rows[3];
	double t[SVG_MAX_POINTS], v[SVG_MAX_POINTS];
	size_t n, nans = 0;

	htmlrep_init(h);
	for (long i = 0; i <= 100; i++) {
		reading(&snap, rows, i < 50 ? i : i + 200);
		htmlrep_add(h, &snap);
	}
	n = htmlrep_psi_series(h, PSI_CPU, 0, t, v);
	for (size_t i = 0; i < n; i++)
		nans += isnan(v[i]) != 0;
	is_int(nans, 1, "200 seconds without readings: one break in the line");
	htmlrep_free(h);
	free(h);
}

/* How many times needle is in s. */
static int count(const char *s, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* The page of a day of readings, every kind and the pressure of every resource drawn: under 2 MB,
 * no line of more than 600 points. */
static void test_day_page(void)
{
	struct htmlrep *h = xmalloc(sizeof(*h));
	struct htmlrep_facts f = { .host = "h", .exit_status = -1 };
	struct snapshot snap;
	struct row rows[12];
	char comm[12][16], cg[12][32];
	struct outbuf o = { 0 };
	const char *p;
	int most = 0, lines = 0;

	htmlrep_init(h);
	for (long i = 0; i <= 86400; i++) {
		memset(&snap, 0, sizeof(snap));
		snap.wall.tv_sec = T0 + i;
		snap.interval_s = i ? 1.0 : 0;
		for (int r = 0; r < PSI_COUNT; r++) {
			snap.psi.res[r].present = snap.psi.res[r].some.present = snap.psi.res[r].full.present = 1;
			snap.psi.res[r].some.pct = (double)(i % 97);
			snap.psi.res[r].full.pct = (double)(i % 13);
		}
		for (int t = 0; t < 12; t++) {
			snprintf(comm[t], sizeof(comm[t]), "task%d", t);
			snprintf(cg[t], sizeof(cg[t]), "/cg%d.slice", t);
			rows[t] = make_row((uint32_t)(100 + t), 0, comm[t], (double)((i + t) % 50), 0);
			rows[t].cgroup = cg[t];
			for (int k = 0; k < DK_COUNT; k++)
				rows[t].r.kind[k].pct = (float)((i * (k + 1) + t) % 40);
			rows[t].r.total_pct = 1;
		}
		snap.rows = rows;
		snap.nrows = 12;
		htmlrep_add(h, &snap);
	}
	htmlrep_page(&o, h, &f);
	out_char(&o, '\0');
	for (p = strstr(o.data, "data-points=\""); p; p = strstr(p + 1, "data-points=\"")) {
		int n = atoi(p + 13);

		most = n > most ? n : most;
		lines++;
	}
	is_int(lines, 7 + DK_COUNT * 10, "every line drawn: 7 of pressure, 5 tasks and 5 cgroups a kind");
	ok(most <= SVG_MAX_POINTS && most > SVG_MAX_POINTS / 4, "no line of more than 600 points (%d)", most);
	ok(o.len < 2 * 1024 * 1024, "a day of every kind makes a page under 2 MB (%zu bytes)", o.len);
	out_free(&o);
	htmlrep_free(h);
	free(h);
}

static void test_events_and_page(void)
{
	struct htmlrep *h = xmalloc(sizeof(*h));
	struct htmlrep_facts f = { .source = "x.rec", .host = "<h1>host", .writer = "delaytop 0.1.0", .exit_status = -1 };
	struct snapshot snap;
	struct row rows[3];
	struct outbuf o = { 0 };

	htmlrep_init(h);
	for (long i = 0; i < 10; i++) {
		reading(&snap, rows, i);
		if (i == 5)
			snap.events = "io some 150ms 1s\ncpu some 100ms 1s /b.slice";
		htmlrep_add(h, &snap);
	}
	is_int(h->nevents, 2, "two triggers fired");
	ok(h->nevents == 2 && h->events[0].ntasks == 1 &&
		   strcmp(h->events[0].task[0], "<img src=x onerror=alert(1)>") == 0,
	   "the I/O trigger: the task that waited on I/O stalled");
	ok(h->nevents == 2 && h->events[1].ntasks == 2 && strcmp(h->events[1].task[0], "big") == 0,
	   "the CPU trigger: big stalled most");
	htmlrep_page(&o, h, &f);
	out_char(&o, '\0');
	ok(strncmp(o.data, "<!DOCTYPE html>", 15) == 0, "a page");
	ok(!strstr(o.data, "<img") && !strstr(o.data, "<script") && !strstr(o.data, "<h1>host"),
	   "no element from a name or the host");
	ok(strstr(o.data, "&lt;img src=x onerror=alert(1)&gt;") != NULL, "the name as text");
	ok(strstr(o.data, "title=\"&quot;&gt;&lt;script&gt;x&lt;/script&gt;\"") != NULL,
	   "the command line in an attribute, quotes escaped");
	ok(strstr(o.data, "id=\"top-tasks-cpu\"") && strstr(o.data, "id=\"top-cgroups-io\"") &&
		   strstr(o.data, "id=\"psi-cpu\"") && !strstr(o.data, "id=\"psi-memory\""),
	   "tables of the kinds waited in, charts of the pressure recorded");
	ok(strstr(o.data, "<tr class=\"event\">") && strstr(o.data, "io some 150ms 1s"), "the events' table");
	ok(!strstr(o.data, "<script") && count(o.data, "http") == count(o.data, "xmlns=\"http://www.w3.org/2000/svg\""),
	   "no script, nothing fetched (the only URL: SVG's namespace)");
	out_free(&o);
	htmlrep_free(h);
	free(h);
}

/* --why: "big" waits each second on the CPU (slot 4, 5 or 6 by turn) and now and then long (slot
 * 20); "small" blocked. For 3,000 readings the cells merge with the buckets and keep every wait,
 * in order, one a (bucket, slot). */
static void test_latency(void)
{
	struct htmlrep *h = xmalloc(sizeof(*h));
	struct snapshot snap;
	struct row rows[3];
	struct lat_hist hist[2];
	struct lat_waits big = { 1u << DK_CPU, 0, &hist[0] }, small = { 1u << LAT_BLOCKED, 0, &hist[1] };
	const struct hr_task *top[HTMLREP_TABLE];
	const struct hr_group *cg[HTMLREP_TABLE];
	uint64_t want = 0, got = 0;
	int ordered = 1, first, last;

	htmlrep_init(h);
	for (long i = 0; i <= 3000; i++) {
		reading(&snap, rows, i);
		memset(hist, 0, sizeof(hist));
		hist[0].slot[4 + i % 3] = 1;
		hist[0].slot[20] = i % 100 == 0 ? 2 : 0;
		hist[0].count = 1 + hist[0].slot[20];
		hist[0].total_ns = 20000 + hist[0].slot[20] * 1500000000ull;
		hist[1].slot[12] = 3;
		hist[1].count = 3;
		hist[1].total_ns = 3 * 6000000ull;
		rows[0].lat = &big;
		rows[1].lat = &small;
		snap.why.state = WHY_ON;
		htmlrep_add(h, &snap);
		if (i)
			want += hist[0].count;
	}
	ok(h->why && h->lat_kinds == (1u << DK_CPU | 1u << LAT_BLOCKED), "--why's kinds: cpu and blocked (%#x)",
	   h->lat_kinds);
	is_int(htmlrep_top_lat_tasks(h, DK_CPU, top, HTMLLAT_TOP), 1, "one task waited on the CPU");
	is_str(top[0]->comm, "big", "big");
	for (uint32_t i = 0; i < top[0]->lat->k[DK_CPU].n; i++) {
		const struct hl_cell *c = &top[0]->lat->k[DK_CPU].c[i], *p = i ? c - 1 : NULL;

		got += c->count;
		if (c->bucket >= h->nbuckets || (p && (p->bucket > c->bucket || (p->bucket == c->bucket && p->slot >= c->slot))))
			ordered = 0;
	}
	is_int(got, want, "the cells hold every wait of the 3,000 readings");
	is_int(top[0]->lat->k[DK_CPU].count, want, "and the kind's count says so");
	ok(ordered, "the cells in order of bucket and slot, one a (bucket, slot), in the buckets used");
	ok(top[0]->lat->k[DK_CPU].n <= 4 * h->nbuckets, "at most 4 cells a bucket (%u in %u buckets)",
	   top[0]->lat->k[DK_CPU].n, h->nbuckets);
	ok(htmllat_slots(top[0]->lat, DK_CPU, &first, &last) && first == 4 && last == 20, "slots 4 to 20 (%d to %d)",
	   first, last);
	is_int(htmlrep_top_lat_cgroups(h, LAT_BLOCKED, cg, HTMLLAT_TOP), 1, "one cgroup blocked");
	is_str(cg[0]->name, "/b.slice", "small's");
	is_int(cg[0]->lat->k[LAT_BLOCKED].count, 3000 * 3, "its waits, every one");
	htmlrep_free(h);
	free(h);
}

/* Off-CPU stacks, as a replay gives them at a trigger's reading: at readings 3 and 7 a CPU and an
 * I/O trigger fire, and the tasks they name carry stacks: "big" and "small" (the CPU's), the
 * hostile task (the I/O's). */
static void test_stacks(void)
{
	static const char *const fsync[] = { "do_fsync+0x3c", "fsync", "main", NULL };
	static const char *const pipe[] = { "anon_pipe_read+0x1a4", "read", "<svg onload=alert(1)>", NULL };
	const struct stk_stack bs[] = { { 30, 3, STK_D, 3, fsync, 0 }, { 10, 1, STK_S, 3, pipe, 0 } };
	const struct stk_stack ss[] = { { 8, 2, STK_S, 3, pipe, 0 } };
	const struct stk_stack hs[] = { { 5, 1, STK_S, 3, pipe, 0 } };
	const struct stk_list bl = { 2, bs }, sl = { 1, ss }, hl = { 1, hs };
	struct htmlrep *h = xmalloc(sizeof(*h));
	struct htmlrep_facts f = { .exit_status = -1 };
	const struct hr_task *top[HTMLREP_FLAMES];
	struct snapshot snap;
	struct row rows[3];
	struct outbuf o = { 0 };
	size_t n;

	htmlrep_init(h);
	htmlrep_page(&o, h, &f);
	out_char(&o, '\0');
	ok(strstr(o.data, "<p class=\"none\" id=\"stacks-none\">These readings carry no off-CPU stacks. A recording "
			  "keeps them when made with --why and --trigger") && !strstr(o.data, "<svg class=\"flame\""),
	   "without stacks: one sentence saying how to get them, no flame graph");
	out_free(&o);
	for (long i = 0; i < 10; i++) {
		reading(&snap, rows, i);
		if (i == 3 || i == 7) {
			snap.events = "cpu some 100ms 1s\nio some 150ms 1s";
			rows[0].stacks = &bl;
			rows[1].stacks = &sl;
			rows[2].stacks = &hl;
		}
		htmlrep_add(h, &snap);
	}
	is_int(h->nstacks, 8, "the stacks of two readings: 2 + 1 + 1 each");
	ok(h->nevents == 4 && h->events[0].flame && h->events[1].flame, "each event has its flame graph");
	is_num(h->nevents && h->events[0].flame ? flame_ms(h->events[0].flame) : 0, 48, 1e-9,
	       "the CPU event's: the stacks of the tasks it names, big's and small's, 40 + 8 ms");
	is_num(h->nevents > 1 && h->events[1].flame ? flame_ms(h->events[1].flame) : 0, 5, 1e-9,
	       "the I/O event's: the hostile task's, 5 ms");
	n = htmlrep_top_stack_tasks(h, top, HTMLREP_FLAMES);
	ok(n == 3 && strcmp(top[0]->comm, "big") == 0 && flame_ms(top[0]->flame) == 80,
	   "the tasks with stacks, big first with 80 ms over the window (2 x 40)");
	ok(n == 3 && flame_ms(top[1]->flame) == 16 && flame_ms(top[2]->flame) == 10, "then small, 16, the hostile, 10");
	htmlrep_page(&o, h, &f);
	out_char(&o, '\0');
	ok(strstr(o.data, "id=\"flame-event-1\"") && strstr(o.data, "id=\"flame-event-4\"") &&
		   strstr(o.data, "id=\"flame-task-100\"") && strstr(o.data, "id=\"flame-task-300\"") &&
		   strstr(o.data, "id=\"flame-task-200\""),
	   "the page draws the events' and the three tasks' flame graphs");
	ok(strstr(o.data, "<title>big (100)\n40.0 ms, 83.3%, waits: 4</title>") != NULL,
	   "the CPU event's graph has a bar per task: big, its 40 ms of the 48");
	ok(!strstr(o.data, "<svg onload") && strstr(o.data, "<title>&lt;svg onload=alert(1)&gt;\n") &&
		   strstr(o.data, "<title>&lt;img src=x onerror=alert(1)&gt; (300)\n"),
	   "a frame and a task named as markup are text");
	ok(!strstr(o.data, "id=\"stacks-none\""), "no sentence of missing stacks");
	out_free(&o);
	htmlrep_free(h);
	free(h);
}

/* A trigger that fires at each of 15 readings, its task's stacks longer each time: the 10
 * longest events keep their flame graph, and the page says 5 more had stacks. */
static void test_event_cap(void)
{
	static const char *const frames[] = { "do_fsync+0x3c", "main", NULL };
	struct stk_stack st[1] = { { 0, 1, STK_D, 2, frames, 0 } };
	const struct stk_list l = { 1, st };
	struct htmlrep *h = xmalloc(sizeof(*h));
	struct htmlrep_facts f = { .exit_status = -1 };
	struct snapshot snap;
	struct row rows[3];
	struct outbuf o = { 0 };
	int kept = 1;
	char id[64];

	htmlrep_init(h);
	for (long i = 0; i < 15; i++) {
		reading(&snap, rows, i);
		snap.events = "cpu some 100ms 1s";
		st[0].ms = i == 2 ? 100 : 10 + i; /* the third the longest of all */
		rows[0].stacks = &l;
		htmlrep_add(h, &snap);
	}
	for (size_t i = 0; i < h->nevents; i++)
		kept &= (h->events[i].flame != NULL) == (i == 2 || i >= 6);
	ok(h->nevents == 15 && kept, "of 15 events, the 10 longest keep their flame graph: the third and the last 9");
	is_int(h->flames_dropped, 5, "5 gave way");
	htmlrep_page(&o, h, &f);
	out_char(&o, '\0');
	ok(strstr(o.data, "<p class=\"none\" id=\"flames-dropped\">5 more events had stacks: drawn are the 10 whose "
			  "stacks add up longest.</p>") != NULL,
	   "the page says 5 more events had stacks");
	for (int i = 1; i <= 15; i++) {
		snprintf(id, sizeof(id), "id=\"flame-event-%d\"", i);
		kept &= !strstr(o.data, id) == !(i == 3 || i >= 7);
	}
	ok(kept, "and draws the 10 kept, in order of time");
	out_free(&o);
	htmlrep_free(h);
	free(h);
}

/* Command mode's section (htmlrep_run_stacks): a graph per state present, D, S then R, rooted at
 * the command line (escaped); the sentences without --why, where it could not run, without a
 * stack; the stacks that did not fit said. */
static void test_run_stacks(void)
{
	static char *sl[] = { "do_nanosleep+0x5e", "clock_nanosleep", "<b>main</b>" };
	static char *io[] = { "io_schedule_timeout+0x51", "__write" };
	static char *rq[] = { "__cond_resched+0x35", "exit_mmap" };
	const struct stackrun_stack st[] = {
		{ STK_S, 1000000000, 1, 3, sl },
		{ STK_D, 25000000, 100, 2, io },
		{ STK_S, 500000000, 2, 1, sl + 2 },
		{ STK_RUNNABLE, 100000, 1, 2, rq },
	};
	struct htmlrep_run w = { "sh -c \"sleep 1\" <x>", st, 4, 0, 1, 0 };
	struct outbuf o = { 0 };
	const char *d, *s, *r;

	htmlrep_run_stacks(&o, &w);
	out_char(&o, '\0');
	d = strstr(o.data, "<figure class=\"flame\" id=\"flame-state-D\" data-ms=\"25.000\"");
	s = strstr(o.data, "<figure class=\"flame\" id=\"flame-state-S\" data-ms=\"1500.000\"");
	r = strstr(o.data, "<figure class=\"flame\" id=\"flame-state-R\" data-ms=\"0.100\"");
	ok(d && s && r && d < s && s < r,
	   "a graph per state, D (25 ms), S (1500 ms: both S stacks), R (0.1 ms), in that order");
	ok(strstr(o.data, "State S: 1500.0 ms off the CPU in the command&#39;s processes; different stacks: 2.") != NULL,
	   "S's caption: its time and its 2 stacks");
	ok(strstr(o.data, "<title>sh -c &quot;sleep 1&quot; &lt;x&gt;\n") && !strstr(o.data, "<x>") &&
		   !strstr(o.data, "<b>main"),
	   "the root is the command line, and it and the frames are text");
	ok(!strstr(o.data, "stacks-none") && !strstr(o.data, "stacks-lost"),
	   "no sentence of missing or lost stacks");
	out_free(&o);

	w.stacks = st + 1;
	w.nstacks = 1;
	w.lost = 7;
	htmlrep_run_stacks(&o, &w);
	out_char(&o, '\0');
	ok(strstr(o.data, "id=\"flame-state-D\"") && !strstr(o.data, "id=\"flame-state-S\"") &&
		   !strstr(o.data, "id=\"flame-state-R\""),
	   "only the states present have a graph");
	ok(strstr(o.data, "<p class=\"none\" id=\"stacks-lost\">7 off-CPU times or stacks did not fit") != NULL,
	   "the stacks that did not fit are said");
	out_free(&o);

	w.nstacks = 0;
	htmlrep_run_stacks(&o, &w);
	out_char(&o, '\0');
	ok(strstr(o.data, "id=\"stacks-none\">The command&#39;s processes did not leave a CPU") &&
		   strstr(o.data, "id=\"stacks-lost\">7 ") && !strstr(o.data, "<figure"),
	   "no stack: one sentence, the lost ones said, no graph");
	out_free(&o);

	w.why_off = 1;
	htmlrep_run_stacks(&o, &w);
	out_char(&o, '\0');
	ok(strstr(o.data, "id=\"stacks-none\">--why could not run here") && !strstr(o.data, "<figure") &&
		   !strstr(o.data, "stacks-lost"),
	   "--why could not run: one sentence");
	out_free(&o);

	w.why = 0;
	w.why_off = 0;
	htmlrep_run_stacks(&o, &w);
	out_char(&o, '\0');
	ok(strstr(o.data, "id=\"stacks-none\">This run took no off-CPU stacks: run the command with --why") &&
		   !strstr(o.data, "<figure"),
	   "without --why: one sentence saying how to get them");
	out_free(&o);
}

int main(void)
{
	test_run_stacks();
	test_day();
	test_commands();
	test_gap();
	test_day_page();
	test_events_and_page();
	test_latency();
	test_stacks();
	test_event_cap();
	return tap_done();
}
