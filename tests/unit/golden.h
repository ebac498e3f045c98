/* golden.h — comparing a unit test's output with a golden file in tests/unit/golden/, or
 * rewriting the file when GOLDEN_WRITE is set (then read the diff before committing it). */
#ifndef DELAYTOP_GOLDEN_H
#define DELAYTOP_GOLDEN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

static char *golden_read(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* Compares got (freed here) with the golden file name, or writes it when asked to. */
static void golden(const char *name, char *got)
{
	const char *dir = getenv("top_srcdir");
	char path[4096];
	char *want;

	snprintf(path, sizeof(path), "%s/tests/unit/golden/%s", dir ? dir : ".", name);
	if (getenv("GOLDEN_WRITE")) {
		FILE *f = fopen(path, "wb");

		ok(f && fputs(got, f) >= 0 && fclose(f) == 0, "%s written", path);
		free(got);
		return;
	}
	want = golden_read(path);
	ok(want && strcmp(got, want) == 0, "%s is the golden output", name);
	if (want && strcmp(got, want) != 0) {
		size_t i = 0;

		while (got[i] && got[i] == want[i])
			i++;
		printf("#   first difference at byte %zu: expected '%.40s', got '%.40s'\n", i, want + i, got + i);
	} else if (!want) {
		printf("#   cannot read %s\n", path);
	}
	free(want);
	free(got);
}

#endif
