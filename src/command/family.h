/* family.h — which exiting tasks descend from the command delaytop started. Pure code: what it
 * needs to know about live processes (their parents) it asks through a callback.
 *
 * Exit records arrive in exit order, and a child usually exits before its parent, so a record
 * whose parent is neither known to descend nor known not to waits until the parent's record (or
 * the end of the run) decides. delaytop is the subreaper of the command, so an orphan's parent
 * becomes delaytop itself. */
#ifndef DELAYTOP_FAMILY_H
#define DELAYTOP_FAMILY_H

#include <stddef.h>
#include <stdint.h>

#include "totals.h"

/* One thread's final counters, as much as a whole-run report needs. */
struct exit_task {
	uint32_t tid, tgid, ppid;
	uint64_t start_s; /* start, seconds since the epoch */
	char comm[17];
	struct kind_totals delays; /* its delays and CPU time over its life */
	const char *cgroup; /* where it ran, as far as known (it lives as long as the run); or NULL */
	int group_dead; /* its exit ended its process */
};

/* The parent of a live process, or -1 when it is gone. */
typedef int64_t (*parent_fn)(void *arg, uint32_t pid);
/* Called once for every record found to descend from the command. */
typedef void (*member_fn)(void *arg, const struct exit_task *t);

struct family;

/* root: the command's pid; self: delaytop's own pid (the subreaper); now_s: the time in seconds. */
struct family *family_new(uint32_t root, uint32_t self, uint64_t now_s, parent_fn parent, member_fn member,
			  void *arg);
void family_free(struct family *f);

/* Feeds one exit record; now_s is the time it was read. */
void family_exit(struct family *f, const struct exit_task *t, uint64_t now_s);

/* Whether a live process descends from the command (asking its parents as far as needed). */
int family_includes(struct family *f, uint32_t pid);

/* Records still undecided: their parent is gone and was never seen. */
size_t family_undecided(const struct family *f);

#endif
