/* stacks.c — off-CPU stacks: the batch, their order, symbol tables and frame names (see stacks.h). */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stacks.h"
#include "xalloc.h"

const char *stk_state_name(uint32_t state)
{
	static const char *const names[STK_STATES] = { [STK_RUNNABLE] = "R", [STK_D] = "D", [STK_S] = "S" };

	return state < STK_STATES ? names[state] : "?";
}

struct stk_entry *stk_batch_push(struct stk_batch *b, uint32_t id, uint32_t tgid, uint32_t state,
				 const uint64_t *k, size_t nk, const uint64_t *u, size_t nu)
{
	struct stk_entry *e;

	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 64;
		b->e = xrealloc(b->e, b->cap * sizeof(*b->e));
	}
	if (b->npc + nk + nu > b->cappc) {
		while (b->npc + nk + nu > b->cappc)
			b->cappc = b->cappc ? 2 * b->cappc : 1024;
		b->pc = xrealloc(b->pc, b->cappc * sizeof(*b->pc));
	}
	e = &b->e[b->n++];
	memset(e, 0, sizeof(*e));
	e->id = id;
	e->tgid = tgid;
	e->state = state;
	e->at = (uint32_t)b->npc;
	e->nk = (uint16_t)nk;
	e->nu = (uint16_t)nu;
	if (nk)
		memcpy(b->pc + b->npc, k, nk * sizeof(*k));
	b->npc += nk;
	if (nu)
		memcpy(b->pc + b->npc, u, nu * sizeof(*u));
	b->npc += nu;
	return e;
}

void stk_batch_clear(struct stk_batch *b)
{
	b->n = 0;
	b->npc = 0;
}

void stk_batch_free(struct stk_batch *b)
{
	free(b->e);
	free(b->pc);
	memset(b, 0, sizeof(*b));
}

int stk_tracing_frame(const char *name)
{
	return strncmp(name, "bpf_prog_", 9) == 0 || strncmp(name, "bpf_trace_run", 13) == 0 ||
	       strncmp(name, "__bpf_trace_", 12) == 0 || strncmp(name, "__traceiter_", 12) == 0;
}

static const struct stk_batch *sort_batch; /* qsort has no argument: set for one sort */

static int by_time(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct stk_entry *x = &sort_batch->e[i], *y = &sort_batch->e[j];

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return i < j ? -1 : i > j;
}

void stk_sort(const struct stk_batch *b, size_t *idx, size_t n)
{
	sort_batch = b;
	if (n) /* qsort takes no NULL, even for nothing */
		qsort(idx, n, sizeof(*idx), by_time);
	sort_batch = NULL;
}

static int by_addr(const void *a, const void *b)
{
	const struct stk_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

void stk_syms_sort(struct stk_sym *syms, size_t n)
{
	if (n)
		qsort(syms, n, sizeof(*syms), by_addr);
}

const struct stk_sym *stk_syms_find(const struct stk_sym *syms, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n; /* the answer is below hi: syms[lo..hi) are the candidates */

	if (!n || addr < syms[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return &syms[lo];
}

const char *stk_frame_format(char *buf, size_t size, const char *name, uint64_t off, const char *module,
			     uint64_t modoff, uint64_t addr)
{
	if (name && *name)
		snprintf(buf, size, "%s+0x%" PRIx64, name, off);
	else if (module && *module)
		snprintf(buf, size, "%s+0x%" PRIx64, module, modoff);
	else
		snprintf(buf, size, "[unknown] 0x%" PRIx64, addr);
	return buf;
}
