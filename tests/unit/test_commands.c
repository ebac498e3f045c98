/* test_commands.c — which command names the metrics give series of their own, as a scraper sees
 * them in the exposition: names that never wait take none, however early they are seen, and
 * those that wait take them; a name takes a holder's series when it waits more than twice as much
 * as the holder lately (its delay halving each minute), at once when the holder hardly waits, never
 * when two names wait about alike; a series that comes back goes on from its last value; no
 * exposed counter ever goes down, and the last values of every series ever shown plus _other are
 * always every wait of every task; the names remembered stay bounded when a host forks new names
 * all the time. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "tap.h"

#define MAX_TASKS 128
#define MAX_SEEN 4096
#define SERIES "delaytop_command_delay_seconds_total{command=\""

static struct kind_totals acc[MAX_TASKS];
static struct row rows[MAX_TASKS];
static char comms[MAX_TASKS][32];
static double waits[MAX_TASKS]; /* what each task waits in the next reading, s */
static int kind[MAX_TASKS];     /* on what */
static int ntasks;
static struct snapshot snap;
static struct metrics m;
static double total_s; /* every task's waits so far */

/* What a scraper saw: each command label value's last value (NAN: never shown). */
static struct {
	char name[40];
	double last;
} seen[MAX_SEEN];
static int nseen;
static int went_down; /* a shown counter was lower than the value it had before */
static int sum_off;   /* after a reading, the last values seen did not add up to every wait */

static void start(int top_commands)
{
	memset(&snap, 0, sizeof(snap));
	memset(rows, 0, sizeof(rows));
	memset(acc, 0, sizeof(acc));
	memset(waits, 0, sizeof(waits));
	snap.rows = rows;
	ntasks = nseen = went_down = sum_off = 0;
	total_s = 0;
	metrics_init(&m, top_commands);
}

/* A task of command comm (pid 1000 + its index), waiting for a CPU, i/o when io; its index. */
static int task(const char *comm, int io)
{
	int i = ntasks++;

	kind[i] = io ? DK_IO : DK_CPU;
	snprintf(comms[i], sizeof(comms[i]), "%s", comm);
	rows[i].pid = rows[i].tid = (uint32_t)(1000 + i);
	rows[i].start_ns = 1;
	rows[i].comm = comms[i];
	rows[i].cgroup = "/";
	rows[i].acc = &acc[i];
	acc[i].kinds = acc[i].kinds_count = (kind_mask)(1u << DK_CPU | 1u << DK_IO);
	return i;
}

/* The value of a line that starts with prefix in text; NAN when there is none. */
static double value_of(const char *text, const char *prefix)
{
	const char *at = strstr(text, prefix);

	return at ? strtod(at + strlen(prefix), NULL) : NAN;
}

static int seen_at(const char *name)
{
	for (int i = 0; i < nseen; i++)
		if (strcmp(seen[i].name, name) == 0)
			return i;
	if (nseen == MAX_SEEN)
		return -1;
	snprintf(seen[nseen].name, sizeof(seen[nseen].name), "%.39s", name);
	seen[nseen].last = NAN;
	return nseen++;
}

/* The exposition's command series as a scraper sees them: each label value's kinds summed, noted
 * in seen[], went_down set when one is below its last value. Returns the number of label values
 * shown, _other included. */
static int scrape(void)
{
	static char names[MAX_SEEN][40];
	static double sums[MAX_SEEN];
	struct outbuf o = { 0 };
	int n = 0;

	metrics_format(&m, &o, 0);
	out_char(&o, '\0');
	for (const char *line = o.data; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *name = line + strlen(SERIES);
		size_t len;
		int i = 0;

		if (strncmp(line, SERIES, strlen(SERIES)) != 0)
			continue;
		len = strcspn(name, "\"");
		while (i < n && !(strncmp(names[i], name, len) == 0 && names[i][len] == '\0'))
			i++;
		if (i == n) {
			if (n == MAX_SEEN)
				continue;
			snprintf(names[n], sizeof(names[n]), "%.*s", (int)len, name);
			sums[n++] = 0;
		}
		sums[i] += strtod(strchr(line, '}') + 1, NULL);
	}
	out_free(&o);
	for (int i = 0; i < n; i++) {
		int at = seen_at(names[i]);

		if (at < 0)
			continue;
		if (!isnan(seen[at].last) && sums[i] < seen[at].last - 1e-9)
			went_down = 1;
		seen[at].last = sums[i];
	}
	return n;
}

/* The last values of every series a scraper ever saw, _other's included. */
static double seen_sum(void)
{
	double sum = 0;

	for (int i = 0; i < nseen; i++)
		if (!isnan(seen[i].last))
			sum += seen[i].last;
	return sum;
}

