/* fuzz_timeparse.c — the times people type for --begin, --end and the replay's jump
 * (timeparse.c), parsed at a fixed now in UTC, so that a run is the same each time. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fuzz.h"
#include "timeparse.h"

/* 2026-11-25 14:05:00 UTC */
#define FUZZ_NOW_NS (1764079500ll * 1000000000ll)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("TZ", "UTC", 1);
	tzset();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	char err[512], buf[64];
	int64_t t = 0;

	err[0] = '\0';
	if (time_parse(text, FUZZ_NOW_NS, &t, err, sizeof(err)) == 0)
		time_format(buf, sizeof(buf), t);
	else if (!err[0])
		abort();
	free(text);
	return 0;
}
