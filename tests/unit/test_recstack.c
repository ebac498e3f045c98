/* test_recstack.c — the stacks' section of a record (recstack.h, format 1.4): written and read
 * back whole, each frame name once; nothing written when stacks were not taken; damage refused
 * (a slot out of order, an unknown state, a frame past the names, a name with a NUL, a cut
 * section); and through the whole codec: a reading with stacks keeps those of the rows the
 * encoder is told to keep and no other, and a record whose stacks are damaged is refused with a
 * message. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "recdecode.h"
#include "recencode.h"
#include "recformat.h"
#include "recstack.h"
#include "tap.h"

static const char *const fsync_frames[] = { "io_schedule+0x46", "do_fsync+0x38", "wait_on_fsync+0x5e", "main+0x9c" };
static const char *const pipe_frames[] = { "schedule+0x27", "anon_pipe_read+0x2c3", "wait_on_pipe+0x1a", "main+0x40" };
static const char *const odd_frames[] = { "<script>\xff+0x1", "main+0x40" };

static const struct stk_stack two[] = {
	{ .ms = 812.345678, .count = 40, .state = STK_D, .nframes = 4, .frames = fsync_frames },
	{ .ms = 3.5, .count = 2, .state = STK_S, .nframes = 4, .frames = pipe_frames },
};
static const struct stk_stack one[] = { { .ms = 0.001, .count = 1, .state = STK_RUNNABLE, .nframes = 2, .frames = odd_frames } };

/* A section of two tasks (slots 9 and 4, added out of order). */
static void make(struct rec_stk *l, struct outbuf *o)
{
	struct stk_list a = { 2, two }, b = { 1, one };

	memset(l, 0, sizeof(*l));
	rec_stk_start(l, 17);
	rec_stk_add(l, 9, &a);
	rec_stk_add(l, 4, &b);
	rec_stk_put(o, l);
}

static int same_stack(const struct stk_stack *x, const struct stk_stack *y)
{
	if (x->state != y->state || x->count != y->count || x->nframes != y->nframes || fabs(x->ms - y->ms) > 1e-9)
		return 0;
	for (size_t i = 0; i < x->nframes; i++)
		if (strcmp(x->frames[i], y->frames[i]) != 0)
			return 0;
	return 1;
}

static void test_round_trip(void)
{
	struct rec_stk w, r;
	struct outbuf o = { 0 };
	const struct stk_list *x, *y;
	const uint8_t *p;

	make(&w, &o);
	memset(&r, 0, sizeof(r));
	p = (const uint8_t *)o.data;
	is_int(rec_stk_get(&r, &p, p + o.len, 100), 0, "a section reads back");
	ok(p == (const uint8_t *)o.data + o.len, "whole");
	ok(r.present && r.lost == 17, "it says stacks were taken, and what did not fit (17)");
	x = rec_stk_of(&r, 9);
	y = rec_stk_of(&r, 4);
	ok(x && x->n == 2 && same_stack(&x->s[0], &two[0]) && same_stack(&x->s[1], &two[1]),
	   "slot 9: its two stacks, state, ms (to the ns), count and frames as written");
	ok(y && y->n == 1 && same_stack(&y->s[0], &one[0]), "slot 4: a frame not UTF-8, with markup, as written");
	ok(!rec_stk_of(&r, 5) && !rec_stk_of(&r, 1000), "a slot not kept has none");
	is_int(r.nnames, 9, "each frame name once: 9 names for 10 frames (main+0x40 twice)");
	rec_stk_clear(&r);
	ok(!rec_stk_of(&r, 9) && !r.present, "cleared: no stacks (a record without the section)");
	rec_stk_free(&r);
	rec_stk_free(&w);
	out_free(&o);
}

