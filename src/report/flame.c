/* flame.c — the off-CPU stacks' flame graphs of the HTML report: the tree, its layout and its
 * SVG (see flame.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "html.h"
#include "i18n.h"
#include "xalloc.h"

/* ---- the tree ---- */

void flame_init(struct flame *f, const char *root)
{
	memset(f, 0, sizeof(*f));
	f->root.name = xstrdup(root ? root : "");
	f->root.kind = FLAME_ROOT;
	f->root.state = STK_STATES;
}

static void node_free(struct flame_node *n)
{
	for (size_t i = 0; i < n->nkids; i++)
		node_free(&n->kids[i]);
	free(n->kids);
	free(n->name);
}

void flame_free(struct flame *f)
{
	node_free(&f->root);
	memset(f, 0, sizeof(*f));
}

struct flame *flame_new(const char *root)
{
	struct flame *f = xmalloc(sizeof(*f));

	flame_init(f, root);
	return f;
}

void flame_drop(struct flame *f)
{
	if (!f)
		return;
	flame_free(f);
	free(f);
}

/* The child of n of that kind and name, made when new. */
static struct flame_node *kid_of(struct flame_node *n, uint8_t kind, uint8_t state, const char *name)
{
	struct flame_node *k;

	for (size_t i = 0; i < n->nkids; i++)
		if (n->kids[i].kind == kind && n->kids[i].state == state && strcmp(n->kids[i].name, name) == 0)
			return &n->kids[i];
	n->kids = xgrow(n->kids, &n->capkids, n->nkids + 1, sizeof(*n->kids));
	k = &n->kids[n->nkids++];
	memset(k, 0, sizeof(*k));
	k->name = xstrdup(name);
	k->kind = kind;
	k->state = state;
	return k;
}

static void node_add(struct flame_node *n, const struct stk_stack *s)
{
	n->ms += s->ms;
	n->count += s->count;
}

void flame_add(struct flame *f, const char *group, const struct stk_stack *s)
{
	uint8_t state = s->state < STK_STATES ? (uint8_t)s->state : STK_STATES;
	struct flame_node *n = &f->root;

	if (!(s->ms >= 0) || !isfinite(s->ms))
		return;
	node_add(n, s);
	if (group) {
		n = kid_of(n, FLAME_GROUP, STK_STATES, group);
		node_add(n, s);
	}
	n = kid_of(n, FLAME_STATE, state, stk_state_name(s->state));
	node_add(n, s);
	for (size_t i = s->nframes; i-- > 0;) { /* the outermost first */
		n = kid_of(n, FLAME_FRAME, state, s->frames[i] ? s->frames[i] : "?");
		node_add(n, s);
	}
	f->nstacks++;
}

void flame_add_list(struct flame *f, const char *group, const struct stk_list *l)
{
	for (size_t i = 0; l && i < l->n; i++)
		flame_add(f, group, &l->s[i]);
}

size_t flame_add_run(struct flame *f, const char *group, const struct stackrun_stack *s, size_t n,
		     uint32_t state)
{
	size_t added = 0;

	for (size_t i = 0; i < n; i++) {
		struct stk_stack one = { .ms = s[i].ns / 1e6, .count = s[i].count, .state = s[i].state,
					 .nframes = s[i].nframes, .frames = (const char *const *)s[i].frames };

		if (state < STK_STATES && s[i].state != state)
			continue;
		flame_add(f, group, &one);
		added++;
	}
	return added;
}

double flame_ms(const struct flame *f)
{
	return f->root.ms;
}

/* ---- the layout ---- */

/* Longest first, then by name, then by kind: the same tree always lays out the same. */
static int by_time(const void *a, const void *b)
{
	const struct flame_node *x = *(const struct flame_node *const *)a, *y = *(const struct flame_node *const *)b;
	int c;

	if (x->ms != y->ms)
		return x->ms > y->ms ? -1 : 1;
	c = strcmp(x->name, y->name);
	if (c)
		return c;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return (x->state > y->state) - (x->state < y->state);
}

static size_t push_rect(struct flame_layout *l, const struct flame_rect *r)
{
	l->r = xgrow(l->r, &l->cap, l->n + 1, sizeof(*l->r));
	l->r[l->n] = *r;
	if (r->depth > l->depth)
		l->depth = r->depth;
	return l->n++;
}

/* Hundredths of a unit of a time offset (k: hundredths a ms), inside the parent's [lo, hi]. */
static int64_t place(double ms, double k, int64_t lo, int64_t hi)
{
	int64_t x = llround(ms * k);

	return x < lo ? lo : x > hi ? hi : x;
}

/* Lays out n's children below the rectangle at index self, the first starting at the time
 * offset off (ms from the root's left edge); k: hundredths of a unit a ms. */
