/* delaykind.c — the delay kinds, their names and where struct taskstats keeps them.
 *
 * Offsets were derived from the kernel's include/uapi/linux/taskstats.h history and are checked by
 * tests/unit/test_tsabi.c against structs the compiler lays out. */
#include "config.h"

#include <string.h>

#include "delaykind.h"
#include "i18n.h"

const struct delay_kind_info delay_kinds[DK_COUNT] = {
	[DK_CPU] = {
		.key = "cpu",
		.title = N_("CPU"),
		.label = N_("waiting for a CPU while runnable"),
		.kernel = "cpu",
		.v1 = { .count = 8, .total = 16 },
		.std = { .count = 16, .total = 24, .max = 432, .min = 440, .max_ts = 560 },
		.v15 = { .count = 16, .total = 24, .max = 32, .min = 40 },
		.since = 1,
		.limited = 1,
	},
	[DK_IO] = {
		.key = "io",
		.title = N_("IO"),
		.label = N_("waiting for synchronous block I/O"),
		.kernel = "blkio",
		.v1 = { .count = 24, .total = 32 },
		.std = { .count = 32, .total = 40, .max = 448, .min = 456, .max_ts = 576 },
		.v15 = { .count = 48, .total = 56, .max = 64, .min = 72 },
		.since = 1,
		.limited = 1,
	},
	[DK_SWAPIN] = {
		.key = "swapin",
		.title = N_("SWAP"),
		.label = N_("waiting for swap-in"),
		.kernel = "swapin",
		.v1 = { .count = 40, .total = 48 },
		.std = { .count = 48, .total = 56, .max = 464, .min = 472, .max_ts = 592 },
		.v15 = { .count = 80, .total = 88, .max = 96, .min = 104 },
		.since = 1,
		.limited = 0,
	},
	[DK_RECLAIM] = {
		.key = "reclaim",
		.title = N_("RECLAIM"),
		.label = N_("waiting in direct memory reclaim"),
		.kernel = "freepages",
		.v1 = { 0 },
		.std = { .count = 312, .total = 320, .max = 480, .min = 488, .max_ts = 608 },
		.v15 = { .count = 360, .total = 368, .max = 376, .min = 384 },
		.since = 7,
		.limited = 0,
	},
	[DK_THRASHING] = {
		.key = "thrashing",
		.title = N_("THRASH"),
		.label = N_("waiting for refaulted page cache (thrashing)"),
		.kernel = "thrashing",
		.v1 = { 0 },
		.std = { .count = 328, .total = 336, .max = 496, .min = 504, .max_ts = 624 },
		.v15 = { .count = 392, .total = 400, .max = 408, .min = 416 },
		.since = 9,
		.limited = 0,
	},
	[DK_COMPACT] = {
		.key = "compact",
		.title = N_("COMPACT"),
		.label = N_("waiting in memory compaction"),
		.kernel = "compact",
		.v1 = { 0 },
		.std = { .count = 352, .total = 360, .max = 512, .min = 520, .max_ts = 640 },
		.v15 = { .count = 432, .total = 440, .max = 448, .min = 456 },
		.since = 11,
		.limited = 0,
	},
	[DK_WPCOPY] = {
		.key = "wpcopy",
		.title = N_("WPCOPY"),
		.label = N_("waiting for write-protect copy"),
		.kernel = "wpcopy",
		.v1 = { 0 },
		.std = { .count = 400, .total = 408, .max = 528, .min = 536, .max_ts = 656 },
		.v15 = { .count = 496, .total = 504, .max = 512, .min = 520 },
		.since = 13,
		.limited = 0,
	},
	[DK_IRQ] = {
		.key = "irq",
		.title = N_("IRQ"),
		.label = N_("time taken by IRQ and softirq handling"),
		.kernel = "irq",
		.v1 = { 0 },
		.std = { .count = 416, .total = 424, .max = 544, .min = 552, .max_ts = 672 },
		.v15 = { .count = 528, .total = 536, .max = 544, .min = 552 },
		.since = 14,
		.limited = 0,
	},
};

int delaykind_find(const char *key)
{
	for (int k = 0; k < DK_COUNT; k++)
		if (strcmp(delay_kinds[k].key, key) == 0)
			return k;
	return -1;
}
