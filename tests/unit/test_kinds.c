/* test_kinds.c — adding a delay kind is one row in the kind table: walks delay_kinds[] and checks
 * that every kind is a sort key, a column with the kind's title, a JSON field and CSV headers, and
 * that the man page's WHEN A DELAY IS HIGH says what it means and where to look next. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
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

/* The man page's WHEN A DELAY IS HIGH section, its lines as they are (NULL when it is missing). */
static char *next_steps_section(void)
{
	const char *top = getenv("top_builddir");
	char path[4096], line[1024];
	static char text[65536];
	size_t len = 0;
	int in = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/man/delaytop.8", top ? top : ".");
	f = fopen(path, "r");
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, ".SH ", 4) == 0)
			in = strcmp(line, ".SH WHEN A DELAY IS HIGH\n") == 0;
		if (in && len + strlen(line) + 1 < sizeof(text)) {
			memcpy(text + len, line, strlen(line));
			len += strlen(line);
		}
	}
	fclose(f);
	text[len] = '\0';
	return len ? text : NULL;
}

/* Whether the section has an entry ".TP\n.B TITLE\n" followed by some text. */
static int has_entry(const char *section, const char *title)
{
	char want[64];
	const char *at;

	snprintf(want, sizeof(want), ".TP\n.B %s\n", title);
	at = section ? strstr(section, want) : NULL;
	return at && at[strlen(want)] && at[strlen(want)] != '.';
}

int main(void)
{
	char json[16384], csv[16384], want[64];
	const char *next = next_steps_section();
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
		ok(has_entry(next, delay_kinds[k].title),
		   "the man page's WHEN A DELAY IS HIGH says what %s means and where to look next", delay_kinds[k].title);
	}
	return tap_done();
}
