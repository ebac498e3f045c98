/* snapcopy.c — a snapshot that owns its memory (see snapcopy.h). Strings go into chunks that never
 * move, so a copied pointer stays good while more strings are added. Rows of one process share
 * their user, command line and cgroup (one pointer each in the sampler's tables), so a string is
 * looked up by its address in a small direct-mapped cache first: the few hundred distinct ones of
 * 100,000 thread rows are copied once each, without a hash table of every row. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rowbuild.h"
#include "snapcopy.h"
#include "xalloc.h"

#define CHUNK_SIZE 65536
#define CACHE_SLOTS 4096 /* a power of two */
#define PREFETCH_AHEAD 16

struct chunk {
	struct chunk *next;
	size_t used, size;
	char data[];
};

struct snapcopy_strings {
	struct chunk *first, *cur;
	const char *from[CACHE_SLOTS]; /* a string of the source, by its address's slot */
	const char *to[CACHE_SLOTS];   /* and its copy */
};

static struct chunk *chunk_new(size_t size)
{
	struct chunk *c = xmalloc(sizeof(*c) + size);

	c->next = NULL;
	c->used = 0;
	c->size = size;
	return c;
}

static void strings_reset(struct snapcopy_strings *s)
{
	for (struct chunk *c = s->first; c; c = c->next)
		c->used = 0;
	s->cur = s->first;
	memset(s->from, 0, sizeof(s->from));
}

/* Room for size bytes: in the current chunk, or a later one kept from an earlier copy, or a new
 * one put after the current. */
static char *strings_room(struct snapcopy_strings *s, size_t size)
{
	struct chunk *c = s->cur;

	while (c && c->size - c->used < size)
		c = c->next;
	if (!c) {
		c = chunk_new(size > CHUNK_SIZE ? size : CHUNK_SIZE);
		if (s->cur) {
			c->next = s->cur->next;
			s->cur->next = c;
		} else {
			s->first = c;
		}
	}
	s->cur = c;
	c->used += size;
	return c->data + c->used - size;
}

static const char *copy_string(struct snapcopy_strings *s, const char *from)
{
	size_t slot = ((uintptr_t)from >> 3 ^ (uintptr_t)from >> 15) & (CACHE_SLOTS - 1), len;
	char *to;

	if (!from)
		return NULL;
	if (s->from[slot] == from)
		return s->to[slot];
	len = strlen(from) + 1;
	to = strings_room(s, len);
	memcpy(to, from, len);
	s->from[slot] = from;
	s->to[slot] = to;
	return to;
}

void snapcopy_init(struct snapcopy *c)
{
	memset(c, 0, sizeof(*c));
	c->strings = xcalloc(1, sizeof(*c->strings));
}

void snapcopy_free(struct snapcopy *c)
{
	struct chunk *ch = c->strings ? c->strings->first : NULL;

	while (ch) {
		struct chunk *next = ch->next;

		free(ch);
		ch = next;
	}
	free(c->strings);
	free(c->rows);
	free(c->cgroup_rows);
	free(c->acc);
	free(c->nodes);
	free(c->facts);
	free(c->lat);
	free(c->hist);
	free(c->lists);
	free(c->stacks);
	free(c->frames);
	memset(c, 0, sizeof(*c));
}

/* A row's strings (rowfield.h), copied. */
static void copy_row_strings(struct snapcopy_strings *s, struct row *r)
{
#define ROW_STRING_COPY(member, none) r->member = copy_string(s, r->member);
	ROW_STRINGS(ROW_STRING_COPY)
#undef ROW_STRING_COPY
}

/* Room for the waits of the rows of src (row.lat): one struct lat_waits and its histograms each. */
static void lat_room(struct snapcopy *c, const struct snapshot *src)
{
	size_t nlat = 0, nhist = 0;

	for (int cg = 0; cg < 2; cg++) {
		const struct row *rows = cg ? src->cgroup_rows : src->rows;
		size_t n = cg ? src->ncgroup_rows : src->nrows;

		for (size_t i = 0; i < n; i++)
			if (rows[i].lat) {
				nlat++;
				nhist += (size_t)__builtin_popcount(rows[i].lat->kinds);
			}
	}
	c->lat = xgrow(c->lat, &c->caplat, nlat ? nlat : 1, sizeof(*c->lat));
	c->hist = xgrow(c->hist, &c->caphist, nhist ? nhist : 1, sizeof(*c->hist));
	c->nlat = c->nhist = 0;
}

/* A row's waits, copied into the room lat_room made. */
static void copy_lat(struct snapcopy *c, struct row *r)
{
	struct lat_waits *w;
	size_t nh;

	if (!r->lat)
		return;
	w = &c->lat[c->nlat++];
	*w = *r->lat;
	nh = (size_t)__builtin_popcount(w->kinds);
	if (nh)
		memcpy(&c->hist[c->nhist], w->h, nh * sizeof(*c->hist));
	w->h = &c->hist[c->nhist];
	c->nhist += nh;
	r->lat = w;
}

/* Whether r's stacks are copied: it is the task whose stacks are (c->stacks_of), or every row's
 * are (c->all_stacks). */
static int stacks_wanted(const struct snapcopy *c, const struct row *r, int threads)
{
	if (!r->stacks || r->departed)
		return 0;
	return c->all_stacks || (c->stacks_of && (threads ? r->tid : r->pid) == c->stacks_of);
}