/* One reading dt seconds after the last: each task waited waits[i] more. Returns how many
 * command label values the exposition then shows; sets sum_off when the last values of every
 * series seen do not add up to every wait so far. */
static int reading(double dt)
{
	int n;

	for (int i = 0; i < ntasks; i++) {
		int k = kind[i];

		acc[i].total_ns[k] += (uint64_t)llround(waits[i] * 1e9);
		if (waits[i] > 0)
			acc[i].count[k]++;
		total_s += waits[i];
	}
	snap.nrows = (size_t)ntasks;
	snap.elapsed_s += dt;
	metrics_update(&m, &snap, 0.001);
	n = scrape();
	if (fabs(seen_sum() - total_s) > 1e-6)
		sum_off = 1;
	return n;
}

/* The command's value in the last exposition, NAN when it has no series. */
static double shown(const char *command)
{
	struct outbuf o = { 0 };
	char prefix[96];
	double v = NAN;

	metrics_format(&m, &o, 0);
	out_char(&o, '\0');
	for (int k = 0; k < DK_COUNT; k++) {
		double x;

		snprintf(prefix, sizeof(prefix), "\n" SERIES "%s\",kind=\"%s\"} ", command, delay_kinds[k].key);
		x = value_of(o.data, prefix);
		if (!isnan(x))
			v = isnan(v) ? x : v + x;
	}
	out_free(&o);
	return v;
}

/* The host: 30 processes that never wait, and kernel threads, all seen before the
 * commands that wait; 5 series. */
static void test_idle_first(void)
{
	char name[16], *idle_shown = NULL;
	int dd, py1, py2;

	start(5);
	task("kthreadd", 0);
	task("cpuhp/0", 0);
	task("rcu_preempt", 0);
	for (int i = 0; i < 30; i++) {
		snprintf(name, sizeof(name), "idle%02d", i);
		task(name, 0);
	}
	dd = task("dd", 1);
	py1 = task("python3", 0);
	py2 = task("python3", 0);
	reading(0); /* the first reading: nothing waited since delaytop started */
	waits[dd] = 0.9;
	waits[py1] = waits[py2] = 0.5;
	for (int r = 0; r < 5; r++)
		reading(1);
	ok(!isnan(shown("dd")) && !isnan(shown("python3")),
	   "the commands that wait have series (dd %g, python3 %g)", shown("dd"), shown("python3"));
	is_num(shown("python3"), 5.0, 1e-6, "python3's series is all its two tasks waited");
	for (int i = 0; i < 33 && !idle_shown; i++)
		if (!isnan(shown(comms[i])))
			idle_shown = comms[i];
	ok(!idle_shown, "no name that never waited has a series, though seen first (%s)", idle_shown ? idle_shown : "none");
	ok(!isnan(shown("_other")), "_other is there, at %g", shown("_other"));
	metrics_free(&m);
}

/* Slots taken by names that hardly wait (1 µs a reading) go to one that waits, in the first reading
 * it waits; the name put out counts in _other from then on. */
static void test_late_waiter(void)
{
	int ticks[3], late;
	double other;

	start(3);
	for (int i = 0; i < 3; i++) {
		char name[16];

		snprintf(name, sizeof(name), "tick%d", i);
		ticks[i] = task(name, 0);
		waits[ticks[i]] = 1e-6;
	}
	late = task("late", 1);
	for (int r = 0; r < 10; r++)
		reading(1);
	ok(!isnan(shown("tick0")) && !isnan(shown("tick1")) && !isnan(shown("tick2")) && isnan(shown("late")),
	   "free series go to names that wait at all");
	waits[late] = 0.5;
	reading(1);
	is_num(shown("late"), 0.5, 1e-9, "a name that waits takes a series in the first reading it waits, all of it counted");
	ok(isnan(shown("tick0")) + isnan(shown("tick1")) + isnan(shown("tick2")) == 1,
	   "one of the names that hardly wait lost its series");
	other = shown("_other");
	reading(1);
	is_num(shown("_other") - other, 1e-6, 1e-12, "its waits count in _other from then on");
	metrics_free(&m);
}

/* Two names that wait about alike, one series: it stays with one of them; then one waits three
 * times as much as the other, and the series changes hands once. */
