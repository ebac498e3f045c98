/* test_filter.c — the row filters: user, command substring, pids, only tasks that waited. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cgtree.h"
#include "columns.h"
#include "filter.h"
#include "model.h"
#include "rowfixture.h"
#include "tap.h"

static void test_filter(void)
{
	struct display d = { 0 };
	struct row r = make_row(100, 0, "nginx", 0.5, NAN);
	struct row idle = make_row(200, 0, "sleeper", 0, 0);
	struct row unknown = make_row(300, 0, "mystery", NAN, NAN);
	struct filter f;
	static const uint32_t pids[] = { 5, 100, 7 };

	r.cmdline = "/usr/sbin/nginx: worker process";
	memset(&f, 0, sizeof(f));
	ok(filter_match(&f, &r, &d) && filter_match(&f, &unknown, &d), "an empty filter matches every row");

	f.by_uid = 1;
	f.uid = 1000;
	ok(filter_match(&f, &r, &d), "uid 1000 matches a row of uid 1000");
	f.uid = 0;
	ok(!filter_match(&f, &r, &d), "uid 0 does not match a row of uid 1000");
	r.uid = 0;
	ok(filter_match(&f, &r, &d), "uid 0 matches a root row (0 is a real uid, not 'unset')");
	r.uid = 1000;
	f.by_uid = 0;

	f.command = "NGI";
	ok(filter_match(&f, &r, &d), "command 'NGI' matches comm 'nginx' (ignoring case)");
	f.command = "WORKER";
	ok(filter_match(&f, &r, &d), "command 'WORKER' matches the command line");
	f.command = "sleeper";
	ok(!filter_match(&f, &r, &d), "command 'sleeper' does not match nginx");
	ok(filter_match(&f, &idle, &d), "a row without a command line is matched by its comm");
	f.command = "process";
	ok(!filter_match(&f, &idle, &d), "and a row without a command line does not match on it");
	f.command = "";
	ok(filter_match(&f, &r, &d), "an empty command substring matches");
	f.command = NULL;

	f.pids = pids;
	f.npids = 3;
	ok(filter_match(&f, &r, &d), "pid 100 is in the list 5,100,7");
	ok(!filter_match(&f, &idle, &d), "pid 200 is not in the list");
	f.npids = 0;

	f.active = 1;
	ok(filter_match(&f, &r, &d), "active: total_pct 0.5 > 0 waited");
	ok(!filter_match(&f, &idle, &d), "active: total_pct 0 did not wait");
	ok(!filter_match(&f, &unknown, &d), "active: NAN (unavailable) is not active");
	f.active = 0;

	{
		struct row gone = make_row(400, 0, "cc1", 0.5, NAN), cg = make_row(0, 0, "", 0.5, NAN);
		struct cgroup_node node;

		memset(&node, 0, sizeof(node));
		gone.exited = 1;
		cg.exited = 1; /* never set on a cgroup row, but a cgroup is not a task */
		cg.cg = &node;
		ok(filter_match(&f, &gone, &d), "an exited task is shown by default");
		f.hide_exited = 1;
		ok(!filter_match(&f, &gone, &d), "hide_exited: an exited task is not shown");
		ok(filter_match(&f, &r, &d), "hide_exited: a live task still is");
		ok(filter_match(&f, &cg, &d), "hide_exited: a cgroup row still is");
		f.hide_exited = 0;
	}
	f.active = 1;

	f.by_uid = 1;
	f.uid = 1000;
	f.command = "nginx";
	f.pids = pids;
	f.npids = 3;
	ok(filter_match(&f, &r, &d), "all filters together: a row that passes each");
	f.uid = 33;
	ok(!filter_match(&f, &r, &d), "all filters together: one failing filter rejects the row");
}

/* --unit: the unit the row's cgroup path names, matched as a pattern. */
static void test_unit(void)
{
	struct display d = { 0 };
	struct row svc = make_row(1, 0, "nginx", 0.5, NAN), box = make_row(2, 0, "app", 0.5, NAN);
	struct row none = make_row(3, 0, "init", 0.5, NAN), bare = make_row(4, 0, "k", 0.5, NAN);
	struct filter f;

	svc.cgroup = "/system.slice/nginx.service/worker";
	box.cgroup = "/system.slice/docker-4f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7.scope";
	none.cgroup = "/";
	bare.cgroup = NULL;
	memset(&f, 0, sizeof(f));
	f.unit = "nginx.service";
	ok(filter_match(&f, &svc, &d) && !filter_match(&f, &box, &d), "--unit nginx.service: a cgroup below it, not a container");
	f.unit = "docker-*.scope";
	ok(!filter_match(&f, &svc, &d) && filter_match(&f, &box, &d), "--unit 'docker-*.scope': the container's scope");
	f.unit = "*";
	ok(filter_match(&f, &svc, &d) && !filter_match(&f, &none, &d) && !filter_match(&f, &bare, &d),
	   "--unit '*': every row whose path names a unit, not the root's or one without a cgroup");
	f.unit = "nginx";
	ok(!filter_match(&f, &svc, &d), "--unit nginx: a name without its suffix matches no unit");
	f.unit = "system.slice";
	ok(!filter_match(&f, &svc, &d), "--unit system.slice: the innermost service is the unit, not the slice");
}

int main(void)
{
	test_filter();
	test_unit();
	return tap_done();
}
