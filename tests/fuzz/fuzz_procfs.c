/* fuzz_procfs.c — the parsers of /proc's lines (procfs.c): a stat file's line (whose comm may hold
 * spaces and parentheses), then (after the input's first NUL) the text of /proc/PID/io, which is
 * also read as /proc/PID/status. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	const char *second = fuzz_second(text, size);
	struct proc_stat st;
	struct task_counters c;

	memset(&st, 0, sizeof(st));
	if (procfs_parse_stat(text, &st) == 0 && strlen(st.comm) >= sizeof(st.comm))
		abort();
	memset(&c, 0, sizeof(c));
	if (procfs_parse_io(second, &c) == 0 && !(c.have & HAVE_IO_BYTES))
		abort();
	if (procfs_parse_memory(second, &c) == 0 && !(c.have & HAVE_MEM))
		abort();
	free(text);
	return 0;
}
