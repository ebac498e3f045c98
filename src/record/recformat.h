/* recformat.h — what a recording keeps of a reading, and the rules its writer and reader share:
 * the fields of a task, a cgroup and a reading's header, each named (the file's header lists the
 * names, so that a reader maps a file's fields to its own by name and skips what it does not
 * know), the predictions that make an unchanged task cost nothing (its next reading is its last
 * one, a little later), and the variable-length integers of the encoding. The format is described
 * in doc/recording.md. Pure code. */
#ifndef DELAYTOP_RECFORMAT_H
#define DELAYTOP_RECFORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "format.h"
#include "headfield.h"
#include "model.h"
#include "psi.h"
#include "rates.h"
#include "rowfield.h"
#include "totals.h"

/* The format's version: a reader reads every file of its major version whatever the minor (a
 * newer minor only adds fields and sections, which it skips), and refuses a newer major. */
#define REC_MAJOR 1
#define REC_MINOR 4
#define REC_MAGIC "delaytop recording\n"

/* One task (a thread, a process, or a departed task's totals) as the recording knows it: the
 * row's fields (rowfield.h), its strings as ids into the segment's string table (0: none), its
 * readings and its totals. */
struct rec_task {
	ROW_FIELDS_MEMBERS;
	uint32_t str[ROW_STRING_COUNT];
	struct sample base, last;
	struct acct_pair acct; /* base's and last's accounting fields */
	struct peaks peak;
	struct kind_totals acc;
};

/* One pressure file at one reading. The interval's shares are kept too (the bits of the double),
 * but predicted from the totals, so they cost nothing when they follow from them. */
struct rec_psi {
	uint64_t when_ns;
	uint8_t present[PSI_COUNT];
	uint8_t line[PSI_COUNT][2];     /* some, full present */
	uint64_t avg[PSI_COUNT][2][3];  /* avg10/60/300, in hundredths of a percent */
	uint64_t total[PSI_COUNT][2];   /* us */
	uint64_t pct[PSI_COUNT][2];     /* the share's double */
};

/* One cgroup's facts. */
struct rec_cgroup {
	uint32_t path; /* string id */
	uint64_t states[CG_STATES];
	uint8_t have_states, busy;
	struct rec_psi psi;
	uint32_t identity_uid; /* who it is delegated to; 0 none (and in a file before 1.2) */
};

/* A reading's header facts (headfield.h) and its pressure readings. */
struct rec_head {
#define HEAD_FIELD_DECL(member, type, snap, conv, check) type member;
	HEAD_FIELDS(HEAD_FIELD_DECL)
#undef HEAD_FIELD_DECL
	struct rec_psi psi;
};

enum rec_object { RO_HEAD, RO_TASK, RO_CGROUP, RO_COUNT };

/* How a field's bits are read: a plain number, a number of nanoseconds that is nearly always whole
 * microseconds (rates.h: its differences are written in microseconds), or a set of delay kinds or
 * accounting fields (whose bits a reader maps from the file's order of kinds and fields to its
 * own). */
enum rec_ftype { RF_NUM, RF_KINDS, RF_ACCTS, RF_US, RF_UNKNOWN };

/* An object's fields come in phases: a reader predicts the fields of a phase from those of the
 * phases before (tasks: 2, the reading before, from this one; 3, the totals since the start, from
 * the readings; pressure: 2, the shares, from the totals). */
#define REC_PHASES 3

struct rec_field {
	char name[40];
	uint16_t offset;
	uint8_t size;  /* 1, 2, 4 or 8 bytes */
	uint8_t type;  /* enum rec_ftype */
	uint8_t phase; /* 1 to REC_PHASES */
	uint64_t none; /* the value a file without the field gives it */
};

/* The fields of each object, in the order this delaytop writes them. */
const struct rec_field *rec_fields(int object, size_t *n);
/* Field f's value in obj (a struct rec_head, rec_task or rec_cgroup), and setting it. */
uint64_t rec_get(const struct rec_field *f, const void *obj);
void rec_set(const struct rec_field *f, void *obj, uint64_t v);

/* The header of a file: the magic, the version, who wrote it when, and the names of the kinds,
 * the accounting fields and every object's fields; then a line "crc XXXXXXXX", the CRC-32 of the
 * header before it, and an empty line. */
void rec_header_format(struct outbuf *o, const char *host, int64_t started_ns);
/* Ends a header that starts at o->data[start] with its CRC line and the empty line. */
void rec_header_seal(struct outbuf *o, size_t start);

/* A file's header as a reader maps it: for each object, each of the file's fields to one of ours
 * (-1: unknown, skipped), and the file's kind and accounting-field bits to ours. */
struct rec_schema {
	int major, minor;
	char host[256];
	char writer[64]; /* the writer's program and version, "" when not said */
	int64_t started_ns;
	int *map[RO_COUNT];
	uint8_t *types[RO_COUNT]; /* each of the file's fields' enum rec_ftype; RF_UNKNOWN: a type
				     this reader does not know (the field is skipped) */
	uint8_t *phases[RO_COUNT]; /* and its phase */
	size_t nfields[RO_COUNT];
	int kind_map[16], acct_map[16]; /* file bit -> our bit, -1: unknown */
	int wait_map[16]; /* the kinds of the waits' section (its "waits" line): file bit -> ours */
	size_t header_len;
};
/* Parses a header from text[0..len). Returns 0; -EAGAIN when len does not hold it all yet;
 * -EPROTO (not a recording), -ENOTSUP (a newer major: err names both versions) or -EINVAL (a
 * malformed header), with a message in err. */
int rec_header_parse(struct rec_schema *s, const char *text, size_t len, char *err, size_t errlen);
void rec_schema_free(struct rec_schema *s);
/* Whether the file's fields are exactly ours (a writer may then append to it). */
int rec_schema_native(const struct rec_schema *s);

/* What a task's next reading is expected to be, from its last one (prev) dmono ns later: its last
 * reading becomes its base and is repeated a little later; nothing else changes. */
void rec_predict_task(struct rec_task *t, uint64_t dmono);
/* The second, its last reading known: its reading before (unless it is new in this interval:
 * then there is none) made dmono ns before this one; for a task new to the reader, like this one. */
void rec_predict_base(struct rec_task *t, uint64_t dmono);
/* The third: its rates over the interval (into r) and its totals since the start grown by them,
 * as the sampler grows them. */
void rec_predict_totals(struct rec_task *t, struct task_rates *r);
/* A pressure reading expected dmono ns after p: the same, a little later. */
void rec_predict_psi(struct rec_psi *p, uint64_t dmono);
/* Its shares, expected from the totals of the reading before (prev). */
void rec_predict_shares(struct rec_psi *p, const struct rec_psi *prev);
/* A pressure snapshot as recorded, and back. */
void rec_psi_from(struct rec_psi *p, const struct psi_snapshot *s);
void rec_psi_to(const struct rec_psi *p, struct psi_snapshot *s);

/* Variable-length integers: 7 bits a byte, low first; signed ones zigzagged. */
void rec_put_uint(struct outbuf *o, uint64_t v);
void rec_put_int(struct outbuf *o, int64_t v);
/* Read at *p, not past end; 0, or -1 when the bytes end before the number does. */
int rec_get_uint(const uint8_t **p, const uint8_t *end, uint64_t *v);
int rec_get_int(const uint8_t **p, const uint8_t *end, int64_t *v);

/* CRC-32 (IEEE) of n bytes, continuing crc (0 to start). */
uint32_t rec_crc32(uint32_t crc, const void *data, size_t n);

#endif
