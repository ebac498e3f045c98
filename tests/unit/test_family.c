/* test_family.c — deciding which exit records descend from the command (src/command/family.h), with a
 * fake table of live processes: parent[pid] is the parent of a live pid, -1 when it is gone. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "family.h"
#include "tap.h"

#define ROOT 100u /* the command */
#define SELF 10u  /* delaytop, the subreaper */
#define T0 1000u  /* the time the run starts, seconds */
#define NPIDS 4096

static int64_t parent[NPIDS];
static int parent_calls;

/* The members the family reported, in order: their tids. */
static uint32_t got[256];
static size_t ngot;

static int64_t fake_parent(void *arg, uint32_t pid)
{
	(void)arg;
	parent_calls++;
	return pid < NPIDS ? parent[pid] : -1;
}

static void on_member(void *arg, const struct exit_task *t)
{
	(void)arg;
	if (ngot < sizeof(got) / sizeof(got[0]))
		got[ngot++] = t->tid;
}

/* A fresh run: only pid 1, delaytop and the command are alive. */
static struct family *fresh(void)
{
	for (size_t i = 0; i < NPIDS; i++)
		parent[i] = -1;
	parent[1] = 0;
	parent[SELF] = 1;
	parent[ROOT] = SELF;
	ngot = 0;
	parent_calls = 0;
	return family_new(ROOT, SELF, T0, fake_parent, on_member, NULL);
}

/* The exit record of thread tid of process tgid, child of ppid. */
static struct exit_task rec(uint32_t tid, uint32_t tgid, uint32_t ppid, uint64_t start_s, int group_dead)
{
	struct exit_task t;

	memset(&t, 0, sizeof(t));
	t.tid = tid;
	t.tgid = tgid;
	t.ppid = ppid;
	t.start_s = start_s;
	t.group_dead = group_dead;
	snprintf(t.comm, sizeof(t.comm), "t%u", tid);
	t.delays.kinds = 1;
	t.delays.total_ns[0] = 1000u * tid;
	return t;
}

/* A single-threaded process ends. */
static void proc_exit(struct family *f, uint32_t pid, uint32_t ppid, uint64_t start_s, uint64_t now_s)
{
	struct exit_task t = rec(pid, pid, ppid, start_s, 1);

	family_exit(f, &t, now_s);
}

static int counted(uint32_t tid)
{
	for (size_t i = 0; i < ngot; i++)
		if (got[i] == tid)
			return 1;
	return 0;
}

static size_t times_counted(uint32_t tid)
{
	size_t n = 0;

	for (size_t i = 0; i < ngot; i++)
		n += got[i] == tid;
	return n;
}

static const char *members(void)
{
	static char buf[2048];
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ngot && len < sizeof(buf) - 16; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%u", i ? "," : "", got[i]);
	return ngot ? buf : "(none)";
}

/* A child whose record arrives before its parent's waits, and its parent's record releases it. */
static void child_before_parent(void)
{
	struct family *f = fresh();

	/* 200: a child of the command, already gone; 201: its child, gone too */
	proc_exit(f, 201, 200, T0, T0 + 1);
	is_int(ngot, 0, "a child's record whose parent is gone and undecided is not counted yet");
	is_int(family_undecided(f), 1, "... it is held: family_undecided says 1");
	proc_exit(f, 200, ROOT, T0, T0 + 1);
	ok(counted(200), "the parent's record counts (its parent is the command); members: %s", members());
	ok(counted(201), "the held child is released when its parent's record says it descends; members: %s",
	   members());
	is_int(times_counted(201), 1, "the released child is counted once");
	is_int(family_undecided(f), 0, "nothing is held after the release");
	family_free(f);
}

/* An orphan reparented to delaytop (the subreaper) descends from the command. */
static void orphan_of_self(void)
{
	struct family *f = fresh();

	proc_exit(f, 300, SELF, T0, T0 + 2);
	ok(counted(300), "a record whose ppid is delaytop's own pid counts; members: %s", members());
	is_int(family_undecided(f), 0, "the orphan is not held");
	/* and the orphan's own child, gone before it, waits for it and then counts */
	family_free(f);
	f = fresh();
	proc_exit(f, 311, 310, T0, T0 + 2);
	proc_exit(f, 310, SELF, T0, T0 + 2);
	ok(counted(310) && counted(311), "an orphan's child held until the orphan's record counts too; members: %s",
	   members());
	family_free(f);
}

