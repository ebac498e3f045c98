/* xalloc.h — allocation that never returns NULL: out of memory ends the program. */
#ifndef DELAYTOP_XALLOC_H
#define DELAYTOP_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
/* Grows an array of n items of size each to at least need items; returns the new capacity. */
void *xgrow(void *p, size_t *cap, size_t need, size_t size);
char *xstrdup(const char *s);

#endif
