/* test_symcache.c — the user frame names' cache: a hit gives back what was put, a miss is a miss,
 * the same address under another build id is another key, a "no symbol" is kept as such, and the
 * bounds (entries, bytes) clear the cache instead of growing it. */
#include "config.h"

#include <string.h>

#include "symcache.h"
#include "tap.h"

static const unsigned char ID_A[20] = { 0xa1, 0xa2, 0xa3 };
static const unsigned char ID_B[20] = { 0xb1, 0xb2, 0xb3 };

int main(void)
{
	struct symcache *c = symcache_new(4, 64);
	struct symcache_stats st;
	const char *name = "x";
	uint64_t off = 99;
	char big[100];

	ok(!symcache_find(c, ID_A, sizeof(ID_A), 0x1130, &name, &off), "an empty cache has nothing");
	symcache_put(c, ID_A, sizeof(ID_A), 0x1130, "wait_on_pipe", 0x12);
	ok(symcache_find(c, ID_A, sizeof(ID_A), 0x1130, &name, &off) && name && !strcmp(name, "wait_on_pipe") &&
		   off == 0x12,
	   "a hit gives the name and offset put (got %s+0x%llx)", name ? name : "(none)", (unsigned long long)off);
	ok(!symcache_find(c, ID_B, sizeof(ID_B), 0x1130, &name, &off), "the same address of another build id is a miss");
	ok(!symcache_find(c, ID_A, sizeof(ID_A), 0x1131, &name, &off), "another address of the same build id is a miss");
	ok(!symcache_find(c, ID_A, 19, 0x1130, &name, &off), "a shorter id (its prefix) is another key");
	symcache_put(c, ID_B, sizeof(ID_B), 0x1130, NULL, 0);
	name = "x";
	ok(symcache_find(c, ID_B, sizeof(ID_B), 0x1130, &name, &off) && name == NULL, "\"no symbol\" is kept as such");
	symcache_put(c, NULL, 0, 0x1, "nameless", 1);
	ok(!symcache_find(c, NULL, 0, 0x1, &name, &off), "no build id: nothing kept");
	symcache_stats(c, &st);
	is_int(st.entries, 2, "two entries");
	is_int(st.hits, 2, "two hits counted");
	is_int(st.misses, 4, "four misses counted (the id-less lookup is not one)");
	is_int(st.bytes, strlen("wait_on_pipe") + 1, "the bytes of the names");

	/* the entry bound: the fifth entry clears the four */
	symcache_put(c, ID_A, sizeof(ID_A), 0x2000, "b", 1);
	symcache_put(c, ID_A, sizeof(ID_A), 0x3000, "c", 1);
	symcache_put(c, ID_A, sizeof(ID_A), 0x4000, "d", 1);
	symcache_stats(c, &st);
	is_int(st.clears, 1, "the fifth entry clears a cache of four");
	is_int(st.entries, 1, "and is then its only entry");
	ok(!symcache_find(c, ID_A, sizeof(ID_A), 0x1130, &name, &off), "what was there is gone");
	ok(symcache_find(c, ID_A, sizeof(ID_A), 0x4000, &name, &off) && name && !strcmp(name, "d"),
	   "the new entry is found");

	/* the byte bound: names that would pass 64 bytes clear it; one longer than all is not kept */
	memset(big, 'n', 40);
	big[40] = '\0';
	symcache_put(c, ID_B, sizeof(ID_B), 0x5000, big, 1);
	symcache_put(c, ID_B, sizeof(ID_B), 0x6000, big, 2);
	symcache_stats(c, &st);
	is_int(st.clears, 2, "names past the byte budget clear the cache");
	ok(st.bytes <= 64, "the names stay within their budget (%zu bytes)", st.bytes);
	ok(symcache_find(c, ID_B, sizeof(ID_B), 0x6000, &name, &off) && off == 2 && !strcmp(name, big),
	   "the name that cleared it is kept whole");
	memset(big, 'n', 99);
	big[99] = '\0';
	symcache_put(c, ID_B, sizeof(ID_B), 0x7000, big, 3);
	ok(!symcache_find(c, ID_B, sizeof(ID_B), 0x7000, &name, &off), "a name longer than the budget is not kept");
	symcache_stats(c, &st);
	is_int(st.clears, 2, "and clears nothing");

	/* many keys in a large cache: each found with its own value (probing) */
	symcache_free(c);
	c = symcache_new(1000, 1 << 16);
	for (unsigned i = 0; i < 1000; i++) {
		char n[16];

		snprintf(n, sizeof(n), "f%u", i);
		symcache_put(c, (i & 1) ? ID_A : ID_B, 20, 0x1000 + i / 2, n, i);
	}
	int bad = 0;
	for (unsigned i = 0; i < 1000; i++) {
		char n[16];

		snprintf(n, sizeof(n), "f%u", i);
		if (!symcache_find(c, (i & 1) ? ID_A : ID_B, 20, 0x1000 + i / 2, &name, &off) || off != i ||
		    strcmp(name, n))
			bad++;
	}
	is_int(bad, 0, "1000 keys over two build ids: each found with its own name");
	symcache_free(c);
	return tap_done();
}
