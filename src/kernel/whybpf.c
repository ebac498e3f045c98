/* whybpf.c — the eBPF side of --why: load, attach, read (see whybpf.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "whybpf.h"

#if HAVE_BPF

#include <linux/capability.h>
#if HAVE_MALLOC_TRIM
#include <malloc.h>
#endif
#include <stdarg.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "secure.h"
#include "whyabi.h" /* before the skeleton, which names its structs */
#include "why.skel.h"
#include "whymap.h"
#include "xalloc.h"

/* Where the running kernel shows its own BTF (CONFIG_DEBUG_INFO_BTF). */
#define KERNEL_BTF "/sys/kernel/btf/vmlinux"
/* Entries read from the kernel a call. */
#define READ_CHUNK 4096

/* The programs of a delayacct kind: the one at the start of its wait and the one at the end (the
 * IRQ kind has one, which is given the wait), by their names in why.bpf.c, and the kernel's
 * functions they attach to. */
struct dk_pair {
	int kind;
	const char *prog[2];
	const char *func[2];
};

static const struct dk_pair dk_pairs[] = {
	{ DK_SWAPIN, { "swapin_start", "swapin_end" }, { "__delayacct_swapin_start", "__delayacct_swapin_end" } },
	{ DK_RECLAIM, { "reclaim_start", "reclaim_end" }, { "__delayacct_freepages_start", "__delayacct_freepages_end" } },
	{ DK_THRASHING, { "thrashing_start", "thrashing_end" },
	  { "__delayacct_thrashing_start", "__delayacct_thrashing_end" } },
	{ DK_COMPACT, { "compact_start", "compact_end" }, { "__delayacct_compact_start", "__delayacct_compact_end" } },
	{ DK_WPCOPY, { "wpcopy_start", "wpcopy_end" }, { "__delayacct_wpcopy_start", "__delayacct_wpcopy_end" } },
	{ DK_IRQ, { "irq", NULL }, { "__delayacct_irq", NULL } },
};
#define NPAIRS (sizeof(dk_pairs) / sizeof(dk_pairs[0]))

/* The scheduler's programs: without them nothing is measured. */
static const char *const sched_progs[] = { "on_wakeup", "on_wakeup_new", "on_switch", "on_fork" };
#define NSCHED (sizeof(sched_progs) / sizeof(sched_progs[0]))
#define SCHED_KINDS ((lat_mask)(1u << DK_CPU | 1u << DK_IO | 1u << LAT_BLOCKED))

struct whybpf {
	struct why_bpf *skel;
	int stacks;      /* off-CPU stacks are taken of the selected tasks */
	uint32_t *sel;   /* the ids in why_select, sorted */
	size_t nsel;
	struct stk_batch stk; /* the last generation's stacks */
	uint64_t evicted;     /* stacks read after they made room for newer ones, since loading */
	struct why_off_key *okeys;
	struct why_off_val *ovals;
	struct bpf_link *links[NSCHED + 2 * NPAIRS];
	size_t nlinks;
	int gen; /* the generation the programs fill: 0 gen_a, 1 gen_b */
	struct why_key *keys;
	struct why_val *vals;
};

/* ---- what libbpf says ---- */

/* libbpf's messages of the last load, kept to name the program the verifier refused rather
 * than printed: libbpf has one printer for the process, and only the loading thread loads. */
static char libbpf_said[8192];
static size_t libbpf_len;

__attribute__((format(printf, 2, 0))) static int keep_libbpf_message(enum libbpf_print_level level, const char *fmt,
								     va_list ap)
{
	size_t room = sizeof(libbpf_said) - libbpf_len;
	int n;

	if (level == LIBBPF_DEBUG || room <= 1)
		return 0;
	n = vsnprintf(libbpf_said + libbpf_len, room, fmt, ap);
	if (n > 0)
		libbpf_len += (size_t)n < room ? (size_t)n : room - 1; /* cut short: the buffer is full */
	return 0;
}

