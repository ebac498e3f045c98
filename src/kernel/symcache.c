/* symcache.c — user frame names per build id and address (see symcache.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "symcache.h"
#include "xalloc.h"

struct entry {
	uint64_t addr;
	uint64_t off;
	size_t name;  /* offset in names + 1; 0: no symbol */
	uint8_t idlen; /* 0: a free slot */
	unsigned char id[SYMCACHE_ID_MAX];
};

struct symcache {
	struct entry *slots; /* open addressing, twice max_entries, a power of two */
	size_t nslots, max_entries, max_bytes;
	char *names;         /* the names, one after another, each with its NUL */
	size_t used, cap;    /* of names */
	struct symcache_stats st;
};

struct symcache *symcache_new(size_t max_entries, size_t max_bytes)
{
	struct symcache *c = xcalloc(1, sizeof(*c));

	c->max_entries = max_entries ? max_entries : 1;
	c->max_bytes = max_bytes;
	c->nslots = 2;
	while (c->nslots < 2 * c->max_entries)
		c->nslots *= 2;
	c->slots = xcalloc(c->nslots, sizeof(*c->slots));
	return c;
}

void symcache_free(struct symcache *c)
{
	if (!c)
		return;
	free(c->slots);
	free(c->names);
	free(c);
}

/* FNV-1a over the build id and the address */
static size_t key_hash(const unsigned char *id, size_t idlen, uint64_t addr)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < idlen; i++)
		h = (h ^ id[i]) * 1099511628211ULL;
	for (int i = 0; i < 8; i++)
		h = (h ^ ((addr >> (8 * i)) & 0xff)) * 1099511628211ULL;
	return (size_t)h;
}

/* The slot of the key, or the free slot where it would go */
static struct entry *slot_of(struct symcache *c, const unsigned char *id, size_t idlen, uint64_t addr)
{
	size_t i = key_hash(id, idlen, addr) & (c->nslots - 1);

	for (;;) {
		struct entry *e = &c->slots[i];

		if (!e->idlen || (e->addr == addr && e->idlen == idlen && !memcmp(e->id, id, idlen)))
			return e;
		i = (i + 1) & (c->nslots - 1);
	}
}

int symcache_find(struct symcache *c, const unsigned char *id, size_t idlen, uint64_t addr, const char **name,
		  uint64_t *off)
{
	struct entry *e;

	if (!idlen || idlen > SYMCACHE_ID_MAX)
		return 0;
	e = slot_of(c, id, idlen, addr);
	if (!e->idlen) {
		c->st.misses++;
		return 0;
	}
	c->st.hits++;
	*name = e->name ? c->names + e->name - 1 : NULL;
	*off = e->off;
	return 1;
}

static void cache_clear(struct symcache *c)
{
	memset(c->slots, 0, c->nslots * sizeof(*c->slots));
	c->used = 0;
	c->st.entries = 0;
	c->st.bytes = 0;
	c->st.clears++;
}

void symcache_put(struct symcache *c, const unsigned char *id, size_t idlen, uint64_t addr, const char *name,
		  uint64_t off)
{
	size_t len = name ? strlen(name) + 1 : 0;
	struct entry *e;

	if (!idlen || idlen > SYMCACHE_ID_MAX || len > c->max_bytes)
		return;
	e = slot_of(c, id, idlen, addr);
	if (e->idlen)
		return; /* known already */
	if (c->st.entries >= c->max_entries || c->used + len > c->max_bytes) {
		cache_clear(c);
		e = slot_of(c, id, idlen, addr);
	}
	if (c->used + len > c->cap) {
		c->cap = c->used + len > 2 * c->cap ? c->used + len : 2 * c->cap;
		if (c->cap > c->max_bytes)
			c->cap = c->max_bytes;
		c->names = xrealloc(c->names, c->cap);
	}
	e->addr = addr;
	e->off = off;
	e->idlen = (uint8_t)idlen;
	memcpy(e->id, id, idlen);
	e->name = 0;
	if (name) {
		memcpy(c->names + c->used, name, len);
		e->name = c->used + 1;
		c->used += len;
	}
	c->st.entries++;
	c->st.bytes = c->used;
}

void symcache_stats(const struct symcache *c, struct symcache_stats *st)
{
	*st = c->st;
}
