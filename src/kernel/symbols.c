/* symbols.c — frame names from kallsyms and the processes' ELF files (see symbols.h). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stacks.h"
#include "symbols.h"
#include "symcache.h"
#include "xalloc.h"

#if HAVE_LIBDW
#include <elfutils/libdwfl.h>
#endif

/* One process's session. */
struct proc_syms {
	uint32_t tgid;
	int used;  /* since the last sweep */
	int fresh; /* its maps were read since the last sweep */
#if HAVE_LIBDW
	Dwfl *dwfl; /* NULL: its maps could not be read */
#endif
};

struct symbols {
	int kernel_read;     /* kallsyms was read (or tried) */
	struct stk_sym *ksyms;
	size_t nksyms;
	char *knames;        /* the names, one after another */
	struct proc_syms procs[SYMBOLS_MAX_PROCS];
	size_t nprocs;
	struct symcache *names; /* user frames' names per build id */
};

struct symbols *symbols_open(void)
{
	struct symbols *sy = xcalloc(1, sizeof(struct symbols));

	sy->names = symcache_new(SYMBOLS_CACHE_ENTRIES, SYMBOLS_CACHE_BYTES);
	return sy;
}

/* ---- the kernel ---- */

/* Reads the text symbols of /proc/kallsyms, sorted. Addresses all 0 (kptr_restrict) leave the
 * table empty. */
static void kernel_read(struct symbols *sy)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	size_t cap = 0, capn = 0, lenn = 0;
	char line[512];

	sy->kernel_read = 1;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256];
		size_t len;

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 || !addr)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		len = strlen(name) + 1;
		if (lenn + len > capn) {
			capn = capn ? 2 * capn : 1 << 20;
			sy->knames = xrealloc(sy->knames, capn);
		}
		memcpy(sy->knames + lenn, name, len);
		if (sy->nksyms == cap) {
			cap = cap ? 2 * cap : 1 << 16;
			sy->ksyms = xrealloc(sy->ksyms, cap * sizeof(*sy->ksyms));
		}
		/* the name's offset for now: knames may move as it grows */
		sy->ksyms[sy->nksyms].addr = addr;
		sy->ksyms[sy->nksyms++].name = (const char *)(uintptr_t)lenn;
		lenn += len;
	}
	fclose(f);
	for (size_t i = 0; i < sy->nksyms; i++)
		sy->ksyms[i].name = sy->knames + (uintptr_t)sy->ksyms[i].name;
	stk_syms_sort(sy->ksyms, sy->nksyms);
}

const char *symbols_kernel(struct symbols *sy, uint64_t addr, char *buf, size_t size)
{
	const struct stk_sym *s;

	if (!sy->kernel_read)
		kernel_read(sy);
	/* a return address: the call is the byte before it */
	s = stk_syms_find(sy->ksyms, sy->nksyms, addr - 1);
	return stk_frame_format(buf, size, s ? s->name : NULL, s ? addr - s->addr : 0, NULL, 0, addr);
}

/* ---- processes ---- */

#if HAVE_LIBDW

static char *debuginfo_path; /* none: only what the files carry */
static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

/* The process's maps with each file's path under /proc/TGID/root, the process's own root; a
 * deleted file keeps its path with " (deleted)", which names no file: its frames are named by
 * module and offset. Returns a malloc'd text, or NULL. */
static char *maps_rooted(uint32_t tgid, size_t *len)
{
	char path[64], line[4096], *out = NULL;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/maps", tgid);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	*len = 0;
	while (fgets(line, sizeof(line), f)) {
		char *file = strchr(line, '/');
		size_t need = strlen(line) + 32;

		if (*len + need + 1 > cap) {
			cap = (*len + need + 1) * 2;
			out = xrealloc(out, cap);
		}
		if (file)
			*len += (size_t)snprintf(out + *len, cap - *len, "%.*s/proc/%u/root%s", (int)(file - line), line,
						 tgid, file);
		else
			*len += (size_t)snprintf(out + *len, cap - *len, "%s", line);
	}
	fclose(f);
	return out;
}

static Dwfl *proc_report(uint32_t tgid)
{
	size_t len = 0;
	char *maps = maps_rooted(tgid, &len);
	FILE *f = maps && len ? fmemopen(maps, len, "r") : NULL;
	Dwfl *d = f ? dwfl_begin(&callbacks) : NULL;

	if (d) {
		dwfl_report_begin(d);
		if (dwfl_linux_proc_maps_report(d, f) != 0) {
			dwfl_end(d);
			d = NULL;
		} else {
			dwfl_report_end(d, NULL, NULL);
		}
	}
	if (f)
		fclose(f);
	free(maps);
	return d;
}

static void proc_drop(struct proc_syms *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	p->dwfl = NULL;
}

/* The last part of a module's name, without the /proc/TGID/root it was read through. */
static const char *module_base(const char *name)
{
	const char *slash = name ? strrchr(name, '/') : NULL;

	return slash ? slash + 1 : name;
}

/* The symbol that covers addr in mod (NULL: none) and the offset in it. */
static const char *module_symbol(Dwfl_Module *mod, uint64_t addr, GElf_Off *off)
{
	GElf_Sym sym;
	const char *name = dwfl_module_addrinfo(mod, addr, off, &sym, NULL, NULL, NULL);

	/* only a symbol whose size covers the address names it */
	return name && sym.st_size != 0 && *off < sym.st_size ? name : NULL;
}