/* The program libbpf said failed to load ("prog 'NAME': ... failed"), into name; 0, or -1. */
static int failed_program(char *name, size_t size)
{
	const char *p = libbpf_said, *found = NULL;

	while ((p = strstr(p, "prog '")) != NULL) {
		const char *eol = strchr(p, '\n');
		const char *fail = strstr(p, "failed");

		if (fail && (!eol || fail < eol))
			found = p + 6;
		p += 6;
	}
	if (!found || !strchr(found, '\''))
		return -1;
	snprintf(name, size, "%.*s", (int)(strchr(found, '\'') - found), found);
	return 0;
}

/* ---- before loading ---- */

/* Whether the effective capabilities allow loading tracing programs: CAP_BPF with CAP_PERFMON,
 * or CAP_SYS_ADMIN (which held both before Linux 5.8). When the kernel cannot say, the load
 * will. */
static int privileged(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct d[2];
	const int cap_sys_admin = 21, cap_perfmon = 38, cap_bpf = 39;

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d) < 0)
		return 1;
#define HAS(cap) ((d[(cap) / 32].effective >> ((cap) % 32)) & 1u)
	return HAS(cap_sys_admin) || (HAS(cap_bpf) && HAS(cap_perfmon));
#undef HAS
}

/* The kernel's BTF, or the file DELAYTOP_BTF names in a run that is not secure; NULL with the
 * sentence in err when there is none. *custom gets that file's name, or NULL. */
static struct btf *kernel_btf(const char **custom, char *err, size_t errlen)
{
	const char *path = secure_env("DELAYTOP_BTF");
	struct btf *btf;

	*custom = path && *path ? path : NULL;
	path = *custom ? *custom : KERNEL_BTF;
	btf = access(path, R_OK) == 0 ? btf__parse(path, NULL) : NULL;
	if (!btf)
		snprintf(err, errlen,
			 F_(N_("--why needs the kernel's BTF, and %s cannot be read (a kernel built without "
			       "CONFIG_DEBUG_INFO_BTF): wait latencies are not measured")),
			 path);
	return btf;
}

/* Whether the kernel's sched_switch tracepoint gives the state prev left in (Linux 5.18 on):
 * its BTF prototype has a fifth argument after the tracepoint's data, preempt, prev and next. */
static int switch_has_state(const struct btf *btf)
{
	int id = btf__find_by_name_kind(btf, "btf_trace_sched_switch", BTF_KIND_TYPEDEF);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, id) : NULL;

	if (t)
		t = btf__type_by_id(btf, t->type);
	if (t && btf_is_ptr(t))
		t = btf__type_by_id(btf, t->type);
	return t && btf_is_func_proto(t) && btf_vlen(t) >= 5;
}

/* The delayacct kinds whose kernel functions the BTF lacks. */
static lat_mask missing_functions(const struct btf *btf)
{
	lat_mask off = 0;

	for (size_t i = 0; i < NPAIRS; i++)
		for (int j = 0; j < 2; j++)
			if (dk_pairs[i].func[j] && btf__find_by_name_kind(btf, dk_pairs[i].func[j], BTF_KIND_FUNC) < 0)
				off |= (lat_mask)(1u << dk_pairs[i].kind);
	return off;
}

/* The delayacct kind of a program, or -1 for the scheduler's. */
static int kind_of_program(const char *name)
{
	for (size_t i = 0; i < NPAIRS; i++)
		for (int j = 0; j < 2; j++)
			if (dk_pairs[i].prog[j] && strcmp(dk_pairs[i].prog[j], name) == 0)
				return dk_pairs[i].kind;
	return -1;
}

/* ---- loading ---- */

static struct bpf_program *program(struct why_bpf *skel, const char *name)
{
	return bpf_object__find_program_by_name(skel->obj, name);
}

/* Without stacks wanted, their maps shrink to one entry (the stack map would otherwise take
 * several megabytes at once). */
