/* idmap.c — open addressing with linear probing and backward-shift deletion (no tombstones). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "idmap.h"
#include "xalloc.h"

void idmap_init(struct idmap *m)
{
	memset(m, 0, sizeof(*m));
}

void idmap_free(struct idmap *m)
{
	free(m->keys);
	free(m->vals);
	idmap_init(m);
}

static size_t slot_of(const struct idmap *m, uint32_t id)
{
	/* Fibonacci hashing: the high bits of the product depend on every bit of the id. */
	return (size_t)((uint32_t)(id * 2654435769u) >> (32 - __builtin_ctzl(m->cap)));
}

static size_t find(const struct idmap *m, uint32_t id)
{
	size_t i = slot_of(m, id);

	while (m->keys[i] != 0 && m->keys[i] != id)
		i = (i + 1) & (m->cap - 1);
	return i;
}

void *idmap_get(const struct idmap *m, uint32_t id)
{
	size_t i;

	if (m->cap == 0)
		return NULL;
	i = find(m, id);
	return m->keys[i] == id ? m->vals[i] : NULL;
}

static void grow(struct idmap *m)
{
	struct idmap bigger;

	bigger.cap = m->cap ? m->cap * 2 : 64;
	bigger.len = 0;
	bigger.keys = xcalloc(bigger.cap, sizeof(*bigger.keys));
	bigger.vals = xcalloc(bigger.cap, sizeof(*bigger.vals));
	for (size_t i = 0; i < m->cap; i++)
		if (m->keys[i])
			idmap_put(&bigger, m->keys[i], m->vals[i]);
	free(m->keys);
	free(m->vals);
	*m = bigger;
}

void idmap_put(struct idmap *m, uint32_t id, void *val)
{
	size_t i;

	if ((m->len + 1) * 4 > m->cap * 3) /* keep the load under 3/4 */
		grow(m);
	i = find(m, id);
	if (m->keys[i] == 0) {
		m->keys[i] = id;
		m->len++;
	}
	m->vals[i] = val;
}

void *idmap_del(struct idmap *m, uint32_t id)
{
	size_t i, j;
	void *val;

	if (m->cap == 0)
		return NULL;
	i = find(m, id);
	if (m->keys[i] != id)
		return NULL;
	val = m->vals[i];
	/* Shift back every later entry of the probe run that may sit in the freed slot. */
	for (j = (i + 1) & (m->cap - 1); m->keys[j]; j = (j + 1) & (m->cap - 1)) {
		size_t home = slot_of(m, m->keys[j]);

		if (((j - home) & (m->cap - 1)) >= ((j - i) & (m->cap - 1))) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			i = j;
		}
	}
	m->keys[i] = 0;
	m->vals[i] = NULL;
	m->len--;
	return val;
}

int idmap_next(const struct idmap *m, size_t *pos, uint32_t *id, void **val)
{
	while (*pos < m->cap) {
		size_t i = (*pos)++;

		if (m->keys[i]) {
			if (id)
				*id = m->keys[i];
			if (val)
				*val = m->vals[i];
			return 1;
		}
	}
	return 0;
}
