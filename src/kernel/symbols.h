/* symbols.h — the names of the frames of off-CPU stacks (--why): kernel frames from
 * /proc/kallsyms, user frames from the ELF symbol tables of the files a process maps (elfutils'
 * libdwfl), read through the process's own root (/proc/PID/root) so that a container's files are
 * its own. A frame that cannot be named shows its module and offset, or its address: never a
 * wrong name (a symbol whose size does not cover the address names nothing; a deleted file is not
 * opened by its old path).
 *
 * Cost: the kernel's table (about 150,000 text symbols, some 6 MB) is read once, at the first
 * kernel frame; each process whose frames are named keeps a libdwfl session (its maps and the
 * symbol tables of the files it opened) until a sweep finds it unused, and at most
 * SYMBOLS_MAX_PROCS are kept. A user frame's name is kept per build id and address in the file
 * (symcache.h): the first process of a binary reads the file's symbol table, the others of the
 * same binary only open the file (its ELF header and build id) and find the name there. The cache
 * holds at most SYMBOLS_CACHE_ENTRIES names in SYMBOLS_CACHE_BYTES of text (a table of 1 MB
 * and up to 1 MB of names, their pages touched as frames fill them) and is cleared when full.
 * A build without libdw names user frames by module and offset. */
#ifndef DELAYTOP_SYMBOLS_H
#define DELAYTOP_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#define SYMBOLS_MAX_PROCS 64
#define SYMBOLS_CACHE_ENTRIES 8192
#define SYMBOLS_CACHE_BYTES (1 << 20)

struct symbols;
struct symcache_stats;

struct symbols *symbols_open(void);
void symbols_close(struct symbols *sy);

/* A kernel frame's name into buf ("pipe_read+0x1f", or "[unknown] 0xADDR" where kallsyms hides
 * the addresses); returns buf. */
const char *symbols_kernel(struct symbols *sy, uint64_t addr, char *buf, size_t size);
/* A user frame of process tgid ("main+0x2a", "libc.so.6+0x11e8a", "[unknown] 0xADDR"). */
const char *symbols_user(struct symbols *sy, uint32_t tgid, uint64_t addr, char *buf, size_t size);
/* Opens the files process tgid maps and reads their symbol tables now, while it lives, so that its
 * frames can be named after it ended (command mode: a process that exits right after a wait). */
void symbols_warm(struct symbols *sy, uint32_t tgid);
/* The user frame names' cache: entries, bytes, hits, misses, clears (symcache.h). */
void symbols_cache_stats(const struct symbols *sy, struct symcache_stats *st);
/* Forgets the processes none of whose frames were named since the last sweep. */
void symbols_sweep(struct symbols *sy);

#endif
