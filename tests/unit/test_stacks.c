/* test_stacks.c — the pure parts of --why's off-CPU stacks: a symbol found by binary search in
 * a sorted table (below the first: none; between two: the lower; past the last: the last), frame
 * names (name+offset, module+offset, [unknown] address), the batch's frames kept per entry, and
 * the rows' stacks (stackrows.h): a selected row gets its own stacks by time, at most STK_TOP, its
 * frames named innermost first with the tracing's leading frames dropped and a lost stack said;
 * a row not selected gets NULL; a selected row without waits an empty list; thread mode matches
 * tids, process mode pids. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stackrows.h"
#include "stacks.h"
#include "tap.h"

static void test_syms(void)
{
	struct stk_sym syms[] = { { 0x3000, "c" }, { 0x1000, "a" }, { 0x2000, "b" } };
	char buf[64];

	stk_syms_sort(syms, 3);
	ok(syms[0].addr == 0x1000 && syms[2].addr == 0x3000, "the table is sorted by address");
	ok(stk_syms_find(syms, 3, 0xfff) == NULL, "an address below the first symbol names nothing");
	is_str(stk_syms_find(syms, 3, 0x1000)->name, "a", "a symbol's own address is its");
	is_str(stk_syms_find(syms, 3, 0x1fff)->name, "a", "an address between two symbols is the lower one's");
	is_str(stk_syms_find(syms, 3, 0x2000)->name, "b", "the next symbol starts at its address");
	is_str(stk_syms_find(syms, 3, 0x9000)->name, "c", "past the last: the last");
	ok(stk_syms_find(syms, 0, 0x1000) == NULL, "an empty table names nothing");

	is_str(stk_frame_format(buf, sizeof(buf), "pipe_read", 0x1f, "vmlinux", 0, 0xffff), "pipe_read+0x1f",
	       "a named frame: name+offset");
	is_str(stk_frame_format(buf, sizeof(buf), NULL, 0, "libc.so.6", 0x11e8a, 0x7f00), "libc.so.6+0x11e8a",
	       "an unnamed frame in a known module: module+offset");
	is_str(stk_frame_format(buf, sizeof(buf), "", 0, "", 0, 0xdeadbeef), "[unknown] 0xdeadbeef",
	       "neither: its address");
	is_str(stk_state_name(STK_D), "D", "the states as ps shows them");
	is_str(stk_state_name(9), "?", "an unknown state");
}

/* Names a frame "k<hex>" or "u<hex>"; the kernel's 0xb0 is the tracing's own program. */
static const char *fake_name(void *arg, uint32_t tgid, uint64_t addr, int user, char *buf, size_t size)
{
	(*(int *)arg)++;
	if (!user && addr == 0xb0)
		snprintf(buf, size, "bpf_prog_123_on_switch+0x1");
	else if (!user && addr == 0xb1)
		snprintf(buf, size, "bpf_trace_run4+0x10");
	else
		snprintf(buf, size, "%c%" PRIx64 "@%u", user ? 'u' : 'k', addr, tgid);
	return buf;
}

static void test_rows(void)
{
	struct stk_batch b = { 0 };
	struct stackrows sr = { 0 };
	struct row rows[4];
	uint64_t k1[] = { 0xb0, 0xb1, 0x10, 0x11 }, u1[] = { 0x400, 0x401 };
	uint64_t k2[] = { 0x20 };
	uint32_t sel[] = { 100, 200, 300 };
	int named = 0;
	struct stk_entry *e;

	memset(rows, 0, sizeof(rows));
	rows[0].pid = 100; /* selected, two stacks */
	rows[1].pid = 200; /* selected, none */
	rows[2].pid = 400; /* not selected */
	rows[3].pid = 300; /* selected, more stacks than shown */
	e = stk_batch_push(&b, 100, 100, STK_S, k2, 1, NULL, 0);
	e->ns = 2000000;
	e->count = 1;
	e = stk_batch_push(&b, 100, 100, STK_D, k1, 4, u1, 2);
	e->ns = 5000000;
	e->count = 3;
	e = stk_batch_push(&b, 400, 400, STK_S, k2, 1, NULL, 0);
	e->ns = 9000000;
	for (int i = 0; i < STK_TOP + 3; i++) {
		e = stk_batch_push(&b, 300, 300, STK_RUNNABLE, k2, 1, u1, i == STK_TOP + 2 ? 0 : 1);
		e->ns = (uint64_t)(i + 1) * 1000000;
		e->count = 1;
		e->ulost = i == STK_TOP + 2;
	}
	is_int(b.n, 3 + STK_TOP + 3, "the batch keeps every entry");
	ok(b.pc[b.e[1].at] == 0xb0 && b.pc[b.e[1].at + 4] == 0x400, "an entry's kernel frames, then its user frames");

	stackrows_attach(&sr, &b, rows, 4, 0, sel, 3, fake_name, &named);
	ok(rows[0].stacks && rows[0].stacks->n == 2, "a selected row has its two stacks");
	if (rows[0].stacks && rows[0].stacks->n == 2) {
		const struct stk_stack *s = &rows[0].stacks->s[0];

		is_num(s->ms, 5.0, 1e-9, "the longest first (5 ms)");
		is_int(s->count, 3, "with its count");
		is_int(s->state, STK_D, "and its state");
		is_int(s->nframes, 4, "the tracing's two leading frames are dropped: 2 kernel + 2 user frames");
		is_str(s->frames[0], "k10@100", "innermost first: the kernel's");
		is_str(s->frames[2], "u400@100", "then the user's, named in the task's process");
		is_num(rows[0].stacks->s[1].ms, 2.0, 1e-9, "then the shorter one");
	}
	ok(rows[1].stacks && rows[1].stacks->n == 0, "a selected row without waits: an empty list");
	ok(rows[2].stacks == NULL, "a row not selected: no stacks (null), though the batch had some");
	ok(rows[3].stacks && rows[3].stacks->n == STK_TOP, "at most STK_TOP stacks a row");
	if (rows[3].stacks && rows[3].stacks->n == STK_TOP) {
		const struct stk_stack *s = &rows[3].stacks->s[0];

		is_num(s->ms, STK_TOP + 3, 1e-9, "the top ones by time");
		is_int(s->nframes, 2, "a lost user stack is one frame saying so");
		is_str(s->frames[1], "[user stack lost]", "named as lost, not left out");
	}

	/* thread mode: tids */
	rows[0].tid = 100;
	rows[0].pid = 1;
	rows[3].tid = 7;
	stackrows_attach(&sr, &b, rows, 4, 1, sel, 3, fake_name, &named);
	ok(rows[0].stacks && rows[0].stacks->n == 2, "thread mode matches a row by its tid");
	ok(rows[3].stacks == NULL, "and not by its pid");
	stackrows_free(&sr);
	stk_batch_free(&b);
}

int main(void)
{
	test_syms();
	test_rows();
	return tap_done();
}
