/* psifile.c — reading pressure files: /proc/pressure/{cpu,memory,io,irq} and a cgroup's
 * *.pressure, each parsed by psi.c. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "procfs.h"
#include "psifile.h"

void psifile_read(const char *dir, const char *suffix, int system, uint64_t when_ns, struct psi_snapshot *out)
{
	char path[4096], buf[512];

	out->when_ns = when_ns;
	for (int r = 0; r < PSI_COUNT; r++) {
		struct psi_resource *res = &out->res[r];

		snprintf(path, sizeof(path), "%s/%s%s", dir, psi_name(r), suffix);
		if (procfs_read(path, buf, sizeof(buf)) < 0 || psi_parse(buf, res) < 0) {
			memset(res, 0, sizeof(*res));
			res->some.pct = res->full.pct = NAN;
			continue;
		}
		if (system && r == PSI_CPU)
			res->full.present = 0;
	}
}
