/* fuzz_cgroupfs.c — the cgroup parsers (cgroupfs.c): the text of /proc/self/mountinfo, then (after
 * the input's first NUL) the text of /proc/PID/cgroup read against the hierarchy chosen from it,
 * and the task's path made a directory of that hierarchy. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cgroupfs.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct cgroup_mount *m = calloc(CGROUP_MOUNTS_MAX, sizeof(*m));
	struct cgroup_hier h;
	char path[CGROUP_PATH_MAX], norm[CGROUP_PATH_MAX], dir[CGROUP_PATH_MAX + 64], name[CGROUP_PATH_MAX + 64];
	int n;

	if (!m)
		abort();
	n = cghier_parse_mountinfo(text, m, CGROUP_MOUNTS_MAX);
	if (n < 0 || n > CGROUP_MOUNTS_MAX)
		abort();
	memset(&h, 0, sizeof(h));
	cghier_choose(m, n, &h);
	if ((h.layout == CGROUP_NONE) != (n == 0))
		abort();
	cghier_describe(&h, name, sizeof(name));
	if (cghier_parse_task(fuzz_second(text, size), &h, path, sizeof(path)) == 0) {
		if (path[0] != '/' || strlen(path) >= sizeof(path))
			abort();
		cgpath_normalize(path, norm, sizeof(norm));
		if (strcmp(path, norm) != 0) /* the parser's path is normalized already */
			abort();
		if (!cgpath_within(path, "/"))
			abort();
		cghier_dir(&h, path, dir, sizeof(dir));
	}
	(void)cgpath_climbs(fuzz_second(text, size)); /* -c's and a trigger's check of a path */
	free(m);
	free(text);
	return 0;
}
