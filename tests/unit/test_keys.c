/* test_keys.c — the key table has no clashes, covers every action, and every key is in the man
 * page's KEYS section (the help screen is made from the same table); the keys only a recording
 * (-r) uses say so in their help. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "tap.h"

/* The man page's KEYS section with troff escapes for '-' removed. */
static char *keys_section(void)
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
			in = strncmp(line, ".SH KEYS", 8) == 0;
		if (!in)
			continue;
		for (char *p = line; *p && len + 1 < sizeof(text); p++)
			if (!(p[0] == '\\' && p[1] == '-'))
				text[len++] = *p;
	}
	fclose(f);
	text[len] = '\0';
	return len ? text : NULL;
}

/* Each part of a label ("F6, s") must appear as a word of the section. */
static int documented(const char *section, const char *label)
{
	char parts[64], *save = NULL;

	snprintf(parts, sizeof(parts), "%s", label);
	for (char *p = strtok_r(parts, ", ", &save); p; p = strtok_r(NULL, ", ", &save)) {
		char b[80];

		snprintf(b, sizeof(b), " %s", p); /* ".B q", ".BR PgUp ..." */
		if (!strstr(section, b))
			return 0;
	}
	return 1;
}

/* Whether action a applies only to a recording. */
static int replay_only(enum action a)
{
	static const enum action list[] = { ACT_NEXT_READING, ACT_PREV_READING, ACT_JUMP, ACT_FASTER, ACT_SLOWER,
						    ACT_NEXT_EVENT, ACT_PREV_EVENT, ACT_NEXT_PEAK, ACT_PREV_PEAK };

	for (size_t i = 0; i < sizeof(list) / sizeof(list[0]); i++)
		if (list[i] == a)
			return 1;
	return 0;
}

int main(void)
{
	char *section = keys_section();
	int seen[ACT_COUNT] = { 0 };

	ok(section != NULL, "the man page has a KEYS section");
	for (size_t i = 0; i < key_binding_count; i++) {
		const struct key_binding *k = &key_bindings[i];

		seen[k->action] = 1;
		for (int j = 0; j < 3 && k->codes[j]; j++)
			is_int(keys_action(k->codes[j]), k->action, k->label);
		ok(section && documented(section, k->label), "the man page documents key '%s'", k->label);
		ok(k->help && *k->help, "key '%s' has a help line", k->label);
		if (replay_only(k->action))
			ok(strncmp(k->help, "replay (-r): ", 13) == 0, "key '%s' says it is for a recording", k->label);
	}
	for (int a = ACT_NONE + 1; a < ACT_COUNT; a++)
		ok(seen[a], "action %d has a key", a);
	is_int(keys_action('Z'), ACT_NONE, "an unbound key does nothing");
	return tap_done();
}
