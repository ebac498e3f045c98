/* test_cgowner.c — who a cgroup is delegated to (cgowner.h), on a fake kernel's hierarchy
 * (fakekernel.h), without root: root's cgroups are no one's, a subtree chowned to a user is that
 * user's from its top down (the outermost owner that is not root, also below a nested delegate or
 * a directory root made in it); a lookup kept costs one stat, a cgroup made again (a new inode) or
 * chowned is read again, one gone is the delegate's of an ancestor still there or not known, and
 * not kept; paths not looked up are forgotten. Then the sampler: a process's row and the cgroup
 * view's rows carry the delegate, and a process that stays in its cgroup costs no stat, nor does a
 * cgroup the view walks again (but one made again, and every one within CGOWNER_FRESH readings). */
#include "config.h"

#include <string.h>

#include "cgowner.h"
#include "fakekernel.h"
#include "sampler.h"
#include "tap.h"

#define SEC 1000000000ull
#define HEX64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define REAL "/system.slice/docker-" HEX64 ".scope"
#define USER "/user.slice/user-1000.slice/user@1000.service"
#define FAKE USER "/app.slice/docker-" HEX64 ".scope"

/* The hierarchy: a real container under root's cgroups, and user 1000's delegated subtree with a
 * container of the same id below it. */
static void hierarchy(struct fake_kernel *fk)
{
	fk_init(fk, 1000);
	fk->v2 = 1;
	fk_mkdir(fk, "/", 0);
	fk_mkdir(fk, "/system.slice", 0);
	fk_mkdir(fk, REAL, 0);
	fk_mkdir(fk, "/user.slice", 0);
	fk_mkdir(fk, "/user.slice/user-1000.slice", 0);
	fk_mkdir(fk, USER, 1000);
	fk_mkdir(fk, USER "/app.slice", 1000);
	fk_mkdir(fk, FAKE, 1000);
}

