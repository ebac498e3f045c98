/* fuzz_psi.c — the pressure file parser (psi.c): the system's /proc/pressure files and a
 * cgroup's *.pressure ones are the same text. Two inputs (cut at the first NUL) make two readings,
 * whose interval shares must be NAN or within 0..100. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "fuzz.h"
#include "psi.h"

/* An interval share as psi_interval leaves it: NAN, or a percentage. */
static void check_pct(const struct psi_line *l)
{
	if (!isnan(l->pct) && !(l->pct >= 0 && l->pct <= 100))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct psi_snapshot prev, cur;
	int rc;

	memset(&prev, 0, sizeof(prev));
	memset(&cur, 0, sizeof(cur));
	rc = psi_parse(text, &prev.res[PSI_CPU]);
	if ((rc == 0) != (prev.res[PSI_CPU].present != 0))
		abort();
	psi_parse(fuzz_second(text, size), &cur.res[PSI_CPU]);
	prev.when_ns = 1000000000ull;
	cur.when_ns = 3000000000ull;
	psi_interval(&prev, &cur);
	check_pct(&cur.res[PSI_CPU].some);
	check_pct(&cur.res[PSI_CPU].full);
	free(text);
	return 0;
}
