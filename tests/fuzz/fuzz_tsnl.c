/* fuzz_tsnl.c — the TASKSTATS message parser (tsnl.c) on a received datagram: its netlink
 * messages walked as the queries and the exit listeners walk them, each parsed into its thread
 * and process records, one decoding plan kept across them as on a socket. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/msg.h>

#include "fuzz.h"
#include "tsnl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tsabi_plan plan;
	struct ts_record thread, process;
	struct nlmsghdr *h;
	unsigned char *buf;
	int rem = (int)size;

	if (size > SLOT)
		return 0; /* a datagram is received into a slot of this size */
	buf = malloc(size ? size : 1); /* aligned, as the receiver's slots are */
	if (!buf)
		abort();
	if (size)
		memcpy(buf, data, size);
	memset(&plan, 0, sizeof(plan));
	plan.status = -EINVAL;
	for (h = (struct nlmsghdr *)buf; nlmsg_ok(h, rem); h = nlmsg_next(h, &rem)) {
		int has_thread, has_process, rc;

		rc = tsnl_parse_message(h, &thread, &has_thread, &process, &has_process, &plan);
		if (rc == 0 && !has_thread && !has_process)
			abort();
		if (has_thread && thread.tgid != 0)
			abort();
		if (has_process && process.tgid != 1)
			abort();
	}
	free(buf);
	return 0;
}