static void lay_kids(const struct flame_node *n, size_t self, double off, double k, struct flame_layout *l)
{
	const struct flame_node **kids;
	int64_t lo = l->r[self].x0, hi = l->r[self].x1;
	uint32_t depth = l->r[self].depth + 1;
	double rest_ms = 0;
	uint64_t rest_count = 0;
	size_t i, at;

	if (!n->nkids)
		return;
	kids = xmalloc(n->nkids * sizeof(*kids));
	for (i = 0; i < n->nkids; i++)
		kids[i] = &n->kids[i];
	qsort(kids, n->nkids, sizeof(*kids), by_time);
	for (i = 0; i < n->nkids && kids[i]->ms * k >= FLAME_MIN_W * 100; i++) {
		struct flame_rect r = { kids[i]->name, kids[i]->kind, kids[i]->state, depth, place(off, k, lo, hi),
					place(off + kids[i]->ms, k, lo, hi), kids[i]->ms, kids[i]->count, 0, self };

		at = push_rect(l, &r);
		lay_kids(kids[i], at, off, k, l);
		off += kids[i]->ms;
	}
	for (at = i; at < n->nkids; at++) { /* too narrow, each: longest first, so the rest */
		rest_ms += kids[at]->ms;
		rest_count += kids[at]->count;
	}
	if (i < n->nkids && rest_ms * k >= FLAME_MIN_W * 100) {
		struct flame_rect r = { NULL, FLAME_MERGED, n->state, depth, place(off, k, lo, hi),
					place(off + rest_ms, k, lo, hi), rest_ms, rest_count, n->nkids - i, self };

		push_rect(l, &r);
	} else {
		l->dropped_ms += rest_ms;
	}
	free(kids);
}

void flame_lay_out(const struct flame *f, struct flame_layout *l)
{
	struct flame_rect root = { f->root.name, FLAME_ROOT, STK_STATES, 0, 0, (int64_t)FLAME_W * 100,
				   f->root.ms, f->root.count, 0, 0 };

	memset(l, 0, sizeof(*l));
	push_rect(l, &root);
	if (f->root.ms > 0)
		lay_kids(&f->root, 0, 0, FLAME_W * 100.0 / f->root.ms, l);
}

void flame_layout_free(struct flame_layout *l)
{
	free(l->r);
	memset(l, 0, sizeof(*l));
}

/* The columns a label's character at s takes, its bytes in *len. A monospace font gives printable
 * ASCII one column; anything else may come from a wider font (a CJK character, an emoji) or
 * become U+FFFD (html.h): two columns, three from U+10000 (emoji), never fewer than the browser
 * draws, and the same under every locale. */
static int label_cols(const char *s, int *len)
{
	unsigned char c = (unsigned char)*s;
	uint32_t cp;

	*len = 1;
	if (c >= 0x20 && c < 0x7f)
		return 1;
	if (c < 0x80 || (*len = utf8_decode(s, &cp)) < 0) {
		*len = 1;
		return 2;
	}
	return cp >= 0x10000 ? 3 : 2;
}

size_t flame_fit(const char *name, double w, int *cut)
{
	double room = (w - 2 * FLAME_PAD) / FLAME_CHAR_W;
	int cols = room > 0 ? (int)floor(room) : 0, used = 0, len;
	size_t i = 0, fit = 0;

	*cut = 0;
	while (name[i]) {
		used += label_cols(name + i, &len);
		if (used > cols) {
			*cut = 1;
			break;
		}
		i += (size_t)len;
		if (used <= cols - 1)
			fit = i; /* fits with the ellipsis after it */
	}
	return *cut ? fit : i;
}

/* ---- the drawing ---- */

/* Each state's shades, and the others' colours. */
#define SHADES 4
static const char *const state_fill[STK_STATES + 1][SHADES] = {
	[STK_RUNNABLE] = { "#fde08b", "#fcd46a", "#f9c74f", "#f6b93b" },
	[STK_D] = { "#f7a889", "#f28f6b", "#ec7a58", "#e26a4a" },
	[STK_S] = { "#bcd7ee", "#a5c8e6", "#93bde1", "#80b1da" },
	[STK_STATES] = { "#d9d9d9", "#cfcfcf", "#c5c5c5", "#bbbbbb" },
};

/* What a state stands for, in the legend and a state's tooltip. */
static const char *state_text(uint8_t state)
{
	switch (state) {
	case STK_RUNNABLE: return _("runnable: waiting for a CPU");
	case STK_D: return _("uninterruptible: disk I/O, page faults, some locks");
	case STK_S: return _("sleeping: waiting for an event, a pipe, a lock, a timer");
	default: return _("state not known");
	}
}

static uint32_t name_hash(const char *s)
{
	uint32_t x = 2166136261u;

	while (s && *s)
		x = (x ^ (unsigned char)*s++) * 16777619u;
	return x;
}

static const char *rect_fill(const struct flame_rect *r)
{
	if (r->kind == FLAME_ROOT)
		return "#e8e8e8";
	if (r->kind == FLAME_GROUP)
		return "#d4d4d4";
	if (r->kind == FLAME_MERGED)
		return "#f2f2f2";
	if (r->kind == FLAME_STATE)
		return state_fill[r->state][SHADES - 1];
	return state_fill[r->state][name_hash(r->name) % SHADES];
}

