/* test_trigger.c — PSI triggers: the syntax and its refusals, the delay kinds of each resource's
 * stall, and who stalled most (tasks and cgroups) in a reading. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "psi.h"
#include "rowfixture.h"
#include "tap.h"
#include "trigger.h"

static void test_parse(void)
{
	struct trigger_spec t;
	char err[512], file[256];

	is_int(trigger_parse("memory some 150ms 1s", &t, err, sizeof(err)), 0, "memory some 150ms 1s parses");
	ok(t.resource == PSI_MEMORY && !t.full && t.stall_us == 150000 && t.window_us == 1000000 && !t.cgroup[0],
	   "memory, some, 150 ms in 1 s, the system's");
	is_str(t.text, "memory some 150ms 1s", "its text is as written");
	trigger_file(&t, file, sizeof(file));
	is_str(file, "/proc/pressure/memory", "on /proc/pressure/memory");
	is_int(trigger_parse("  io\tfull 500000us 2s /system.slice//x.service/ ", &t, err, sizeof(err)), 0,
	       "spaces and tabs, microseconds and a cgroup path");
	ok(t.resource == PSI_IO && t.full && t.stall_us == 500000 && t.window_us == 2000000, "io full 0.5 s in 2 s");
	is_str(t.cgroup, "/system.slice/x.service", "the cgroup path is normalized");
	trigger_file(&t, file, sizeof(file));
	is_str(file, "/system.slice/x.service/io.pressure", "on the cgroup's io.pressure");
	is_int(trigger_parse("cpu some 0.2s 10s", &t, err, sizeof(err)), 0, "fractions of seconds, the longest window");

	static const struct {
		const char *spec, *says;
	} bad[] = {
		{ "", "expected RESOURCE" },
		{ "memory some 150ms", "expected RESOURCE" },
		{ "memory some 150ms 1s /a extra", "expected RESOURCE" },
		{ "disk some 150ms 1s", "cpu, memory, io or irq" },
		{ "memory most 150ms 1s", "some or full" },
		{ "irq some 150ms 1s", "irq has full only" },
		{ "memory some 150 1s", "take a unit" },
		{ "memory some -1ms 1s", "take a unit" },
		{ "memory some 150ms 1h", "take a unit" },
		{ "memory some 150ms 400ms", "500ms to 10s" },
		{ "memory some 150ms 11s", "500ms to 10s" },
		{ "memory some 2s 1s", "longer than the window" },
		{ "memory some 150ms 1s system.slice", "starting with /" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		ok(trigger_parse(bad[i].spec, &t, err, sizeof(err)) < 0 && strstr(err, bad[i].says) &&
			   strstr(err, "invalid trigger '"),
		   "'%s' is refused: %s", bad[i].spec, err);
	}
	trigger_parse("cpu some 1ms \x1b[2J", &t, err, sizeof(err));
	ok(!strchr(err, '\x1b'), "a refusal does not echo control characters: %s", err);
}

static void test_kinds(void)
{
	ok(trigger_kinds(PSI_CPU) == 1u << DK_CPU && trigger_kinds(PSI_IO) == 1u << DK_IO &&
		   trigger_kinds(PSI_IRQ) == 1u << DK_IRQ,
	   "cpu, io and irq stalls are their own kinds");
	ok((trigger_kinds(PSI_MEMORY) & (1u << DK_RECLAIM | 1u << DK_THRASHING | 1u << DK_SWAPIN)) &&
		   !(trigger_kinds(PSI_MEMORY) & (1u << DK_CPU | 1u << DK_IO)),
	   "a memory stall is reclaim, thrashing, swap-in (and the other memory kinds), not CPU or I/O");
}

static void test_stallers(void)
{
	struct row rows[8];
	struct snapshot snap;
	struct trigger_stallers st;
	struct trigger_spec t;
	char err[256];
	const char *names[8] = { "a", "b", "c", "d", "e", "f", "g", "h" };

	for (int i = 0; i < 8; i++) {
		rows[i] = make_row((uint32_t)(100 + i), 0, names[i], 10.0 * i, 50.0);
		rows[i].cgroup = i % 2 ? "/odd" : "/even";
	}
	rows[7].departed = 1;        /* ended before: not among them */
	rows[6].fresh = 1;           /* no interval yet */
	rows[5].r.kind[DK_CPU].pct = NAN;
	memset(&snap, 0, sizeof(snap));
	snap.rows = rows;
	snap.nrows = 8;
	trigger_parse("cpu some 100ms 1s", &t, err, sizeof(err));
	trigger_stallers(&snap, &t, &st);
	ok(st.ntasks == 4 && st.task[0]->pid == 104 && st.task[1]->pid == 103 && st.task[3]->pid == 101,
	   "the tasks by CPU delay, largest first, without the departed, the fresh, the unavailable and 0%%");
	is_num(st.task_pct[0], 40.0, 1e-6, "with their share");
	ok(st.ncgroups == 2 && strcmp(st.cgroup[0], "/even") == 0 && fabs(st.cgroup_pct[0] - 60.0) < 1e-6 &&
		   strcmp(st.cgroup[1], "/odd") == 0 && fabs(st.cgroup_pct[1] - 40.0) < 1e-6,
	   "cgroups sum their tasks' shares, largest first: /even 0+20+40, /odd 10+30");
	ok(st.nwaiting == 0, "a cpu trigger names nobody as waiting (R may be running)");
	trigger_parse("memory some 100ms 1s", &t, err, sizeof(err));
	trigger_stallers(&snap, &t, &st);
	ok(st.ntasks == 0 && st.ncgroups == 0 && st.nwaiting == 0, "kinds no task has, nobody in D: nobody");
}