static void test_none(void)
{
	struct rec_stk l;
	struct outbuf o = { 0 };
	const uint8_t *p;
	struct stk_list a = { 2, two };

	memset(&l, 0, sizeof(l));
	rec_stk_add(&l, 3, &a);
	rec_stk_put(&o, &l);
	is_int(o.len, 0, "stacks not taken: no section at all");
	rec_stk_start(&l, 0);
	rec_stk_put(&o, &l);
	is_int(o.len, 3, "taken, none kept: 3 bytes");
	rec_stk_start(&l, 0);
	rec_stk_add(&l, 3, &a);
	rec_stk_add(&l, 3, &a);
	o.len = 0;
	rec_stk_put(&o, &l);
	rec_stk_free(&l);
	memset(&l, 0, sizeof(l));
	p = (const uint8_t *)o.data;
	ok(rec_stk_get(&l, &p, p + o.len, 100) == 0 && l.nt == 1 && rec_stk_of(&l, 3),
	   "a slot given twice is written once, and reads");
	rec_stk_free(&l);
	out_free(&o);
}

/* section bytes of one task (slot, a stack of state, frame index) after names */
static int get_bytes(const uint8_t *b, size_t n)
{
	struct rec_stk l;
	const uint8_t *p = b;
	int rc;

	memset(&l, 0, sizeof(l));
	rc = rec_stk_get(&l, &p, b + n, 100);
	if (rc < 0 && (l.present || rec_stk_of(&l, 0)))
		rc = -2; /* refused but something kept */
	rec_stk_free(&l);
	return rc;
}

static void test_damage(void)
{
	struct rec_stk w;
	struct outbuf o = { 0 };
	size_t refused = 0;
	/* lost 0; 1 name "ab"; 1 task: slot 2, 1 stack: state S, 5 ns, count 1, 1 frame: name 0 */
	uint8_t good[] = { 0, 1, 2, 'a', 'b', 1, 2, 1, 2, 5, 1, 1, 0 };
	uint8_t b[sizeof(good)];

	is_int(get_bytes(good, sizeof(good)), 0, "a section made by hand reads");
	memcpy(b, good, sizeof(b));
	b[8] = 3;
	is_int(get_bytes(b, sizeof(b)), -1, "an unknown state (3): refused, nothing kept");
	memcpy(b, good, sizeof(b));
	b[12] = 1;
	is_int(get_bytes(b, sizeof(b)), -1, "a frame past the names: refused");
	memcpy(b, good, sizeof(b));
	b[3] = '\0';
	is_int(get_bytes(b, sizeof(b)), -1, "a name holding a NUL: refused");
	memcpy(b, good, sizeof(b));
	b[6] = 100;
	is_int(get_bytes(b, sizeof(b)), -1, "a slot past the bound: refused");
	{
		/* two tasks, the second at the same slot (gap 0) */
		uint8_t twice[] = { 0, 1, 2, 'a', 'b', 2, 2, 1, 2, 5, 1, 1, 0, 0, 1, 2, 5, 1, 1, 0 };

		is_int(get_bytes(twice, sizeof(twice)), -1, "two entries of one slot: refused");
	}
	make(&w, &o);
	for (size_t cut = 0; cut < o.len; cut++)
		refused += get_bytes((const uint8_t *)o.data, cut) == -1;
	ok(refused == o.len, "cut anywhere before its end: refused (%zu places of %zu)", refused, o.len);
	rec_stk_free(&w);
	out_free(&o);
}

/* ---- through the codec ---- */

/* A reading of three tasks, --why on with stacks taken, each task with stacks. */
static void reading(struct snapshot *s, struct row rows[3], struct stk_list lists[3])
{
	memset(s, 0, sizeof(*s));
	memset(rows, 0, 3 * sizeof(*rows));
	s->wall.tv_sec = 1767225600;
	s->why.state = WHY_ON;
	s->why.attached = s->why.measured = 1;
	s->why.stacks = 1;
	s->why.stacks_lost = 5;
	for (int i = 0; i < 3; i++) {
		row_fields_none(&rows[i].fields);
		rows[i].pid = 100 + (uint32_t)i;
		rows[i].comm = "t";
		rows[i].fresh = 1;
		rates_unavailable(&rows[i].r);
		lists[i] = (struct stk_list){ 2, two };
		rows[i].stacks = &lists[i];
	}
	s->rows = rows;
	s->nrows = 3;
}

