/* delaykind.c — the delay kinds, their names and where struct taskstats keeps them.
 *
 * Offsets were derived from the kernel's include/uapi/linux/taskstats.h history and are checked by
 * tests/unit/test_tsabi.c against structs the compiler lays out. */
#include "config.h"

#include <string.h>

#include "delaykind.h"
#include "i18n.h"

const struct delay_kind_info delay_kinds[DK_COUNT] = {
	[DK_CPU] = { "cpu", N_("CPU"), N_("waiting for a CPU while runnable"), "cpu",
		{ 8, 16, 0, 0, 0 }, { 16, 24, 432, 440, 560 }, { 16, 24, 32, 40, 0 }, 1, 1, 1 },
	[DK_IO] = { "io", N_("IO"), N_("waiting for synchronous block I/O"), "blkio",
		{ 24, 32, 0, 0, 0 }, { 32, 40, 448, 456, 576 }, { 48, 56, 64, 72, 0 }, 1, 1, 1 },
	[DK_SWAPIN] = { "swapin", N_("SWAP"), N_("waiting for swap-in"), "swapin",
		{ 40, 48, 0, 0, 0 }, { 48, 56, 464, 472, 592 }, { 80, 88, 96, 104, 0 }, 1, 0, 0 },
	[DK_RECLAIM] = { "reclaim", N_("RECLAIM"), N_("waiting in direct memory reclaim"), "freepages",
		{ 0, 0, 0, 0, 0 }, { 312, 320, 480, 488, 608 }, { 360, 368, 376, 384, 0 }, 7, 0, 0 },
	[DK_THRASHING] = { "thrashing", N_("THRASH"), N_("waiting for refaulted page cache (thrashing)"), "thrashing",
		{ 0, 0, 0, 0, 0 }, { 328, 336, 496, 504, 624 }, { 392, 400, 408, 416, 0 }, 9, 0, 0 },
	[DK_COMPACT] = { "compact", N_("COMPACT"), N_("waiting in memory compaction"), "compact",
		{ 0, 0, 0, 0, 0 }, { 352, 360, 512, 520, 640 }, { 432, 440, 448, 456, 0 }, 11, 0, 0 },
	[DK_WPCOPY] = { "wpcopy", N_("WPCOPY"), N_("waiting for write-protect copy"), "wpcopy",
		{ 0, 0, 0, 0, 0 }, { 400, 408, 528, 536, 656 }, { 496, 504, 512, 520, 0 }, 13, 0, 0 },
	[DK_IRQ] = { "irq", N_("IRQ"), N_("time taken by IRQ and softirq handling"), "irq",
		{ 0, 0, 0, 0, 0 }, { 416, 424, 544, 552, 672 }, { 528, 536, 544, 552, 0 }, 14, 0, 0 },
};

int delaykind_find(const char *key)
{
	for (int k = 0; k < DK_COUNT; k++)
		if (strcmp(delay_kinds[k].key, key) == 0)
			return k;
	return -1;
}
