/* test_cgroupfs.c — finding the cgroup hierarchies in mountinfo (pure v2, hybrid, pure v1, bind
 * mounts and escaped names), a task's path from /proc/PID/cgroup, paths and directories, and the
 * walk, owners (a subtree delegated) and pressure of a fixture tree with odd names and a deep
 * path. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroupfs.h"
#include "cgtable.h"
#include "tap.h"

static const char v2_only[] =
	"22 1 0:21 / /sys rw,nosuid - sysfs sysfs rw\n"
	"25 22 0:23 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n";

static const char hybrid[] =
	"30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	"34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
	"39 30 0:36 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n"
	"40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

static const char v1_only[] =
	"31 30 0:28 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:7 - cgroup cgroup rw,cpu,cpuacct\n"
	"32 30 0:29 / /sys/fs/cgroup/blkio rw,relatime shared:8 - cgroup cgroup rw,blkio\n";

static const char v1_no_systemd_escaped[] =
	"31 30 0:28 /lxc/c1 /mnt/my\\040cgroups rw,relatime - cgroup cgroup rw,cpu,cpuacct\n"
	"32 30 0:29 / /sys/fs/cgroup/blkio rw,relatime - cgroup cgroup rw,blkio\n";

static const char task_cgroup[] =
	"12:cpu,cpuacct:/lxc/c1/system.slice\n"
	"9:name=systemd:/system.slice/foo\\x2dbar.service\n"
	"4:memory:/user.slice\n"
	"0::/system.slice/foo\\x2dbar.service\n";

static void test_detect(void)
{
	struct cgroup_mount m[CGROUP_MOUNTS_MAX];
	struct cgroup_hier h;
	char buf[CGROUP_PATH_MAX];
	int n;

	n = cghier_parse_mountinfo(v2_only, m, CGROUP_MOUNTS_MAX);
	cghier_choose(m, n, &h);
	ok(n == 1 && h.layout == CGROUP_V2 && h.m.v2 && strcmp(h.m.dir, "/sys/fs/cgroup") == 0,
	   "pure v2: the v2 hierarchy at /sys/fs/cgroup");
	is_str(cghier_describe(&h, buf, sizeof(buf)), "cgroup v2", "described as cgroup v2");

	n = cghier_parse_mountinfo(hybrid, m, CGROUP_MOUNTS_MAX);
	cghier_choose(m, n, &h);
	ok(n == 4 && h.layout == CGROUP_HYBRID && h.m.v2 && strcmp(h.m.dir, "/sys/fs/cgroup/unified") == 0,
	   "hybrid: v1 controllers and v2 at /sys/fs/cgroup/unified; v2 is shown");

	n = cghier_parse_mountinfo(v1_only, m, CGROUP_MOUNTS_MAX);
	cghier_choose(m, n, &h);
	ok(n == 2 && h.layout == CGROUP_V1 && !h.m.v2 && strcmp(h.m.dir, "/sys/fs/cgroup/cpu,cpuacct") == 0,
	   "pure v1 without name=systemd: the first v1 hierarchy");
	is_str(cghier_describe(&h, buf, sizeof(buf)), "cgroup v1 (cpu,cpuacct)", "described with its controllers");

	n = cghier_parse_mountinfo(hybrid, m, CGROUP_MOUNTS_MAX);
	cghier_choose(m, n - 1, &h); /* without the v2 line */
	ok(h.layout == CGROUP_V1 && strcmp(h.m.dir, "/sys/fs/cgroup/systemd") == 0,
	   "v1 with name=systemd: the systemd hierarchy");

	n = cghier_parse_mountinfo(v1_no_systemd_escaped, m, CGROUP_MOUNTS_MAX);
	ok(n == 2 && strcmp(m[0].dir, "/mnt/my cgroups") == 0 && strcmp(m[0].root, "/lxc/c1") == 0,
	   "mountinfo's \\040 escape is undone; a bind mount keeps its root");
	cghier_choose(m, n, &h);
	ok(cghier_dir(&h, "/lxc/c1/a b", buf, sizeof(buf)) == 0 && strcmp(buf, "/mnt/my cgroups/a b") == 0,
	   "a path below a bind mount's root maps into its directory");
	ok(cghier_dir(&h, "/lxc/c2", buf, sizeof(buf)) < 0, "a path outside the bind mount has no directory");
	ok(cghier_parse_task(task_cgroup, &h, buf, sizeof(buf)) == 0 && strcmp(buf, "/lxc/c1/system.slice") == 0,
	   "v1: the task's line is that of the hierarchy's controllers");

	cghier_choose(m, 0, &h);
	ok(h.layout == CGROUP_NONE && cghier_parse_task(task_cgroup, &h, buf, sizeof(buf)) < 0,
	   "no hierarchy: no path");
}

