/* test_flame.c — flame.c, the HTML report's flame graphs of off-CPU stacks: stacks merged into a
 * tree by state and frames from the outermost (their ms added up every node of the path); a
 * command run's stacks (stackrun.h) of one state taken as their ns in ms, drawn as the same
 * stacks given to flame_add would be, the other states' left out; the layout's arithmetic (each
 * rectangle inside its parent, its children side by side and together no wider, each as wide as
 * its share of the root; the same for 2,000 random stacks); frames too narrow merged into "…" or
 * left out with the time left out said; labels cut to the width by columns (a wide character
 * takes two); names that are markup, quotes or a bidi override written as text, never cut inside
 * a character reference; the same stacks drawn the same. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "tap.h"

/* A stack of state st, ms, its frames innermost first (NULL-terminated). */
static struct stk_stack stack(uint32_t st, double ms, uint64_t count, const char *const *frames)
{
	size_t n = 0;

	while (frames[n])
		n++;
	return (struct stk_stack){ ms, count, st, n, frames, 0 };
}

/* The rectangle of a name at a depth, or NULL. */
static const struct flame_rect *find(const struct flame_layout *l, uint32_t depth, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->r[i].depth == depth && l->r[i].name && strcmp(l->r[i].name, name) == 0)
			return &l->r[i];
	return NULL;
}

/* Checks the layout's geometry: each child inside its parent, the children of a parent side by
 * side without overlap and at most as wide, every width its share of the root (to a hundredth).
 * Returns a description of the first fault, or NULL. */
static const char *geometry_fault(const struct flame_layout *l, double total, char *buf, size_t size)
{
	for (size_t p = 0; p < l->n; p++) {
		int64_t sum = 0, end = l->r[p].x0;

		for (size_t c = 1; c < l->n; c++) {
			const struct flame_rect *r = &l->r[c];

			if (r->parent != p)
				continue;
			if (r->depth != l->r[p].depth + 1 || r->x0 < l->r[p].x0 || r->x1 > l->r[p].x1 || r->x1 < r->x0) {
				snprintf(buf, size, "rect %zu [%lld,%lld] outside its parent %zu [%lld,%lld]", c,
					 (long long)r->x0, (long long)r->x1, p, (long long)l->r[p].x0, (long long)l->r[p].x1);
				return buf;
			}
			if (r->x0 < end) {
				snprintf(buf, size, "rect %zu starts at %lld, before its sibling's end %lld", c,
					 (long long)r->x0, (long long)end);
				return buf;
			}
			end = r->x1;
			sum += r->x1 - r->x0;
			if (total > 0 && llabs((r->x1 - r->x0) - llround(r->ms / total * FLAME_W * 100)) > 1) {
				snprintf(buf, size, "rect %zu is %lld wide for %.3f ms of %.3f", c,
					 (long long)(r->x1 - r->x0), r->ms, total);
				return buf;
			}
		}
		if (sum > l->r[p].x1 - l->r[p].x0) {
			snprintf(buf, size, "the children of rect %zu are %lld wide, it %lld", p, (long long)sum,
				 (long long)(l->r[p].x1 - l->r[p].x0));
			return buf;
		}
	}
	return NULL;
}

