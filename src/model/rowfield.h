/* rowfield.h — THE table of a task row's own fields: what the sampler says of each task (its ids,
 * start, state, flags, its process's parent, who its cgroup is delegated to) and how each part that carries a row treats each
 * one. struct row (model.h) and a recording's struct rec_task (recformat.h) hold them as struct
 * row_fields; the recording's field list and its checks of a recorded value, the encoder's and
 * the decoder's copies, the row builder's copies from the process and the fields at the end of a
 * JSON task record and a CSV task line are all made from this list. Adding a plain field is one
 * line here plus the code that reads its value. A row's strings have their own list below. Pure
 * definitions. */
#ifndef DELAYTOP_ROWFIELD_H
#define DELAYTOP_ROWFIELD_H

#include <stdint.h>

/* Tasks by state, as the kernel's cgroupstats counts them. */
enum cg_state { CG_RUNNING, CG_SLEEPING, CG_UNINTERRUPTIBLE, CG_STOPPED, CG_IOWAIT, CG_STATES };

/* X(member, type, dims, record, check, none, show, from), one line a field, in the order a
 * recording lists them and the writers end a task with them:
 *   member, type, dims  its declaration, `type member dims;` (dims empty, or [N] for an array)
 *   record  REC_YES: in recordings under the member's name (an array's elements as NAME.I);
 *           REC_NO: not recorded
 *   check   how a reader tests a recorded value (ROWCHECK_* below); a value that fails is damage
 *   none    the value that means unknown: a row that lacks it, a recording older than the field
 *   show    SHOW_OWN: the writers place it themselves, or leave it out; SHOW_NUM: last in a JSON
 *           task record ("member": number, or null when none) and a CSV task line (column
 *           "member", empty when none); SHOW_DEPTH: the same, 0 outside a process tree
 *   from    FROM_PROC: the row builder takes it from the task's process (struct proc's member
 *           of the same name; none without one); FROM_OWN: the builder sets it itself */
#define ROW_FIELDS(X)                                                                                        \
	/* the process (thread group id) */                                                                  \
	X(pid, uint32_t, , REC_YES, ROWCHECK_ANY, 0, SHOW_OWN, FROM_OWN)                                     \
	/* the thread in thread mode; 0 in process mode */                                                   \
	X(tid, uint32_t, , REC_YES, ROWCHECK_ANY, 0, SHOW_OWN, FROM_OWN)                                     \
	/* the process's parent; 0 when unknown */                                                           \
	X(ppid, uint32_t, , REC_YES, ROWCHECK_ANY, 0, SHOW_NUM, FROM_PROC)                                   \
	X(uid, uint32_t, , REC_YES, ROWCHECK_ANY, 0, SHOW_OWN, FROM_OWN)                                     \
	/* with pid and tid, the task's identity (0 for a departed task) */                                  \
	X(start_ns, uint64_t, , REC_YES, ROWCHECK_ANY, 0, SHOW_OWN, FROM_OWN)                                \
	/* live threads the row stands for (a cgroup row: in it and below) */                                \
	X(nthreads, uint32_t, , REC_YES, ROWCHECK_ANY, 0, SHOW_OWN, FROM_OWN)                                \
	/* a process row in the cgroup view: its threads by state, when have_states */                       \
	X(states, uint32_t, [CG_STATES], REC_YES, ROWCHECK_ANY, 0, SHOW_OWN, FROM_OWN)                       \
	/* as in ps(1): R, S, D, Z, T, ...; '?' when unknown */                                              \
	X(state, char, , REC_YES, ROWCHECK_STATE, 0, SHOW_OWN, FROM_OWN)                                     \
	/* the task ended during the interval, or earlier when departed */                                   \
	X(exited, uint8_t, , REC_YES, ROWCHECK_FLAG, 0, SHOW_OWN, FROM_OWN)                                  \
	/* first reading of this task: no rates yet */                                                       \
	X(fresh, uint8_t, , REC_YES, ROWCHECK_FLAG, 0, SHOW_OWN, FROM_OWN)                                   \
	/* limited mode, process row: threads came or went during the interval, and the delays of            \
	 * those that ended are missing from it */                                                           \
	X(partial, uint8_t, , REC_YES, ROWCHECK_FLAG, 0, SHOW_OWN, FROM_OWN)                                 \
	/* it ended before this interval: only its totals since the start count */                           \
	X(departed, uint8_t, , REC_YES, ROWCHECK_FLAG, 0, SHOW_OWN, FROM_OWN)                                \
	X(have_states, uint8_t, , REC_YES, ROWCHECK_FLAG, 0, SHOW_OWN, FROM_OWN)                             \
	/* a cgroup row: its depth in the tree; in the process tree (a listing's copy of a process           \
	 * row) the process's */                                                                             \
	X(depth, int, , REC_NO, ROWCHECK_ANY, 0, SHOW_DEPTH, FROM_OWN)                                       \
	/* the process's nice value, -20 to 19 (its main thread's, as ps shows it) */                        \
	X(nice, int32_t, , REC_YES, ROWCHECK_NICE, ROW_NICE_NONE, SHOW_NUM, FROM_PROC)                       \
	/* the user its cgroup is delegated to, who may have named what its path names (cgident.h):          \
	 * the owner of the outermost directory at or above the cgroup that is not root's; 0 when            \
	 * every one is root's, or when not known. The writers place it with the path's names */             \
	X(identity_uid, uint32_t, , REC_YES, ROWCHECK_ANY, 0, SHOW_OWN, FROM_PROC)

