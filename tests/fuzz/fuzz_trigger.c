/* fuzz_trigger.c — the PSI trigger syntax (trigger.c's parser of --trigger): a spec that parses
 * has a window in the kernel's limits, a stall within it, and a pressure file to watch. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "trigger.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct trigger_spec t;
	char err[512], file[CGROUP_PATH_MAX + 64], events[1024];

	memset(&t, 0, sizeof(t));
	err[0] = '\0';
	if (trigger_parse(text, &t, err, sizeof(err)) == 0) {
		if (t.window_us < TRIGGER_WINDOW_MIN_US || t.window_us > TRIGGER_WINDOW_MAX_US || t.stall_us == 0 ||
		    t.stall_us > t.window_us || t.resource < 0 || t.resource >= PSI_COUNT)
			abort();
		trigger_file(&t, file, sizeof(file));
		trigger_events(&t, 1, 1u, events, sizeof(events));
	} else if (!err[0] || strlen(err) >= sizeof(err)) {
		abort();
	}
	free(text);
	return 0;
}
