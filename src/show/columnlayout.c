/* columnlayout.c — which columns a display shows, and where: the columns each view has, their
 * order without and with --columns, the steps of the sort through them, and which of them fit a
 * screen's width (struct table). Declared in columns.h, with the table of columns it reads. */
#include "config.h"

#include "columns.h"

/* The columns of a view in the order a narrow screen hides them, but its last; returns how many. */
static int drop_order(int *order, int view, int last)
{
	int all[COL_COUNT], nall = column_hide_order(all), n = 0;

	for (int i = 0; i < nall; i++)
		if ((column_def(all[i]).views & view) && all[i] != last)
			order[n++] = all[i];
	return n;
}

/* The view a display shows. */
static int view_of(const struct display *d)
{
	return d->cgroups ? VIEW_CGROUPS : d->commands ? VIEW_COMMANDS : VIEW_TASKS;
}

int column_in_view(int id, const struct display *d)
{
	return id >= 0 && id < COL_COUNT && (column_def(id).views & view_of(d)) != 0;
}

int column_step(int id, int step, const struct display *d)
{
	for (int c = id + step; c >= 0 && c < COL_COUNT; c += step)
		if (column_in_view(c, d))
			return c;
	return id;
}

int column_last(const struct display *d)
{
	return d->cgroups ? COL_CGROUP : COL_COMMAND;
}

/* Whether the display shows column c, before a narrow screen hides any: the view has it, and
 * --columns chose it or it is the view's last. */
static int column_chosen(int c, const struct display *d)
{
	if (!column_in_view(c, d))
		return 0;
	if (c == column_last(d))
		return 1;
	if (!d->nchosen)
		return !column_def(c).optional;
	for (int i = 0; i < d->nchosen; i++)
		if (d->chosen[i] == c)
			return 1;
	return 0;
}

int column_defaults(int *ids)
{
	int n = 0;

	for (int c = 0; c < COL_COUNT; c++)
		if (!column_def(c).optional)
			ids[n++] = c;
	return n;
}

/* Whether a column of the order is left out: the CGROUP column of tasks all in the root. */
static int column_left_out(int c, const struct display *d)
{
	return c == COL_CGROUP && d->flat_cgroups && !d->cgroups;
}

int column_order(const struct display *d, int *cols)
{
	int n = 0, last = column_last(d);

	if (!d->nchosen) {
		for (int c = 0; c < COL_COUNT; c++)
			if (column_in_view(c, d) && !column_def(c).optional && !column_left_out(c, d))
				cols[n++] = c;
		return n;
	}
	for (int i = 0; i < d->nchosen; i++)
		if (d->chosen[i] != last && column_in_view(d->chosen[i], d) && !column_left_out(d->chosen[i], d))
			cols[n++] = d->chosen[i];
	cols[n++] = last;
	return n;
}

int column_shown(const struct display *d, int id)
{
	int cols[COL_COUNT], n = column_order(d, cols);

	for (int i = 0; i < n; i++)
		if (cols[i] == id)
			return 1;
	return 0;
}

int column_acct_shown(const struct display *d)
{
	int cols[COL_COUNT], n = column_order(d, cols);

	for (int i = 0; i < n; i++)
		if (column_acct(cols[i]) >= 0)
			return 1;
	return 0;
}

int column_step_shown(int id, int step, const struct display *d)
{
	int cols[COL_COUNT], n = column_order(d, cols);

	for (int i = 0; i < n; i++)
		if (cols[i] == id)
			return i + step >= 0 && i + step < n ? cols[i + step] : id;
	for (int c = id + step; c >= 0 && c < COL_COUNT; c += step)
		if (column_chosen(c, d))
			return c;
	return id;
}

static int column_layout(const struct display *d, int width, int sort_col, int last_min, int *cols)
{
	int last = column_last(d);
	int order[COL_COUNT], ndrop = drop_order(order, view_of(d), last);
	int all[COL_COUNT], nall = column_order(d, all);
	int shown[COL_COUNT] = { 0 }, need = -1, n = 0;

	for (int i = 0; i < nall; i++) {
		shown[all[i]] = 1;
		need += (all[i] == last ? last_min : column_def(all[i]).width) + 1;
	}
	for (int i = 0; need > width && i < ndrop; i++) {
		int c = order[i];

		if (c == sort_col || !shown[c])
			continue;
		shown[c] = 0;
		need -= column_def(c).width + 1;
	}
	for (int i = 0; i < nall; i++)
		if (shown[all[i]])
			cols[n++] = all[i];
	return n;
}

int table_column_at(const struct table *t, int x)
{
	int start = 0;

	for (int i = 0; i < t->n; i++) {
		if (i == t->n - 1)
			return x >= start ? i : -1;
		if (x >= start && x < start + t->col[i].width)
			return i;
		start += t->col[i].width + 1;
	}
	return -1;
}

void table_init(struct table *t, const struct display *d, int width, int sort_col)
{
	table_layout(t, d, width, sort_col, 0);
}

void table_layout(struct table *t, const struct display *d, int width, int sort_col, int last_width)
{
	if (width > 0)
		t->n = column_layout(d, width, sort_col, last_width > 8 ? last_width : 8, t->ids);
	else
		t->n = column_order(d, t->ids);
	for (int i = 0; i < t->n; i++)
		t->col[i] = column_get(t->ids[i], d);
}