/* ROOT -> 400 -> 401 -> 402 -> 403, all gone, records deepest first. */
static void deep_grandchildren(void)
{
	struct family *f = fresh();

	proc_exit(f, 403, 402, T0, T0 + 1);
	proc_exit(f, 402, 401, T0, T0 + 1);
	proc_exit(f, 401, 400, T0, T0 + 1);
	is_int(ngot, 0, "three levels of descendants are held until an ancestor decides");
	is_int(family_undecided(f), 3, "three records held");
	proc_exit(f, 400, ROOT, T0, T0 + 1);
	is_int(ngot, 4, "the command's child and its descendants three levels deep all count");
	ok(counted(400) && counted(401) && counted(402) && counted(403), "each of 400..403 counts; members: %s",
	   members());
	is_int(family_undecided(f), 0, "nothing held afterwards");
	family_free(f);
}

/* Records of processes whose live parents lead to pid 1 are decided at once and not counted. */
static void unrelated(void)
{
	struct family *f = fresh();

	parent[501] = 1; /* a daemon, alive */
	proc_exit(f, 500, 501, T0, T0 + 1);
	is_int(ngot, 0, "a child of a live process whose parent is pid 1 does not count");
	is_int(family_undecided(f), 0, "... and is not held (its parent is alive)");
	parent[512] = 1;
	parent[511] = 512;
	parent[510] = 511; /* 510 -> 511 -> 512 -> 1, all alive */
	proc_exit(f, 509, 510, T0, T0 + 1);
	is_int(ngot, 0, "a record whose live parent chain reaches pid 1 three levels up does not count");
	is_int(family_undecided(f), 0, "... and is not held");
	proc_exit(f, 520, 1, T0, T0 + 1);
	is_int(ngot, 0, "a child of pid 1 does not count");
	is_int(family_undecided(f), 0, "... and is not held");
	/* a thread of a stranger: not taken for a member either */
	{
		struct exit_task t = rec(531, 530, 1, T0, 0);

		parent[530] = 1;
		family_exit(f, &t, T0 + 1);
	}
	is_int(ngot, 0, "a thread of an unrelated process does not count");
	is_int(family_undecided(f), 0, "... and is not held");
	family_free(f);
}

/* A record whose parent is gone and was never seen cannot be decided. */
static void undecided(void)
{
	struct family *f = fresh();

	proc_exit(f, 600, 601, T0, T0 + 1); /* 601: gone, no record of it ever comes */
	is_int(family_undecided(f), 1, "a record whose parent is gone and never seen is undecided");
	is_int(ngot, 0, "... and not counted");
	proc_exit(f, 610, ROOT, T0, T0 + 1);
	proc_exit(f, 611, SELF, T0, T0 + 2);
	is_int(family_undecided(f), 1, "it stays undecided while other records come and go");
	ok(!counted(600), "and is never counted; members: %s", members());
	family_free(f);
}

/* A held record whose parent's record then says it is unrelated is decided: not counted, and
 * no longer held (family.h: the parent's record decides). */
static void held_then_stranger(void)
{
	struct family *f = fresh();

	proc_exit(f, 651, 650, T0, T0 + 1); /* 650: gone, undecided for now */
	is_int(family_undecided(f), 1, "a child of a gone parent is held");
	proc_exit(f, 650, 1, T0, T0 + 1); /* 650's record: a child of pid 1, unrelated */
	is_int(ngot, 0, "neither the unrelated parent nor its child counts");
	is_int(family_undecided(f), 0, "the child's record is no longer held once its parent's record decided it");
	family_free(f);
}

