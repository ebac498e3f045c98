/* colset.h — the columns a screen shows, in order, as its setup (F2) edits them: which are
 * shown, their order, and the list the setup offers for a view. One list serves every view (each
 * shows those it has); the view's last column (the command, or the cgroup) is always shown and
 * always last, so it is neither hidden nor moved. Pure code. */
#ifndef DELAYTOP_COLSET_H
#define DELAYTOP_COLSET_H

#include "columns.h"

struct colset {
	int ids[COL_COUNT]; /* the shown columns, in order (a struct display's chosen) */
	int n;
};

/* From --columns (n of them), or when n is 0 the columns shown without it (column_defaults). */
void colset_init(struct colset *s, const int *chosen, int n);

/* Whether the set is the columns shown without --columns, in their order. */
int colset_is_all(const struct colset *s);

/* Whether column id is shown. */
int colset_shown(const struct colset *s, int id);

/* The setup's list for the display's view into ids: its shown columns in order, the view's last
 * column, then its hidden ones in the table's order. Returns how many. */
int colset_entries(const struct colset *s, const struct display *d, int *ids);

/* The setup's list (colset_entries) into ids, *n of them; returns where id is in it (0 when it
 * is not: the list's first). */
int colset_menu(const struct colset *s, const struct display *d, int id, int *ids, int *n);

/* Shows column id (the last of the shown, before the view's last column) or hides it; the view's
 * last column stays. */
void colset_toggle(struct colset *s, int id, const struct display *d);

/* Moves a shown column id one place earlier (step -1) or later (+1) among the shown columns of
 * the display's view; nothing when it is the first or last of them, hidden or the last column. */
void colset_move(struct colset *s, int id, int step, const struct display *d);

#endif