static void size_stack_maps(struct why_bpf *skel, int stacks)
{
	if (stacks)
		return;
	bpf_map__set_max_entries(skel->maps.why_stacks, 1);
	bpf_map__set_max_entries(skel->maps.off_a, 1);
	bpf_map__set_max_entries(skel->maps.off_b, 1);
	bpf_map__set_max_entries(skel->maps.why_select, 1);
}

/* Opens and loads the skeleton without the programs of the kinds in off. Returns 0, or a
 * negative errno with libbpf's messages in libbpf_said. */
static int load(struct whybpf *w, const char *custom_btf, lat_mask off, int has_state)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .btf_custom_path = custom_btf);
	int rc;

	libbpf_len = 0;
	libbpf_said[0] = '\0';
	w->skel = why_bpf__open_opts(&opts);
	if (!w->skel)
		return errno ? -errno : -EINVAL;
	w->skel->rodata->has_prev_state = has_state != 0;
	size_stack_maps(w->skel, w->stacks);
	w->skel->rodata->follow_forks = (w->stacks & WHYBPF_FOLLOW_FORKS) != 0;
	for (size_t i = 0; i < NPAIRS; i++)
		for (int j = 0; j < 2; j++)
			if (dk_pairs[i].prog[j] && (off & (1u << dk_pairs[i].kind)))
				bpf_program__set_autoload(program(w->skel, dk_pairs[i].prog[j]), false);
	rc = why_bpf__load(w->skel);
	if (rc < 0) {
		why_bpf__destroy(w->skel);
		w->skel = NULL;
	}
	return rc;
}

/* Loads, leaving out the delayacct kinds whose programs the kernel refuses and trying again:
 * one the verifier refuses leaves out its kind; a refusal of the program type itself (fentry
 * needs the kernel's trampolines, which a kernel may refuse with EPERM) leaves out them all.
 * Returns 0 with what was left out and why in note, or a negative errno with the sentence in err. */
static int load_all(struct whybpf *w, const char *custom_btf, lat_mask *off, int has_state, char *err,
		    size_t errlen, char *note, size_t notelen)
{
	char name[64];
	int rc = 0;

	for (size_t attempt = 0; attempt <= NPAIRS; attempt++) {
		int kind;

		rc = load(w, custom_btf, *off, has_state);
		if (rc == 0)
			return 0;
		if (failed_program(name, sizeof(name)) < 0)
			break;
		kind = kind_of_program(name);
		if (kind < 0 || (*off & (1u << kind))) {
			snprintf(err, errlen,
				 F_(N_("the kernel's verifier refused the eBPF program %s (%s): wait latencies are "
				       "not measured")),
				 name, strerror(-rc));
			return rc;
		}
		if (rc == -EPERM) {
			*off |= LAT_DELAYACCT_KINDS;
			snprintf(note, notelen, F_(N_("the kernel refused programs at its functions (fentry: %s)")),
				 strerror(-rc));
		} else {
			*off |= (lat_mask)(1u << kind);
			snprintf(note, notelen, F_(N_("the kernel's verifier refused the eBPF program %s (%s)")), name,
				 strerror(-rc));
		}
	}
	if (rc == -EPERM)
		snprintf(err, errlen, "%s",
			 _("the kernel refused to load eBPF programs (Operation not permitted: a kernel in lockdown, "
			   "or no CAP_BPF and CAP_PERFMON): wait latencies are not measured"));
	else
		snprintf(err, errlen, F_(N_("cannot load delaytop's eBPF programs (%s): wait latencies are not measured")),
			 strerror(-rc));
	return rc;
}

/* ---- attaching ---- */

/* Attaches one program, keeping its link; 0 or a negative errno. */
static int attach(struct whybpf *w, const char *name)
{
	struct bpf_link *l = bpf_program__attach(program(w->skel, name));

	if (!l)
		return errno ? -errno : -EINVAL;
	w->links[w->nlinks++] = l;
	return 0;
}

