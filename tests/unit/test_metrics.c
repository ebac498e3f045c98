/* test_metrics.c — the Prometheus counters: what each task waited since the last snapshot is
 * added to its cgroup and every ancestor and to its command name (the N that wait most by name,
 * the rest as _other: test_commands.c tells more); a reused pid is a new task; a departed row
 * adds nothing again; counters never go down; kinds never available get no series; the
 * exposition in both formats against golden files, label values escaped; a cgroup's series stay
 * while it exists or has tasks and expiry_s more, then go; label values of names that differ
 * always differ (control characters, bytes that are not UTF-8, a command named _other) and the
 * exposition stays UTF-8; a cgroup's series carry what its path names and, when it is
 * delegated, identity_uid; with --why, the interval's waits of a row (a departed one's too) grow
 * its cgroup's and every ancestor's histogram of each kind it waited on, the buckets cumulative
 * and the count the +Inf bucket's, no histogram without waits, and they go with the cgroup. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cgtree.h"
#include "golden.h"
#include "metrics.h"
#include "options.h"
#include "tap.h"

/* the most rows a test makes (test_labels) */
#define MAX_ROWS 8

static struct kind_totals acc[MAX_ROWS];
static struct row rows[MAX_ROWS];

static void task(int i, uint32_t pid, uint64_t start, const char *cgroup, const char *comm, double cpu_s, uint64_t waits)
{
	memset(&rows[i], 0, sizeof(rows[i]));
	memset(&acc[i], 0, sizeof(acc[i]));
	rows[i].pid = pid;
	rows[i].start_ns = start;
	rows[i].cgroup = cgroup;
	rows[i].comm = comm;
	rows[i].user = "root";
	rows[i].acc = &acc[i];
	acc[i].kinds = acc[i].kinds_count = 1u << DK_CPU;
	acc[i].total_ns[DK_CPU] = (uint64_t)(cpu_s * 1e9);
	acc[i].count[DK_CPU] = waits;
}

static struct metrics_group *find(struct metrics_groups *gs, const char *name)
{
	for (size_t i = 0; i < gs->n; i++)
		if (strcmp(gs->g[i].name, name) == 0)
			return &gs->g[i];
	return NULL;
}

static double cpu_s(struct metrics_groups *gs, const char *name)
{
	struct metrics_group *g = find(gs, name);

	return g ? g->d.ns[DK_CPU] / 1e9 : NAN;
}

/* A command name's CPU delay series, NAN when it has none. */
static double cmd_s(const struct metrics *m, const char *name)
{
	const struct cmdrank_name *c = cmdrank_find(&m->commands, name);

	return c && c->slot ? c->d.ns[DK_CPU] / 1e9 : NAN;
}

static char *exposition(const struct metrics *m, int om)
{
	struct outbuf o = { 0 };
	char *text;

	metrics_format(m, &o, om);
	text = strndup(o.data ? o.data : "", o.len);
	out_free(&o);
	return text;
}

/* Snapshot rows for the cgroups paths[0..n) as read from the hierarchy (facts: they exist),
 * or only named by tasks when facts is 0. */
static struct cgroup_facts cg_facts;
static struct cgroup_node cg_nodes[4];
static struct row cg_rows[4];

static void cgroup_rows(struct snapshot *snap, const char *const *paths, size_t n, int facts)
{
	for (size_t i = 0; i < n; i++) {
		memset(&cg_nodes[i], 0, sizeof(cg_nodes[i]));
		memset(&cg_rows[i], 0, sizeof(cg_rows[i]));
		cg_nodes[i].facts = facts ? &cg_facts : NULL;
		cg_rows[i].cgroup = paths[i];
		cg_rows[i].cg = &cg_nodes[i];
	}
	snap->cgroup_rows = cg_rows;
	snap->ncgroup_rows = n;
}