static void test_codec(void)
{
	struct rec_schema schema;
	struct outbuf header = { 0 }, rec = { 0 };
	struct rec_encoder e;
	struct rec_decoder d;
	struct snapshot s, back;
	struct row rows[3];
	struct stk_list lists[3];
	const struct row *keep[1];
	char err[256];
	int type;
	long n;

	rec_header_format(&header, "h", 0);
	rec_header_parse(&schema, header.data, header.len, err, sizeof(err));
	rec_encoder_init(&e);
	rec_decoder_init(&d, &schema);
	reading(&s, rows, lists);
	keep[0] = &rows[1];
	rec_encoder_keep_stacks(&e, keep, 1);
	rec_encode(&e, &s, 1, &rec);
	n = rec_decode(&d, (const uint8_t *)rec.data, rec.len, &type, err, sizeof(err));
	is_int(n, (long)rec.len, "a reading with stacks decodes whole");
	rec_decoder_snapshot(&d, &back);
	ok(back.nrows == 3 && back.why.stacks && back.why.stacks_lost == 5,
	   "the reading says its stacks were taken, 5 did not fit");
	ok(!back.rows[0].stacks && !back.rows[2].stacks && back.rows[1].stacks && back.rows[1].stacks->n == 2 &&
		   same_stack(&back.rows[1].stacks->s[0], &two[0]),
	   "only the row it was told to keep has its stacks (pid 101), as taken");
	{ /* --capture's key reading of what a reader knows keeps them */
		struct outbuf key = { 0 };
		struct rec_decoder d2;
		struct snapshot again;

		rec_encode_state(&d.st, &key);
		rec_decoder_init(&d2, &schema);
		n = rec_decode(&d2, (const uint8_t *)key.data, key.len, &type, err, sizeof(err));
		rec_decoder_snapshot(&d2, &again);
		ok(n == (long)key.len && again.why.stacks && again.why.stacks_lost == 5 && !again.rows[0].stacks &&
			   again.rows[1].stacks && again.rows[1].stacks->n == 2 &&
			   same_stack(&again.rows[1].stacks->s[1], &two[1]),
		   "rec_encode_state (--capture's key reading) keeps the reading's stacks");
		rec_decoder_free(&d2);
		out_free(&key);
	}
	/* the next reading keeps none: the rows have none, though the reading took them */
	rec.len = 0;
	reading(&s, rows, lists);
	rec_encode(&e, &s, 0, &rec);
	n = rec_decode(&d, (const uint8_t *)rec.data, rec.len, &type, err, sizeof(err));
	rec_decoder_snapshot(&d, &back);
	ok(n > 0 && back.why.stacks && !back.rows[0].stacks && !back.rows[1].stacks && !back.rows[2].stacks,
	   "the next record keeps none: the encoder's choice was for one record");
	/* a damaged section under a good checksum: its last byte (a frame's index) past the names */
	rec.len = 0;
	rec_encoder_free(&e);
	rec_encoder_init(&e);
	reading(&s, rows, lists);
	rec_encoder_keep_stacks(&e, keep, 1);
	rec_encode(&e, &s, 1, &rec);
	{
		uint8_t *b = (uint8_t *)rec.data;
		size_t len = rec.len - 4, at = len - 1; /* the payload's last byte, before the CRC */
		uint32_t crc;

		const uint8_t *q = b + 1;
		uint64_t plen = 0;

		b[at] = 0x7f;
		rec_get_uint(&q, b + rec.len, &plen); /* the CRC: of the type byte and the payload */
		crc = rec_crc32(rec_crc32(0, b, 1), q, (size_t)plen);
		for (int i = 0; i < 4; i++)
			b[len + (size_t)i] = (uint8_t)(crc >> (8 * i));
	}
	rec_decoder_free(&d);
	rec_decoder_init(&d, &schema);
	err[0] = '\0';
	n = rec_decode(&d, (const uint8_t *)rec.data, rec.len, &type, err, sizeof(err));
	is_int(n, -1, "a record whose stacks name a frame past the names: refused");
	ok(strcmp(err, "malformed record: its off-CPU stacks") == 0, "with a message: '%s'", err);
	rec_decoder_free(&d);
	rec_encoder_free(&e);
	rec_schema_free(&schema);
	out_free(&header);
	out_free(&rec);
}

int main(void)
{
	test_round_trip();
	test_none();
	test_damage();
	test_codec();
	return tap_done();
}
