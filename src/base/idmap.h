/* idmap.h — a hash map from a non-zero 32-bit id (pid, tid) to a pointer. Pure code. */
#ifndef DELAYTOP_IDMAP_H
#define DELAYTOP_IDMAP_H

#include <stddef.h>
#include <stdint.h>

struct idmap {
	uint32_t *keys; /* 0 marks a free slot */
	void **vals;
	size_t cap;     /* a power of two, or 0 */
	size_t len;
};

void idmap_init(struct idmap *m);
void idmap_free(struct idmap *m);
void *idmap_get(const struct idmap *m, uint32_t id);
/* Inserts or replaces. */
void idmap_put(struct idmap *m, uint32_t id, void *val);
/* Removes id; returns its value, or NULL when absent. */
void *idmap_del(struct idmap *m, uint32_t id);

/* Iteration: for (size_t i = 0; idmap_next(m, &i, &id, &val);) ... Do not insert while iterating.
 * Deleting the entry just returned and then stepping back (pos--) loses and skips nothing, but an
 * entry that deletion moved may then be visited twice: the caller must not mind. */
int idmap_next(const struct idmap *m, size_t *pos, uint32_t *id, void **val);

#endif
