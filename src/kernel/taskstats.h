/* taskstats.h — the kernel's TASKSTATS generic-netlink family, through libnl-genl-3: batched
 * queries by pid or tgid (the listener for records of tasks as they exit: exitlisten.h). */
#ifndef DELAYTOP_TASKSTATS_H
#define DELAYTOP_TASKSTATS_H

#include <stddef.h>
#include <stdint.h>

#include "counters.h"

struct ts_client;

/* How ids are asked about: by pid, by tgid, or each as its TS_ASK_TGID bit says (pids stay below
 * it: PID_MAX_LIMIT is 2^22). The kernel answers a batch's requests in their order. */
enum ts_by { TS_BY_PID, TS_BY_TGID, TS_BY_EACH };
#define TS_ASK_TGID 0x80000000u

/* One record: a thread's counters, or a process aggregate (by TGID). Process aggregates carry no
 * comm, ids, I/O counters or CPU times, and their max/min are one thread's rather than the
 * maximum; the decoder's availability bits are cleared accordingly. */
struct ts_record {
	int tgid;    /* 1: a process aggregate; 0: one thread */
	uint32_t id; /* the tid, or the tgid of an aggregate */
	uint64_t span_ns; /* how long before the time given with it the kernel may have made it: the
			     send of its batch, during which the kernel answers (0: at that time) */
	struct task_counters c;
};

/* Called for each answer: index into the queried ids, the record, and the CLOCK_MONOTONIC time
 * just after the kernel made it (at most rec->span_ns after). */
typedef void (*ts_reply_fn)(void *arg, size_t index, const struct ts_record *rec, uint64_t when_ns);

/* Opens a socket and resolves the family. Returns 0, or a negative errno with a message in err:
 * -ENOENT when the kernel has no taskstats. */
int ts_open(struct ts_client **out, char *err, size_t errlen);
void ts_close(struct ts_client *c);

/* Queries ids[0..n) in batches of requests. Tasks that are gone are skipped without a word.
 * Returns 0, -EPERM when the kernel refuses (no CAP_NET_ADMIN), or another negative errno. */
int ts_query(struct ts_client *c, enum ts_by by, const uint32_t *ids, size_t n, ts_reply_fn fn, void *arg);

/* Asks about one pid: 0 when queries work, -EPERM without the capability. */
int ts_probe(struct ts_client *c, uint32_t pid);

/* A cgroup's own tasks by state, from CGROUPSTATS_CMD_GET on an open v1 cgroup directory fd:
 * out[0..5) = running, sleeping, uninterruptible, stopped, waiting for I/O. Needs no privilege.
 * Returns 0, or a negative errno: -EINVAL for a v2 directory, where the kernel has no such call. */
int ts_cgroupstats(struct ts_client *c, int fd, uint64_t out[5]);

#endif