static void test_lookup(void)
{
	struct fake_kernel fk;
	struct cgroup_hier h;
	struct cgowner c;
	int reads;

	hierarchy(&fk);
	fk.k.ops->cgroup_detect(&fk.k, &h);
	cgowner_init(&c);
	is_int(cgowner_below(CGOWNER_NONE, 0), CGOWNER_NONE, "below root's, a directory of root's is no one's");
	is_int(cgowner_below(CGOWNER_NONE, 1000), 1000, "below root's, one of a user's is that user's");
	is_int(cgowner_below(1000, 100000), 1000, "below a user's, the outer user's, whoever owns it");
	is_int(cgowner_below(1000, 0), 1000, "even one root made there");

	is_int(cgowner_of(&c, &fk.k, &h, REAL), CGOWNER_NONE, "a real container under root's cgroups: no one's");
	is_int(fk.owner_reads, 3, "the first lookup reads the directories up to the top (3)");
	is_int(cgowner_of(&c, &fk.k, &h, FAKE), 1000, "the same id in user 1000's subtree: user 1000's");
	is_int(cgowner_of(&c, &fk.k, &h, USER), 1000, "the delegated directory itself too");
	is_int(cgowner_of(&c, &fk.k, &h, "/user.slice/user-1000.slice"), CGOWNER_NONE, "not the one above it");
	reads = fk.owner_reads;
	is_int(cgowner_of(&c, &fk.k, &h, FAKE), 1000, "looked up again");
	is_int(fk.owner_reads - reads, 1, "a path kept costs one stat, its own (1)");
	fk_mkdir(&fk, USER "/app.slice/other.service", 1000);
	reads = fk.owner_reads;
	is_int(cgowner_of(&c, &fk.k, &h, USER "/app.slice/other.service"), 1000, "a new cgroup in the subtree");
	is_int(fk.owner_reads - reads, 2, "costs its own stat and its parent's, kept (2)");

	/* nested: a rootless container's mapped uid, and a directory root made, below the user's */
	fk_mkdir(&fk, USER "/app.slice/pod", 100000);
	fk_mkdir(&fk, USER "/app.slice/pod/rootmade", 0);
	is_int(cgowner_of(&c, &fk.k, &h, USER "/app.slice/pod"), 1000, "a nested delegate's: the outermost user's");
	is_int(cgowner_of(&c, &fk.k, &h, USER "/app.slice/pod/rootmade"), 1000,
	       "a directory of root's below a user's: still the user's");

	/* made again: a new inode is read again, whoever owns it now */
	fk_rmdir(&fk, FAKE);
	fk_mkdir(&fk, FAKE, 0);
	fk_cgroup_find(&fk, USER "/app.slice")->uid = 0; /* and its parent chowned back to root */
	fk_cgroup_find(&fk, USER)->uid = 0;
	is_int(cgowner_of(&c, &fk.k, &h, FAKE), CGOWNER_NONE,
	       "a cgroup removed and made again is read again (its new inode), its parents with it");
	fk_cgroup_find(&fk, FAKE)->uid = 2000;
	is_int(cgowner_of(&c, &fk.k, &h, FAKE), 2000, "a cgroup chowned (the same inode) is read again");
	fk_cgroup_find(&fk, FAKE)->uid = 0;
	fk_cgroup_find(&fk, USER)->uid = 1000;
	is_int(cgowner_of(&c, &fk.k, &h, USER), 1000, "its ancestor chowned to the user again");
	is_int(cgowner_of(&c, &fk.k, &h, FAKE), CGOWNER_NONE,
	       "a cgroup kept does not see at once a chown above it (what is kept of its parents is trusted)");
	for (int i = 0; i <= CGOWNER_FRESH; i++)
		cgowner_retire(&c, 1000);
	reads = fk.owner_reads;
	is_int(cgowner_of(&c, &fk.k, &h, FAKE), 1000, "but within CGOWNER_FRESH ticks");
	is_int(fk.owner_reads - reads, 6, "its directories read again, up to the top (6)");

	/* gone */
	fk_mkdir(&fk, "/deleg", 1500);
	fk_mkdir(&fk, "/deleg/x", 1500);
	is_int(cgowner_of(&c, &fk.k, &h, "/deleg/x"), 1500, "another delegated subtree");
	fk_rmdir(&fk, "/deleg/x");
	is_int(cgowner_of(&c, &fk.k, &h, "/deleg/x"), 1500,
	       "a cgroup gone below a delegated directory still there: the delegate's");
	fk_rmdir(&fk, REAL);
	is_int(cgowner_of(&c, &fk.k, &h, REAL), CGOWNER_NONE, "one gone below root's cgroups: not known");
	fk_mkdir(&fk, REAL, 3000);
	is_int(cgowner_of(&c, &fk.k, &h, REAL), 3000, "not kept as root's: made again, it is read");
	fk_rmdir(&fk, REAL);
	fk_rmdir(&fk, "/system.slice");
	is_int(cgowner_of(&c, &fk.k, &h, REAL), CGOWNER_NONE, "gone with its parent: not known, no crash");
	is_int(cgowner_of(&c, &fk.k, &h, NULL), CGOWNER_NONE, "no path: none");

	/* forgetting */
	cgowner_retire(&c, 0);
	is_int(c.n, 0, "keeping 0 calls: every path not looked up since the last call is forgotten");
	cgowner_of(&c, &fk.k, &h, FAKE);
	is_int(c.n, 6, "a lookup keeps its path and the directories above it (6)");
	cgowner_retire(&c, 2);
	cgowner_retire(&c, 2);
	is_int(c.n, 6, "kept while looked up within the last calls");
	cgowner_of(&c, &fk.k, &h, USER "/app.slice/pod");
	cgowner_retire(&c, 1);
	ok(c.n == 2 && strcmp(c.e[0].path, USER "/app.slice") == 0 && strcmp(c.e[1].path, USER "/app.slice/pod") == 0,
	   "then forgotten, but for those the last lookup read or met (%zu kept)", c.n);
	cgowner_free(&c);
}

static const struct row *row_of(const struct snapshot *s, uint32_t pid, int departed)
{
	for (size_t i = 0; i < s->nrows; i++)
		if (s->rows[i].pid == pid && s->rows[i].departed == departed)
			return &s->rows[i];
	return NULL;
}

static const struct row *cgroup_row(const struct snapshot *s, const char *path)
{
	for (size_t i = 0; i < s->ncgroup_rows; i++)
		if (s->cgroup_rows[i].cgroup && strcmp(s->cgroup_rows[i].cgroup, path) == 0)
			return &s->cgroup_rows[i];
	return NULL;
}

static int tick(struct sampler *s, struct fake_kernel *fk, struct snapshot *snap)
{
	char err[256];

	fk->now += SEC;
	return sampler_tick(s, snap, err, sizeof(err));
}

