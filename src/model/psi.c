/* psi.c — pressure stall information without the files: the resources' names and labels, a
 * pressure file's text parsed, interval shares from two readings. Pure; psifile.c reads the files. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "i18n.h"
#include "psi.h"

static const char *const names[PSI_COUNT] = {
	[PSI_CPU] = "cpu", [PSI_MEMORY] = "memory", [PSI_IO] = "io", [PSI_IRQ] = "irq",
};
static const char *const labels[PSI_COUNT] = {
	[PSI_CPU] = N_("CPU"), [PSI_MEMORY] = N_("memory"), [PSI_IO] = N_("I/O"), [PSI_IRQ] = N_("IRQ"),
};

const char *psi_name(int res)
{
	return names[res];
}

const char *psi_label(int res)
{
	return labels[res];
}

int psi_label_width(void)
{
	int w = 0;

	for (int r = 0; r < PSI_COUNT; r++)
		if (text_width(_(labels[r])) > w)
			w = text_width(_(labels[r]));
	return w;
}

/* Parses "avg10=0.12 avg60=0.05 avg300=0.01 total=12345" after the some/full word. */
static int parse_fields(const char *s, struct psi_line *l)
{
	int n = 0;
	unsigned long long total;

	if (sscanf(s, " avg10=%lf avg60=%lf avg300=%lf total=%llu%n", &l->avg10, &l->avg60, &l->avg300,
		   &total, &n) != 4 || n == 0)
		return -EINVAL;
	if (!isfinite(l->avg10) || !isfinite(l->avg60) || !isfinite(l->avg300))
		return -EINVAL;
	l->total_us = total;
	l->present = 1;
	l->pct = NAN;
	return 0;
}

int psi_parse(const char *text, struct psi_resource *out)
{
	const char *line = text;

	memset(out, 0, sizeof(*out));
	out->some.pct = out->full.pct = NAN;
	while (line && *line) {
		if (strncmp(line, "some", 4) == 0)
			parse_fields(line + 4, &out->some);
		else if (strncmp(line, "full", 4) == 0)
			parse_fields(line + 4, &out->full);
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	out->present = out->some.present || out->full.present;
	return out->present ? 0 : -EINVAL;
}

static void line_interval(const struct psi_line *prev, struct psi_line *cur, double wall_us)
{
	cur->pct = NAN;
	if (!prev->present || !cur->present || wall_us <= 0)
		return;
	/* A total that went backwards (a cgroup recreated) gives no rate rather than a negative one. */
	cur->pct = cur->total_us >= prev->total_us ? (cur->total_us - prev->total_us) / wall_us * 100.0 : NAN;
	/* A share of the time cannot pass all of it: what does is the few microseconds between the
	 * kernel's clock and ours at the two readings. */
	if (cur->pct > 100.0)
		cur->pct = 100.0;
}

void psi_interval(const struct psi_snapshot *prev, struct psi_snapshot *cur)
{
	double wall_us = cur->when_ns > prev->when_ns ? (cur->when_ns - prev->when_ns) / 1e3 : 0;

	for (int r = 0; r < PSI_COUNT; r++) {
		line_interval(&prev->res[r].some, &cur->res[r].some, wall_us);
		line_interval(&prev->res[r].full, &cur->res[r].full, wall_us);
	}
}