/* Room for the stacks of the rows of src that are copied, their lists and frames. */
static void stacks_room(struct snapcopy *c, const struct snapshot *src)
{
	size_t nlists = 0, nstacks = 0, nframes = 0;

	for (size_t i = 0; i < src->nrows; i++) {
		const struct stk_list *l = src->rows[i].stacks;

		if (!stacks_wanted(c, &src->rows[i], src->threads))
			continue;
		nlists++;
		nstacks += l->n;
		for (size_t j = 0; j < l->n; j++)
			nframes += l->s[j].nframes;
	}
	c->lists = xgrow(c->lists, &c->caplists, nlists + 1, sizeof(*c->lists));
	c->stacks = xgrow(c->stacks, &c->capstacks, nstacks + 1, sizeof(*c->stacks));
	c->frames = xgrow(c->frames, &c->capframes, nframes + 1, sizeof(*c->frames));
	c->nlists = c->nstacks = c->nframes = 0;
}

/* The stacks of r into the room stacks_room made, when they are copied; else none. */
static void copy_stacks(struct snapcopy *c, struct row *r, int threads)
{
	const struct stk_list *from = r->stacks;
	struct stk_list *to;

	if (!stacks_wanted(c, r, threads)) {
		r->stacks = NULL;
		return;
	}
	to = &c->lists[c->nlists++];
	to->n = from->n;
	to->s = &c->stacks[c->nstacks];
	for (size_t i = 0; i < from->n; i++) {
		struct stk_stack *s = &c->stacks[c->nstacks++];

		*s = from->s[i];
		for (size_t f = 0; f < s->nframes; f++)
			c->frames[c->nframes + f] = copy_string(c->strings, s->frames[f]);
		s->frames = c->frames + c->nframes;
		c->nframes += s->nframes;
	}
	r->stacks = to;
}

/* The task rows, with their totals (totals): rows in a row that point to the same totals (the
 * zero ones of tasks still since the start, tasktable.h) share one copy, so that a screen of
 * mostly still threads copies few. */
static void copy_task_rows(struct snapcopy *c, const struct snapshot *src, int totals)
{
	const struct kind_totals *from = NULL;
	size_t n = src->nrows, nacc = 0;

	c->rows = xgrow(c->rows, &c->caprows, n, sizeof(*c->rows));
	if (totals)
		c->acc = xgrow(c->acc, &c->capacc, n, sizeof(*c->acc));
	if (n && c->rows != src->rows) /* made in place: snapcopy_take_made */
		memcpy(c->rows, src->rows, n * sizeof(*c->rows));
	for (size_t i = 0; i < n; i++) {
		struct row *r = &c->rows[i];

		if (i + PREFETCH_AHEAD < n) /* the tasks are spread over the heap: ask for them early */
			__builtin_prefetch(c->rows[i + PREFETCH_AHEAD].comm);
		copy_row_strings(c->strings, r);
		if (!totals) {
			r->acc = NULL;
		} else if (r->acc) {
			if (r->acc != from) {
				from = r->acc;
				c->acc[nacc++] = *from;
			}
			r->acc = &c->acc[nacc - 1];
		}
		r->cg = NULL; /* task rows have none */
		r->base = r->last = NULL; /* the readings stay the sampler's */
		r->acct = NULL;
		r->peak = NULL;
		copy_stacks(c, r, src->threads);
		copy_lat(c, r);
	}
	c->snap.rows = c->rows;
}

/* A cgroup row points to its node, the node to its facts: each is copied to the row's index. */
static void copy_cgroup_rows(struct snapcopy *c, const struct snapshot *src)
{
	size_t n = src->ncgroup_rows;

	c->cgroup_rows = xgrow(c->cgroup_rows, &c->capcgroup_rows, n, sizeof(*c->cgroup_rows));
	if (c->capnodes < n) {
		size_t cap = c->capnodes;

		c->nodes = xgrow(c->nodes, &c->capnodes, n, sizeof(*c->nodes));
		c->facts = xgrow(c->facts, &cap, n, sizeof(*c->facts));
	}
	if (n)
		memcpy(c->cgroup_rows, src->cgroup_rows, n * sizeof(*c->cgroup_rows));
	for (size_t i = 0; i < n; i++) {
		struct row *r = &c->cgroup_rows[i];

		copy_row_strings(c->strings, r);
		copy_lat(c, r);
		if (r->cg) {
			struct cgroup_node *node = &c->nodes[i];

			*node = *r->cg;
			node->path = copy_string(c->strings, node->path);
			node->name = strings_room(c->strings, strlen(r->cg->name) + 1);
			strcpy((char *)node->name, r->cg->name);
			if (node->facts) {
				c->facts[i] = *node->facts;
				c->facts[i].path = (char *)copy_string(c->strings, node->facts->path);
				node->facts = &c->facts[i];
			}
			r->cg = node;
			r->acc = &node->acc;
		} else if (r->acc) {
			r->acc = NULL; /* a cgroup row's totals are its node's */
		}
	}
	c->snap.cgroup_rows = c->cgroup_rows;
}

void snapcopy_take(struct snapcopy *c, const struct snapshot *src, int totals)
{
	strings_reset(c->strings);
	c->snap = *src;
	c->snap.events = src->events ? copy_string(c->strings, src->events) : NULL;
	c->snap.why.reason = copy_string(c->strings, src->why.reason);
	lat_room(c, src);
	stacks_room(c, src);
	copy_task_rows(c, src, totals);
	copy_cgroup_rows(c, src);
}

void snapcopy_take_made(struct snapcopy *c, struct sampler *s, const struct snapshot *src, int totals)
{
	struct snapshot made = *src;
	struct rowbuf b = { c->rows, c->caprows };

	if (sampler_rows(s, &made, &b)) {
		c->rows = b.rows;
		c->caprows = b.cap;
	}
	snapcopy_take(c, &made, totals);
}