static void test_no_flapping(void)
{
	int a, b, changes = 0;
	char holder[8] = "";

	start(1);
	a = task("alpha", 0);
	b = task("beta", 0);
	for (int r = 0; r < 300; r++) {
		const char *now;

		waits[a] = r % 2 ? 0.8 : 1.2;
		waits[b] = r % 2 ? 1.2 : 0.8;
		if (r >= 120) { /* beta waits 1.5 times as much, steadily */
			waits[a] = 0.8;
			waits[b] = 1.2;
		}
		reading(1);
		now = !isnan(shown("alpha")) ? "alpha" : !isnan(shown("beta")) ? "beta" : "";
		if (holder[0] && strcmp(now, holder) != 0)
			changes++;
		snprintf(holder, sizeof(holder), "%s", now);
	}
	ok(changes == 0 && strcmp(holder, "alpha") == 0,
	   "two names waiting about alike, then one 1.5 times the other, for 300 readings: the series never changes hands (%d)",
	   changes);
	for (int r = 0; r < 300; r++) {
		const char *now;

		waits[a] = 0.3;
		waits[b] = 0.9;
		reading(1);
		now = !isnan(shown("alpha")) ? "alpha" : !isnan(shown("beta")) ? "beta" : "";
		if (strcmp(now, holder) != 0)
			changes++;
		snprintf(holder, sizeof(holder), "%s", now);
	}
	ok(changes == 1 && strcmp(holder, "beta") == 0, "one waiting 3 times the other: it takes the series, once (%d)",
	   changes);
	ok(!went_down, "no counter went down");
	ok(!sum_off, "at every reading, the series' last values add up to every wait (%g, %g)", seen_sum(), total_s);
	metrics_free(&m);
}

/* A name put out goes on as _other; when it takes its series back, the series goes on from the
 * value it had; the series scrapers saw always add up to every wait. */
static void test_continuity(void)
{
	int a, b;
	double before;

	start(1);
	a = task("alpha", 0);
	b = task("beta", 0);
	waits[a] = 1;
	for (int r = 0; r < 5; r++)
		reading(1);
	before = shown("alpha");
	is_num(before, 5, 1e-9, "alpha's series: 5 s");
	waits[b] = 20;
	reading(1);
	ok(isnan(shown("alpha")) && !isnan(shown("beta")), "beta, waiting 20 times as much, takes the series");
	for (int r = 0; r < 3; r++)
		reading(1);
	waits[b] = 0;
	waits[a] = 1000;
	reading(1);
	is_num(shown("alpha"), before + 1000, 1e-6,
	       "alpha takes it back: its series goes on from 5 s, with only what it waited while it had it");
	ok(isnan(shown("beta")), "beta's series is no longer shown");
	ok(!went_down, "no counter went down");
	ok(!sum_off, "at every reading, the series' last values add up to every wait (%g, %g)", seen_sum(), total_s);
	metrics_free(&m);
}

/* A holder's recent delay halves each minute: a minute after it waited 10 s, a name that waits
 * 10.1 s takes its series, one that waits 9.9 s does not. */
static void test_half_life(void)
{
	static const double tries[2] = { 9.9, 10.1 };

	for (int t = 0; t < 2; t++) {
		int a, b;

		start(1);
		a = task("alpha", 0);
		b = task("beta", 0);
		waits[a] = 10;
		reading(1);
		waits[a] = 0;
		for (int r = 0; r < 59; r++)
			reading(1);
		waits[b] = tries[t];
		reading(1);
		if (t == 0)
			ok(isnan(shown("beta")), "a minute after alpha waited 10 s, beta waiting 9.9 s does not take its series");
		else
			ok(!isnan(shown("beta")), "beta waiting 10.1 s does");
		metrics_free(&m);
	}
}

/* A host that forks new names all the time: 40,000 names, 100 a reading, each waiting once. The
 * names remembered stay bounded, the series shown too, and every wait is still counted once. */
static void test_bounded(void)
{
	size_t most = 0;
	int most_shown = 0;

	start(5);
	for (int i = 0; i < 100; i++)
		task("x", 0);
	for (int r = 0; r < 400; r++) {
		int n;

		for (int i = 0; i < 100; i++) {
			snprintf(comms[i], sizeof(comms[i]), "n%d", r * 100 + i);
			rows[i].pid = rows[i].tid = (uint32_t)(100000 + r * 100 + i);
			memset(&acc[i].total_ns, 0, sizeof(acc[i].total_ns));
			waits[i] = 0.001 * (1 + (r * 7 + i * 13) % 100);
		}
		n = reading(1);
		if (m.commands.n > most)
			most = m.commands.n;
		if (n > most_shown)
			most_shown = n;
	}
	ok(most <= 5 + CMDRANK_MEMORY, "names remembered: at most %d beyond the 5 series (%zu)", CMDRANK_MEMORY, most);
	ok(most_shown <= 6, "series shown: the 5 and _other (%d)", most_shown);
	ok(!went_down, "no counter went down");
	ok(!sum_off, "at every reading, the series' last values add up to every wait (%g, %g)", seen_sum(), total_s);
	metrics_free(&m);
}

int main(void)
{
	test_idle_first();
	test_late_waiter();
	test_no_flapping();
	test_continuity();
	test_half_life();
	test_bounded();
	return tap_done();
}
