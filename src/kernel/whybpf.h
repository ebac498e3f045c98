/* whybpf.h — the eBPF side of --why: delaytop's programs (bpf/why.bpf.c, embedded through a
 * bpftool skeleton) loaded, checked by the kernel's verifier and attached, and the histograms of
 * waits they keep in the kernel read once a reading. A build without libbpf (configure
 * --disable-bpf) has the same calls, which say so.
 *
 * Loading needs CAP_BPF and CAP_PERFMON (or root) and the kernel's BTF (/sys/kernel/btf/vmlinux,
 * CONFIG_DEBUG_INFO_BTF): each refusal is one sentence naming what is missing. The run-queue,
 * I/O and sleep programs are needed; each pair of programs of a delayacct kind is attached on its
 * own, and one the kernel does not take leaves only that kind unmeasured.
 *
 * In a run that is not capability-raised, DELAYTOP_BTF names another file to take as the kernel's
 * BTF (a missing one: the test of a kernel without it); a secure run ignores it. */
#ifndef DELAYTOP_WHYBPF_H
#define DELAYTOP_WHYBPF_H

#include <stddef.h>

#include "latency.h"

struct whybpf;

/* Loads and attaches the programs: 0 with the kinds measured in *attached and in err a sentence
 * naming the kinds left out and why (empty when none was), or a negative errno with one sentence
 * in err (-EPERM: no privileges; -ENOENT: no BTF; -EOPNOTSUPP: a build without eBPF). */
int whybpf_open(struct whybpf **out, lat_mask *attached, char *err, size_t errlen);

/* Ends the generation the programs fill and starts the other: returns once no program still
 * writes the ended one (the kernel waits for those running), then reads and empties it into b
 * (appended), with the waits that found the maps full since loading. 0 or a negative errno. */
int whybpf_read(struct whybpf *w, struct lat_batch *b);

/* Detaches and unloads (NULL: nothing). */
void whybpf_close(struct whybpf *w);

#endif
