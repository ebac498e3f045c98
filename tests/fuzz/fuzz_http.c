/* fuzz_http.c — what the exporter makes of a request (exporter_route in exporter.c): the input
 * is the method, the path and the Accept header, cut at NUL bytes (no second NUL: no Accept
 * header). The reply must be one of the five, and /metrics only for GET or HEAD of exactly that
 * path, OpenMetrics only when the header names it. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "exporter.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *method = fuzz_text(data, size);
	const char *url = fuzz_second(method, size);
	size_t rest = size - (size_t)(url - method);
	const char *accept = strlen(url) < rest ? url + strlen(url) + 1 : NULL;
	int get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
	enum exporter_reply r = exporter_route(method, url, accept);

	switch (r) {
	case EXPORTER_TEXT:
	case EXPORTER_OPENMETRICS:
		if (!get || strcmp(url, "/metrics") != 0)
			abort();
		if ((r == EXPORTER_OPENMETRICS) != (accept && strstr(accept, "application/openmetrics-text")))
			abort();
		break;
	case EXPORTER_INDEX:
		if (!get || strcmp(url, "/") != 0)
			abort();
		break;
	case EXPORTER_NOT_FOUND:
		if (!get || strcmp(url, "/") == 0 || strcmp(url, "/metrics") == 0)
			abort();
		break;
	case EXPORTER_BAD_METHOD:
		if (get)
			abort();
		break;
	default: abort();
	}
	free(method);
	return 0;
}