static void test_merge(void)
{
	static const char *const s1[] = { "anon_pipe_read+0x1a4", "wait_on_pipe", "main", NULL };
	static const char *const s2[] = { "do_sys_poll+0x20", "wait_on_pipe", "main", NULL };
	static const char *const s3[] = { "do_fsync+0x3c", "main", NULL };
	struct stk_stack st[] = { stack(STK_S, 60, 6, s1), stack(STK_S, 30, 3, s2), stack(STK_D, 10, 1, s3) };
	const struct flame_rect *r;
	struct flame_layout l;
	struct flame f;
	char why[256];

	flame_init(&f, "sw (42)");
	for (size_t i = 0; i < 3; i++)
		flame_add(&f, NULL, &st[i]);
	is_num(flame_ms(&f), 100, 1e-9, "the root's time is the stacks' added");
	flame_lay_out(&f, &l);
	is_int(l.n, 9, "9 rectangles: the root, S, main, wait_on_pipe, 2 leaves, D, main, do_fsync");
	is_int(l.depth, 4, "4 levels below the root: the state and 3 frames");
	ok(l.r[0].kind == FLAME_ROOT && l.r[0].x0 == 0 && l.r[0].x1 == FLAME_W * 100, "the root spans the width");
	r = find(&l, 1, "S");
	ok(r && r->kind == FLAME_STATE && r->x0 == 0 && r->x1 == 90000 && r->count == 9,
	   "the state S first (90 ms, 9 waits): 90%% of the width");
	r = find(&l, 2, "main");
	ok(r && r->ms == 90 && r->x1 == 90000, "S's outermost frame, main, holds both S stacks");
	r = find(&l, 3, "wait_on_pipe");
	ok(r && r->ms == 90, "their common caller is merged: 90 ms");
	r = find(&l, 4, "anon_pipe_read+0x1a4");
	ok(r && r->x0 == 0 && r->x1 == 60000, "the longest leaf first: 60 ms from the left");
	r = find(&l, 4, "do_sys_poll+0x20");
	ok(r && r->x0 == 60000 && r->x1 == 90000, "the next beside it: 30 ms");
	r = find(&l, 1, "D");
	ok(r && r->x0 == 90000 && r->x1 == 100000 && r->state == STK_D, "the state D after S: 10 ms");
	r = find(&l, 3, "do_fsync+0x3c");
	ok(r && r->state == STK_D && r->x1 - r->x0 == 10000, "D's frames keep its state");
	ok(geometry_fault(&l, 100, why, sizeof(why)) == NULL, "the geometry holds: %s",
	   geometry_fault(&l, 100, why, sizeof(why)) ?: "every child inside its parent, no wider together");
	is_num(l.dropped_ms, 0, 0, "nothing left out");
	flame_layout_free(&l);

	flame_add(&f, "other (7)", &st[0]);
	flame_lay_out(&f, &l);
	r = find(&l, 1, "other (7)");
	ok(r && r->kind == FLAME_GROUP && r->ms == 60, "a group is a level of its own, before the state");
	ok(find(&l, 2, "S") && find(&l, 3, "main") && find(&l, 5, "anon_pipe_read+0x1a4"),
	   "under it the state and the frames");
	ok(geometry_fault(&l, 160, why, sizeof(why)) == NULL, "the geometry holds with a group: %s",
	   geometry_fault(&l, 160, why, sizeof(why)) ?: "yes");
	flame_layout_free(&l);
	flame_free(&f);
}

/* The time of a stack that the layout neither draws to its end nor holds in a "…": its path
 * followed down from the root (the group, the state, the frames from the outermost), 0 when its
 * every node is drawn or a "…" holds the rest, else its ms. */
static double left_out(const struct flame_layout *l, const char *group, const struct stk_stack *s)
{
	size_t at = 0, depth = 0, n = s->nframes + 2;

	for (size_t step = 0; step < n; step++) {
		const char *want = step == 0 ? group : step == 1 ? stk_state_name(s->state) : s->frames[s->nframes + 1 - step];
		size_t next = l->n, merged = l->n;

		depth++;
		for (size_t c = at + 1; c < l->n; c++) {
			if (l->r[c].parent != at || l->r[c].depth != depth)
				continue;
			if (l->r[c].kind == FLAME_MERGED)
				merged = c;
			else if (strcmp(l->r[c].name, want) == 0)
				next = c;
		}
		if (next == l->n)
			return merged < l->n ? 0 : s->ms;
		at = next;
	}
	return 0;
}

/* 2,000 stacks of random depths, frames and times: the geometry holds, and the time left out is
 * that of the stacks whose path the layout cuts short without a "…". */
