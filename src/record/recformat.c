/* recformat.c — the recording's fields, header, predictions and integers. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acctfield.h"
#include "delaykind.h"
#include "recformat.h"
#include "i18n.h"
#include "xalloc.h"

#define MAX_FIELDS 320

struct field_table {
	struct rec_field f[RO_COUNT][MAX_FIELDS];
	size_t n[RO_COUNT];
};

static struct field_table table;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void add(int obj, const char *name, size_t offset, size_t size, int type, int phase)
{
	struct rec_field *f = &table.f[obj][table.n[obj]++];

	str_copy(f->name, sizeof(f->name), name);
	f->offset = (uint16_t)offset;
	f->size = (uint8_t)size;
	f->type = (uint8_t)type;
	f->phase = (uint8_t)phase;
}

#define ADD(obj, type_, member, name, ftype, phase) \
	add(obj, name, offsetof(type_, member), sizeof(((type_ *)0)->member), ftype, phase)

static void name2(char *buf, size_t size, const char *a, const char *b)
{
	snprintf(buf, size, "%s.%s", a, b);
}

static void name3(char *buf, size_t size, const char *a, const char *b, const char *c)
{
	snprintf(buf, size, "%s.%s.%s", a, b, c);
}

/* A task's reading (base or last) under prefix, at `at` and its accounting fields at acct; the
 * base reading, predicted from the last one, comes second. */
static void add_sample(const char *prefix, size_t at, size_t acct)
{
	int phase = strcmp(prefix, "base") == 0 ? 2 : 1;
	static const struct {
		const char *name;
		size_t offset, size;
		int type;
		int in_acct; /* at acct, in struct acct_sample */
	} plain[] = {
		{ "when_ns", offsetof(struct sample, when_ns), 8, RF_US, 0 },
		{ "run_ns", offsetof(struct sample, run_ns), 8, RF_US, 0 },
		{ "age_ns", offsetof(struct sample, age_ns), 8, RF_US, 0 },
		{ "threads", offsetof(struct sample, threads), 4, RF_NUM, 0 },
		{ "kind_total", offsetof(struct sample, kind_total), sizeof(kind_mask), RF_KINDS, 0 },
		{ "kind_count", offsetof(struct sample, kind_count), sizeof(kind_mask), RF_KINDS, 0 },
		{ "have_run", offsetof(struct sample, have_run), 1, RF_NUM, 0 },
		{ "acct_have", offsetof(struct acct_sample, acct_have), sizeof(acct_mask), RF_ACCTS, 1 },
	};
	char name[64];

	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		name2(name, sizeof(name), prefix, plain[i].name);
		size_t base = plain[i].in_acct ? acct : at;

		add(RO_TASK, name, base + plain[i].offset, plain[i].size, plain[i].type, phase);
	}
	for (int k = 0; k < DK_COUNT; k++) {
		name3(name, sizeof(name), prefix, "count", delay_kinds[k].key);
		add(RO_TASK, name, at + offsetof(struct sample, count) + k * 8, 8, RF_NUM, phase);
		name3(name, sizeof(name), prefix, "total", delay_kinds[k].key);
		add(RO_TASK, name, at + offsetof(struct sample, total) + k * 8, 8, RF_US, phase);
	}
	for (int f = 0; f < AF_COUNT; f++) {
		name3(name, sizeof(name), prefix, "acct", acct_fields[f].key);
		add(RO_TASK, name, acct + offsetof(struct acct_sample, acct) + f * 8, 8, RF_NUM, phase);
	}
}

/* A row field (rowfield.h) of `count` elements of `size` bytes at offset: named as the member, an
 * array's elements as NAME.I. */
static void add_row_field(const char *member, size_t offset, size_t size, size_t count, uint64_t none)
{
	char name[64];

	for (size_t i = 0; i < count; i++) {
		if (count > 1)
			snprintf(name, sizeof(name), "%s.%zu", member, i);
		else
			str_copy(name, sizeof(name), member);
		add(RO_TASK, name, offset + i * size, size, RF_NUM, 1);
		table.f[RO_TASK][table.n[RO_TASK] - 1].none = none;
	}
}

