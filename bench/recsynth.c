/* recsynth.c — a long recording made quickly, for bench/record.sh's seek times: N tasks of which
 * K change at each of R readings one second apart (by the wall clock of the readings, which are
 * made as fast as the encoder goes), through the recorder that -w uses.
 *
 *   recsynth FILE N K R */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model.h"
#include "recorder.h"
#include "xalloc.h"

struct synth_task {
	struct sample base, last;
	struct acct_pair acct;
	struct peaks peak;
	struct kind_totals acc;
	char comm[16], cmdline[64];
};

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Task i's counters after one more second; changed: it ran and waited. */
static void step(struct synth_task *t, int changed, uint64_t *seed)
{
	t->base = t->last;
	t->acct.base = t->acct.last;
	t->last.when_ns += 1000000000;
	t->last.age_ns += 1000000000;
	if (!changed)
		return;
	t->last.count[DK_CPU] += 1 + rnd(seed) % 20;
	t->last.total[DK_CPU] += rnd(seed) % 50000000;
	t->last.run_ns += rnd(seed) % 20000000;
	t->acct.last.acct[AF_UTIME] += rnd(seed) % 20000;
	t->acct.last.acct[AF_STIME] += rnd(seed) % 5000;
	t->acct.last.acct[AF_VCSW] += rnd(seed) % 20;
	t->acct.last.acct[AF_IVCSW] += rnd(seed) % 5;
}

int main(int argc, char **argv)
{
	struct recorder_opts ro = { 0 };
	struct recorder *rec;
	struct synth_task *tasks;
	struct row *rows;
	struct snapshot snap;
	size_t n, k, readings;
	uint64_t seed = 88172645463325252ull;
	int64_t t0 = (int64_t)time(NULL) - 86400;
	char err[512];

	if (argc != 5) {
		fprintf(stderr, "usage: recsynth FILE N K READINGS\n");
		return 2;
	}
	n = strtoul(argv[2], NULL, 10);
	k = strtoul(argv[3], NULL, 10);
	readings = strtoul(argv[4], NULL, 10);
	ro.path = argv[1];
	if (n == 0 || k > n || recorder_open(&rec, &ro, err, sizeof(err)) < 0) {
		fprintf(stderr, "recsynth: %s\n", n == 0 || k > n ? "bad N or K" : err);
		return 1;
	}
	tasks = xcalloc(n, sizeof(*tasks));
	rows = xcalloc(n, sizeof(*rows));
	for (size_t i = 0; i < n; i++) {
		struct synth_task *t = &tasks[i];

		t->last.threads = 1;
		t->last.kind_total = t->last.kind_count = (kind_mask)((1u << DK_COUNT) - 1);
		t->last.have_run = 1;
		t->acct.last.acct_have =
			(acct_mask)((1u << AF_UTIME) | (1u << AF_STIME) | (1u << AF_VCSW) | (1u << AF_IVCSW));
		snprintf(t->comm, sizeof(t->comm), "synth%zu", i % 97);
		snprintf(t->cmdline, sizeof(t->cmdline), "/usr/bin/synth --worker %zu", i);
	}
	for (size_t r = 0; r < readings; r++) {
		memset(&snap, 0, sizeof(snap));
		snap.wall.tv_sec = (time_t)(t0 + (int64_t)r);
		snap.interval_s = r ? 1.0 : 0.0;
		snap.elapsed_s = (double)r;
		snap.nprocs = (unsigned)n;
		snap.nthreads = (unsigned)n;
		snap.delayacct = 1;
		snap.listening = 1;
		snap.psi.when_ns = (uint64_t)r * 1000000000;
		for (size_t i = 0; i < n; i++) {
			struct synth_task *t = &tasks[i];
			struct row *row = &rows[i];

			step(t, r && (i + r) % (n / (k ? k : 1)) == 0, &seed);
			memset(row, 0, sizeof(*row));
			row->pid = (uint32_t)(1000 + i);
			row->start_ns = 1000000ull * i;
			row->state = 'S';
			row->user = "root";
			row->comm = t->comm;
			row->cmdline = t->cmdline;
			row->cgroup = "/system.slice/synth.service";
			row->nthreads = 1;
			row->parent = -1;
			row->fresh = r == 0;
			if (r) {
				rates_compute(&t->base, &t->last, &t->peak, &row->r);
				rates_compute_acct(&t->base, &t->last, &t->acct.base, &t->acct.last, &row->r);
			} else {
				rates_unavailable(&row->r);
			}
			if (r) {
				totals_add_delta(&t->acc, &t->base, &t->last, &t->peak, row->r.impossible);
				totals_add_acct_delta(&t->acc, &t->acct.base, &t->acct.last);
			}
			row->acc = &t->acc;
			row->last = &t->last;
			row->acct = &t->acct;
			row->peak = &t->peak;
			row->base = r ? &t->base : NULL;
		}
		snap.rows = rows;
		snap.nrows = n;
		if (recorder_write(rec, &snap, NULL, err, sizeof(err)) < 0) {
			fprintf(stderr, "recsynth: %s\n", err);
			return 1;
		}
	}
	if (recorder_close(rec, err, sizeof(err)) < 0) {
		fprintf(stderr, "recsynth: %s\n", err);
		return 1;
	}
	printf("%zu readings of %zu tasks written to %s\n", readings, n, argv[1]);
	free(tasks);
	free(rows);
	return 0;
}
