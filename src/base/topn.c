/* topn.c — a bounded min-heap: the n largest keys seen. */
#include "config.h"

#include <stdlib.h>

#include "topn.h"
#include "xalloc.h"

void topn_init(struct topn *h, size_t max)
{
	h->item = NULL;
	h->key = NULL;
	h->len = h->cap = 0;
	h->max = max;
}

void topn_free(struct topn *h)
{
	free(h->item);
	free(h->key);
	topn_init(h, h->max);
}

static void topn_set(struct topn *h, size_t i, void *item, uint64_t key)
{
	h->item[i] = item;
	h->key[i] = key;
}

/* Moves the entry at i down until its children are not smaller. */
static void sift_down(struct topn *h, size_t i)
{
	void *item = h->item[i];
	uint64_t key = h->key[i];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= h->len)
			break;
		if (c + 1 < h->len && h->key[c + 1] < h->key[c])
			c++;
		if (h->key[c] >= key)
			break;
		topn_set(h, i, h->item[c], h->key[c]);
		i = c;
	}
	topn_set(h, i, item, key);
}

void *topn_offer(struct topn *h, void *item, uint64_t key)
{
	void *out;

	if (h->len < h->max) {
		size_t cap = h->cap, i = h->len++;

		h->item = xgrow(h->item, &cap, h->len, sizeof(*h->item));
		h->key = xgrow(h->key, &h->cap, h->len, sizeof(*h->key));
		while (i > 0 && h->key[(i - 1) / 2] > key) {
			topn_set(h, i, h->item[(i - 1) / 2], h->key[(i - 1) / 2]);
			i = (i - 1) / 2;
		}
		topn_set(h, i, item, key);
		return NULL;
	}
	if (h->len == 0 || key <= h->key[0])
		return item;
	out = h->item[0];
	topn_set(h, 0, item, key);
	sift_down(h, 0);
	return out;
}