static void test_paths(void)
{
	struct cgroup_mount m[CGROUP_MOUNTS_MAX];
	struct cgroup_hier h;
	char buf[CGROUP_PATH_MAX];
	int n = cghier_parse_mountinfo(hybrid, m, CGROUP_MOUNTS_MAX);

	cghier_choose(m, n, &h);
	ok(cghier_parse_task(task_cgroup, &h, buf, sizeof(buf)) == 0 &&
		   strcmp(buf, "/system.slice/foo\\x2dbar.service") == 0,
	   "v2: the 0:: line, systemd's \\x2d escape kept as the kernel shows it");
	cghier_choose(m, n - 1, &h);
	ok(cghier_parse_task(task_cgroup, &h, buf, sizeof(buf)) == 0 &&
		   strcmp(buf, "/system.slice/foo\\x2dbar.service") == 0,
	   "name=systemd: its line");
	ok(cghier_parse_task("0::/\n", &h, buf, sizeof(buf)) < 0, "a v1 hierarchy the task text lacks: no path");

	cgpath_normalize("system.slice//a/", buf, sizeof(buf));
	is_str(buf, "/system.slice/a", "normalized: a leading slash, no doubled or trailing one");
	cgpath_normalize("/", buf, sizeof(buf));
	is_str(buf, "/", "the root stays /");
	ok(cgpath_within("/a/b", "/a") && cgpath_within("/a", "/a") && !cgpath_within("/ab", "/a") &&
		   cgpath_within("/x", "/"),
	   "within: at or below, not a name that merely starts the same");
	is_int(cghier_state_of('R'), CG_RUNNING, "R is running");
	is_int(cghier_state_of('D'), CG_UNINTERRUPTIBLE, "D is uninterruptible");
	is_int(cghier_state_of('Z'), -1, "a zombie counts as no state");
}

static char tree[256];

static void make(const char *rel, const char *pressure)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s%s", tree, rel);
	mkdir(path, 0755);
	if (pressure) {
		FILE *f;

		snprintf(path, sizeof(path), "%s%s/cpu.pressure", tree, rel);
		f = fopen(path, "w");
		fputs(pressure, f);
		fclose(f);
	}
}

static size_t walked;
static char seen[64][CGROUP_PATH_MAX];
static uint64_t seen_ino[64];

static void on_path(void *arg, const char *path, uint64_t ino)
{
	(void)arg;
	if (walked < 64) {
		snprintf(seen[walked], sizeof(seen[walked]), "%s", path);
		seen_ino[walked] = ino;
	}
	walked++;
}

/* The walk's inode of path, or 0 when it did not walk it. */
static uint64_t walked_ino(const char *path)
{
	for (size_t i = 0; i < walked && i < 64; i++)
		if (strcmp(seen[i], path) == 0)
			return seen_ino[i];
	return 0;
}

/* The table's delegate of path, or UINT32_MAX when it does not hold it. */
static uint32_t table_deleg(const struct cgtable *t, const char *path)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->f[i].path, path) == 0)
			return t->f[i].identity_uid;
	return UINT32_MAX;
}