/* A nice value not known. */
#define ROW_NICE_NONE INT32_MIN

/* A reader's tests of a recorded value. */
#define ROWCHECK_ANY(v)   1
#define ROWCHECK_FLAG(v)  ((v) <= 1)
#define ROWCHECK_STATE(v) (!(v) || ((v) >= ' ' && (v) <= '~')) /* a ps letter, '?', or none */
#define ROWCHECK_NICE(v)  ((v) == ROW_NICE_NONE || ((v) >= -20 && (v) <= 19))

#define ROW_FIELD_DECL(member, type, dims, record, check, none, show, from) type member dims;

struct row_fields {
	ROW_FIELDS(ROW_FIELD_DECL)
};

/* The fields as members of a struct that holds them: each by its name (r->pid), and all at once
 * (r->fields) for the copies. The two have the same members in the same order, so either may be
 * read after the other was written (C11 6.5.2.3, a common initial sequence). */
#define ROW_FIELDS_MEMBERS                                                                                   \
	union {                                                                                              \
		struct row_fields fields;                                                                    \
		struct {                                                                                     \
			ROW_FIELDS(ROW_FIELD_DECL)                                                           \
		};                                                                                           \
	}

/* Sets every field to its none. */
static inline void row_fields_none(struct row_fields *f)
{
	*f = (struct row_fields){0};
#define ROW_FIELD_NONE(member, type, dims, record, check, none, show, from)                                  \
	if ((none) != 0)                                                                                     \
		*(type *)&f->member = (type)(none);
	ROW_FIELDS(ROW_FIELD_NONE)
#undef ROW_FIELD_NONE
}

/* X(member, none): a row's strings, which belong to whoever made the row (the sampler, a
 * recording's reader, a snapshot's copy) and are copied, recorded as ids into a recording's
 * table of strings, and read back as none when a recording has no such string. */
#define ROW_STRINGS(X)                                                                                       \
	X(user, "?")                                                                                         \
	X(comm, "?")                                                                                         \
	/* full command line, or NULL when unknown */                                                        \
	X(cmdline, NULL)                                                                                     \
	/* the task's cgroup path (a cgroup row's own), or NULL when unknown */                              \
	X(cgroup, NULL)

#define ROW_STRING_INDEX(member, none) ROWSTR_##member,
enum row_string { ROW_STRINGS(ROW_STRING_INDEX) ROW_STRING_COUNT };
#undef ROW_STRING_INDEX

#endif
