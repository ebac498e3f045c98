/* test_listing.c — the rows a front end shows: filtered, then sorted, from one snapshot. */
#include "config.h"

#include <string.h>

#include "listing.h"
#include "rowfixture.h"
#include "tap.h"

int main(void)
{
	struct row rows[4] = { make_row(1, 0, "a", 5, 0), make_row(2, 0, "b", 50, 1), make_row(3, 0, "c", NAN, NAN),
			       make_row(4, 0, "d", 0, 0) };
	struct snapshot snap;
	struct listing_spec spec;
	struct listing l = { 0 };

	memset(&snap, 0, sizeof(snap));
	snap.rows = rows;
	snap.nrows = 4;
	memset(&spec, 0, sizeof(spec));
	spec.sort_col = COL_TOTAL;
	listing_build(&l, &snap, &spec);
	ok(l.n == 4 && l.rows[0]->pid == 2 && l.rows[1]->pid == 1 && l.rows[3]->pid == 3,
	   "no filter: every row, the largest total first, unavailable last");
	spec.filter.active = 1;
	listing_build(&l, &snap, &spec);
	ok(l.n == 2 && l.rows[0]->pid == 2 && l.rows[1]->pid == 1, "active: only the rows that waited");
	spec.reverse = 1;
	listing_build(&l, &snap, &spec);
	ok(l.n == 2 && l.rows[0]->pid == 1, "reversed");
	listing_build(&l, NULL, &spec);
	is_int(l.n, 0, "no snapshot: no rows");
	listing_free(&l);
	return tap_done();
}