static void test_walk(void)
{
	struct cgroup_hier h;
	struct cgtable t;
	struct row busy[1];
	char deep[CGROUP_PATH_MAX] = "";
	int found_space = 0, found_deep = 0;
	struct kernel *k;
	char err[256];

	snprintf(tree, sizeof(tree), "%s/delaytop-cgroupfs.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tree)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	make("/system.slice", "some avg10=0.00 avg60=0.00 avg300=0.00 total=1000\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n");
	make("/system.slice/a b.service", NULL);
	make("/system.slice/foo\\x2dbar.service", NULL);
	for (int i = 0; i < 20; i++) {
		strcat(deep, "/d");
		make(deep, NULL);
	}
	make("/system.slice/user", NULL);
	make("/system.slice/user/docker-x.scope", NULL);
	memset(&h, 0, sizeof(h));
	h.layout = CGROUP_V2;
	h.m.v2 = 1;
	snprintf(h.m.dir, sizeof(h.m.dir), "%s", tree);
	snprintf(h.m.root, sizeof(h.m.root), "/");
	/* as root, a subtree delegated to nobody (65534) as systemd or a test would; else the whole
	 * tree is the test's user's */
	if (geteuid() == 0) {
		char path[1024];

		snprintf(path, sizeof(path), "%s/system.slice/user", tree);
		ok(chown(path, 65534, 65534) == 0, "a subtree chowned to 65534");
		snprintf(path, sizeof(path), "%s/system.slice/user/docker-x.scope", tree);
		ok(chown(path, 65534, 65534) == 0, "and a cgroup the delegate made below it");
	}
	ok(cgroupfs_walk(&h, "/", on_path, NULL) == 0, "walks the fixture tree");
	is_int(walked, 26, "every cgroup once: the root, 5 in system.slice, 20 nested");
	{
		uint32_t me = (uint32_t)geteuid(), deleg = me ? me : 65534, uid = 1;
		uint64_t ino = 0;
		struct stat st;
		char path[1024];

		snprintf(path, sizeof(path), "%s/system.slice/user/docker-x.scope", tree);
		ok(stat(path, &st) == 0 && walked_ino("/system.slice/user/docker-x.scope") == (uint64_t)st.st_ino,
		   "the walk gives each directory's inode, as its parent lists it");
		snprintf(path, sizeof(path), "%s", tree);
		ok(stat(path, &st) == 0 && walked_ino("/") == (uint64_t)st.st_ino, "and the root's");
		snprintf(path, sizeof(path), "%s/system.slice/user", tree);
		ok(cgroupfs_owner(&h, "/system.slice/user", &uid, &ino) == 0 && uid == deleg && stat(path, &st) == 0 &&
			   ino == (uint64_t)st.st_ino,
		   "cgroupfs_owner: the directory's owner and inode");
		ok(cgroupfs_owner(&h, "/system.slice", &uid, &ino) == 0 && uid == me, "a directory is its maker's");
		is_int(cgroupfs_owner(&h, "/system.slice/gone", &uid, &ino), -ENOENT, "a cgroup gone is ENOENT");
	}
	for (size_t i = 0; i < walked && i < 64; i++) {
		found_space |= strcmp(seen[i], "/system.slice/a b.service") == 0;
		found_deep |= strcmp(seen[i], deep) == 0;
	}
	ok(found_space, "a name with a space");
	ok(found_deep, "a path 20 levels deep");
	ok(strcmp(seen[0], "/") == 0, "parents come before their children: the root first");
	ok(cgroupfs_walk(&h, "/nosuch", on_path, NULL) == -ENOENT, "a missing root is ENOENT");

	memset(busy, 0, sizeof(busy));
	busy[0].cgroup = "/system.slice/a b.service";
	make("/system.slice/foo\\x2dbar.service",
	     "some avg10=0.00 avg60=0.00 avg300=0.00 total=7\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n");
	cgtable_init(&t);
	if (kernel_open(&k, err, sizeof(err)) < 0) {
		ok(0, "the real kernel edge opens: %s", err);
		return;
	}
	ok(cgtable_read(&t, k, &h, "/system.slice", 0, 1000000000ull, busy, 1, NULL) == 0 && t.n == 5,
	   "the table reads a subtree");
	{
		uint32_t me = (uint32_t)geteuid(), deleg = me ? me : 65534;

		ok(table_deleg(&t, "/system.slice") == me && table_deleg(&t, "/system.slice/user") == deleg &&
			   table_deleg(&t, "/system.slice/user/docker-x.scope") == deleg,
		   "each cgroup's delegate: root's none, else the outermost owner that is not root");
	}
	{
		struct cgowner owners;
		struct cgtable sub;

		cgowner_init(&owners);
		cgtable_init(&sub);
		ok(cgtable_read(&sub, k, &h, "/system.slice/user/docker-x.scope", 0, 1000000000ull, busy, 1, &owners) == 0 &&
			   sub.n == 1 && sub.f[0].identity_uid == (geteuid() ? (uint32_t)geteuid() : 65534),
		   "a walk's root takes its delegate from the directories above it");
		cgtable_free(&sub);
		cgowner_free(&owners);
	}
	ok(t.f[0].psi.res[PSI_CPU].present && t.f[0].psi.res[PSI_CPU].some.total_us == 1000,
	   "with its pressure file");
	make("/system.slice", "some avg10=0.00 avg60=0.00 avg300=0.00 total=501000\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n");
	ok(cgtable_read(&t, k, &h, "/system.slice", 0, 2000000000ull, busy, 1, NULL) == 0 &&
		   fabs(t.f[0].psi.res[PSI_CPU].some.pct - 50.0) < 1e-9,
	   "the next reading has the interval's share: 0.5 s stalled in 1 s is 50%%");
	ok(!t.f[1].psi.res[PSI_CPU].present && isnan(t.f[1].psi.res[PSI_CPU].some.pct),
	   "a cgroup without pressure files has none, not 0");
	make("/system.slice/foo\\x2dbar.service",
	     "some avg10=0.00 avg60=0.00 avg300=0.00 total=900000\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n");
	ok(cgtable_read(&t, k, &h, "/system.slice", 0, 3000000000ull, busy, 1, NULL) == 0 && !t.f[2].busy &&
		   t.f[2].psi.res[PSI_CPU].some.total_us == 7 && t.f[2].psi.res[PSI_CPU].some.pct == 0,
	   "a cgroup idle for two intervals is not read again: 0%% stalled, its total carried over");
	ok(t.f[0].busy && t.f[1].busy, "a task's cgroup and its parents are busy");
	cgtable_free(&t);
	k->ops->close(k);
	{
		char cmd[512];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree);
		ok(system(cmd) == 0, "fixture removed");
	}
}

/* Inputs the fuzz harness (tests/fuzz/fuzz_cgroupfs.c) found wrong. */
static void test_fuzzed(void)
{
	/* A line that starts with "- " has no separator there: the byte before it is not the line's
	 * (it was read, past the start of the text, and taken for the space before the separator). */
	static const char before[] = " - cgroup2 a b c d\n";
	struct cgroup_mount m[CGROUP_MOUNTS_MAX];

	is_int(cghier_parse_mountinfo(before + 1, m, CGROUP_MOUNTS_MAX), 0,
	       "a mountinfo line starting \"- \" is no mount (nothing before the text is read)");
	is_int(cghier_parse_mountinfo("->", m, CGROUP_MOUNTS_MAX), 0, "nor is \"->\"");
}

int main(void)
{
	test_fuzzed();
	test_detect();
	test_paths();
	test_walk();
	return tap_done();
}