/* A time in ms as the tooltips say it: more decimals for short ones. */
static void fmt_ms(char *buf, size_t size, double ms)
{
	snprintf(buf, size, ms < 10 ? "%.3f" : "%.1f", ms);
}

/* The label a rectangle shows (its name, cut to fit, or "…" for merged frames). */
static const char *rect_label(const struct flame_rect *r, char *buf, size_t size)
{
	if (r->kind == FLAME_MERGED)
		return "\xe2\x80\xa6";
	if (r->kind == FLAME_STATE) {
		snprintf(buf, size, "%s %s", r->name, state_text(r->state));
		return buf;
	}
	return r->name;
}

/* The tooltip of a rectangle: its full name, then its time, share and waits. */
static void rect_title(struct outbuf *o, const struct flame_rect *r, const char *label, double total_ms)
{
	char ms[32], text[256];

	out_str(o, "<title>");
	if (r->kind == FLAME_MERGED) {
		snprintf(text, sizeof(text), F_(N_("%zu frames too narrow to draw")), r->merged);
		html_text(o, text);
	} else {
		html_text(o, label);
	}
	fmt_ms(ms, sizeof(ms), r->ms);
	snprintf(text, sizeof(text), F_(N_("%s ms, %.1f%%, waits: %llu")), ms, total_ms > 0 ? r->ms / total_ms * 100 : 0,
		 (unsigned long long)r->count);
	out_char(o, '\n');
	html_text(o, text);
	out_str(o, "</title>");
}

/* One rectangle: a group with its tooltip, its box and its label cut to fit. */
static void draw_rect(struct outbuf *o, const struct flame_rect *r, double total_ms)
{
	double x = r->x0 / 100.0, w = (r->x1 - r->x0) / 100.0;
	int y = (int)r->depth * FLAME_ROW_H, cut;
	char buf[512];
	const char *label = rect_label(r, buf, sizeof(buf));
	size_t fit = flame_fit(label, w, &cut);

	out_str(o, "<g class=\"n\">");
	rect_title(o, r, label, total_ms);
	out_printf(o, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\" data-ms=\"%.3f\"/>", x, y,
		   w, FLAME_ROW_H - 1, rect_fill(r), r->ms);
	if (fit) {
		out_printf(o, "<text x=\"%.2f\" y=\"%d\">", x + FLAME_PAD, y + FLAME_ROW_H - 5);
		html_text_n(o, label, fit);
		out_str(o, cut ? "\xe2\x80\xa6</text>" : "</text>");
	}
	out_str(o, "</g>\n");
}

/* The states drawn, as a legend: a swatch of each and what it stands for. */
static void legend(struct outbuf *o, const struct flame_layout *l)
{
	unsigned seen = 0;

	for (size_t i = 0; i < l->n; i++)
		if (l->r[i].kind == FLAME_STATE)
			seen |= 1u << l->r[i].state;
	for (uint8_t s = 0; s <= STK_STATES; s++) {
		if (!(seen & (1u << s)))
			continue;
		out_printf(o, " <span class=\"state\"><span class=\"swatch\" style=\"background:%s\"></span>%s ",
			   state_fill[s][SHADES - 1], stk_state_name(s));
		html_text(o, state_text(s));
		out_str(o, "</span>");
	}
}

void flame_figure(struct outbuf *o, const struct flame *f, const char *id, const char *caption)
{
	struct flame_layout l;
	double total = flame_ms(f);
	char ms[32], text[256];

	flame_lay_out(f, &l);
	fmt_ms(ms, sizeof(ms), l.dropped_ms);
	out_printf(o, "<figure class=\"flame\" id=\"%s\" data-ms=\"%.3f\" data-dropped-ms=\"%s\">\n", id, total, ms);
	out_printf(o, "<svg class=\"flame\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" role=\"img\" "
		      "font-family=\"monospace\" font-size=\"%d\">\n",
		   FLAME_W, (int)(l.depth + 1) * FLAME_ROW_H, FLAME_FONT);
	for (size_t i = 0; i < l.n; i++)
		draw_rect(o, &l.r[i], total);
	out_str(o, "</svg>\n<figcaption>");
	html_text(o, caption);
	legend(o, &l);
	out_str(o, "</figcaption>\n");
	if (l.dropped_ms > 0) {
		snprintf(text, sizeof(text),
			 F_(N_("Not drawn: %s ms (%.2f%% of the time) in frames narrower than %.1f%% of the width.")), ms,
			 total > 0 ? l.dropped_ms / total * 100 : 0, FLAME_MIN_W / FLAME_W * 100);
		html_wrap(o, "<p class=\"dropped\">", text, "</p>\n");
	}
	out_str(o, "</figure>\n");
	flame_layout_free(&l);
}
