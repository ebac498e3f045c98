/* fuzz_recrecord.c — records decoded on their own (recdecode.c), as a segment's decompressed data
 * is: the input is a stream of records read by a decoder of this delaytop's own header (its
 * fields, as a file it wrote lists them), each reading made into a snapshot (rates, cgroup tree).
 * Bounded as a reader of a file of the input's size is. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "recdecode.h"
#include "recformat.h"

static struct rec_schema schema;

/* The schema of a header this delaytop writes. */
static void make_schema(void)
{
	struct outbuf o = { 0 };
	char err[512];

	rec_header_format(&o, "fuzz", 1700000000000000000ll);
	if (rec_header_parse(&schema, o.data, o.len, err, sizeof(err)) != 0)
		abort();
	out_free(&o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rec_decoder d;
	struct snapshot snap;
	size_t pos = 0;
	char err[256] = "";

	if (!schema.nfields[RO_HEAD])
		make_schema();
	rec_decoder_init(&d, &schema);
	rec_decoder_bound(&d, size);
	while (pos < size) {
		int type;
		long used = rec_decode(&d, data + pos, size - pos, &type, err, sizeof(err));

		if (used < 0 && !err[0])
			abort(); /* damage says how */
		if (used <= 0)
			break;
		pos += (size_t)used;
		if (type)
			rec_decoder_snapshot(&d, &snap);
	}
	rec_decoder_free(&d);
	return 0;
}