static void add_task_fields(void)
{
	char name[64];
	size_t at;

#define REC_NO(member, type, none)
#define REC_YES(member, type, none) \
	add_row_field(#member, offsetof(struct rec_task, member), sizeof(type), \
		      sizeof(((struct rec_task *)0)->member) / sizeof(type), (uint64_t)(type)(none));
#define ROW_FIELD_ADD(member, type, dims, record, check, none, show, from) record(member, type, none)
	ROW_FIELDS(ROW_FIELD_ADD)
#undef ROW_FIELD_ADD
#undef REC_YES
#undef REC_NO
#define ROW_STRING_ADD(member, none) \
	add(RO_TASK, #member, offsetof(struct rec_task, str) + ROWSTR_##member * 4, 4, RF_NUM, 1);
	ROW_STRINGS(ROW_STRING_ADD)
#undef ROW_STRING_ADD
	add_sample("base", offsetof(struct rec_task, base), offsetof(struct rec_task, acct.base));
	add_sample("last", offsetof(struct rec_task, last), offsetof(struct rec_task, acct.last));
	at = offsetof(struct rec_task, peak);
	for (int k = 0; k < DK_COUNT; k++) {
		name3(name, sizeof(name), "peak", "max", delay_kinds[k].key);
		add(RO_TASK, name, at + offsetof(struct peaks, max) + k * 8, 8, RF_US, 1);
		name3(name, sizeof(name), "peak", "max_at", delay_kinds[k].key);
		add(RO_TASK, name, at + offsetof(struct peaks, max_at_ns) + k * 8, 8, RF_NUM, 1);
	}
	add(RO_TASK, "peak.kinds", at + offsetof(struct peaks, kinds), sizeof(kind_mask), RF_KINDS, 1);
	add(RO_TASK, "peak.kinds_ts", at + offsetof(struct peaks, kinds_ts), sizeof(kind_mask), RF_KINDS, 1);
	/* the totals since the start: they follow from the readings, so they come second */
	at = offsetof(struct rec_task, acc);
	for (int k = 0; k < DK_COUNT; k++) {
		static const struct {
			const char *name;
			size_t offset;
			int type;
		} arr[] = {
			{ "total", offsetof(struct kind_totals, total_ns), RF_US },
			{ "count", offsetof(struct kind_totals, count), RF_NUM },
			{ "counted", offsetof(struct kind_totals, counted_ns), RF_US },
			{ "max", offsetof(struct kind_totals, max_ns), RF_US },
			{ "max_at", offsetof(struct kind_totals, max_at_ns), RF_NUM },
		};

		for (size_t i = 0; i < sizeof(arr) / sizeof(arr[0]); i++) {
			name3(name, sizeof(name), "acc", arr[i].name, delay_kinds[k].key);
			add(RO_TASK, name, at + arr[i].offset + k * 8, 8, arr[i].type, 3);
		}
	}
	add(RO_TASK, "acc.run_ns", at + offsetof(struct kind_totals, run_ns), 8, RF_US, 3);
	add(RO_TASK, "acc.kinds", at + offsetof(struct kind_totals, kinds), sizeof(kind_mask), RF_KINDS, 3);
	add(RO_TASK, "acc.kinds_count", at + offsetof(struct kind_totals, kinds_count), sizeof(kind_mask), RF_KINDS,
	    3);
	add(RO_TASK, "acc.kinds_max", at + offsetof(struct kind_totals, kinds_max), sizeof(kind_mask), RF_KINDS, 3);
	for (int f = 0; f < AF_COUNT; f++) {
		name3(name, sizeof(name), "acc", "acct", acct_fields[f].key);
		add(RO_TASK, name, at + offsetof(struct kind_totals, acct) + f * 8, 8, RF_NUM, 3);
	}
	add(RO_TASK, "acc.acct_have", at + offsetof(struct kind_totals, acct_have), sizeof(acct_mask), RF_ACCTS, 3);
}

/* A pressure reading's fields at `at` in obj; the shares second. */
static void add_psi(int obj, size_t at)
{
	static const char *const line_names[2] = { "some", "full" };
	static const char *const avg_names[3] = { "avg10", "avg60", "avg300" };
	char name[64], stem[32];

	add(obj, "psi.when_ns", at + offsetof(struct rec_psi, when_ns), 8, RF_NUM, 1);
	for (int r = 0; r < PSI_COUNT; r++) {
		snprintf(stem, sizeof(stem), "psi.%s", psi_name(r));
		name2(name, sizeof(name), stem, "present");
		add(obj, name, at + offsetof(struct rec_psi, present) + r, 1, RF_NUM, 1);
		for (int l = 0; l < 2; l++) {
			char line[48];

			name2(line, sizeof(line), stem, line_names[l]);
			add(obj, line, at + offsetof(struct rec_psi, line) + r * 2 + l, 1, RF_NUM, 1);
			for (int a = 0; a < 3; a++) {
				name2(name, sizeof(name), line, avg_names[a]);
				add(obj, name, at + offsetof(struct rec_psi, avg) + ((r * 2 + l) * 3 + a) * 8, 8, RF_NUM, 1);
			}
			name2(name, sizeof(name), line, "total_us");
			add(obj, name, at + offsetof(struct rec_psi, total) + (r * 2 + l) * 8, 8, RF_NUM, 1);
		}
	}
	for (int r = 0; r < PSI_COUNT; r++)
		for (int l = 0; l < 2; l++) {
			snprintf(name, sizeof(name), "psi.%s.%s.share", psi_name(r), line_names[l]);
			add(obj, name, at + offsetof(struct rec_psi, pct) + (r * 2 + l) * 8, 8, RF_NUM, 2);
		}
}

static void add_head_fields(void)
{
#define HEAD_FIELD_ADD(member, type, snap, conv, check) \
	add(RO_HEAD, #member, offsetof(struct rec_head, member), sizeof(type), RF_NUM, 1);
	HEAD_FIELDS(HEAD_FIELD_ADD)
#undef HEAD_FIELD_ADD
	add_psi(RO_HEAD, offsetof(struct rec_head, psi));
}

static void add_cgroup_fields(void)
{
	char name[32];

	ADD(RO_CGROUP, struct rec_cgroup, path, "path", RF_NUM, 1);
	for (int s = 0; s < CG_STATES; s++) {
		snprintf(name, sizeof(name), "states.%d", s);
		add(RO_CGROUP, name, offsetof(struct rec_cgroup, states) + s * 8, 8, RF_NUM, 1);
	}
	ADD(RO_CGROUP, struct rec_cgroup, have_states, "have_states", RF_NUM, 1);
	ADD(RO_CGROUP, struct rec_cgroup, busy, "busy", RF_NUM, 1);
	add_psi(RO_CGROUP, offsetof(struct rec_cgroup, psi));
	ADD(RO_CGROUP, struct rec_cgroup, identity_uid, "identity_uid", RF_NUM, 1); /* since 1.2 */
}

/* Phase 1 first: a reader applies a task's first-phase changes before it predicts the rest. */
static void order_by_phase(int obj)
{
	struct rec_field tmp[MAX_FIELDS];
	size_t n = 0;

	for (int phase = 1; phase <= REC_PHASES; phase++)
		for (size_t i = 0; i < table.n[obj]; i++)
			if (table.f[obj][i].phase == phase)
				tmp[n++] = table.f[obj][i];
	memcpy(table.f[obj], tmp, n * sizeof(tmp[0]));
}

static void build_table(void)
{
	add_head_fields();
	add_task_fields();
	add_cgroup_fields();
	for (int o = 0; o < RO_COUNT; o++)
		order_by_phase(o);
}

const struct rec_field *rec_fields(int object, size_t *n)
{
	pthread_once(&table_once, build_table);
	*n = table.n[object];
	return table.f[object];
}

uint64_t rec_get(const struct rec_field *f, const void *obj)
{
	const unsigned char *p = (const unsigned char *)obj + f->offset;
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (f->size) {
	case 1:
		memcpy(&u8, p, 1);
		return u8;
	case 2:
		memcpy(&u16, p, 2);
		return u16;
	case 4:
		memcpy(&u32, p, 4);
		return u32;
	default:
		memcpy(&u64, p, 8);
		return u64;
	}
}

void rec_set(const struct rec_field *f, void *obj, uint64_t v)
{
	unsigned char *p = (unsigned char *)obj + f->offset;
	uint8_t u8 = (uint8_t)v;
	uint16_t u16 = (uint16_t)v;
	uint32_t u32 = (uint32_t)v;

	switch (f->size) {
	case 1:
		memcpy(p, &u8, 1);
		break;
	case 2:
		memcpy(p, &u16, 2);
		break;
	case 4:
		memcpy(p, &u32, 4);
		break;
	default:
		memcpy(p, &v, 8);
	}
}

/* ---- the header ---- */

static const char *const object_names[RO_COUNT] = { "head", "task", "cgroup" };
static const char type_letters[] = "nkau"; /* enum rec_ftype */

void rec_header_format(struct outbuf *o, const char *host, int64_t started_ns)
{
	size_t start = o->len;

	out_str(o, REC_MAGIC);
	out_printf(o, "format %d.%d\n", REC_MAJOR, REC_MINOR);
	out_printf(o, "writer %s %s\n", PACKAGE, VERSION);
	out_str(o, "host ");
	for (const char *c = host; *c; c++)
		out_char(o, *c > ' ' && *c < 127 ? *c : '?');
	out_printf(o, "\nstarted %lld\n", (long long)started_ns);
	out_str(o, "kinds");
	for (int k = 0; k < DK_COUNT; k++)
		out_printf(o, " %s", delay_kinds[k].key);
	out_str(o, "\nwaits");
	for (int k = 0; k < LAT_KINDS; k++)
		out_printf(o, " %s", lat_kind_key(k));
	out_str(o, "\naccts");
	for (int f = 0; f < AF_COUNT; f++)
		out_printf(o, " %s", acct_fields[f].key);
	out_char(o, '\n');
	for (int obj = 0; obj < RO_COUNT; obj++) {
		size_t n;
		const struct rec_field *f = rec_fields(obj, &n);

		for (int phase = 1; phase <= REC_PHASES; phase++) {
			int any = 0;

			for (size_t i = 0; i < n; i++)
				any |= f[i].phase == phase;
			if (!any)
				continue;
			out_printf(o, "fields %s %d", object_names[obj], phase);
			for (size_t i = 0; i < n; i++)
				if (f[i].phase == phase)
					out_printf(o, " %s:%c", f[i].name, type_letters[f[i].type]);
			out_char(o, '\n');
		}
	}
	rec_header_seal(o, start);
}

void rec_header_seal(struct outbuf *o, size_t start)
{
	out_printf(o, "crc %08x\n\n", rec_crc32(0, o->data + start, o->len - start));
}

static int find_field(int obj, const char *name, size_t len)
{
	size_t n;
	const struct rec_field *f = rec_fields(obj, &n);

	for (size_t i = 0; i < n; i++)
		if (strlen(f[i].name) == len && memcmp(f[i].name, name, len) == 0)
			return (int)i;
	return -1;
}

/* "kinds cpu io ..." or "accts read ...": the file's bit i to ours. */
static void parse_keys(int *map, const char *line, int (*find)(const char *))
{
	char buf[1024], *save = NULL, *word;
	int i = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	for (word = strtok_r(buf, " ", &save); word && i < 16; word = strtok_r(NULL, " ", &save))
		map[i++] = find(word);
}

static int parse_fields(struct rec_schema *s, char *line)
{
	char *save = NULL, *word = strtok_r(line, " ", &save), *ph = strtok_r(NULL, " ", &save);
	int obj = -1, phase = ph ? atoi(ph) : 0;

	for (int o = 0; o < RO_COUNT; o++)
		if (word && strcmp(word, object_names[o]) == 0)
			obj = o;
	if (obj < 0 || phase < 1)
		return 0; /* an object this reader does not know: skipped */
	if (phase > REC_PHASES)
		phase = REC_PHASES; /* a later phase: predicted with the last this reader knows */
	while ((word = strtok_r(NULL, " ", &save))) {
		char *colon = strchr(word, ':');
		size_t len = colon ? (size_t)(colon - word) : strlen(word);
		const char *letter = colon && colon[1] && !colon[2] ? strchr(type_letters, colon[1]) : NULL;
		int type = letter ? (int)(letter - type_letters) : RF_UNKNOWN, ours = find_field(obj, word, len);
		size_t n;
		const struct rec_field *f = rec_fields(obj, &n);

		if (ours >= 0 && f[ours].type != type)
			ours = -1; /* the same name read another way: not ours */
		s->map[obj] = xrealloc(s->map[obj], (s->nfields[obj] + 1) * sizeof(int));
		s->types[obj] = xrealloc(s->types[obj], s->nfields[obj] + 1);
		s->types[obj][s->nfields[obj]] = (uint8_t)type;
		s->phases[obj] = xrealloc(s->phases[obj], s->nfields[obj] + 1);
		s->phases[obj][s->nfields[obj]] = (uint8_t)phase;
		s->map[obj][s->nfields[obj]++] = ours;
	}
	return 0;
}

void rec_schema_free(struct rec_schema *s)
{
	for (int o = 0; o < RO_COUNT; o++) {
		free(s->map[o]);
		free(s->types[o]);
		free(s->phases[o]);
	}
	memset(s, 0, sizeof(*s));
}

int rec_header_parse(struct rec_schema *s, const char *text, size_t len, char *err, size_t errlen)
{
	size_t magic = strlen(REC_MAGIC), pos;
	const char *end;
	int sealed = 0;

	memset(s, 0, sizeof(*s));
	for (int i = 0; i < 16; i++)
		s->kind_map[i] = s->acct_map[i] = i < DK_COUNT ? i : -1;
	for (int i = 0; i < 16; i++)
		s->acct_map[i] = i < AF_COUNT ? i : -1;
	for (int i = 0; i < 16; i++)
		s->wait_map[i] = i < LAT_KINDS ? i : -1;
	if (len < magic && memcmp(text, REC_MAGIC, len) == 0)
		return -EAGAIN;
	if (len < magic || memcmp(text, REC_MAGIC, magic) != 0) {
		snprintf(err, errlen, "%s", _("not a delaytop recording"));
		return -EPROTO;
	}
	end = memmem(text, len, "\n\n", 2);
	if (!end)
		return len > (1u << 20) ? (snprintf(err, errlen, "%s", _("the header does not end")), -EINVAL) : -EAGAIN;
	s->header_len = (size_t)(end - text) + 2;
	for (pos = magic; pos < s->header_len - 1;) {
		const char *nl = memchr(text + pos, '\n', s->header_len - pos);
		size_t n = (size_t)(nl - (text + pos));
		char *line = xmalloc(n + 1);
		unsigned crc;

		memcpy(line, text + pos, n);
		line[n] = '\0';
		if (sscanf(line, "crc %8x", &crc) == 1 && n == 12) /* the last line: it covers all before it */
			sealed = crc == rec_crc32(0, text, pos) && pos + n + 2 == s->header_len ? 1 : -1;
		pos += n + 1;
		if (sscanf(line, "format %d.%d", &s->major, &s->minor) == 2) {
		} else if (strncmp(line, "writer ", 7) == 0) {
			snprintf(s->writer, sizeof(s->writer), "%s", line + 7);
		} else if (strncmp(line, "host ", 5) == 0) {
			snprintf(s->host, sizeof(s->host), "%s", line + 5);
		} else if (strncmp(line, "started ", 8) == 0) {
			s->started_ns = strtoll(line + 8, NULL, 10);
		} else if (strncmp(line, "kinds ", 6) == 0) {
			parse_keys(s->kind_map, line + 6, delaykind_find);
		} else if (strncmp(line, "waits ", 6) == 0) {
			parse_keys(s->wait_map, line + 6, lat_kind_find);
		} else if (strncmp(line, "accts ", 6) == 0) {
			parse_keys(s->acct_map, line + 6, acct_find);
		} else if (strncmp(line, "fields ", 7) == 0) {
			parse_fields(s, line + 7);
		}
		free(line);
	}
	if (s->major <= 0) {
		snprintf(err, errlen, "%s", _("the header has no format version"));
		rec_schema_free(s);
		return -EINVAL;
	}
	if (s->major > REC_MAJOR) {
		snprintf(err, errlen, F_(N_("written in format %d.%d, which this delaytop (%s, format %d.%d) cannot read")),
			 s->major, s->minor, VERSION, REC_MAJOR, REC_MINOR);
		rec_schema_free(s);
		return -ENOTSUP;
	}
	if (sealed <= 0) {
		snprintf(err, errlen, "%s", _("the header is damaged: its checksum does not match"));
		rec_schema_free(s);
		return -EINVAL;
	}
	for (int o = 0; o < RO_COUNT; o++)
		if (!s->nfields[o]) {
			snprintf(err, errlen, F_(N_("the header lists no %s fields")), object_names[o]);
			rec_schema_free(s);
			return -EINVAL;
		}
	return 0;
}

int rec_schema_native(const struct rec_schema *s)
{
	for (int o = 0; o < RO_COUNT; o++) {
		size_t n;

		rec_fields(o, &n);
		if (s->nfields[o] != n)
			return 0;
		for (size_t i = 0; i < n; i++)
			if (s->map[o][i] != (int)i || s->phases[o][i] != rec_fields(o, &n)[i].phase)
				return 0;
	}
	for (int i = 0; i < 16; i++)
		if (s->kind_map[i] != (i < DK_COUNT ? i : -1) || s->acct_map[i] != (i < AF_COUNT ? i : -1) ||
		    s->wait_map[i] != (i < LAT_KINDS ? i : -1))
			return 0;
	return s->major == REC_MAJOR && s->minor == REC_MINOR;
}

/* ---- predictions ---- */

void rec_predict_task(struct rec_task *t, uint64_t dmono)
{
	dmono = sample_unit(dmono); /* the readings' times are whole microseconds */
	t->base = t->last;
	t->acct.base = t->acct.last;
	t->last.when_ns += dmono;
	if (t->last.age_ns)
		t->last.age_ns += dmono;
	t->fresh = 0;
}

void rec_predict_base(struct rec_task *t, uint64_t dmono)
{
	dmono = sample_unit(dmono);
	if (t->fresh)
		return; /* it has no reading before */
	if (!t->base.threads) {
		/* new to the reader (a reading counts one thread at least): its reading before is
		 * expected to be like this one */
		t->base = t->last;
		t->acct.base = t->acct.last;
		t->base.age_ns = t->last.age_ns > dmono ? t->last.age_ns - dmono : 0;
	}
	t->base.when_ns = t->last.when_ns > dmono ? t->last.when_ns - dmono : 0;
}

void rec_predict_totals(struct rec_task *t, struct task_rates *r)
{
	if (t->departed || t->fresh) {
		rates_unavailable(r);
		return;
	}
	rates_compute(&t->base, &t->last, &t->peak, r);
	rates_compute_acct(&t->base, &t->last, &t->acct.base, &t->acct.last, r);
	totals_add_delta(&t->acc, &t->base, &t->last, &t->peak, r->impossible);
	totals_add_acct_delta(&t->acc, &t->acct.base, &t->acct.last);
}

void rec_psi_from(struct rec_psi *p, const struct psi_snapshot *s)
{
	memset(p, 0, sizeof(*p));
	p->when_ns = s->when_ns;
	for (int r = 0; r < PSI_COUNT; r++) {
		const struct psi_line *lines[2] = { &s->res[r].some, &s->res[r].full };

		p->present[r] = (uint8_t)s->res[r].present;
		for (int l = 0; l < 2; l++) {
			double pct = lines[l]->pct;

			p->line[r][l] = (uint8_t)lines[l]->present;
			p->avg[r][l][0] = (uint64_t)llround(lines[l]->avg10 * 100);
			p->avg[r][l][1] = (uint64_t)llround(lines[l]->avg60 * 100);
			p->avg[r][l][2] = (uint64_t)llround(lines[l]->avg300 * 100);
			p->total[r][l] = lines[l]->total_us;
			memcpy(&p->pct[r][l], &pct, 8);
		}
	}
}

void rec_psi_to(const struct rec_psi *p, struct psi_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	s->when_ns = p->when_ns;
	for (int r = 0; r < PSI_COUNT; r++) {
		struct psi_line *lines[2] = { &s->res[r].some, &s->res[r].full };

		s->res[r].present = p->present[r];
		for (int l = 0; l < 2; l++) {
			lines[l]->present = p->line[r][l];
			lines[l]->avg10 = (double)p->avg[r][l][0] / 100;
			lines[l]->avg60 = (double)p->avg[r][l][1] / 100;
			lines[l]->avg300 = (double)p->avg[r][l][2] / 100;
			lines[l]->total_us = p->total[r][l];
			memcpy(&lines[l]->pct, &p->pct[r][l], 8);
		}
	}
}

void rec_predict_psi(struct rec_psi *p, uint64_t dmono)
{
	p->when_ns += dmono;
}

void rec_predict_shares(struct rec_psi *p, const struct rec_psi *prev)
{
	struct psi_snapshot a, b;

	rec_psi_to(prev, &a);
	rec_psi_to(p, &b);
	for (int r = 0; r < PSI_COUNT; r++)
		b.res[r].some.pct = b.res[r].full.pct = NAN;
	psi_interval(&a, &b);
	for (int r = 0; r < PSI_COUNT; r++) {
		memcpy(&p->pct[r][0], &b.res[r].some.pct, 8);
		memcpy(&p->pct[r][1], &b.res[r].full.pct, 8);
	}
}

/* ---- integers ---- */

void rec_put_uint(struct outbuf *o, uint64_t v)
{
	char buf[10];
	size_t n = 0;

	while (v >= 0x80) {
		buf[n++] = (char)(v | 0x80);
		v >>= 7;
	}
	buf[n++] = (char)v;
	out_mem(o, buf, n);
}

void rec_put_int(struct outbuf *o, int64_t v)
{
	rec_put_uint(o, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

int rec_get_uint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	uint64_t x = 0;

	for (int shift = 0; shift < 64 && *p < end; shift += 7) {
		uint8_t b = *(*p)++;

		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -1;
}

int rec_get_int(const uint8_t **p, const uint8_t *end, int64_t *v)
{
	uint64_t u;

	if (rec_get_uint(p, end, &u) < 0)
		return -1;
	*v = (int64_t)((u >> 1) ^ (~(u & 1) + 1));
	return 0;
}

static uint32_t crc_table[256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xEDB88320u & (~(c & 1) + 1));
		crc_table[i] = c;
	}
}

uint32_t rec_crc32(uint32_t crc, const void *data, size_t n)
{
	const unsigned char *p = data;

	pthread_once(&crc_once, crc_init);
	crc = ~crc;
	while (n--)
		crc = (crc >> 8) ^ crc_table[(crc ^ *p++) & 0xff];
	return ~crc;
}