/* Attaches a delayacct kind's programs, or none of them: 0 or a negative errno. */
static int attach_pair(struct whybpf *w, const struct dk_pair *p)
{
	size_t before = w->nlinks;

	for (int j = 0; j < 2; j++) {
		int rc = p->prog[j] ? attach(w, p->prog[j]) : 0;

		if (rc < 0) {
			while (w->nlinks > before)
				bpf_link__destroy(w->links[--w->nlinks]);
			return rc;
		}
	}
	return 0;
}

static int attach_all(struct whybpf *w, lat_mask *off, char *err, size_t errlen, char *note, size_t notelen)
{
	for (size_t i = 0; i < NSCHED; i++) {
		int rc = attach(w, sched_progs[i]);

		if (rc < 0) {
			snprintf(err, errlen,
				 F_(N_("the kernel refused to attach the eBPF program %s (%s): wait latencies are not "
				       "measured")),
				 sched_progs[i], strerror(-rc));
			return rc;
		}
	}
	for (size_t i = 0; i < NPAIRS; i++) {
		int rc;

		if (*off & (1u << dk_pairs[i].kind))
			continue;
		rc = attach_pair(w, &dk_pairs[i]);
		if (rc < 0) {
			*off |= (lat_mask)(1u << dk_pairs[i].kind);
			snprintf(note, notelen, F_(N_("the kernel refused to attach the eBPF program at %s (%s)")),
				 dk_pairs[i].func[0], strerror(-rc));
		}
	}
	return 0;
}

/* The sentence of what was not measured: the kinds in off, and why (note). */
static void say_left_out(lat_mask off, const char *note, char *err, size_t errlen)
{
	char kinds[128] = "";
	size_t len = 0;

	err[0] = '\0';
	if (!off)
		return;
	for (int k = 0; k < LAT_KINDS && len < sizeof(kinds); k++)
		if (off & (1u << k))
			len += (size_t)snprintf(kinds + len, sizeof(kinds) - len, "%s%s", len ? ", " : "", lat_kind_key(k));
	snprintf(err, errlen, F_(N_("--why: %s not measured: %s")), kinds, note[0] ? note : _("not in this kernel"));
}

int whybpf_open(struct whybpf **out, lat_mask *attached, int stacks, char *err, size_t errlen)
{
	struct whybpf *w;
	const char *custom;
	struct btf *btf;
	lat_mask off, missing;
	char note[256] = "";
	int rc, has_state;

	*out = NULL;
	if (!privileged()) {
		snprintf(err, errlen, "%s",
			 _("--why needs CAP_BPF and CAP_PERFMON (or root): wait latencies are not measured. Allow "
			   "them with: setcap cap_net_admin,cap_bpf,cap_perfmon+ep $(command -v delaytop)"));
		return -EPERM;
	}
	btf = kernel_btf(&custom, err, errlen);
	if (!btf)
		return -ENOENT;
	off = missing = missing_functions(btf);
	has_state = switch_has_state(btf);
	btf__free(btf);
	libbpf_set_print(keep_libbpf_message);
	w = xcalloc(1, sizeof(*w));
	w->stacks = stacks;
	rc = load_all(w, custom, &off, has_state, err, errlen, note, sizeof(note));
	if (rc == 0)
		rc = attach_all(w, &off, err, errlen, note, sizeof(note));
	if (rc < 0) {
		whybpf_close(w);
		return rc;
	}
	w->keys = xmalloc(READ_CHUNK * sizeof(*w->keys));
	w->vals = xmalloc(READ_CHUNK * sizeof(*w->vals));
	w->okeys = xmalloc(READ_CHUNK * sizeof(*w->okeys));
	w->ovals = xmalloc(READ_CHUNK * sizeof(*w->ovals));
#if HAVE_MALLOC_TRIM
	malloc_trim(0); /* the kernel's BTF, parsed for the load (about 10 MB), goes back */
#endif
	*attached = (lat_mask)((SCHED_KINDS | LAT_DELAYACCT_KINDS) & ~off);
	if (off == missing)
		note[0] = '\0'; /* only what the kernel does not have */
	say_left_out(off, note, err, errlen);
	*out = w;
	return 0;
}