/* Who waits now: rows in D for io and memory, within the trigger's cgroup, not named already. */
static void test_waiting(void)
{
	struct row rows[9];
	struct snapshot snap;
	struct trigger_stallers st;
	struct trigger_spec t;
	const struct row *named[2 * TRIGGER_TOP];
	char err[256];

	for (int i = 0; i < 9; i++) {
		rows[i] = make_row((uint32_t)(200 + i), 0, "w", 0, 0);
		rows[i].state = 'D';
		rows[i].cgroup = i < 7 ? "/app/web" : "/application";
	}
	rows[0].r.kind[DK_IO].pct = 30; /* stalled and still in D: named once, among the stalled */
	rows[1].state = 'S';
	rows[2].departed = 1;
	rows[3].fresh = 1; /* new in the reading: its state is known */
	rows[4].state = 'S'; /* a process whose main thread sleeps, one of its threads in D */
	rows[4].have_states = 1;
	rows[4].states[CG_UNINTERRUPTIBLE] = 1;
	rows[5].state = 'S'; /* ... and one whose threads are all asleep */
	rows[5].have_states = 1;
	rows[5].states[CG_SLEEPING] = 3;
	rows[6].state = 'S'; /* ... and one whose threads' states were not read */
	rows[8].exited = 1; /* its last state was D */
	memset(&snap, 0, sizeof(snap));
	snap.rows = rows;
	snap.nrows = 9;
	trigger_parse("io some 100ms 1s /app", &t, err, sizeof(err));
	trigger_stallers(&snap, &t, &st);
	ok(st.ntasks == 1 && st.task[0]->pid == 200, "the one that stalled: 200");
	ok(st.nwaiting == 2 && st.waiting[0]->pid == 203 && st.waiting[1]->pid == 204,
	   "waiting in /app and below, in D (a thread of 204), not departed, not already named: 203, 204 (%zu)",
	   st.nwaiting);
	ok(trigger_named(&st, named) == 3 && named[0]->pid == 200 && named[1]->pid == 203,
	   "named: the stalled, then the waiting");
	trigger_parse("io some 100ms 1s", &t, err, sizeof(err));
	trigger_stallers(&snap, &t, &st);
	ok(st.nwaiting == 3 && st.waiting[2]->pid == 207,
	   "the system's trigger: any cgroup (/application too), not the exited (208)");
	rows[5].state = rows[6].state = 'D';
	trigger_stallers(&snap, &t, &st);
	ok(st.nwaiting == TRIGGER_TOP && st.waiting[4]->pid == 207, "at most %d", TRIGGER_TOP);
	trigger_parse("memory full 100ms 1s /app/web", &t, err, sizeof(err));
	trigger_stallers(&snap, &t, &st);
	ok(st.ntasks == 0 && st.nwaiting == 5 && st.waiting[0]->pid == 200,
	   "memory waits in D too; 200 stalled on I/O, not memory, is waiting");
	trigger_parse("cpu some 100ms 1s /app", &t, err, sizeof(err));
	trigger_stallers(&snap, &t, &st);
	ok(st.nwaiting == 0, "cpu: nobody waiting");
}

int main(void)
{
	test_parse();
	test_kinds();
	test_stallers();
	test_waiting();
	return tap_done();
}