/* As module_symbol, through the cache when the file that libdwfl opened for mod has a build id:
 * the key is that file's content and the address in it (less the load bias), so that processes of
 * one binary, at any base, share it. A file libdwfl could not open (a deleted one) has none. */
static const char *module_symbol_cached(struct symcache *names, Dwfl_Module *mod, uint64_t addr, GElf_Off *off)
{
	const unsigned char *id = NULL;
	const char *name;
	Dwarf_Addr bias = 0;
	GElf_Addr idaddr;
	uint64_t o;
	int idlen;

	if (!dwfl_module_getelf(mod, &bias) || (idlen = dwfl_module_build_id(mod, &id, &idaddr)) <= 0)
		return module_symbol(mod, addr, off);
	if (symcache_find(names, id, (size_t)idlen, addr - bias, &name, &o)) {
		*off = o;
		return name;
	}
	name = module_symbol(mod, addr, off);
	symcache_put(names, id, (size_t)idlen, addr - bias, name, *off);
	return name;
}

static const char *proc_name(struct symcache *names, struct proc_syms *p, uint64_t addr, char *buf, size_t size)
{
	Dwfl_Module *mod = p->dwfl ? dwfl_addrmodule(p->dwfl, addr - 1) : NULL;
	Dwarf_Addr start = 0;
	const char *mname, *name = NULL;
	GElf_Off off = 0;

	if (!mod && !p->fresh) { /* mapped since its maps were read (dlopen): read them again */
		proc_drop(p);
		p->dwfl = proc_report(p->tgid);
		p->fresh = 1;
		mod = p->dwfl ? dwfl_addrmodule(p->dwfl, addr - 1) : NULL;
	}
	if (!mod)
		return stk_frame_format(buf, size, NULL, 0, NULL, 0, addr);
	mname = dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
	name = module_symbol_cached(names, mod, addr - 1, &off);
	return stk_frame_format(buf, size, name, off + 1, module_base(mname), addr - start, addr);
}

static int load_module(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr start, void *arg)
{
	(void)userdata;
	(void)name;
	(void)start;
	(void)arg;
	dwfl_module_getsymtab(mod); /* opens the file and reads its symbols */
	return DWARF_CB_OK;
}

static void proc_warm(struct proc_syms *p)
{
	if (p->dwfl)
		dwfl_getmodules(p->dwfl, load_module, NULL, 0);
}

#else

static void proc_warm(struct proc_syms *p)
{
	(void)p;
}

static void proc_drop(struct proc_syms *p)
{
	(void)p;
}

static const char *proc_name(struct symcache *names, struct proc_syms *p, uint64_t addr, char *buf, size_t size)
{
	(void)names;
	(void)p;
	return stk_frame_format(buf, size, NULL, 0, NULL, 0, addr);
}

#endif

/* The session of tgid, made if need be (the least used one makes room). */
static struct proc_syms *proc_of(struct symbols *sy, uint32_t tgid)
{
	struct proc_syms *p = NULL;

	for (size_t i = 0; i < sy->nprocs; i++)
		if (sy->procs[i].tgid == tgid)
			return &sy->procs[i];
	if (sy->nprocs < SYMBOLS_MAX_PROCS) {
		p = &sy->procs[sy->nprocs++];
	} else {
		p = &sy->procs[0];
		for (size_t i = 1; i < sy->nprocs && p->used; i++)
			p = &sy->procs[i];
		proc_drop(p);
	}
	memset(p, 0, sizeof(*p));
	p->tgid = tgid;
#if HAVE_LIBDW
	p->dwfl = proc_report(tgid);
#endif
	p->fresh = 1;
	return p;
}

const char *symbols_user(struct symbols *sy, uint32_t tgid, uint64_t addr, char *buf, size_t size)
{
	struct proc_syms *p = proc_of(sy, tgid);

	p->used = 1;
	return proc_name(sy->names, p, addr, buf, size);
}

void symbols_warm(struct symbols *sy, uint32_t tgid)
{
	struct proc_syms *p = proc_of(sy, tgid);

	if (!p->used)
		proc_warm(p); /* once a sweep: a session keeps what it opened */
	p->used = 1;
}

void symbols_sweep(struct symbols *sy)
{
	size_t kept = 0;

	for (size_t i = 0; i < sy->nprocs; i++) {
		if (!sy->procs[i].used) {
			proc_drop(&sy->procs[i]);
			continue;
		}
		sy->procs[i].used = 0;
		sy->procs[i].fresh = 0;
		sy->procs[kept++] = sy->procs[i];
	}
	sy->nprocs = kept;
}

void symbols_cache_stats(const struct symbols *sy, struct symcache_stats *st)
{
	symcache_stats(sy->names, st);
}

void symbols_close(struct symbols *sy)
{
	if (!sy)
		return;
	for (size_t i = 0; i < sy->nprocs; i++)
		proc_drop(&sy->procs[i]);
	free(sy->ksyms);
	free(sy->knames);
	symcache_free(sy->names);
	free(sy);
}
