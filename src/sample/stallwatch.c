/* stallwatch.c — the tasks that stalled most, kept chosen for their stacks (see stallwatch.h). */
#include "config.h"

#include <string.h>

#include "stallwatch.h"

void stallwatch_init(struct stallwatch *w, const struct trigger_spec *triggers, int n)
{
	memset(w, 0, sizeof(*w));
	for (int i = 0; i < n && i < TRIGGER_MAX; i++)
		w->triggers[w->ntriggers++] = triggers[i];
}

/* Names id in this reading: kept again, or added in the place of the one named longest ago
 * (none named in this reading is given up: the first named come first). */
static void name(struct stallwatch *w, uint32_t id)
{
	size_t oldest = 0;

	for (size_t i = 0; i < w->n; i++)
		if (w->id[i] == id) {
			w->seen[i] = w->reading;
			return;
		}
	if (w->n < STALL_WATCH_MAX) {
		w->id[w->n] = id;
		w->seen[w->n++] = w->reading;
		return;
	}
	for (size_t i = 1; i < w->n; i++)
		if (w->seen[i] < w->seen[oldest])
			oldest = i;
	if (w->seen[oldest] < w->reading) {
		w->id[oldest] = id;
		w->seen[oldest] = w->reading;
	}
}

void stallwatch_update(struct stallwatch *w, const struct snapshot *snap)
{
	struct trigger_stallers st[TRIGGER_MAX];
	size_t kept = 0;

	w->reading++;
	for (size_t i = 0; i < w->n; i++) /* those not named for STALL_KEEP readings leave */
		if (w->reading - w->seen[i] < STALL_KEEP) {
			w->id[kept] = w->id[i];
			w->seen[kept++] = w->seen[i];
		}
	w->n = kept;
	for (int k = 0; k < w->ntriggers; k++)
		trigger_stallers(snap, &w->triggers[k], &st[k]);
	for (int k = 0; k < w->ntriggers; k++) /* every trigger's stalled first, then the waiting */
		for (size_t i = 0; i < st[k].ntasks; i++)
			name(w, snap->threads ? st[k].task[i]->tid : st[k].task[i]->pid);
	for (int k = 0; k < w->ntriggers; k++)
		for (size_t i = 0; i < st[k].nwaiting; i++)
			name(w, snap->threads ? st[k].waiting[i]->tid : st[k].waiting[i]->pid);
}

size_t stallwatch_ids(const struct stallwatch *w, uint32_t *out)
{
	if (w->n)
		memcpy(out, w->id, w->n * sizeof(*out));
	return w->n;
}
