/* symcache.h — the names of user frames, kept per file content: keyed by a file's build id and
 * the address in that file (the ELF's own address, the same at any load base), so that the
 * processes of one binary share one lookup instead of each reading the file's symbol table. An
 * entry holds the symbol's name and the offset in it, or that no symbol covers the address.
 * Pure: no I/O.
 *
 * Bounded: at most max_entries entries and max_bytes bytes of names; when either is reached, the
 * cache is cleared and starts again (frames repeat, so the hot ones come back at once). */
#ifndef DELAYTOP_SYMCACHE_H
#define DELAYTOP_SYMCACHE_H

#include <stddef.h>
#include <stdint.h>

#define SYMCACHE_ID_MAX 32 /* longer build ids are not cached (GNU ld's are 20 bytes) */

struct symcache;

struct symcache_stats {
	size_t entries;
	size_t bytes; /* of names */
	uint64_t hits, misses, clears;
};

struct symcache *symcache_new(size_t max_entries, size_t max_bytes);
void symcache_free(struct symcache *c);

/* 1 with *name (NULL: no symbol covers the address; else valid until the next symcache_put) and
 * *off, or 0: not known. */
int symcache_find(struct symcache *c, const unsigned char *id, size_t idlen, uint64_t addr, const char **name,
		  uint64_t *off);
/* Keeps addr's name (NULL: none) and offset under the build id; an empty or too long id, or a
 * name longer than the whole budget, is not kept. */
void symcache_put(struct symcache *c, const unsigned char *id, size_t idlen, uint64_t addr, const char *name,
		  uint64_t off);
void symcache_stats(const struct symcache *c, struct symcache_stats *st);

#endif
