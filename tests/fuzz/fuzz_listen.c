/* fuzz_listen.c — --listen's value (listenaddr_parse in options/listenaddr.c): the first byte chooses
 * the size of the host buffer (1 to 256, allocated to exactly that, so that a write past it is
 * caught), the rest is the value. Taken: a port of 1 to 65535 and a host that fits; refused: a
 * message. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "listenaddr.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t hostsize = size ? (size_t)data[0] + 1 : 256;
	char *spec = fuzz_text(size ? data + 1 : data, size ? size - 1 : 0);
	char *host = malloc(hostsize), err[512];
	unsigned port = 0;

	if (!host)
		abort();
	err[0] = '\0';
	if (listenaddr_parse(spec, host, hostsize, &port, err, sizeof(err)) == 0) {
		if (port < 1 || port > 65535 || strnlen(host, hostsize) >= hostsize || !host[0] || err[0])
			abort();
	} else if (!err[0]) {
		abort();
	}
	free(host);
	free(spec);
	return 0;
}
