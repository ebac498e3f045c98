/* columnline.c — the text of a table line: the titles with the sort marker, or a row's cells
 * padded to the table's widths, the command last and whole. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgident.h"
#include "cgtree.h"
#include "columns.h"
#include "format.h"
#include "i18n.h"

/* The sort marker: a triangle where the terminal speaks UTF-8, else v and ^. */
static const char *marker(int descending)
{
	if (MB_CUR_MAX > 1)
		return descending ? "\u25bc" : "\u25b2";
	return descending ? "v" : "^";
}

static void title_cell(struct outbuf *o, const struct column *c, int marked, int descending, int last)
{
	int pad = c->width - text_width(c->title);

	if (!marked) {
		if (last)
			out_str(o, c->title);
		else
			out_padded(o, c->title, c->width, c->right);
		return;
	}
	if (c->right) {
		/* the marker sits right before the title, in the padding or the separator */
		if (pad >= 1) {
			out_spaces(o, pad - 1);
		} else if (o->len > 0 && o->data[o->len - 1] == ' ') {
			o->len--;
		}
		out_str(o, marker(descending));
		out_padded(o, c->title, text_width(c->title), 0);
		return;
	}
	out_str(o, c->title);
	out_str(o, marker(descending));
	if (!last)
		out_spaces(o, pad - 1);
}

/* The number cells of a row, written straight into the buffer: one reservation for all of them
 * instead of a call per cell. Returns the index of the first cell that is not a number. */
static int number_cells(struct outbuf *o, const struct row *r, const struct display *d, const struct table *t,
			int from)
{
	char buf[32];
	int i = from;
	char *p;

	out_reserve(o, (size_t)t->n * 48);
	p = o->data + o->len;
	for (; i < t->n && t->col[i].number; i++) {
		const struct column *c = &t->col[i];
		size_t len = column_number_cell(r, t->ids[i], d, c->decimals, c->fit, buf);
		size_t w = (size_t)c->width, fit = len < w ? len : w;

		if (i)
			*p++ = ' ';
		memset(p, ' ', w);
		memcpy(p + (c->right ? w - fit : 0), buf, fit);
		p += w;
	}
	o->len = (size_t)(p - o->data);
	return i;
}

/* "  [text]", with the mark of the user who could have named it when the cgroup is delegated. */
static void ident_bracket(struct outbuf *o, const char *text, uint32_t identity_uid)
{
	char marked[CGIDENT_NAME_MAX + 64];

	out_printf(o, "  [%s]", column_ident_marked(text, identity_uid, sizeof(marked), marked, sizeof(marked)));
}

/* After a cgroup's name in the cgroup view, what its path names that its parent's does not: the
 * container, the pod and its QoS class; each marked when the cgroup is delegated. */
static void ident_label(struct outbuf *o, const struct row *r)
{
	struct cgident id;
	char text[CGIDENT_NAME_MAX + 32];
	int news = cgident_parse_new(r->cgroup, &id);

	if (news & CGIDENT_NEW_CONTAINER)
		ident_bracket(o, cgident_container_text(&id, text, sizeof(text)), r->identity_uid);
	if (news & CGIDENT_NEW_POD) {
		/* TRANSLATORS: a Kubernetes pod after a cgroup's name: its UID, its QoS class (not translated) */
		snprintf(text, sizeof(text), F_(N_("pod %s, %s")), id.pod_uid, id.qos);
		ident_bracket(o, text, r->identity_uid);
	}
}

/* A cgroup cell: in the cgroup view (the last column) the name indented by depth; in a task view
 * the path, cut at the front to fit the width. */
static void cgroup_cell(struct outbuf *o, const struct row *r, int width, int last)
{
	const char *path = r->cgroup ? r->cgroup : "-";
	int w;

	if (r->cg) {
		out_spaces(o, 2 * r->depth);
		out_padded(o, r->cg->name, text_width(r->cg->name), 0);
		ident_label(o, r);
		return;
	}
	w = text_width(path);
	if (last) {
		out_padded(o, path, w, 0);
		return;
	}
	if (w > width && width > 2) { /* the end of a path says more than its start */
		const char *tail = path;

		while (*tail && text_width(tail) > width - 1)
			tail++;
		out_str(o, MB_CUR_MAX > 1 ? "\u2026" : "<");
		out_padded(o, tail, width - 1, 0);
		return;
	}
	out_padded(o, path, width, 0);
}

void column_prefetch(const struct row *r, int strings)
{
	if (strings) {
		__builtin_prefetch(r->comm);
		__builtin_prefetch(r->user);
		__builtin_prefetch(r->cgroup);
		return;
	}
	for (size_t at = 0; at < sizeof(*r); at += 64)
		__builtin_prefetch((const char *)r + at);
}

void column_line(struct outbuf *o, const struct row *r, const struct display *d, const struct table *t,
		 int marker_col, int descending)
{
	char buf[32];

	for (int i = 0; i < t->n; i++) {
		const struct column *c = &t->col[i];
		int last = i == t->n - 1;
		const char *text;

		if (r && c->number) {
			i = number_cells(o, r, d, t, i) - 1;
			continue;
		}
		if (i)
			out_char(o, ' ');
		if (!r) {
			title_cell(o, c, t->ids[i] == marker_col, descending, last);
			continue;
		}
		if (t->ids[i] == COL_CGROUP) {
			cgroup_cell(o, r, c->width, last);
			continue;
		}
		text = column_text(r, t->ids[i], d, buf);
		if (t->ids[i] == COL_COMMAND && d->tree && !r->cg && r->depth > 0) {
			out_spaces(o, 3 * (r->depth - 1)); /* the process tree: under its parent */
			out_str(o, "`- ");
		}
		if (last) {
			out_padded(o, text, text_width(text), 0);
			if (r->exited)
				out_str(o, _(" <exited>"));
			if (r->partial)
				out_str(o, _(" <partial>"));
		} else {
			out_padded(o, text, c->width, c->right);
		}
	}
	out_char(o, '\n');
}