static void test_random(void)
{
	static const char *const names[] = { "a", "b", "c", "d", "e", "f", "g", "h" };
	static const char *frames[2000][11];
	static struct stk_stack st[2000];
	struct flame_layout l;
	struct flame f;
	uint32_t x = 12345;
	double total = 0, lost = 0;
	char why[256];

	flame_init(&f, "random");
	for (int i = 0; i < 2000; i++) {
		size_t depth;

		x = x * 1103515245u + 12345u;
		depth = 1 + (x >> 16) % 10;
		for (size_t d = 0; d < depth; d++) {
			x = x * 1103515245u + 12345u;
			frames[i][d] = names[(x >> 16) % 8];
		}
		frames[i][depth] = NULL;
		x = x * 1103515245u + 12345u;
		st[i] = stack((x >> 16) % 3, (double)((x >> 8) % 100000) / 1000 + (i % 50 == 0 ? 500 : 0), 1, frames[i]);
		total += st[i].ms;
		flame_add(&f, i % 3 ? "one" : "two", &st[i]);
	}
	is_num(flame_ms(&f), total, 1e-6, "the root holds the 2,000 stacks' time");
	flame_lay_out(&f, &l);
	ok(geometry_fault(&l, total, why, sizeof(why)) == NULL, "random stacks: every child inside its parent, "
	   "siblings side by side, together no wider, each its share: %s",
	   geometry_fault(&l, total, why, sizeof(why)) ?: "yes");
	/* the children's time is at most their parent's */
	{
		double *kids = calloc(l.n, sizeof(*kids));
		size_t bad = l.n;

		for (size_t c = 1; c < l.n; c++)
			kids[l.r[c].parent] += l.r[c].ms;
		for (size_t i = 0; i < l.n && bad == l.n; i++)
			if (kids[i] > l.r[i].ms + 1e-6)
				bad = i;
		ok(bad == l.n, "random stacks: every rectangle's children hold at most its time (%zu rectangles)%s",
		   l.n, bad == l.n ? "" : ": one does not");
		free(kids);
	}
	for (int i = 0; i < 2000; i++)
		lost += left_out(&l, i % 3 ? "one" : "two", &st[i]);
	ok(lost > 0, "some stacks are cut short: %.3f ms", lost);
	is_num(l.dropped_ms, lost, 1e-6, "the time left out is theirs");
	flame_layout_free(&l);
	flame_free(&f);
}