static void test_expiry(void)
{
	static const char *const there[] = { "/", "/s", "/s/b" }, *const named[] = { "/s/a" };
	struct metrics m;
	struct snapshot snap;

	memset(&snap, 0, sizeof(snap));
	snap.rows = rows;
	metrics_init(&m, 5);
	ok(m.expiry_s == DEFAULT_SERIES_EXPIRY, "a removed cgroup's series stay %d s by default", DEFAULT_SERIES_EXPIRY);
	m.expiry_s = 10;
	task(0, 30, 1, "/s/a", "x", 1.0, 1);
	task(1, 31, 1, "/s/b", "y", 1.0, 1);
	snap.nrows = 2;
	cgroup_rows(&snap, there, 3, 1);
	metrics_update(&m, &snap, 0.001);
	snap.nrows = 0;
	snap.elapsed_s = 10;
	cgroup_rows(&snap, named, 1, 0); /* /s/a only named by departed tasks: it is gone */
	metrics_update(&m, &snap, 0.001);
	ok(find(&m.cgroups, "/s/a") && find(&m.cgroups, "/s/b"), "gone cgroups' series stay for expiry_s");
	snap.elapsed_s = 10.5;
	cgroup_rows(&snap, there, 3, 1);
	metrics_update(&m, &snap, 0.001);
	ok(!find(&m.cgroups, "/s/a"), "and then go");
	snap.elapsed_s = 30;
	metrics_update(&m, &snap, 0.001);
	ok(find(&m.cgroups, "/s/b") && find(&m.cgroups, "/s") && find(&m.cgroups, "/"),
	   "a cgroup that exists keeps its series without tasks, and so do its ancestors");
	ok(m.cgroups.n == 3, "the groups left are sorted and whole (%zu)", m.cgroups.n);
	task(0, 32, 2, "/s/a", "x", 0.5, 1);
	snap.nrows = 1;
	cgroup_rows(&snap, there, 0, 1);
	metrics_update(&m, &snap, 0.001);
	is_num(cpu_s(&m.cgroups, "/s/a"), 0.5, 1e-9, "a cgroup made again starts a new series");
	snap.elapsed_s = 41;
	snap.nrows = 0;
	metrics_update(&m, &snap, 0.001);
	ok(m.cgroups.n == 0, "with no cgroup tree, cgroups without tasks go after expiry_s");
	metrics_free(&m);
}

