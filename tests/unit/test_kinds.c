/* test_kinds.c — adding a delay kind is one row in the kind table: walks delay_kinds[] and checks
 * that every kind is a sort key, a column with the kind's title, a JSON field and CSV headers. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "batch.h"
#include "columns.h"
#include "delaykind.h"
#include "model.h"
#include "options.h"
#include "order.h"
#include "tap.h"

/* One report of a one-row snapshot in the given --format, as text. */
static const char *format_snapshot(const char *format)
{
	static char text[16384];
	char *argv[] = { "delaytop", "-b", "--format", (char *)format, NULL };
	char err[256];
	struct options o;
	struct batch_printer b;
	struct row r;
	struct snapshot snap;

	if (options_parse(4, argv, &o, err, sizeof(err)) != OPTIONS_OK)
		return "";
	memset(&r, 0, sizeof(r));
	r.pid = r.tid = 42;
	r.user = "user";
	r.comm = "worker";
	r.state = 'S';
	rates_unavailable(&r.r);
	for (int k = 0; k < DK_COUNT; k++)
		r.r.kind[k].pct = 1.0f;
	r.r.total_pct = DK_COUNT;
	memset(&snap, 0, sizeof(snap));
	snap.wall.tv_sec = 1700000000;
	snap.interval_s = 1;
	snap.delayacct = DELAYACCT_ON;
	snap.rows = &r;
	snap.nrows = 1;
	batch_init(&b, &o);
	batch_format(&b, &snap);
	snprintf(text, sizeof(text), "%.*s", (int)b.out.len, b.out.data ? b.out.data : "");
	batch_free(&b);
	options_free(&o);
	return text;
}

int main(void)
{
	char json[16384], csv[16384], want[64];
	struct display d;

	memset(&d, 0, sizeof(d));
	snprintf(json, sizeof(json), "%s", format_snapshot("json"));
	snprintf(csv, sizeof(csv), "%s", format_snapshot("csv"));
	ok(DK_COUNT <= (int)sizeof(kind_mask) * 8, "kind_mask has a bit for each of the %d kinds", DK_COUNT);
	for (int k = 0; k < DK_COUNT; k++) {
		const char *key = delay_kinds[k].key;
		int col = order_find(key);
		struct column c = column_get(COL_KIND + k, &d);

		is_int(col, COL_KIND + k, key);
		ok(c.key && strcmp(c.key, key) == 0, "column %d's sort key is %s", COL_KIND + k, key);
		ok(c.title && strcmp(c.title, delay_kinds[k].title) == 0, "kind %s's column is titled %s", key,
		   delay_kinds[k].title);
		snprintf(want, sizeof(want), "\"%s\":{", key);
		ok(strstr(json, want) != NULL, "the JSON line has the field %s", want);
		snprintf(want, sizeof(want), ",%s_pct,", key);
		ok(strstr(csv, want) != NULL, "the CSV header names %s", want);
	}
	return tap_done();
}