static void test_sampler(int cgroups)
{
	struct fake_kernel fk;
	struct sampler_opts o = { .cgroups = cgroups, .listen = 1, .departed = 1 };
	struct sampler *s = NULL;
	struct snapshot snap;
	char err[256] = "";
	const struct row *r;
	int reads;

	hierarchy(&fk);
	fk_add_thread(fk_add_proc(&fk, 100, 1, 0, 10, "dockerd-shim", NULL), 100, 10, "sleep")->c.kind_total = 0;
	fk.p[0].cgroup = REAL;
	fk_add_thread(fk_add_proc(&fk, 200, 1, 1000, 10, "sleep", NULL), 200, 10, "sleep");
	fk.p[1].cgroup = FAKE;
	fk_add_thread(fk_add_proc(&fk, 300, 1, 0, 10, "cron", NULL), 300, 10, "cron");
	fk.p[2].cgroup = "/system.slice";
	if (sampler_open_kernel(&s, &o, &fk.k, err, sizeof(err)) < 0) {
		ok(0, "the sampler opens on the fake kernel: %s", err);
		return;
	}
	ok(tick(s, &fk, &snap) == 0, "%s: a reading", cgroups ? "the cgroup view" : "process mode");
	r = row_of(&snap, 100, 0);
	ok(r && r->cgroup && strcmp(r->cgroup, REAL) == 0 && r->identity_uid == 0,
	   "the real container's process: identity_uid none");
	r = row_of(&snap, 200, 0);
	ok(r && r->cgroup && strcmp(r->cgroup, FAKE) == 0 && r->identity_uid == 1000,
	   "the process in the user's fake container: identity_uid 1000");
	if (cgroups) {
		r = cgroup_row(&snap, REAL);
		ok(r && r->identity_uid == 0, "the real container's cgroup row: none");
		r = cgroup_row(&snap, FAKE);
		ok(r && r->identity_uid == 1000, "the fake one's: 1000");
		r = cgroup_row(&snap, USER);
		ok(r && r->identity_uid == 1000, "the delegated directory's: 1000");
		r = cgroup_row(&snap, "/user.slice");
		ok(r && r->identity_uid == 0, "the slice above it: none");
	}
	reads = fk.owner_reads;
	fk_run(&fk.p[1].t[0], 10);
	fk_run(&fk.p[0].t[0], 10);
	ok(tick(s, &fk, &snap) == 0 && row_of(&snap, 200, 0) && row_of(&snap, 200, 0)->identity_uid == 1000,
	   "the next reading: still 1000");
	is_int(fk.owner_reads - reads, 0, "processes that ran but stayed in their cgroups cost no stat");
	fk.p[0].cgroup = FAKE;
	fk_run(&fk.p[0].t[0], 10);
	ok(tick(s, &fk, &snap) == 0 && row_of(&snap, 100, 0) && row_of(&snap, 100, 0)->identity_uid == 1000,
	   "a process moved to the fake container is looked up again: 1000");
	fk_wait(&fk.p[1].t[0], DK_IO, 100, 1);
	fk_exit(&fk, &fk.p[1], &fk.p[1].t[0]);
	ok(tick(s, &fk, &snap) == 0 && row_of(&snap, 200, 0) && row_of(&snap, 200, 0)->exited &&
		   row_of(&snap, 200, 0)->identity_uid == 1000,
	   "the process that ended: its exited row keeps 1000");
	ok(tick(s, &fk, &snap) == 0 && row_of(&snap, 200, 1) && row_of(&snap, 200, 1)->identity_uid == 1000,
	   "and its departed row");
	if (cgroups) {
		fk_rmdir(&fk, REAL);
		fk_mkdir(&fk, REAL, 4000);
		reads = fk.owner_reads;
		ok(tick(s, &fk, &snap) == 0 && cgroup_row(&snap, REAL) && cgroup_row(&snap, REAL)->identity_uid == 4000,
		   "the cgroup view: a cgroup made again (another inode) is read at the next reading");
		is_int(fk.owner_reads - reads, 1, "and it alone: the others' owners are the last reading's (1 stat)");
		fk_cgroup_find(&fk, FAKE)->uid = 0;
		fk_cgroup_find(&fk, USER "/app.slice")->uid = 0;
		fk_cgroup_find(&fk, USER)->uid = 0;
		ok(tick(s, &fk, &snap) == 0 && cgroup_row(&snap, FAKE) && cgroup_row(&snap, FAKE)->identity_uid == 1000,
		   "a chown (the same inodes) is not read at once");
		for (int i = 0; i < CGOWNER_FRESH; i++)
			tick(s, &fk, &snap);
		ok(cgroup_row(&snap, FAKE) && cgroup_row(&snap, FAKE)->identity_uid == 0 && cgroup_row(&snap, USER) &&
			   cgroup_row(&snap, USER)->identity_uid == 0,
		   "but within CGOWNER_FRESH readings");
	}
	sampler_close(s);
}

int main(void)
{
	test_lookup();
	test_sampler(0);
	test_sampler(1);
	return tap_done();
}
