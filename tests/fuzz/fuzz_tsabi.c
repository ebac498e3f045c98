/* fuzz_tsabi.c — the struct taskstats decoder (tsabi.c) on any payload: decoded at once, by a plan
 * made for it, and by that plan again at an odd address, which must give the same counters. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tsabi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct task_counters a, b;
	struct tsabi_plan plan;
	unsigned char *odd;
	int rc;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	rc = tsabi_decode(data, size, &a);
	if (tsabi_plan(&plan, data, size) != rc)
		abort();
	if (size >= 2 && !tsabi_plan_fits(&plan, data, size))
		abort();
	odd = malloc(size + 1);
	if (!odd)
		abort();
	if (size)
		memcpy(odd + 1, data, size);
	if (tsabi_apply(&plan, odd + 1, &b) != rc || (rc == 0 && memcmp(&a, &b, sizeof(a)) != 0))
		abort();
	free(odd);
	return 0;
}
