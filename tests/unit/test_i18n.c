/* test_i18n.c — a translated printf format is used only when it reads the msgid's arguments. */
#include "config.h"

#include <stdio.h>

#include "i18n.h"
#include "tap.h"

static void same(const char *a, const char *b)
{
	ok(i18n_same_args(a, b), "'%s' and '%s' read the same arguments", a, b);
}

static void differ(const char *a, const char *b)
{
	ok(!i18n_same_args(a, b), "'%s' and '%s' are refused as a pair", a, b);
}

int main(void)
{
	same("plain text", "schlichter Text");
	same("100%% of %s", "%s zu 100 %%");
	same("%s", "%s");
	same("%d", "%i");
	same("%x", "%u");
	same("%.2f s", "%5.1f s");
	same("%-8s|%07.3lld", "%8s|%lld");
	same("%s: '%s' was killed by signal %d after %.2f s\n",
	     "%1$s: „%2$s“ wurde nach %4$.2f s durch Signal %3$d beendet\n");
	same("%1$s %2$s", "%2$s %1$s %1$s");
	same("%*d", "%d %d");
	same("%.*s", "%2$.*1$s");

	differ("option '%s' needs a value", "option %p %p %p");
	differ("%s", "%d");
	differ("%s", "%s %s");
	differ("%s %s", "%s");
	differ("%d", "%ld");
	differ("%llu", "%lu");
	differ("%u", "%f");
	differ("%s", "%n");
	differ("%s", "%s%n");
	differ("plain", "%s");
	differ("%s", "%1$s %s");
	differ("%2$s", "%2$s");
	differ("%s", "%2$s");
	differ("%s %d", "%2$s %1$d");
	differ("%s", "100%");
	differ("%s", "%17$s");
	differ("%s", "%hhs %q");

	is_str(i18n_format("no catalog: %s"), "no catalog: %s", "without a catalog the msgid comes back");
	return tap_done();
}
