/* flame.h — flame graphs of off-CPU stacks (stacks.h; a command run's, stackrun.h) for the HTML
 * reports, as inline SVG that needs no script: the stacks of a task, of a trigger event or of a
 * command run in one state merged into a tree (a level per group, such as the task, then per
 * state, R, D or S, then the frames from the outermost down, each weighted by the milliseconds
 * spent off the CPU), drawn as an icicle, the root on top and each frame a rectangle as wide as
 * its share of the time. Each rectangle's <title> (the tooltip) gives the frame's full name, its
 * milliseconds and its share; its label is the name cut to what fits in its width; its colour
 * says the state the task waited in. Children narrower than FLAME_MIN_W are merged into one "…"
 * where together they are wide enough, and otherwise left out, and the figure says how much time
 * was left out. Pure code; the output depends only on the stacks and the order they came in. */
#ifndef DELAYTOP_FLAME_H
#define DELAYTOP_FLAME_H

#include <stddef.h>
#include <stdint.h>

#include "format.h"
#include "stackrun.h"
#include "stacks.h"

/* The drawing's geometry, in the SVG's own units (the page scales it to its width). */
#define FLAME_W 1000     /* the root's width */
#define FLAME_ROW_H 17   /* a level's height */
#define FLAME_FONT 11    /* the labels' font size (monospace) */
#define FLAME_CHAR_W 6.9 /* a column of that font: above the 0.6 em (6.6) of DejaVu Sans Mono and Liberation Mono */
#define FLAME_PAD 3      /* room between a rectangle's edge and its label */
#define FLAME_MIN_W 2.0  /* the narrowest rectangle drawn */

enum flame_kind { FLAME_ROOT, FLAME_GROUP, FLAME_STATE, FLAME_FRAME, FLAME_MERGED };

/* A node of the tree: a group, a state or a frame, and the stacks through it. */
struct flame_node {
	char *name;
	uint8_t kind;  /* enum flame_kind */
	uint8_t state; /* enum stk_state of the subtree (for a group: STK_STATES) */
	double ms;
	uint64_t count;
	struct flame_node *kids;
	size_t nkids, capkids;
};

struct flame {
	struct flame_node root;
	size_t nstacks;
};

/* One rectangle as laid out: x0 and x1 in hundredths of a unit, inside its parent's. */
struct flame_rect {
	const char *name;   /* the node's; for FLAME_MERGED, NULL */
	uint8_t kind, state;
	uint32_t depth;     /* 0: the root */
	int64_t x0, x1;
	double ms;
	uint64_t count;
	size_t merged;      /* FLAME_MERGED: how many frames it stands for */
	size_t parent;      /* its parent's index in the layout (the root: itself) */
};

/* A tree laid out: its rectangles, parents before children, and the time left out. */
struct flame_layout {
	struct flame_rect *r;
	size_t n, cap;
	uint32_t depth;     /* the deepest level drawn */
	double dropped_ms;  /* in children too narrow to draw, even merged */
};

/* An empty tree whose root is named root (copied). */
void flame_init(struct flame *f, const char *root);
void flame_free(struct flame *f);
/* The same on the heap; flame_drop frees it (NULL: nothing). */
struct flame *flame_new(const char *root);
void flame_drop(struct flame *f);
/* Adds a stack (its frames innermost first) under the group named group (NULL: none), then its
 * state: its ms and count go to every node on its path. */
void flame_add(struct flame *f, const char *group, const struct stk_stack *s);
/* Adds each stack of a list. */
void flame_add_list(struct flame *f, const char *group, const struct stk_list *l);
/* Adds the stacks of a command run (stackrun.h: their time in ns, frames innermost first) that
 * are in state state (STK_STATES: in any) under the group named group (NULL: none); returns how
 * many it added. */
size_t flame_add_run(struct flame *f, const char *group, const struct stackrun_stack *s, size_t n,
		     uint32_t state);
/* The time of every stack added, ms. */
double flame_ms(const struct flame *f);

/* Lays f out (into l, which the caller frees with flame_layout_free): each level's children
 * ordered by time, longest first, then by name. */
void flame_lay_out(const struct flame *f, struct flame_layout *l);
void flame_layout_free(struct flame_layout *l);

/* How many bytes of name its label shows in a rectangle w units wide, FLAME_PAD kept on each
 * side: all of them when the name fits (*cut 0), else as many whole characters as fit before "…"
 * (*cut 1), 0 when not even one does. A column is FLAME_CHAR_W units: printable ASCII takes one,
 * any other character two (a CJK character's width, U+FFFD's for what html.h replaces), three
 * from U+10000 (an emoji's), under every locale. */
size_t flame_fit(const char *name, double w, int *cut);

/* The figure: the icicle as <svg class="flame">, with the id given, then a caption (caption,
 * escaped) with the states' colours and, when some time was left out, a sentence saying how
 * much (<p class="dropped">). */
void flame_figure(struct outbuf *o, const struct flame *f, const char *id, const char *caption);

#endif
