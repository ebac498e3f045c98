/* whyside.h — the sampler's side of --why: the eBPF side loaded, read and unloaded as the option
 * says, each interval's waits given to the rows, the snapshot's word on it, and the off-CPU stacks
 * of the tasks chosen (the pids, the rows the front end chooses, the tasks that stalled most
 * lately, the front end's task) taken, named and given to their rows. The kernel is reached only
 * through the sampler's instance of the seam (kernelops.h). */
#ifndef DELAYTOP_WHYSIDE_H
#define DELAYTOP_WHYSIDE_H

#include <stddef.h>
#include <stdint.h>

#include "latency.h"
#include "latrows.h"
#include "model.h"
#include "sampler.h"
#include "stackrows.h"
#include "stallwatch.h"

struct kernel;

struct whyside {
	struct kernel *k;              /* the sampler's */
	const struct sampler_opts *o;  /* the sampler's options, as they are now (why, threads, pids) */
	int loaded;                    /* the eBPF side is loaded */
	int failed;                    /* its load failed: not tried again until switched off and on */
	char notice[512];              /* why it failed, or the kinds it cannot measure; "" */
	lat_mask attached;             /* the kinds it measures */
	struct lat_batch lat;          /* this interval's waits */
	uint64_t lost_prev;            /* lat.not_fitted at the last reading */
	struct latrows latrows;        /* and the rows' */
	uint32_t *sel;                 /* the ids whose stacks are taken in this interval, sorted */
	size_t nsel, capsel;
	struct stackrows stackrows;    /* the rows' stacks */
	struct stallwatch stall;       /* --trigger: the tasks that stalled most lately */
	int (*match)(void *arg, const struct row *r);
	void *match_arg;
	uint32_t task;                 /* the front end's task whose stacks are taken (0: none) */
};

/* Starts w on the sampler's kernel k and options o (both kept, not owned). */
void whyside_init(struct whyside *w, struct kernel *k, const struct sampler_opts *o);
/* Frees what w holds; the eBPF side is the kernel's, closed with it. */
void whyside_free(struct whyside *w);

/* Loads the eBPF side when it is wanted and not loaded, unloads it when it is not wanted. */
void whyside_follow(struct whyside *w);
/* Asked for anew: a load that failed is tried again. */
void whyside_retry(struct whyside *w);
/* The notice of the eBPF side (why it failed, the kinds left out), or NULL. */
const char *whyside_notice(const struct whyside *w);

/* The waits since the last reading. A read that fails ends the eBPF side, said in the notice. */
void whyside_collect(struct whyside *w);
/* The snapshot's word on the eBPF side (delayacct: the switch in this reading), then the
 * interval's stacks where they are taken. */
void whyside_header(struct whyside *w, int delayacct, struct snapshot *snap);
/* The rows of snap their waits and stacks, and the ids selected for the next interval. */
void whyside_give(struct whyside *w, struct snapshot *snap);

/* The front end's task whose stacks are taken from now on (0: none). */
void whyside_set_task(struct whyside *w, uint32_t id);

#endif
