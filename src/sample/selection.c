/* selection.c — the pid selection. Pure code: the caller says how to find a thread's process. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "selection.h"
#include "xalloc.h"

void selection_init(struct selection *sel)
{
	memset(sel, 0, sizeof(*sel));
}

void selection_free(struct selection *sel)
{
	free(sel->pids);
	free(sel->whole);
	free(sel->tids);
	selection_init(sel);
}

static int listed(const uint32_t *ids, size_t n, uint32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] == id)
			return 1;
	return 0;
}

/* Appends to the notice that a listed id is a thread of another process. */
static void note_thread(struct selection *sel, uint32_t tid, uint32_t pid)
{
	size_t len = strlen(sel->notice);

	if (len)
		snprintf(sel->notice + len, sizeof(sel->notice) - len, "; ");
	len = strlen(sel->notice);
	snprintf(sel->notice + len, sizeof(sel->notice) - len,
		 F_(N_("%u is a thread of process %u: showing the process")), tid, pid);
}

void selection_set(struct selection *sel, const uint32_t *ids, size_t n, int threads,
		   uint32_t (*tgid_of)(void *arg, uint32_t id), void *arg)
{
	selection_free(sel);
	if (n) {
		sel->pids = xmalloc(n * sizeof(*sel->pids));
		sel->whole = xcalloc(n, 1);
		sel->tids = xmalloc(n * sizeof(*sel->tids));
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t tgid = tgid_of(arg, ids[i]), pid = tgid ? tgid : ids[i];
		size_t k = 0;

		while (k < sel->npids && sel->pids[k] != pid)
			k++;
		if (k == sel->npids)
			sel->pids[sel->npids++] = pid;
		if (pid == ids[i])
			sel->whole[k] = 1;
		else if (!listed(sel->tids, sel->ntids, ids[i])) {
			sel->tids[sel->ntids++] = ids[i];
			if (!threads)
				note_thread(sel, ids[i], pid);
		}
	}
}

int selection_has(const struct selection *sel, uint32_t pid, uint32_t id, int threads)
{
	if (sel->npids == 0)
		return 1;
	for (size_t i = 0; i < sel->npids; i++)
		if (sel->pids[i] == pid)
			return !threads || sel->whole[i] || listed(sel->tids, sel->ntids, id);
	return 0;
}
