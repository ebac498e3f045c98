/* viewstate.c — the screen's state that the key loop, the prompts and the drawing share: the
 * message line, the rows as filtered and sorted with the selection kept on its task, and the
 * settings written (W). Calls nothing of the screen above it. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detail.h"
#include "format.h"
#include "i18n.h"
#include "rcfile.h"
#include "timing.h"
#include "viewstate.h"

#define MESSAGE_NS 4000000000ull

void view_say(struct view *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->message, sizeof(v->message), fmt, ap);
	va_end(ap);
	v->message_until = timing_mono_ns() + MESSAGE_NS;
}

/* ---- rows and selection ---- */

void view_remember_selection(struct view *v)
{
	if (v->selected < v->list.n) {
		const struct row *r = v->list.rows[v->selected];

		v->sel_pid = r->pid;
		v->sel_tid = r->tid;
		str_copy(v->sel_cgroup, sizeof(v->sel_cgroup), r->cg && r->cgroup ? r->cgroup : "");
		str_copy(v->sel_command, sizeof(v->sel_command), r->procs && r->comm ? r->comm : "");
	}
}

/* Whether row r is the task or cgroup the user selected. */
static int is_selected(const struct view *v, const struct row *r)
{
	if (r->cg)
		return r->cgroup && strcmp(r->cgroup, v->sel_cgroup) == 0;
	if (r->procs) /* a command's row */
		return r->comm && strcmp(r->comm, v->sel_command) == 0;
	return r->pid == v->sel_pid && r->tid == v->sel_tid;
}

/* Filters and sorts the snapshot's rows. A task the user selected stays selected while it is
 * there; until the user moves, the selection stays on the first row, the top of the sort. */
void view_rebuild(struct view *v)
{
	size_t n;

	/* the rows are the snapshot's: its view, until the reading for the view asked for is in */
	v->spec.display.threads = v->have_snap ? v->snap.threads : v->want_threads;
	v->spec.display.cgroups = v->have_snap ? v->snap.cgroups : v->want_cgroups;
	v->spec.display.commands = v->want_commands && !v->spec.display.cgroups;
	v->spec.display.elapsed_s = v->snap.elapsed_s;
	v->spec.display.why_kinds = v->have_snap ? lat_row_kinds(&v->snap.why, NULL) : 0;
	v->spec.display.flat_cgroups = v->have_snap && colset_is_all(&v->cols) && listing_cgroups_flat(&v->snap);
	v->spec.filter.command = v->command_filter[0] ? v->command_filter : NULL;
	v->spec.filter.comm = v->comm_filter[0] ? v->comm_filter : NULL;
	v->spec.filter.cgroup = v->cgroup_filter[0] ? v->cgroup_filter : NULL;
	v->spec.folded = (const char *const *)v->folded;
	v->spec.nfolded = v->nfolded;
	listing_build(&v->list, v->have_snap ? &v->snap : NULL, &v->spec);
	if (v->reader) /* the detail view shows the longest waits, which the totals keep no more */
		reader_set_wants(v->reader, listing_wants(&v->spec) | (detail_is_open(v) ? WANT_PEAKS : 0));
	n = v->list.n;
	if (!v->follow) {
		v->selected = 0;
		view_remember_selection(v);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (is_selected(v, v->list.rows[i])) {
			v->selected = i;
			return;
		}
	}
	/* the task is gone or filtered out: keep the position */
	if (v->selected >= n)
		v->selected = n ? n - 1 : 0;
	view_remember_selection(v);
}

void view_write_settings(struct view *v)
{
	struct options o; /* the settings the screen shows, as options */
	char path[4096], err[512], *text;

	options_defaults(&o);
	o.delay_s = v->delay_s;
	o.sort_col = v->spec.sort_col;
	o.reverse = v->spec.reverse;
	o.threads = v->want_threads;
	o.cgroups = v->want_cgroups;
	o.commands = v->want_commands;
	o.active = v->spec.filter.active;
	o.hide_exited = v->spec.filter.hide_exited;
	o.why = v->why;
	o.tree = v->spec.display.tree;
	o.tree_sums = v->spec.display.tree_sums;
	o.nchosen = colset_is_all(&v->cols) ? 0 : v->cols.n;
	memcpy(o.chosen, v->cols.ids, (size_t)o.nchosen * sizeof(*o.chosen));

	if (rcfile_path(path, sizeof(path)) < 0) {
		view_say(v, "%s", _("no home directory to write the settings in"));
		return;
	}
	text = rcfile_text(&o);
	if (rcfile_write(path, text, err, sizeof(err)) == 0)
		view_say(v, F_(N_("settings written to %s")), path);
	else
		view_say(v, "%s", err);
	free(text);
}
