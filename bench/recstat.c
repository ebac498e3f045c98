/* recstat.c — what a recording holds and what it costs: readings, key readings, the task
 * readings its records carried (a task that did not change is carried by none), the tasks each
 * reading had, and the bytes on disk per task reading carried. For bench/record.sh.
 *
 *   recstat FILE */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "recdecode.h"
#include "recfile.h"

int main(int argc, char **argv)
{
	struct recread *r;
	struct rec_decoder d;
	size_t nsegs;
	uint64_t readings = 0, keys = 0, carried = 0, carried_keys = 0, live = 0, raw = 0, raw_keys = 0;
	char err[512];
	struct stat st;

	if (argc != 2 || stat(argv[1], &st) < 0 || recread_open(&r, argv[1], err, sizeof(err)) < 0) {
		fprintf(stderr, "usage: recstat FILE (a recording)\n");
		return 2;
	}
	rec_decoder_init(&d, recread_schema(r));
	recread_segments(r, &nsegs);
	for (size_t i = 0; i < nsegs; i++) {
		const uint8_t *data;
		size_t len, pos = 0;
		off_t at;

		recread_segment(r, i, &data, &len, &at);
		while (pos < len) {
			int type;
			long used = rec_decode(&d, data + pos, len - pos, &type, err, sizeof(err));

			if (used <= 0)
				break;
			pos += (size_t)used;
			readings++;
			if (type == REC_KEY) {
				keys++;
				carried_keys += d.listed;
				raw_keys += (uint64_t)used;
			} else {
				carried += d.listed;
				raw += (uint64_t)used;
			}
			for (size_t t = 0; t < d.st.ntasks; t++)
				live += d.st.live[t];
		}
	}
	printf("bytes %lld\nsegments %zu\nreadings %llu\nkey_readings %llu\n", (long long)st.st_size, nsegs,
	       (unsigned long long)readings, (unsigned long long)keys);
	printf("tasks_per_reading %.1f\n", readings ? (double)live / (double)readings : 0.0);
	printf("changed_task_readings %llu\nkey_task_readings %llu\n", (unsigned long long)carried,
	       (unsigned long long)carried_keys);
	printf("raw_bytes_key_readings %llu\nraw_bytes_other_readings %llu\n", (unsigned long long)raw_keys,
	       (unsigned long long)raw);
	printf("bytes_per_changed_task_reading %.2f\n", carried ? (double)st.st_size / (double)carried : 0.0);
	rec_decoder_free(&d);
	recread_close(r);
	return 0;
}
