/* fuzz_rcfile.c — the settings file (rcfile.c): its text applied under a command line of
 * "delaytop" alone, as main does, every line that cannot be used reported to the warning. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "options.h"
#include "rcfile.h"

/* A warning: a line number in the file (0: the file as a whole) and a reason. */
static void warn(void *arg, int line, const char *why)
{
	int *warned = arg;

	if (line < 0 || !why || !why[0])
		abort();
	(*warned)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	char *argv[] = { "delaytop", NULL };
	char err[512];
	struct options o;
	struct rcfile_args keep;
	int warned = 0;

	memset(&o, 0, sizeof(o));
	memset(&keep, 0, sizeof(keep));
	if (options_parse(1, argv, &o, err, sizeof(err)) != OPTIONS_OK)
		abort();
	rcfile_apply(text, 1, argv, &o, &keep, warn, &warned);
	options_free(&o);
	rcfile_free_args(&keep);
	free(text);
	return 0;
}
