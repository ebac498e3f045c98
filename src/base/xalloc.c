/* xalloc.c — the one place that handles running out of memory. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static void *check(void *p)
{
	if (!p) {
		fputs("delaytop: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *xmalloc(size_t size)
{
	return check(malloc(size ? size : 1));
}

void *xcalloc(size_t n, size_t size)
{
	return check(calloc(n ? n : 1, size ? size : 1));
}

void *xrealloc(void *p, size_t size)
{
	return check(realloc(p, size ? size : 1));
}

void *xgrow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;

	if (need <= *cap)
		return p;
	while (n < need)
		n *= 2;
	if (n > SIZE_MAX / size)
		check(NULL);
	*cap = n;
	return xrealloc(p, n * size);
}

char *xstrdup(const char *s)
{
	return check(strdup(s));
}
