/* fuzz_procevents.c — the process events connector's datagram parser (procevents.c): its netlink
 * messages walked, each connector message's event read; every event given must be one of the four
 * kinds with a terminated name, and a malformed datagram gives -EINVAL. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "procevents.h"

static void check(void *arg, const struct procevent *e)
{
	int *n = arg;

	if (e->kind != PROCEVENT_FORK && e->kind != PROCEVENT_EXEC && e->kind != PROCEVENT_COMM &&
	    e->kind != PROCEVENT_EXIT)
		abort();
	if (memchr(e->comm, '\0', sizeof(e->comm)) == NULL)
		abort();
	++*n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *buf;
	int given = 0, rc;

	if (size > 64 * 1024)
		return 0; /* a datagram is received into a buffer of this size */
	buf = malloc(size ? size : 1); /* aligned, as the receiver's buffer is */
	if (!buf)
		abort();
	if (size)
		memcpy(buf, data, size);
	rc = procevents_parse(buf, size, check, &given);
	if (rc != -EINVAL && rc != given)
		abort();
	free(buf);
	return 0;
}