/* A pid that a member had is reused by an unrelated process after the member ended. */
static void pid_reuse(void)
{
	struct family *f = fresh();
	struct exit_task t;

	proc_exit(f, 700, ROOT, T0, T0 + 1); /* the member 700 ends at T0 + 1 */
	ok(counted(700), "the member 700 counts");
	ngot = 0;
	/* T0 + 10: an unrelated process (parent: pid 1) starts with pid 700 */
	parent[700] = 1;
	/* its child 701, started at T0 + 10, ends while the stranger 700 lives */
	proc_exit(f, 701, 700, T0 + 10, T0 + 11);
	ok(!counted(701), "a child of a live stranger that reused a member's pid does not count; members: %s",
	   members());
	ok(!family_includes(f, 700), "family_includes says no for the live stranger that reused a member's pid");
	/* a thread of the stranger ends, then the stranger itself */
	t = rec(702, 700, 1, T0 + 10, 0);
	family_exit(f, &t, T0 + 12);
	ok(!counted(702), "a thread of the stranger that reused the pid does not count; members: %s", members());
	parent[700] = -1;
	proc_exit(f, 700, 1, T0 + 10, T0 + 12);
	ok(!counted(700), "the stranger's own record (later start, parent pid 1) does not count; members: %s",
	   members());
	is_int(family_undecided(f), 0, "nothing held");
	family_free(f);

	/* the same with the stranger's record coming first, then a child of it that outlived it */
	f = fresh();
	proc_exit(f, 720, ROOT, T0, T0 + 1);
	ngot = 0;
	proc_exit(f, 720, 1, T0 + 20, T0 + 21);
	ok(!counted(720), "a stranger's record for a reused pid (started 19 s after the member ended) does not count");
	family_free(f);
}

/* Every thread of a member process counts, whichever arrives first. */
static void threads(void)
{
	struct family *f = fresh();
	struct exit_task t;

	parent[800] = ROOT; /* alive while its threads end */
	t = rec(802, 800, ROOT, T0, 0);
	family_exit(f, &t, T0 + 1);
	t = rec(801, 800, ROOT, T0, 0);
	family_exit(f, &t, T0 + 1);
	parent[800] = -1;
	t = rec(800, 800, ROOT, T0, 1);
	family_exit(f, &t, T0 + 1);
	is_int(ngot, 3, "three thread records of a member process count");
	ok(counted(800) && counted(801) && counted(802), "threads 800, 801, 802 count; members: %s", members());

	/* threads of a process whose parent is undecided wait with it and count when it resolves */
	family_free(f);
	f = fresh();
	t = rec(811, 810, 809, T0, 0); /* 809 gone: a child of the command, record still to come */
	family_exit(f, &t, T0 + 1);
	t = rec(810, 810, 809, T0, 1);
	family_exit(f, &t, T0 + 1);
	is_int(family_undecided(f), 2, "two thread records of a process with an unknown parent are held");
	proc_exit(f, 809, ROOT, T0, T0 + 1);
	ok(counted(809) && counted(810) && counted(811), "they count once the parent's record decides; members: %s",
	   members());
	is_int(family_undecided(f), 0, "nothing held afterwards");
	family_free(f);
}

/* family_includes for live processes. */
static void includes(void)
{
	struct family *f = fresh();

	parent[901] = ROOT;
	parent[900] = 901; /* ROOT -> 901 -> 900, alive */
	ok(family_includes(f, 900), "a live grandchild of the command is included");
	ok(family_includes(f, 901), "a live child of the command is included");
	ok(family_includes(f, ROOT), "the command itself is included");
	parent[960] = SELF;
	ok(family_includes(f, 960), "a live orphan reparented to delaytop is included");
	parent[950] = 1;
	ok(!family_includes(f, 950), "a live child of pid 1 is not included");
	parent[970] = 971; /* 971 gone */
	ok(!family_includes(f, 970), "a live process whose parent is gone and unknown is not included");
	/* a live child of a member that has ended: the orphan is reparented, but its pid chain still
	 * answers through the member known from its record */
	proc_exit(f, 980, ROOT, T0, T0 + 1);
	parent[981] = SELF;
	ok(family_includes(f, 981), "a live orphan of an ended member (now delaytop's) is included");
	family_free(f);
}

int main(void)
{
	child_before_parent();
	orphan_of_self();
	deep_grandchildren();
	unrelated();
	undecided();
	held_then_stranger();
	pid_reuse();
	threads();
	includes();
	return tap_done();
}
