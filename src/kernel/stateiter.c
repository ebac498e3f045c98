/* stateiter.c — every task's state in one read through a task iterator (see stateiter.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "stateiter.h"

#if HAVE_BPF

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "secure.h"
#include "stateabi.h" /* before the skeleton, which names its struct */
#include "state.skel.h"
#include "xalloc.h"

/* Bytes read from the iterator a call. */
#define READ_CHUNK (64 * 1024)

struct stateiter {
	struct state_bpf *skel; /* NULL: unavailable, err says why */
	struct bpf_link *link;
	int err;
	unsigned char *buf;     /* the records of the last read */
	size_t len, cap;
};

__attribute__((format(printf, 2, 0))) static int say_nothing(enum libbpf_print_level level, const char *fmt,
							      va_list ap)
{
	(void)level, (void)fmt, (void)ap;
	return 0;
}

/* Whether /proc shows delaytop the pids of the namespace it is in: its NSpid line has one entry
 * (more: /proc is an outer namespace's). That namespace being the initial one, the iterator's
 * header says. */
static int proc_is_own_namespace(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	int one = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "NSpid:", 6) == 0) {
			char *p = line + 6;

			strtoul(p, &p, 10);
			one = *p == '\n' || *p == '\0';
			break;
		}
	}
	fclose(f);
	return one;
}

/* Loads and attaches the iterator: 0 or a negative errno. */
static int load(struct stateiter *si)
{
	libbpf_print_fn_t was;
	int rc = 0;

	if (!proc_is_own_namespace())
		return -ENOTSUP;
	was = libbpf_set_print(say_nothing);
	si->skel = state_bpf__open_and_load();
	if (!si->skel)
		rc = errno ? -errno : -EINVAL;
	else if (!(si->link = bpf_program__attach_iter(si->skel->progs.dump_states, NULL)))
		rc = errno ? -errno : -EINVAL;
	libbpf_set_print(was);
	return rc;
}

/* The iterator's output, to its end, into si->buf: 0 or a negative errno. */
static int read_all(struct stateiter *si)
{
	int fd = bpf_iter_create(bpf_link__fd(si->link));
	ssize_t got;

	if (fd < 0)
		return -errno;
	si->len = 0;
	for (;;) {
		if (si->cap - si->len < READ_CHUNK) {
			si->cap = si->cap ? 2 * si->cap : 4 * READ_CHUNK;
			si->buf = xrealloc(si->buf, si->cap);
		}
		got = read(fd, si->buf + si->len, si->cap - si->len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		si->len += (size_t)got;
	}
	close(fd);
	return got < 0 ? -errno : 0;
}

static int by_tid(const void *a, const void *b)
{
	uint32_t x = ((const struct tid_state *)a)->tid, y = ((const struct tid_state *)b)->tid;

	return (x > y) - (x < y);
}

/* The records in si->buf into out: their number, or -ENOTSUP when the reader's namespace is not
 * the initial one. */
static long parse(const struct stateiter *si, struct tid_state **out, size_t *cap)
{
	size_t n = 0, sorted = 1;
	int header = 0;

	for (size_t off = 0; off + sizeof(struct state_rec) <= si->len; off += sizeof(struct state_rec)) {
		struct state_rec r;

		memcpy(&r, si->buf + off, sizeof(r));
		if (r.tid == 0) {
			if (r.state != 0)
				return -ENOTSUP;
			header = 1;
			continue;
		}
		if (n == *cap) {
			*cap = *cap ? 2 * *cap : 4096;
			*out = xrealloc(*out, *cap * sizeof(**out));
		}
		sorted &= n == 0 || (*out)[n - 1].tid < r.tid;
		(*out)[n++] = (struct tid_state){ .tid = r.tid, .state = r.state };
	}
	if (!header)
		return -EIO;
	if (!sorted)
		qsort(*out, n, sizeof(**out), by_tid);
	return (long)n;
}

long stateiter_read(struct stateiter **si, struct tid_state **out, size_t *cap)
{
	const char *from = secure_env("DELAYTOP_STATES");
	long rc;

	if (!*si) {
		*si = xcalloc(1, sizeof(**si));
		if (from && strcmp(from, "proc") == 0)
			(*si)->err = -ENOTSUP;
		else
			(*si)->err = load(*si);
	}
	if ((*si)->err < 0)
		return (*si)->err;
	rc = read_all(*si);
	if (rc == 0)
		rc = parse(*si, out, cap);
	if (rc == -ENOTSUP)
		(*si)->err = (int)rc;
	return rc;
}

void stateiter_close(struct stateiter *si)
{
	if (!si)
		return;
	bpf_link__destroy(si->link);
	state_bpf__destroy(si->skel);
	free(si->buf);
	free(si);
}

#else /* a build without eBPF */

struct stateiter {
	int unused;
};

long stateiter_read(struct stateiter **si, struct tid_state **out, size_t *cap)
{
	(void)si, (void)out, (void)cap;
	return -ENOSYS;
}

void stateiter_close(struct stateiter *si)
{
	(void)si;
}

#endif
