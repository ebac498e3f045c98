/* json.h — the JSON reports of the batch printer (batch.h): a line an object. */
#ifndef DELAYTOP_JSON_H
#define DELAYTOP_JSON_H

#include <stddef.h>

#include "columns.h"
#include "format.h"
#include "model.h"
#include "trigger.h"

/* A reading as JSON lines into o: its header (type "psi"), then each of rows[0..n) as a task,
 * a cgroup or a command as d shows them. */
void json_report(struct outbuf *o, const struct snapshot *snap, const struct row *const *rows, size_t n,
		 const struct display *d);

/* The event of trigger t firing as a JSON line (type "event"): when, the trigger and its file
 * (the pressure file it watches), its kinds, the tasks and cgroups that stalled most and the
 * tasks waiting now (st), with their stacks where --why took them. */
void json_event(struct outbuf *o, const char *when, const struct snapshot *snap, const struct trigger_spec *t,
		const struct trigger_stallers *st, const char *file);

#endif
