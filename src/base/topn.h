/* topn.h — keeps the n items with the largest keys offered so far, in a min-heap. Pure code. */
#ifndef DELAYTOP_TOPN_H
#define DELAYTOP_TOPN_H

#include <stddef.h>
#include <stdint.h>

struct topn {
	void **item;   /* item[0..len), a min-heap by key: item[0] has the smallest */
	uint64_t *key;
	size_t len, cap, max;
};

void topn_init(struct topn *h, size_t max);
/* Frees the heap, not the items. */
void topn_free(struct topn *h);

/* Offers item with key. Returns the item that is not kept, for the caller to sum up and free:
 * the smallest kept one that the offered one pushed out, the offered one itself when its key is
 * not larger than the smallest kept one of a full heap (max 0 keeps nothing), or NULL. */
void *topn_offer(struct topn *h, void *item, uint64_t key);

#endif
