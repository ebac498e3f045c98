/* colset.c — the columns a screen shows, as its setup edits them (see colset.h). */
#include "config.h"

#include <string.h>

#include "colset.h"

void colset_init(struct colset *s, const int *chosen, int n)
{
	s->n = 0;
	if (n > 0) {
		memcpy(s->ids, chosen, (size_t)n * sizeof(*chosen));
		s->n = n;
		return;
	}
	s->n = column_defaults(s->ids);
}

/* Where column id is in the list, or -1. */
static int position(const struct colset *s, int id)
{
	for (int i = 0; i < s->n; i++)
		if (s->ids[i] == id)
			return i;
	return -1;
}

int colset_is_all(const struct colset *s)
{
	int ids[COL_COUNT], n = column_defaults(ids);

	return s->n == n && memcmp(s->ids, ids, (size_t)n * sizeof(*ids)) == 0;
}

int colset_shown(const struct colset *s, int id)
{
	return position(s, id) >= 0;
}

/* The display as it shows the set. */
static struct display with_set(const struct colset *s, const struct display *d)
{
	struct display out = *d;

	out.chosen = s->ids;
	out.nchosen = s->n;
	return out;
}

int colset_entries(const struct colset *s, const struct display *d, int *ids)
{
	struct display shown = with_set(s, d);
	int n = column_order(&shown, ids);

	for (int c = 0; c < COL_COUNT; c++)
		if (column_in_view(c, d) && !colset_shown(s, c) && c != column_last(d))
			ids[n++] = c;
	return n;
}

int colset_menu(const struct colset *s, const struct display *d, int id, int *ids, int *n)
{
	*n = colset_entries(s, d, ids);
	for (int i = 0; i < *n; i++)
		if (ids[i] == id)
			return i;
	return 0;
}

void colset_toggle(struct colset *s, int id, const struct display *d)
{
	int at = position(s, id);

	if (id < 0 || id >= COL_COUNT || id == column_last(d))
		return;
	if (at < 0) { /* shown last but for the view's last column */
		int end = position(s, column_last(d));

		if (end < 0)
			end = s->n;
		memmove(s->ids + end + 1, s->ids + end, (size_t)(s->n - end) * sizeof(*s->ids));
		s->ids[end] = id;
		s->n++;
		return;
	}
	memmove(s->ids + at, s->ids + at + 1, (size_t)(s->n - at - 1) * sizeof(*s->ids));
	s->n--;
}

void colset_move(struct colset *s, int id, int step, const struct display *d)
{
	int at = position(s, id), last = column_last(d);

	if (at < 0 || id == last)
		return;
	for (int i = at + step; i >= 0 && i < s->n; i += step) {
		int to;

		if (!column_in_view(s->ids[i], d) || s->ids[i] == last)
			continue;
		/* out of its place and in again just before (or after) that column, so that the
		 * columns of other views keep their order */
		memmove(s->ids + at, s->ids + at + 1, (size_t)(s->n - at - 1) * sizeof(*s->ids));
		if (i > at)
			i--;
		to = step < 0 ? i : i + 1;
		memmove(s->ids + to + 1, s->ids + to, (size_t)(s->n - 1 - to) * sizeof(*s->ids));
		s->ids[to] = id;
		return;
	}
}