/* s is UTF-8 throughout. */
static int utf8_valid(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	while (*u) {
		int n = *u < 0x80 ? 1 : *u >= 0xc2 && *u <= 0xdf ? 2 : *u >= 0xe0 && *u <= 0xef ? 3 : 0;

		if (*u >= 0xf0 && *u <= 0xf4)
			n = 4;

		if (!n)
			return 0;
		for (int i = 1; i < n; i++)
			if ((u[i] & 0xc0) != 0x80)
				return 0;
		u += n;
	}
	return 1;
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The first series (name and labels) that the exposition has twice, or NULL. */
static char *duplicate_series(char *text)
{
	char *keys[256], *line, *save = NULL, *dup = NULL;
	size_t n = 0;

	for (line = strtok_r(text, "\n", &save); line && n < 256; line = strtok_r(NULL, "\n", &save)) {
		char *space = strrchr(line, ' ');

		if (line[0] == '#' || !space)
			continue;
		*space = '\0';
		keys[n++] = line;
	}
	qsort(keys, n, sizeof(*keys), by_string);
	for (size_t i = 1; i < n && !dup; i++)
		if (strcmp(keys[i - 1], keys[i]) == 0)
			dup = keys[i];
	return dup;
}

static void test_labels(void)
{
	static const char *const cgroups[] = { "/tab\tx", "/tab?x", "/b\xff",
					       "/b\xef\xbf\xbd" "FF", "/q\"\\", "/n\nl", "/csi\xc2\x9b" "2J",
					       "/gpj\xe2\x80\xae" "exe" };
	static const char *const comms[] = { "x\ty", "x?y", "_other", "z\xffz", "z\xef\xbf\xbd" "FFz", "n\nl",
					     "c\xc2\x9b", "r\xe2\x80\xaex" };
	struct metrics m;
	struct snapshot snap;
	char *text, *dup;

	memset(&snap, 0, sizeof(snap));
	snap.rows = rows;
	metrics_init(&m, 7);
	for (int i = 0; i < 8; i++) /* the process named _other has a series: it waits most */
		task(i, (uint32_t)(40 + i), 1, cgroups[i], comms[i], strcmp(comms[i], "_other") == 0 ? 2.0 : 1.0, 1);
	snap.nrows = 8;
	metrics_update(&m, &snap, 0.001);
	text = exposition(&m, 0);
	ok(utf8_valid(text), "names that are not UTF-8 leave the exposition UTF-8");
	ok(strstr(text, "{cgroup=\"/tab\xef\xbf\xbd" "09x\",") && strstr(text, "{cgroup=\"/tab?x\","),
	   "a tab is U+FFFD and its hex code, unlike a ?");
	ok(strstr(text, "{cgroup=\"/b\xef\xbf\xbd" "FF\",") &&
		   strstr(text, "{cgroup=\"/b\xef\xbf\xbd\xef\xbf\xbd" "FF\","),
	   "a byte that is not UTF-8 is U+FFFD and its hex code, a U+FFFD of the name two");
	ok(strstr(text, "{cgroup=\"/q\\\"\\\\\",") && strstr(text, "{cgroup=\"/n\\nl\","),
	   "quote, backslash and newline escaped as the format says");
	ok(strstr(text, "{cgroup=\"/csi\xef\xbf\xbd" "C2\xef\xbf\xbd" "9B2J\",") &&
		   strstr(text, "{cgroup=\"/gpj\xef\xbf\xbd" "E2\xef\xbf\xbd" "80\xef\xbf\xbd" "AEexe\","),
	   "a C1 control (U+009B) and a format control (U+202E) are U+FFFD and the hex code of each byte");
	ok(strstr(text, "{command=\"__other\",") && strstr(text, "{command=\"_other\","),
	   "a command named _other is __other, the rest _other");
	dup = duplicate_series(text);
	ok(!dup, "no two series alike: %s", dup ? dup : "none");
	free(text);
	metrics_free(&m);
}

#define HEX64 "4f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7"
#define POD "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod8a5e3b1c_2d4f_4a6b_9c8d_7e6f5a4b3c2d.slice"

/* A cgroup's series carry what its path names, where known, after its cgroup label: no more
 * series than the cgroups. */
static void test_ident_labels(void)
{
	struct metrics m;
	struct snapshot snap;
	char *text, *dup;

	memset(&snap, 0, sizeof(snap));
	snap.rows = rows;
	metrics_init(&m, 5);
	task(0, 50, 1, POD "/cri-containerd-" HEX64 ".scope", "nginx", 1.0, 1);
	task(1, 51, 1, "/system.slice/foo\\x2d\"bar.service", "foo", 1.0, 1);
	snap.nrows = 2;
	metrics_update(&m, &snap, 0.001);
	text = exposition(&m, 0);
	ok(strstr(text, "delaytop_cgroup_delay_seconds_total{cgroup=\"" POD "/cri-containerd-" HEX64
			".scope\",unit=\"cri-containerd-" HEX64 ".scope\",container_id=\"" HEX64
			"\",pod_uid=\"8a5e3b1c-2d4f-4a6b-9c8d-7e6f5a4b3c2d\",qos=\"burstable\",kind=\"cpu\"} 1.0\n") != NULL,
	   "a container's series: unit, container_id, pod_uid and qos after cgroup");
	ok(strstr(text, "delaytop_cgroup_delay_seconds_total{cgroup=\"" POD "\",unit=\"kubepods-burstable-pod"
			"8a5e3b1c_2d4f_4a6b_9c8d_7e6f5a4b3c2d.slice\",pod_uid=\"8a5e3b1c-2d4f-4a6b-9c8d-7e6f5a4b3c2d\","
			"qos=\"burstable\",kind=\"cpu\"} 1.0\n") != NULL,
	   "the pod's own series: no container_id label, not an empty one");
	ok(strstr(text, "delaytop_cgroup_delay_seconds_total{cgroup=\"/\",kind=\"cpu\"} 2.0\n") != NULL,
	   "the root names nothing: the cgroup label alone");
	ok(strstr(text, "delaytop_cgroup_delay_seconds_total{cgroup=\"/system.slice\",unit=\"system.slice\",kind=") !=
		   NULL,
	   "a slice is the unit where nothing inner is");
	ok(strstr(text, "{cgroup=\"/system.slice/foo\\\\x2d\\\"bar.service\",unit=\"system.slice\",kind=") != NULL,
	   "a name a unit may not have (a quote) names no unit; the cgroup label escaped");
	dup = duplicate_series(text);
	ok(!dup, "no two series alike: %s", dup ? dup : "none");
	free(text);
	metrics_free(&m);
}

#define USERSVC "/user.slice/user-1000.slice/user@1000.service"

/* A container a user named in the subtree delegated to them: its series carry identity_uid (from
 * the cgroup tree's rows, else from its tasks), so that summing by container_id and identity_uid
 * keeps it apart from the system's container of the same id; the system's carry none. */
static void test_delegated_labels(void)
{
	static const char *const paths[] = { "/system.slice/docker-" HEX64 ".scope",
					     USERSVC "/app.slice/docker-" HEX64 ".scope", USERSVC,
					     "/user.slice/user-1000.slice" };
	static const uint32_t owners[] = { 0, 1000, 1000, 0 };
	struct cgroup_facts facts;
	struct metrics m;
	struct snapshot snap;
	char *text, *dup;

	memset(&snap, 0, sizeof(snap));
	memset(&facts, 0, sizeof(facts));
	facts.psi.res[PSI_CPU].present = facts.psi.res[PSI_CPU].some.present = 1;
	facts.psi.res[PSI_CPU].some.total_us = 2000000;
	snap.rows = rows;
	metrics_init(&m, 5);
	task(0, 60, 1, paths[0], "nginx", 1.0, 1);
	task(1, 61, 1, paths[1], "nginx", 2.0, 1);
	rows[1].identity_uid = 1000;
	snap.nrows = 2;
	cgroup_rows(&snap, paths, 4, 1);
	for (int i = 0; i < 4; i++) {
		cg_nodes[i].facts = &facts;
		cg_rows[i].identity_uid = owners[i];
	}
	metrics_update(&m, &snap, 0.001);
	text = exposition(&m, 0);
	ok(strstr(text, "delaytop_cgroup_delay_seconds_total{cgroup=\"" USERSVC "/app.slice/docker-" HEX64
			".scope\",unit=\"docker-" HEX64 ".scope\",container_id=\"" HEX64
			"\",identity_uid=\"1000\",kind=\"cpu\"} 2.0\n") != NULL,
	   "the user's container: identity_uid=\"1000\" after what its path names");
	ok(strstr(text, "delaytop_cgroup_delay_seconds_total{cgroup=\"/system.slice/docker-" HEX64 ".scope\",unit=\"docker-"
			HEX64 ".scope\",container_id=\"" HEX64 "\",kind=\"cpu\"} 1.0\n") != NULL,
	   "the system's container of the same id: no identity_uid label");
	ok(strstr(text, "{cgroup=\"" USERSVC "\",unit=\"user@1000.service\",identity_uid=\"1000\",kind=") &&
		   strstr(text, "{cgroup=\"/user.slice/user-1000.slice\",unit=\"user-1000.slice\",kind="),
	   "the delegated directory carries it, the slice above it does not");
	ok(strstr(text, "delaytop_cgroup_pressure_cpu_waiting_seconds_total{cgroup=\"" USERSVC "/app.slice/docker-" HEX64
			".scope\",unit=\"docker-" HEX64 ".scope\",container_id=\"" HEX64 "\",identity_uid=\"1000\"} 2.0\n") !=
		   NULL,
	   "and so does its pressure series");
	dup = duplicate_series(text);
	ok(!dup, "no two series alike: %s", dup ? dup : "none");
	free(text);
	cg_rows[1].identity_uid = 0; /* made again, owned by root */
	metrics_update(&m, &snap, 0.001);
	text = exposition(&m, 0);
	ok(strstr(text, "{cgroup=\"" USERSVC "/app.slice/docker-" HEX64 ".scope\",unit=\"docker-" HEX64
			".scope\",container_id=\"" HEX64 "\",kind=") != NULL,
	   "the tree's row says what the cgroup is now: a cgroup made again owned by root loses the label");
	free(text);
	metrics_free(&m);
}

/* Waits for a row's lat: n waits of ns each, of the kinds in order (at most 2). */
static struct lat_hist lat_h[MAX_ROWS][2];
static struct lat_waits lat_w[MAX_ROWS];

static void waits(int i, lat_mask kinds, uint32_t n, uint64_t ns)
{
	int at = 0;

	memset(lat_h[i], 0, sizeof(lat_h[i]));
	lat_w[i] = (struct lat_waits){ .kinds = kinds, .h = lat_h[i] };
	for (int k = 0; k < LAT_KINDS; k++)
		if (kinds & (1u << k)) {
			lat_h[i][at].count = n;
			lat_h[i][at].total_ns = n * ns;
			lat_h[i][at].max_ns = ns;
			lat_h[i][at].slot[lat_slot_of(ns)] = n;
			at++;
		}
	rows[i].lat = &lat_w[i];
}

/* The value of the sample whose line starts with series (name and labels), NAN when none. */
static double sample_of(const char *text, const char *series)
{
	size_t len = strlen(series);

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (strncmp(l, series, len) == 0 && l[len] == ' ')
			return strtod(l + len + 1, NULL);
	return NAN;
}

#define WB "delaytop_cgroup_wait_seconds_bucket{cgroup=\"/w/a\",kind=\"cpu\",le="

static void test_waits(void)
{
	static const char *const there[] = { "/", "/w", "/w/a" };
	struct metrics m;
	struct snapshot snap;
	char *text;
	int rising = 1;
	double last = 0;

	memset(&snap, 0, sizeof(snap));
	snap.rows = rows;
	metrics_init(&m, 5);
	m.expiry_s = 10;
	task(0, 70, 1, "/w/a", "spin", 1.0, 100);
	task(1, 71, 1, "/w", "idle", 0.0, 0);
	snap.nrows = 2;
	metrics_update(&m, &snap, 0.001);
	text = exposition(&m, 0);
	ok(!strstr(text, "wait_seconds"), "without waits (no --why) no histogram, not even its HELP");
	free(text);

	task(0, 70, 1, "/w/a", "spin", 1.5, 200);
	waits(0, 1u << DK_CPU | 1u << LAT_BLOCKED, 100, 3000000); /* 3 ms: slot 11 */
	task(1, 72, 1, "/w", "gone", 0.0, 0);
	rows[1].departed = 1;
	waits(1, 1u << DK_CPU, 10, 20000); /* 20 us: slot 4 */
	snap.nrows = 2;
	snap.elapsed_s = 1;
	cgroup_rows(&snap, there, 3, 1);
	metrics_update(&m, &snap, 0.001);
	waits(0, 1u << DK_CPU, 50, 500000000); /* 0.5 s: slot 18 */
	rows[1].lat = NULL;
	snap.elapsed_s = 2;
	metrics_update(&m, &snap, 0.001);
	waits(0, 1u << DK_CPU, 1, 20000000000ull); /* 20 s: the last slot, past every finite bound */
	snap.elapsed_s = 3;
	metrics_update(&m, &snap, 0.001);
	text = exposition(&m, 0);
	ok(strstr(text, "# TYPE delaytop_cgroup_wait_seconds histogram\n") &&
		   strstr(text, "# HELP delaytop_cgroup_wait_seconds ") && strstr(text, "which is not a delay"),
	   "a histogram family whose HELP says blocked is not a delay");
	for (int b = 0; b < WAITHIST_BUCKETS; b++) {
		char series[128];
		double v;

		snprintf(series, sizeof(series), WB "\"%s\"}", waithist_le(b));
		v = sample_of(text, series);
		rising &= !isnan(v) && v >= last;
		last = v;
	}
	ok(rising, "the cgroup's cpu buckets are all there and never fall");
	is_num(sample_of(text, WB "\"0.002048\"}"), 0, 0, "no wait under 2 ms");
	is_num(sample_of(text, WB "\"0.008192\"}"), 100, 0, "the hundred 3 ms waits under 8 ms");
	is_num(sample_of(text, WB "\"0.524288\"}"), 150, 0, "and the fifty of 0.5 s under 0.52 s: the intervals add");
	is_num(sample_of(text, WB "\"8.388608\"}"), 150, 0, "the wait of 20 s under no finite bound");
	is_num(sample_of(text, WB "\"+Inf\"}"), 151, 0, "but under +Inf");
	is_num(sample_of(text, "delaytop_cgroup_wait_seconds_count{cgroup=\"/w/a\",kind=\"cpu\"}"),
	       151, 0, "_count is the +Inf bucket's");
	is_num(sample_of(text, "delaytop_cgroup_wait_seconds_sum{cgroup=\"/w/a\",kind=\"cpu\"}"), 45.3, 1e-9,
	       "_sum is the waits' seconds: 100 x 3 ms + 50 x 0.5 s + 20 s");
	is_num(sample_of(text, "delaytop_cgroup_wait_seconds_count{cgroup=\"/w\",kind=\"cpu\"}"), 161, 0,
	       "the parent counts its child's waits and a departed row's");
	is_num(sample_of(text, "delaytop_cgroup_wait_seconds_count{cgroup=\"/\",kind=\"blocked\"}"), 100, 0,
	       "and so does the root, blocked kept as a kind of its own");
	ok(!strstr(text, "kind=\"io\",le="), "a kind no task waited on has no histogram");
	free(text);

	snap.nrows = 0;
	cgroup_rows(&snap, there, 2, 1); /* /w/a removed */
	snap.elapsed_s = 14;
	metrics_update(&m, &snap, 0.001);
	text = exposition(&m, 0);
	ok(!strstr(text, "wait_seconds_bucket{cgroup=\"/w/a\"") && strstr(text, "wait_seconds_bucket{cgroup=\"/w\""),
	   "a removed cgroup's histograms go with its other series, its parent's stay");
	free(text);
	metrics_free(&m);
	memset(rows, 0, sizeof(rows));
}

int main(void)
{
	test_ident_labels();
	test_delegated_labels();
	struct metrics m;
	struct snapshot snap;
	double before;

	memset(&snap, 0, sizeof(snap));
	snap.rows = rows;
	snap.delayacct = 1;
	snap.listening = 1;
	snap.exits = 40;
	snap.exits_lost = 2;
	snap.nprocs = 3;
	snap.nthreads = 9;
	snap.psi.res[PSI_CPU].present = snap.psi.res[PSI_CPU].some.present = 1;
	snap.psi.res[PSI_CPU].some.total_us = 2500000;
	snap.psi.res[PSI_IO].present = snap.psi.res[PSI_IO].some.present = snap.psi.res[PSI_IO].full.present = 1;
	snap.psi.res[PSI_IO].some.total_us = 1000000;
	snap.psi.res[PSI_IO].full.total_us = 250000;

	metrics_init(&m, 2);
	task(0, 10, 1, "/a/x", "spin", 1.0, 100);
	task(1, 11, 2, "/a", "spin", 0.5, 50);
	task(2, 12, 3, NULL, "loner", 0.25, 5);
	snap.nrows = 3;
	metrics_update(&m, &snap, 0.004);
	is_num(cpu_s(&m.cgroups, "/a/x"), 1.0, 1e-9, "a task's delay counts in its cgroup");
	is_num(cpu_s(&m.cgroups, "/a"), 1.5, 1e-9, "and in every ancestor, with the parent's own task");
	is_num(cpu_s(&m.cgroups, "/"), 1.5, 1e-9, "up to the root; a task without a cgroup counts in none");
	is_num(cmd_s(&m, "spin"), 1.5, 1e-9, "a command name sums its tasks");
	is_num(cmd_s(&m, "loner"), 0.25, 1e-9, "the second name gets a series too (top 2)");

	before = cpu_s(&m.cgroups, "/a/x");
	task(0, 10, 1, "/a/x", "spin", 3.0, 300); /* exited in this interval: its final totals */
	rows[0].exited = 1;
	task(1, 11, 2, "/a", "spin", 0.5, 50);
	rows[1].departed = 1; /* already counted */
	task(2, 10, 7, "/b", "new", 0.25, 10); /* pid 10 again: a newer task */
	task(3, 13, 4, "/b", "third", 1.0, 1);
	snap.nrows = 4;
	metrics_update(&m, &snap, 0.005);
	is_num(cpu_s(&m.cgroups, "/a/x"), 3.0, 1e-9, "an exited task's last interval counts once: 1 s + 2 s");
	ok(cpu_s(&m.cgroups, "/a/x") >= before, "the counter only grew");
	is_num(cpu_s(&m.cgroups, "/a"), 3.5, 1e-9, "a departed row adds nothing again");
	is_num(cpu_s(&m.cgroups, "/b"), 1.25, 1e-9, "a reused pid is a new task: its whole total counts");
	is_num(cmd_s(&m, "third"), 1.0, 1e-9, "a name waiting over twice as much as a holder (loner) takes its series");
	ok(isnan(cmd_s(&m, "loner")) && isnan(cmd_s(&m, "new")) && fabs(m.commands.other.ns[DK_CPU] / 1e9 - 0.25) < 1e-9,
	   "the 2 series full, the rest is summed as _other");
	snap.nrows = 0;
	metrics_update(&m, &snap, 0.001);
	is_num(cpu_s(&m.cgroups, "/a/x"), 3.0, 1e-9, "gone tasks leave their counts");
	ok(!(find(&m.cgroups, "/a")->d.kinds & (1u << DK_IO)), "a kind never available is not counted");

	task(0, 20, 9, "/odd \"q\" \\ b\nx\xff", "spin", 0.5, 1);
	snap.nrows = 1;
	metrics_update(&m, &snap, 0.002);
	golden("metrics.prom", exposition(&m, 0));
	golden("metrics.om", exposition(&m, 1));
	is_str(metrics_content_type(0), "text/plain; version=0.0.4; charset=utf-8", "the text format's type");
	metrics_free(&m);
	test_expiry();
	test_labels();
	test_waits();
	return tap_done();
}
