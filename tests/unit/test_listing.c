/* test_listing.c — the rows a front end shows: filtered, then sorted, from one snapshot. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "listing.h"
#include "rowfixture.h"
#include "tap.h"

/* The ids of the listed rows with their depths, "1 2:1 3:2", for comparisons. */
static const char *tree_text(const struct listing *l)
{
	static char buf[256];
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < l->n && len < sizeof(buf) - 16; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, i ? " %u:%d" : "%u:%d", l->rows[i]->pid,
					l->rows[i]->depth);
	return buf;
}

/* The process tree: parents before children, siblings sorted, filtered rows shown with their
 * ancestors, loops of reused pids cut, departed rows never parents; sums of subtrees. */
static void test_tree(void)
{
	struct row rows[7] = { make_row(1, 0, "init", 0, 0),    make_row(10, 0, "make", 1, 0),
			       make_row(11, 0, "cc", 30, 0),    make_row(12, 0, "cc", 60, 0),
			       make_row(20, 0, "loop-a", 0, 0), make_row(21, 0, "loop-b", 0, 0),
			       make_row(30, 0, "gone", 0, 0) };
	struct kind_totals acc[7];
	struct snapshot snap;
	struct listing_spec spec;
	struct listing l = { 0 };

	rows[1].ppid = 1;
	rows[2].ppid = rows[3].ppid = 10;
	rows[4].ppid = 21; /* 20 and 21 are each other's parent: pids reused */
	rows[5].ppid = 20;
	rows[6].ppid = 1;
	rows[6].departed = 1;
	rows[2].ppid = 10;
	for (int i = 0; i < 7; i++) {
		memset(&acc[i], 0, sizeof(acc[i]));
		acc[i].kinds = 1u << DK_CPU;
		acc[i].total_ns[DK_CPU] = (uint64_t)(i + 1) * 1000000000ull;
		rows[i].acc = &acc[i];
		rows[i].nthreads = 1;
	}
	memset(&snap, 0, sizeof(snap));
	snap.rows = rows;
	snap.nrows = 7;
	memset(&spec, 0, sizeof(spec));
	spec.sort_col = COL_TOTAL;
	spec.display.tree = 1;
	listing_build(&l, &snap, &spec);
	is_str(tree_text(&l), "1:0 10:1 12:2 11:2 20:0 21:1",
	       "children under their parent, siblings by TOTAL (12 before 11), a loop cut (the departed row: in totals)");
	spec.filter.command = "cc";
	listing_build(&l, &snap, &spec);
	is_str(tree_text(&l), "1:0 10:1 12:2 11:2", "a filtered row comes with its ancestors");
	spec.filter.command = NULL;
	spec.display.tree_sums = 1;
	listing_build(&l, &snap, &spec);
	ok(l.rows[1]->pid == 10 && fabs(l.rows[1]->r.kind[DK_CPU].pct - 91.0) < 1e-3 && l.rows[1]->nthreads == 3,
	   "with sums, make's CPU delay is its own 1 and its children's 30 and 60 (percent), its threads 3");
	ok(fabs(l.rows[0]->r.kind[DK_CPU].pct - 91.0) < 1e-3, "and init's all of them below it (the departed row not)");
	ok(l.rows[1]->acc && l.rows[1]->acc->total_ns[DK_CPU] == (2 + 3 + 4) * 1000000000ull,
	   "the totals since the start sum the subtree too");
	ok(rows[1].r.kind[DK_CPU].pct == 1.0f && rows[1].acc == &acc[1], "the snapshot's own rows are left as they were");
	spec.display.accumulate = 1;
	listing_build(&l, &snap, &spec);
	is_str(tree_text(&l), "20:0 21:1 1:0 10:1 12:2 11:2 30:0",
	       "in totals since the start (summed: init 10 s, gone 7 s, loop-a 11 s) the departed row is a root: "
	       "its parent's pid may be another's now");
	spec.display.accumulate = 0;
	spec.display.threads = 1;
	listing_build(&l, &snap, &spec);
	ok(l.n == 6 && l.rows[0]->pid == 12, "thread rows are never a tree");
	listing_free(&l);
}

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
	test_tree();
	return tap_done();
}
