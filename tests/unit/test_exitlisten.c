/* test_exitlisten.c — how the possible CPUs are split among the exit listeners: one socket per
 * CPU up to the limit, then groups of neighbouring CPUs of about equal size; every CPU in exactly
 * one group; lists with holes and bad lists. */
#include "config.h"

#include <string.h>

#include "exitlisten.h"
#include "tap.h"

static char g[EXITLISTEN_MAX][EXITLISTEN_LIST];

/* The groups joined by " | ", or "ERR". */
static const char *split(const char *possible, int max)
{
	static char out[4096];
	int k = exitlisten_groups(possible, g, max);

	if (k < 0)
		return "ERR";
	out[0] = '\0';
	for (int i = 0; i < k; i++) {
		if (i)
			strcat(out, " | ");
		strcat(out, g[i]);
	}
	return out;
}

#define is_split(possible, max, want) ok(strcmp(split(possible, max), want) == 0, "%s in at most %d: %s (got %s)", \
					    possible, max, want, split(possible, max))

int main(void)
{
	is_split("0-1", 16, "0 | 1");
	is_split("0", 16, "0");
	ok(strcmp(split("0-1\n", 16), "0 | 1") == 0, "the newline that ends the file's line is no CPU");
	is_split("0-3", 2, "0-1 | 2-3");
	is_split("0-4", 2, "0-2 | 3-4");
	is_split("0-63", 16, "0-3 | 4-7 | 8-11 | 12-15 | 16-19 | 20-23 | 24-27 | 28-31 | 32-35 | 36-39 | 40-43 | "
			     "44-47 | 48-51 | 52-55 | 56-59 | 60-63");
	is_split("0-2,8-9", 2, "0-2 | 8-9");
	is_split("0,2,4,6", 2, "0,2 | 4,6");
	is_split("0-3,8-11", 3, "0-2 | 3,8-9 | 10-11");
	is_split("", 16, "ERR");
	is_split("x", 16, "ERR");
	is_split("3-1", 16, "ERR");
	is_split("0-1", 0, "ERR");
	return tap_done();
}
