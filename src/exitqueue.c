/* exitqueue.c — the queue of exit records. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "exitqueue.h"
#include "xalloc.h"

void exitqueue_init(struct exitqueue *q)
{
	memset(q, 0, sizeof(*q));
}

void exitqueue_free(struct exitqueue *q)
{
	free(q->items);
	exitqueue_init(q);
}

static uint32_t process_of(const struct ts_record *rec)
{
	return (rec->c.have & HAVE_TGID) ? rec->c.tgid : rec->id;
}

const struct ts_record *exitqueue_choose(const struct ts_record *thread, const struct ts_record *process,
					 int threads, uint32_t *id, uint32_t *pid, uint64_t *age_ns)
{
	if (threads) {
		if (!thread)
			return NULL;
		*id = thread->id;
		*pid = process_of(thread);
		*age_ns = thread->c.etime_us * 1000;
		return thread;
	}
	if (process) { /* the process's age is its main thread's, when that ended last */
		*id = *pid = process->id;
		*age_ns = thread && thread->id == process->id ? thread->c.etime_us * 1000 : UINT64_MAX;
		return process;
	}
	if (thread && (thread->c.flag & TS_AGROUP)) {
		*id = *pid = process_of(thread);
		*age_ns = thread->id == *pid ? thread->c.etime_us * 1000 : UINT64_MAX;
		return thread;
	}
	return NULL;
}

void exitqueue_push(struct exitqueue *q, uint32_t id, uint32_t pid, const struct ts_record *rec, uint64_t age_ns,
		    uint64_t recv_mono)
{
	struct pending_exit *x;

	if (q->n >= EXITQUEUE_MAX) {
		q->lost++;
		return;
	}
	q->items = xgrow(q->items, &q->cap, q->n + 1, sizeof(*q->items));
	x = &q->items[q->n++];
	x->id = id;
	x->pid = pid;
	x->age_ns = age_ns;
	x->recv_mono = recv_mono;
	x->c = rec->c;
}

void exitqueue_clear(struct exitqueue *q)
{
	q->n = 0;
}