/* Reads and empties the map of fd into b. */
static int drain(struct whybpf *w, int fd, struct lat_batch *b)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	uint64_t in = 0, next = 0;
	void *from = NULL;

	for (;;) {
		uint32_t count = READ_CHUNK;
		int rc = bpf_map_lookup_and_delete_batch(fd, from, &next, w->keys, w->vals, &count, &opts);

		if (rc < 0 && rc != -ENOENT)
			return rc;
		whymap_decode(w->keys, w->vals, count, b);
		if (rc == -ENOENT)
			return 0; /* the last of them */
		in = next;
		from = &in;
	}
}

/* A stack's frames from the stacks' map into pc (up to WHY_STACK_DEPTH): their number, or -1
 * when the id names none (a stack lost, or none taken). */
static int stack_frames(struct whybpf *w, long long id, uint64_t *pc)
{
	int n = 0;

	if (id < 0 || bpf_map_lookup_elem(bpf_map__fd(w->skel->maps.why_stacks), &id, pc) < 0)
		return -1;
	while (n < WHY_STACK_DEPTH && pc[n])
		n++;
	return n;
}

/* Reads and empties the off-CPU map of fd into w->stk, with each entry's stacks. The stacks' map
 * is not emptied: a task off the CPU now holds ids in it. A stack whose id is not there any more
 * made room for newer ones while its task was off the CPU: counted in w->evicted. */
static int drain_stacks(struct whybpf *w, int fd)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	struct why_off_key in, next;
	uint64_t kpc[WHY_STACK_DEPTH], upc[WHY_STACK_DEPTH];
	void *from = NULL;

	stk_batch_clear(&w->stk);
	for (;;) {
		uint32_t count = READ_CHUNK;
		int rc = bpf_map_lookup_and_delete_batch(fd, from, &next, w->okeys, w->ovals, &count, &opts);

		if (rc < 0 && rc != -ENOENT)
			return rc;
		for (uint32_t i = 0; i < count; i++) {
			const struct why_off_key *k = &w->okeys[i];
			int nk = stack_frames(w, k->kstack, kpc), nu = stack_frames(w, k->ustack, upc);
			struct stk_entry *e = stk_batch_push(&w->stk, k->id, w->ovals[i].tgid, k->state, kpc,
							     nk > 0 ? (size_t)nk : 0, upc, nu > 0 ? (size_t)nu : 0);

			e->ns = w->ovals[i].ns;
			e->count = w->ovals[i].count;
			e->klost = nk < 0 && k->kstack != -EFAULT;
			e->ulost = nu < 0 && k->ustack != -EFAULT;
			w->evicted += (nk < 0 && k->kstack >= 0) + (nu < 0 && k->ustack >= 0);
		}
		if (rc == -ENOENT)
			return 0;
		in = next;
		from = &in;
	}
}

int whybpf_read(struct whybpf *w, struct lat_batch *b)
{
	struct bpf_map *gens[2] = { w->skel->maps.gen_a, w->skel->maps.gen_b };
	struct bpf_map *offs[2] = { w->skel->maps.off_a, w->skel->maps.off_b };
	uint32_t zero = 0, off_was = w->skel->bss->off_gen;
	int next = !w->gen, fd = bpf_map__fd(gens[next]), rc;

	/* the off-CPU generation flips first: the update below waits for the programs that still
	 * saw the old one */
	if (w->stacks)
		__atomic_store_n(&w->skel->bss->off_gen, !off_was, __ATOMIC_SEQ_CST);
	/* an update of an array of maps returns once the programs running now have ended: none
	 * writes the old generation after this */
	rc = bpf_map_update_elem(bpf_map__fd(w->skel->maps.current), &zero, &fd, BPF_ANY);
	if (rc < 0)
		return rc;
	rc = drain(w, bpf_map__fd(gens[w->gen]), b);
	w->gen = next;
	b->not_fitted = __atomic_load_n(&w->skel->bss->not_fitted, __ATOMIC_RELAXED);
	if (rc == 0 && w->stacks)
		rc = drain_stacks(w, bpf_map__fd(offs[off_was ? 1 : 0]));
	w->stk.lost_entries = __atomic_load_n(&w->skel->bss->stack_lost.entries, __ATOMIC_RELAXED);
	w->stk.lost_stacks = __atomic_load_n(&w->skel->bss->stack_lost.kstacks, __ATOMIC_RELAXED) +
			     __atomic_load_n(&w->skel->bss->stack_lost.ustacks, __ATOMIC_RELAXED) + w->evicted;
	return rc;
}