static void test_fit(void)
{
	double w14 = 2 * FLAME_PAD + 14 * FLAME_CHAR_W;
	int cut;

	is_int(flame_fit("anon_pipe_read", w14, &cut), 14, "14 letters fit in 14 columns");
	is_int(cut, 0, "whole, not cut");
	is_int(flame_fit("anon_pipe_read", w14 - 0.1, &cut), 12, "in a little less: 12 letters and the ellipsis");
	is_int(cut, 1, "cut");
	is_int(flame_fit("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 2 * FLAME_PAD + 6 * FLAME_CHAR_W, &cut), 9,
	       "three wide characters take six columns");
	is_int(flame_fit("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 2 * FLAME_PAD + 5 * FLAME_CHAR_W, &cut), 6,
	       "in five: two of them and the ellipsis, never half a character");
	is_int(flame_fit("main", 2 * FLAME_PAD + 1.5 * FLAME_CHAR_W, &cut), 0, "one column: no label");
	is_int(flame_fit("x", 2 * FLAME_PAD + 1 * FLAME_CHAR_W, &cut), 1, "but a name of one letter fits it");
	is_int(flame_fit("main", 1, &cut), 0, "a sliver: no label");
}

/* Whether every & in s starts a character reference. */
static int references_whole(const char *s)
{
	static const char *const refs[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&#39;" };

	for (const char *p = strchr(s, '&'); p; p = strchr(p + 1, '&')) {
		int good = 0;

		for (size_t i = 0; i < 5; i++)
			good |= strncmp(p, refs[i], strlen(refs[i])) == 0;
		if (!good)
			return 0;
	}
	return 1;
}

/* The figure of f, as a string (the caller frees). */
static char *figure(const struct flame *f, const char *caption)
{
	struct outbuf o = { 0 };

	flame_figure(&o, f, "flame-t", caption);
	out_char(&o, '\0');
	return o.data;
}

static void test_hostile(void)
{
	static const char *const s1[] = { "<script>alert(1)</script>", "\"'><img src=x onerror=alert(2)>", NULL };
	static const char *const s2[] = { "ab\xe2\x80\xae" "cd", "x\xff&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&", NULL };
	struct stk_stack a = stack(STK_D, 80, 1, s1), b = stack(STK_S, 20, 1, s2);
	struct flame f;
	char *svg;

	flame_init(&f, "<b>evil</b> (1)");
	flame_add(&f, NULL, &a);
	flame_add(&f, NULL, &b);
	svg = figure(&f, "caption <i>&");
	ok(!strstr(svg, "<script") && !strstr(svg, "<img") && !strstr(svg, "<b>") && !strstr(svg, "<i>"),
	   "no element comes from a frame's, the root's or the caption's name");
	ok(strstr(svg, "<title>&lt;script&gt;alert(1)&lt;/script&gt;\n") != NULL, "the full name is the tooltip, escaped");
	ok(strstr(svg, "&quot;&#39;&gt;&lt;img src=x onerror=alert(2)&gt;") != NULL, "quotes are escaped");
	ok(strstr(svg, "ab\xef\xbf\xbd" "cd") != NULL && !strstr(svg, "\xe2\x80\xae"),
	   "a bidi override becomes U+FFFD");
	ok(strstr(svg, "x\xef\xbf\xbd&amp;") != NULL && !strstr(svg, "\xff"), "a byte that is not UTF-8 becomes U+FFFD");
	ok(references_whole(svg), "every & starts a whole character reference, labels cut or not");
	ok(strstr(svg, "caption &lt;i&gt;&amp;") != NULL, "the caption is text");
	free(svg);
	flame_free(&f);
}

/* The labels' text of an SVG (each <text>'s content, escapes as written), one a line. */
static size_t labels(const char *svg, char out[][128], size_t max)
{
	size_t n = 0;

	for (const char *p = strstr(svg, "<text"); p && n < max; p = strstr(p + 1, "<text")) {
		const char *b = strchr(p, '>') + 1, *e = strstr(b, "</text>");

		snprintf(out[n++], 128, "%.*s", (int)(e - b), b);
	}
	return n;
}

static void test_labels(void)
{
	static const char *const s1[] = { "a_rather_long_function_name_that_will_not_fit", "main", NULL };
	static const char *const s2[] = { "short", "main", NULL };
	struct stk_stack a = stack(STK_S, 990, 1, s1), b = stack(STK_S, 10, 1, s2);
	char got[16][128];
	struct flame f;
	char *svg;
	size_t n;

	flame_init(&f, "t");
	flame_add(&f, NULL, &a);
	flame_add(&f, NULL, &b);
	svg = figure(&f, "");
	n = labels(svg, got, 16);
	ok(n >= 4, "labels drawn: %zu", n);
	ok(n >= 4 && strcmp(got[3], "a_rather_long_function_name_that_will_not_fit") == 0,
	   "a name that fits is whole: %s", n >= 4 ? got[3] : "");
	/* short: 10 ms of 1000 is 10 units: (10 - 6) / 6.9 < 1 column: no label */
	ok(strstr(svg, "<title>short\n") != NULL, "a rectangle 10 units wide has its tooltip");
	for (size_t i = 0; i < n; i++)
		if (strncmp(got[i], "sh", 2) == 0)
			n = 0;
	ok(n, "and no label");
	free(svg);
	flame_free(&f);

	flame_init(&f, "t");
	a.ms = 60;
	b.ms = 940;
	flame_add(&f, NULL, &a);
	flame_add(&f, NULL, &b);
	svg = figure(&f, "");
	n = labels(svg, got, 16);
	/* 60 units: (60 - 6) / 6.9 = 7.8: 7 columns, 6 letters and the ellipsis */
	ok(strstr(svg, ">a_rath\xe2\x80\xa6</text>") != NULL, "in 60 units the long name is cut to 6 letters and \"…\"");
	free(svg);
	flame_free(&f);
}

static void test_narrow(void)
{
	static const char *const big[] = { "big_leaf", "main", NULL };
	char names[40][16];
	const char *tiny[40][3];
	struct flame_layout l;
	struct flame f;
	char *svg, why[256];
	const struct flame_rect *m = NULL;

	for (int i = 0; i < 40; i++) {
		snprintf(names[i], sizeof(names[i]), "tiny_%02d", i);
		tiny[i][0] = "leaf";
		tiny[i][1] = names[i];
		tiny[i][2] = NULL;
	}
	/* 5 stacks of 0.1 ms beside 1000: 0.5 ms together, 0.05 units: left out */
	flame_init(&f, "t");
	flame_add(&f, NULL, &(struct stk_stack){ 1000, 1, STK_S, 2, big, 0 });
	for (int i = 0; i < 5; i++)
		flame_add(&f, NULL, &(struct stk_stack){ 0.1, 1, STK_S, 2, tiny[i], 0 });
	flame_lay_out(&f, &l);
	is_num(l.dropped_ms, 0.5, 1e-9, "5 frames of 0.1 ms beside 1000 ms: 0.5 ms left out");
	ok(!find(&l, 2, "tiny_00"), "and not drawn");
	flame_layout_free(&l);
	svg = figure(&f, "");
	ok(strstr(svg, "<p class=\"dropped\">Not drawn: 0.500 ms (0.05% of the time) in frames narrower than 0.2% "
		       "of the width.</p>") != NULL,
	   "the figure says the time left out");
	ok(strstr(svg, "data-dropped-ms=\"0.500\"") != NULL, "and gives it as data-dropped-ms");
	free(svg);
	flame_free(&f);

	/* 30 of 1 ms beside 1000: each 0.97 units, together 29: one "…" */
	flame_init(&f, "t");
	flame_add(&f, NULL, &(struct stk_stack){ 1000, 1, STK_S, 2, big, 0 });
	for (int i = 0; i < 30; i++)
		flame_add(&f, NULL, &(struct stk_stack){ 1, 2, STK_S, 2, tiny[i], 0 });
	flame_lay_out(&f, &l);
	for (size_t i = 0; i < l.n; i++)
		if (l.r[i].kind == FLAME_MERGED)
			m = &l.r[i];
	ok(m && m->merged == 30 && m->ms == 30 && m->count == 60 && m->depth == 2,
	   "30 frames of 1 ms beside 1000 ms: merged into one rectangle of 30 ms and 60 waits");
	ok(m && m->x1 == FLAME_W * 100 && m->x0 == llround(1000 / 1030.0 * FLAME_W * 100),
	   "after the wide one, to the right edge");
	is_num(l.dropped_ms, 0, 0, "nothing left out");
	ok(geometry_fault(&l, 1030, why, sizeof(why)) == NULL, "the geometry holds with a merged rectangle: %s",
	   geometry_fault(&l, 1030, why, sizeof(why)) ?: "yes");
	flame_layout_free(&l);
	svg = figure(&f, "");
	ok(strstr(svg, "<title>30 frames too narrow to draw\n30.0 ms, 2.9%, waits: 60</title>") != NULL,
	   "its tooltip says how many frames, their time and share");
	ok(!strstr(svg, "class=\"dropped\""), "no sentence when nothing was left out");
	free(svg);
	flame_free(&f);
}

static void test_deterministic(void)
{
	static const char *const x[] = { "x", "main", NULL }, *const y[] = { "y", "main", NULL };
	struct stk_stack sx = stack(STK_S, 5, 1, x), sy = stack(STK_S, 5, 1, y);
	struct flame f, g, e;
	char *a, *b, *c;

	flame_init(&f, "t");
	flame_add(&f, NULL, &sx);
	flame_add(&f, NULL, &sy);
	flame_init(&g, "t");
	flame_add(&g, NULL, &sy);
	flame_add(&g, NULL, &sx);
	a = figure(&f, "c");
	b = figure(&g, "c");
	is_str(a, b, "frames of equal time are ordered by name: the same drawing in either order");
	ok(strstr(a, "<g class=\"n\"><title>x\n") < strstr(a, "<g class=\"n\"><title>y\n"), "x before y");
	free(b);
	b = figure(&f, "c");
	is_str(a, b, "the same tree draws the same twice");
	flame_init(&e, "empty");
	c = figure(&e, "none");
	ok(strstr(c, "viewBox=\"0 0 1000 17\"") && strstr(c, "<title>empty\n"), "an empty tree: the root only");
	free(a);
	free(b);
	free(c);
	flame_free(&f);
	flame_free(&g);
	flame_free(&e);
}

/* A command run's stacks (stackrun.h: ns, mutable frames): those of one state added, their ns as
 * ms, each the same as the stk_stack it stands for; STK_STATES adds them all. */
static void test_run(void)
{
	static char *w1[] = { "do_nanosleep+0x5e", "__x64_sys_clock_nanosleep+0xde", "main" };
	static char *w2[] = { "io_schedule_timeout+0x51", "iomap_dio_rw+0xe", "main" };
	static char *w3[] = { "do_wait+0x53", "main" };
	const struct stackrun_stack run[] = {
		{ STK_S, 1000068000, 1, 3, w1 },
		{ STK_D, 91663000, 168, 3, w2 },
		{ STK_S, 65796000, 2, 2, w3 },
		{ STK_STATES + 3, 5000000, 1, 2, w3 }, /* a state not known: only with STK_STATES */
	};
	const struct flame_rect *r;
	struct flame_layout l;
	struct flame f, g;
	size_t n;

	flame_init(&f, "sh -c ...");
	n = flame_add_run(&f, NULL, run, 4, STK_S);
	is_int(n, 2, "state S: its 2 stacks added");
	is_num(flame_ms(&f), 1065.864, 1e-9, "their time in ms: 1000.068 + 65.796");
	flame_lay_out(&f, &l);
	ok(find(&l, 1, "S") && !find(&l, 1, "D") && !find(&l, 1, "?"), "only the state S drawn");
	r = find(&l, 3, "__x64_sys_clock_nanosleep+0xde");
	ok(r && r->ms == 1000.068 && r->count == 1 && find(&l, 4, "do_nanosleep+0x5e"),
	   "its frames from the outermost, as flame_add puts them");
	flame_layout_free(&l);
	flame_init(&g, "sh -c ...");
	flame_add(&g, NULL, &(struct stk_stack){ 1000.068, 1, STK_S, 3, (const char *const *)w1, 0 });
	flame_add(&g, NULL, &(struct stk_stack){ 65.796, 2, STK_S, 2, (const char *const *)w3, 0 });
	{
		struct outbuf a = { 0 }, b = { 0 };

		flame_figure(&a, &f, "x", "c");
		flame_figure(&b, &g, "x", "c");
		ok(a.len == b.len && memcmp(a.data, b.data, a.len) == 0,
		   "the same figure as the stk_stacks it stands for");
		out_free(&a);
		out_free(&b);
	}
	flame_free(&g);
	flame_free(&f);

	flame_init(&f, "sh -c ...");
	is_int(flame_add_run(&f, NULL, run, 4, STK_D), 1, "state D: 1 stack");
	is_num(flame_ms(&f), 91.663, 1e-9, "91.663 ms");
	flame_free(&f);
	flame_init(&f, "sh -c ...");
	is_int(flame_add_run(&f, NULL, run, 4, STK_RUNNABLE), 0, "state R: none");
	is_num(flame_ms(&f), 0, 0, "an empty tree");
	flame_free(&f);
	flame_init(&f, "sh -c ...");
	is_int(flame_add_run(&f, "g", run, 4, STK_STATES), 4,
	       "STK_STATES: every stack, the unknown state too");
	is_num(flame_ms(&f), 1162.527, 1e-9, "the run's whole time");
	flame_free(&f);
}

int main(void)
{
	test_run();
	test_merge();
	test_random();
	test_fit();
	test_hostile();
	test_labels();
	test_narrow();
	test_deterministic();
	return tap_done();
}
