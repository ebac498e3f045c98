/* tsabi.h — decoding a struct taskstats payload of any version into struct task_counters.
 *
 * delaytop carries its own layout table (delaykind.c, tsabi.c) and never the build machine's
 * <linux/taskstats.h>: the kernel that answers may be older or newer than the headers. */
#ifndef DELAYTOP_TSABI_H
#define DELAYTOP_TSABI_H

#include <stddef.h>

#include "counters.h"

/* The newest struct version whose layout delaytop knows; newer ones decode by size. */
#define TSABI_KNOWN_VERSION 17

/* Decodes payload (any alignment) into *out. The payload's version field and its length decide
 * which fields exist; the rest stay unavailable. Returns 0, or -EINVAL for a payload that cannot
 * be a struct taskstats (too short for the CPU counters, or version 0). */
int tsabi_decode(const void *payload, size_t len, struct task_counters *out);

#endif
