/* delaykind.h — THE table of delay kinds the kernel accounts per task.
 *
 * Every column, sort key, batch field and help line is derived from this table: adding a kernel
 * delay kind is one row in delaykind.c plus one enum value here, and its column's place in the
 * order a narrow screen hides columns in (columns.c). */
#ifndef DELAYTOP_DELAYKIND_H
#define DELAYTOP_DELAYKIND_H

#include <stdint.h>

enum delay_kind {
	DK_CPU,
	DK_IO,
	DK_SWAPIN,
	DK_RECLAIM,
	DK_THRASHING,
	DK_COMPACT,
	DK_WPCOPY,
	DK_IRQ,
	DK_COUNT
};

/* Where one kind's counters live in struct taskstats. Offsets are bytes into the payload; 0 means
 * the layout does not have the field. */
struct ts_kind_offsets {
	uint16_t count;
	uint16_t total;
	uint16_t max;
	uint16_t min;
	uint16_t max_ts; /* struct __kernel_timespec, version 17 on */
};

struct delay_kind_info {
	const char *key;    /* option, sort key and JSON/CSV name: "io" */
	const char *title;  /* column title, at most 7 columns wide: N_("IO") */
	const char *label;  /* short description for help and the man page: N_("block I/O") */
	const char *kernel; /* the kernel's field prefix: "blkio" */
	struct ts_kind_offsets v1;  /* version 1: 8-byte header */
	struct ts_kind_offsets std; /* versions 2-14 and 16 on: fields appended at the end */
	struct ts_kind_offsets v15; /* version 15 (Linux 6.14): max/min inside each group */
	uint16_t since; /* first struct version that carries the kind */
	int limited;    /* 1 when /proc gives it to anyone, without CAP_NET_ADMIN */
};

/* A set of kinds, bit k for kind k: every stored kind mask has this type. */
typedef uint16_t kind_mask;
_Static_assert(DK_COUNT <= sizeof(kind_mask) * 8, "kind_mask has fewer bits than there are delay kinds");

extern const struct delay_kind_info delay_kinds[DK_COUNT];

/* Looks up a kind by its key; returns -1 when there is none. */
int delaykind_find(const char *key);

#endif
