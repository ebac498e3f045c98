/* exitqueue.c — the queue of exit records. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "exitlisten.h"
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

static uint32_t parent_of(const struct ts_record *thread)
{
	return thread && (thread->c.have & HAVE_IDS) ? thread->c.ppid : 0;
}

int exitqueue_choose(const struct ts_record *thread, const struct ts_record *process, int threads,
		     struct exit_choice *out)
{
	memset(out, 0, sizeof(*out));
	out->ppid = parent_of(thread);
	if (threads) {
		if (!thread)
			return -1;
		out->rec = thread;
		out->id = thread->id;
		out->pid = process_of(thread);
		out->age_ns = thread->c.etime_us * 1000;
		return 0;
	}
	if (process) { /* the process's age is its main thread's, when that ended last */
		out->rec = process;
		out->id = out->pid = process->id;
		out->age_ns = thread && thread->id == process->id ? thread->c.etime_us * 1000 : UINT64_MAX;
		return 0;
	}
	if (thread && (thread->c.flag & TS_AGROUP)) {
		out->rec = thread;
		out->id = out->pid = process_of(thread);
		out->age_ns = thread->id == out->pid ? thread->c.etime_us * 1000 : UINT64_MAX;
		return 0;
	}
	return -1;
}

int exitqueue_choose_peak(const struct ts_record *thread, const struct ts_record *process, int threads,
			  struct exit_choice *out)
{
	memset(out, 0, sizeof(*out));
	if (threads || !thread || !thread->c.kind_max || (!process && (thread->c.flag & TS_AGROUP)))
		return -1;
	out->rec = thread;
	out->id = out->pid = process_of(thread);
	out->age_ns = UINT64_MAX;
	out->peak_only = 1;
	return 0;
}

int exitqueue_push(struct exitqueue *q, const struct exit_choice *x, uint64_t recv_mono)
{
	struct pending_exit *p;

	if (q->n >= EXITQUEUE_MAX)
		return -1;
	q->items = xgrow(q->items, &q->cap, q->n + 1, sizeof(*q->items));
	p = &q->items[q->n++];
	p->id = x->id;
	p->pid = x->pid;
	p->ppid = x->ppid;
	p->age_ns = x->age_ns;
	p->peak_only = (uint8_t)x->peak_only;
	p->recv_mono = recv_mono;
	p->c = x->rec->c;
	return 0;
}

void exitqueue_clear(struct exitqueue *q)
{
	q->n = 0;
}