const struct stk_batch *whybpf_stacks(const struct whybpf *w)
{
	return w && w->stacks ? &w->stk : NULL;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

int whybpf_select(struct whybpf *w, const uint32_t *ids, size_t n, int by_tid)
{
	/* following forks, the kernel adds processes of its own: none is taken out */
	int keep = (w->stacks & WHYBPF_FOLLOW_FORKS) != 0;
	int fd = bpf_map__fd(w->skel->maps.why_select);
	uint32_t mode = by_tid ? WHY_SEL_TID : WHY_SEL_TGID, *now;
	size_t kept = 0;

	if (!w->stacks)
		return -EOPNOTSUPP;
	if (n > WHY_SELECT_MAX)
		n = WHY_SELECT_MAX;
	now = xmalloc((n ? n : 1) * sizeof(*now));
	if (n) { /* ids may be NULL when nothing is chosen */
		memcpy(now, ids, n * sizeof(*ids));
		qsort(now, n, sizeof(*now), cmp_u32);
	}
	/* the new ones first, then the old ones that left: a task selected throughout stays so */
	for (size_t i = 0; i < n; i++) {
		if (kept && now[kept - 1] == now[i])
			continue;
		now[kept++] = now[i];
		bpf_map_update_elem(fd, &now[i], &mode, BPF_ANY);
	}
	for (size_t i = 0; i < w->nsel && !keep; i++)
		if (!bsearch(&w->sel[i], now, kept, sizeof(*now), cmp_u32))
			bpf_map_delete_elem(fd, &w->sel[i]);
	free(w->sel);
	w->sel = now;
	w->nsel = kept;
	return 0;
}

void whybpf_close(struct whybpf *w)
{
	if (!w)
		return;
	while (w->nlinks)
		bpf_link__destroy(w->links[--w->nlinks]);
	why_bpf__destroy(w->skel);
	free(w->keys);
	free(w->vals);
	free(w->okeys);
	free(w->ovals);
	free(w->sel);
	stk_batch_free(&w->stk);
	free(w);
}

#else /* a build without eBPF */

#include <stdlib.h>

int whybpf_open(struct whybpf **out, lat_mask *attached, int stacks, char *err, size_t errlen)
{
	(void)stacks;
	*out = NULL;
	*attached = 0;
	snprintf(err, errlen, "%s",
		 _("this delaytop was built without eBPF (configure found no libbpf, clang or bpftool, or was "
		   "given --disable-bpf): wait latencies are not measured"));
	return -EOPNOTSUPP;
}

int whybpf_read(struct whybpf *w, struct lat_batch *b)
{
	(void)w;
	(void)b;
	return -EOPNOTSUPP;
}

const struct stk_batch *whybpf_stacks(const struct whybpf *w)
{
	(void)w;
	return NULL;
}

int whybpf_select(struct whybpf *w, const uint32_t *ids, size_t n, int by_tid)
{
	(void)w;
	(void)ids;
	(void)n;
	(void)by_tid;
	return -EOPNOTSUPP;
}

void whybpf_close(struct whybpf *w)
{
	(void)w;
}

#endif
