/* test_colset.c — the column setup's list: what it offers for a view, showing and hiding,
 * moving among the view's shown columns, and that the view's last column stays put. */
#include "config.h"

#include <string.h>

#include "colset.h"
#include "columns.h"
#include "delaykind.h"
#include "tap.h"

#define IO (COL_KIND + DK_IO)
#define CPU (COL_KIND + DK_CPU)

static int same(const int *got, int n, const int *want, int nwant)
{
	return n == nwant && memcmp(got, want, (size_t)n * sizeof(*got)) == 0;
}

int main(void)
{
	static const int chosen[] = { IO, COL_ID, CPU, COL_COMMAND };
	struct display d = { 0 };
	struct colset s;
	int ids[COL_COUNT], n;

	colset_init(&s, NULL, 0);
	ok(colset_is_all(&s) && s.n == COL_COUNT - AF_COUNT - LAT_COLS - 4 && !colset_shown(&s, COL_ACCT + AF_READ) &&
		   !colset_shown(&s, COL_MAX_AT) && !colset_shown(&s, COL_TREND) && !colset_shown(&s, COL_UNIT) &&
		   !colset_shown(&s, COL_CONTAINER) && !colset_shown(&s, COL_LAT + 1),
	   "without --columns the set is every column but the optional ones (accounting, MAX AT, TREND, the percentiles, UNIT, "
	   "CONTAINER), in order");
	colset_init(&s, chosen, 4);
	ok(!colset_is_all(&s) && colset_shown(&s, IO) && !colset_shown(&s, COL_USER), "--columns io,pid,cpu,command");
	d.chosen = s.ids;
	d.nchosen = s.n;

	n = colset_entries(&s, &d, ids);
	{
		const int head[] = { IO, COL_ID, CPU, COL_COMMAND, COL_USER };

		ok(n > 5 && same(ids, 5, head, 5), "the list: IO, PID, CPU, COMMAND, then the first hidden (USER)");
		ok(ids[n - 1] == COL_CGROUP, "the hidden ones in the table's order: CGROUP last");
	}
	colset_move(&s, IO, 1, &d);
	{
		const int want[] = { COL_ID, IO, CPU, COL_COMMAND };

		ok(same(s.ids, s.n, want, 4), "] moves IO after PID");
	}
	colset_move(&s, CPU, 1, &d);
	ok(s.ids[2] == CPU, "CPU, the last shown before the command, does not move past it");
	colset_move(&s, COL_ID, -1, &d);
	ok(s.ids[0] == COL_ID, "the first does not move earlier");
	colset_move(&s, COL_COMMAND, -1, &d);
	ok(s.ids[3] == COL_COMMAND, "the command does not move");
	colset_toggle(&s, COL_COMMAND, &d);
	ok(colset_shown(&s, COL_COMMAND) && s.n == 4, "nor is it hidden");

	colset_toggle(&s, CPU, &d);
	ok(!colset_shown(&s, CPU) && s.n == 3, "Space hides CPU");
	colset_toggle(&s, COL_USER, &d);
	d.nchosen = s.n;
	{
		const int want[] = { COL_ID, IO, COL_USER, COL_COMMAND };

		ok(same(s.ids, s.n, want, 4), "and shows USER last but for the command");
	}
	n = column_order(&d, ids);
	{
		const int want[] = { COL_ID, IO, COL_USER, COL_COMMAND };

		ok(same(ids, n, want, 4), "the table shows PID IO USER COMMAND");
	}

	/* the cgroup view: its own columns, CGROUP last; a move skips the columns it lacks */
	d.cgroups = 1;
	colset_toggle(&s, COL_TASKS, &d);
	d.nchosen = s.n;
	n = column_order(&d, ids);
	{
		const int want[] = { IO, COL_TASKS, COL_CGROUP };

		ok(same(ids, n, want, 3), "the cgroup view shows IO, TASKS (just shown), CGROUP");
	}
	colset_move(&s, COL_TASKS, -1, &d);
	d.nchosen = s.n;
	n = column_order(&d, ids);
	{
		const int want[] = { COL_TASKS, IO, COL_CGROUP };

		ok(same(ids, n, want, 3), "TASKS moves before IO, past COMMAND and USER, which the view lacks");
	}
	d.cgroups = 0;
	n = column_order(&d, ids);
	{
		const int want[] = { COL_ID, IO, COL_USER, COL_COMMAND };

		ok(same(ids, n, want, 4), "and the task view's order is as it was: PID IO USER COMMAND");
	}
	return tap_done();
}
