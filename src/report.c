/* report.c — aggregating a run and printing its report. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "format.h"
#include "i18n.h"
#include "idmap.h"
#include "report.h"
#include "xalloc.h"

/* A process counted whose end has not been seen. */
struct open_proc {
	uint64_t start_s;
	size_t group; /* the group it is counted in */
};

void report_init(struct report *r, char **argv)
{
	memset(r, 0, sizeof(*r));
	r->argv = argv;
	idmap_init(&r->open);
}

void report_free(struct report *r)
{
	size_t pos = 0;
	void *v;

	free(r->groups);
	r->groups = NULL;
	r->ngroups = r->capgroups = 0;
	while (idmap_next(&r->open, &pos, NULL, &v))
		free(v);
	idmap_free(&r->open);
}

/* Milliseconds per wait, from the tasks that gave both a total and a count (a total without a
 * count, as /proc gives I/O delay, has no waits to divide by); NAN without any. */
static double kind_avg_ms(const struct report_kind *rk)
{
	if (!rk->have_count || !rk->have_total)
		return NAN;
	return rk->count ? rk->counted_ns / 1e6 / (double)rk->count : 0;
}

static void add_kinds(struct report_kind *sum, const struct exit_task *t)
{
	for (int k = 0; k < DK_COUNT; k++) {
		unsigned bit = 1u << k;

		if (t->kinds & bit) {
			sum[k].total_ns += t->total_ns[k];
			sum[k].have_total = 1;
		}
		if (t->kinds_count & bit) {
			sum[k].count += t->count[k];
			sum[k].have_count = 1;
			if (t->kinds & bit)
				sum[k].counted_ns += t->total_ns[k];
		}
		if (t->kinds_max & bit) {
			if (t->max_ns[k] > sum[k].max_ns)
				sum[k].max_ns = t->max_ns[k];
			sum[k].have_max = 1;
		}
	}
}

static struct report_group *group_of(struct report *r, const char *comm)
{
	struct report_group *g;

	for (size_t i = 0; i < r->ngroups; i++)
		if (strcmp(r->groups[i].comm, comm) == 0)
			return &r->groups[i];
	r->groups = xgrow(r->groups, &r->capgroups, r->ngroups + 1, sizeof(*r->groups));
	g = &r->groups[r->ngroups++];
	memset(g, 0, sizeof(*g));
	str_copy(g->comm, sizeof(g->comm), comm);
	return g;
}

/* Counts the process of a leader's record once. A second leader record of a process counted
 * before, whose end has not been seen, is the same process: a thread other than the leader ran
 * exec, so the old leader exited with the process's pid and the process lives on under it (with
 * the start time of the old leader). It moves to the group of its new name. */
static void count_process(struct report *r, const struct exit_task *t, size_t group, int running)
{
	struct open_proc *p = idmap_get(&r->open, t->tgid);

	r->running += running != 0;
	if (p && t->start_s <= p->start_s + 1) {
		r->groups[p->group].procs--;
		r->groups[group].procs++;
		p->group = group;
		return;
	}
	if (!p) {
		p = xmalloc(sizeof(*p));
		idmap_put(&r->open, t->tgid, p);
	}
	p->start_s = t->start_s;
	p->group = group;
	r->procs++;
	r->groups[group].procs++;
}

void report_add(struct report *r, const struct exit_task *t, int running)
{
	struct report_group *g = group_of(r, t->comm);

	add_kinds(r->kind, t);
	add_kinds(g->kind, t);
	r->run_ns += t->run_ns;
	g->run_ns += t->run_ns;
	r->threads++;
	g->threads++;
	if (t->tid == t->tgid)
		count_process(r, t, (size_t)(g - r->groups), running);
	if (t->group_dead) /* its pid may now be reused */
		free(idmap_del(&r->open, t->tgid));
}

int report_exit_status(const struct report *r)
{
	if (WIFEXITED(r->wait_status))
		return WEXITSTATUS(r->wait_status);
	if (WIFSIGNALED(r->wait_status))
		return 128 + WTERMSIG(r->wait_status);
	return EXIT_FAILURE;
}

static uint64_t group_total(const struct report_group *g)
{
	uint64_t sum = 0;

	for (int k = 0; k < DK_COUNT; k++)
		sum += g->kind[k].total_ns;
	return sum;
}

static int by_total(const void *a, const void *b)
{
	uint64_t x = group_total(a), y = group_total(b);

	if (x != y)
		return x < y ? 1 : -1;
	return strcmp(((const struct report_group *)a)->comm, ((const struct report_group *)b)->comm);
}

static uint64_t kinds_total(const struct report_kind *k)
{
	uint64_t sum = 0;

	for (int i = 0; i < DK_COUNT; i++)
		sum += k[i].total_ns;
	return sum;
}

/* ---- text ---- */

static void text_cell(struct outbuf *o, double v, int decimals, int width)
{
	char buf[32];

	fmt_cell(buf, v, decimals, width);
	out_char(o, ' ');
	out_padded(o, buf, width, 1);
}

/* The command as one string of display text, its arguments separated by spaces. */
static char *command_text(const struct report *r)
{
	struct outbuf o = { 0 };

	for (char **a = r->argv; a && *a; a++) {
		if (a != r->argv)
			out_char(&o, ' ');
		out_text(&o, *a);
	}
	out_char(&o, '\0');
	return o.data;
}

static void text_summary(struct outbuf *o, const struct report *r)
{
	char *cmd = command_text(r);

	if (WIFSIGNALED(r->wait_status))
		out_printf(o, F_(N_("%s: '%s' was killed by signal %d after %.2f s\n")), PACKAGE, cmd,
			   WTERMSIG(r->wait_status), r->wall_s);
	else
		out_printf(o, F_(N_("%s: '%s' exited with status %d after %.2f s\n")), PACKAGE, cmd,
			   report_exit_status(r), r->wall_s);
	free(cmd);
	out_printf(o, F_(N_("processes %u  threads %u  still running %u  exit records lost %llu\n")), r->procs,
		   r->threads, r->running, (unsigned long long)r->lost);
	if (r->lost)
		out_str(o, _("warning: the kernel dropped exit records; the report misses those tasks "
			     "(a larger --exit-buffer helps)\n"));
	if (r->undecided)
		out_printf(o, ngettext("note: %llu exit record could not be traced to the command and is left out\n",
				       "note: %llu exit records could not be traced to the command and are left out\n",
				       r->undecided),
			   (unsigned long long)r->undecided);
}

/* Titles padded by display width, not bytes, so that translations line up. */
static void text_title(struct outbuf *o, const char *title, int width, int right)
{
	out_char(o, ' ');
	out_padded(o, title, width, right);
}

static void text_kinds(struct outbuf *o, const struct report *r)
{
	out_char(o, '\n');
	out_padded(o, _("DELAY"), 8, 0);
	text_title(o, _("TOTAL s"), 10, 1);
	text_title(o, _("WAITS"), 10, 1);
	text_title(o, _("AVG ms"), 10, 1);
	text_title(o, _("MAX ms"), 10, 1);
	text_title(o, _("% OF RUN"), 9, 1);
	out_char(o, '\n');
	for (int k = 0; k < DK_COUNT; k++) {
		const struct report_kind *rk = &r->kind[k];
		double total = rk->have_total ? rk->total_ns / 1e9 : NAN;

		out_padded(o, _(delay_kinds[k].title), 8, 0);
		text_cell(o, total, 3, 10);
		text_cell(o, rk->have_count ? (double)rk->count : NAN, 0, 10);
		text_cell(o, kind_avg_ms(rk), 3, 10);
		text_cell(o, rk->have_max ? rk->max_ns / 1e6 : NAN, 3, 10);
		text_cell(o, r->wall_s > 0 ? total / r->wall_s * 100.0 : NAN, 1, 9);
		out_char(o, '\n');
	}
	out_padded(o, _("TOTAL"), 8, 0);
	text_cell(o, kinds_total(r->kind) / 1e9, 3, 10);
	out_spaces(o, 33);
	text_cell(o, r->wall_s > 0 ? kinds_total(r->kind) / 1e9 / r->wall_s * 100.0 : NAN, 1, 9);
	out_char(o, '\n');
}

static void text_groups(struct outbuf *o, const struct report *r)
{
	out_char(o, '\n');
	out_padded(o, _("COMMAND"), 16, 0);
	text_title(o, _("PROCS"), 6, 1);
	text_title(o, _("THREADS"), 7, 1);
	text_title(o, _("TOTAL s"), 9, 1);
	for (int k = 0; k < DK_COUNT; k++)
		text_title(o, _(delay_kinds[k].title), 8, 1);
	out_char(o, '\n');
	for (size_t i = 0; i < r->ngroups; i++) {
		const struct report_group *g = &r->groups[i];

		out_padded(o, g->comm, 16, 0);
		out_printf(o, " %6u %7u", g->procs, g->threads);
		text_cell(o, kinds_total(g->kind) / 1e9, 3, 9);
		for (int k = 0; k < DK_COUNT; k++)
			text_cell(o, g->kind[k].have_total ? g->kind[k].total_ns / 1e9 : NAN, 3, 8);
		out_char(o, '\n');
	}
}

/* ---- json ---- */

static void json_num(struct outbuf *o, double v)
{
	char buf[40];

	out_mem(o, buf, fmt_json_number(buf, v));
}

static void json_kinds(struct outbuf *o, const struct report_kind *kind, double wall_s)
{
	out_str(o, "{");
	for (int k = 0; k < DK_COUNT; k++) {
		const struct report_kind *rk = &kind[k];
		double total = rk->have_total ? rk->total_ns / 1e9 : NAN;

		out_printf(o, "%s\"%s\":{\"total_s\":", k ? "," : "", delay_kinds[k].key);
		json_num(o, total);
		out_str(o, ",\"count\":");
		if (rk->have_count)
			out_printf(o, "%llu", (unsigned long long)rk->count);
		else
			out_str(o, "null");
		out_str(o, ",\"avg_ms\":");
		json_num(o, kind_avg_ms(rk));
		out_str(o, ",\"max_ms\":");
		json_num(o, rk->have_max ? rk->max_ns / 1e6 : NAN);
		if (wall_s >= 0) {
			out_str(o, ",\"pct\":");
			json_num(o, wall_s > 0 ? total / wall_s * 100.0 : NAN);
		}
		out_char(o, '}');
	}
	out_char(o, '}');
}

static void report_json(struct outbuf *o, const struct report *r)
{
	out_str(o, "{\"command\":[");
	for (char **a = r->argv; a && *a; a++) {
		if (a != r->argv)
			out_char(o, ',');
		out_json_string(o, *a);
	}
	out_printf(o, "],\"status\":%d,\"signal\":", report_exit_status(r));
	if (WIFSIGNALED(r->wait_status))
		out_printf(o, "%d", WTERMSIG(r->wait_status));
	else
		out_str(o, "null");
	out_str(o, ",\"wall_s\":");
	json_num(o, r->wall_s);
	out_printf(o, ",\"processes\":%u,\"threads\":%u,\"running\":%u,\"exits_lost\":%llu,\"undecided\":%llu,\"total_s\":",
		   r->procs, r->threads, r->running, (unsigned long long)r->lost, (unsigned long long)r->undecided);
	json_num(o, kinds_total(r->kind) / 1e9);
	out_str(o, ",\"run_s\":");
	json_num(o, r->run_ns / 1e9);
	out_str(o, ",\"delay\":");
	json_kinds(o, r->kind, r->wall_s);
	out_str(o, ",\"by_command\":[");
	for (size_t i = 0; i < r->ngroups; i++) {
		const struct report_group *g = &r->groups[i];

		out_str(o, i ? ",{\"command\":" : "{\"command\":");
		out_json_string(o, g->comm);
		out_printf(o, ",\"processes\":%u,\"threads\":%u,\"total_s\":", g->procs, g->threads);
		json_num(o, kinds_total(g->kind) / 1e9);
		out_str(o, ",\"run_s\":");
		json_num(o, g->run_ns / 1e9);
		out_str(o, ",\"delay\":");
		json_kinds(o, g->kind, -1);
		out_char(o, '}');
	}
	out_str(o, "]}\n");
}

/* ---- csv: one row per command name, after a row "(all)" for the whole run; only that row has
 * the run's status, wall time and lost records ---- */

static void csv_row(struct outbuf *o, const char *comm, unsigned procs, unsigned threads, const struct report_kind *kind)
{
	char buf[40];

	out_csv_field(o, comm);
	out_printf(o, ",%u,%u,", procs, threads);
	out_mem(o, buf, fmt_fixed(buf, kinds_total(kind) / 1e9, 6));
	for (int k = 0; k < DK_COUNT; k++) {
		out_char(o, ',');
		if (kind[k].have_total)
			out_mem(o, buf, fmt_fixed(buf, kind[k].total_ns / 1e9, 6));
		out_char(o, ',');
		if (kind[k].have_count)
			out_printf(o, "%llu", (unsigned long long)kind[k].count);
		out_char(o, ',');
		if (kind[k].have_max)
			out_mem(o, buf, fmt_fixed(buf, kind[k].max_ns / 1e6, 3));
	}
}

static void csv_run(struct outbuf *o, const struct report *r)
{
	char buf[40];

	csv_row(o, "(all)", r->procs, r->threads, r->kind);
	out_printf(o, ",%d,", report_exit_status(r));
	out_mem(o, buf, fmt_fixed(buf, r->wall_s, 3));
	out_printf(o, ",%llu\n", (unsigned long long)r->lost);
}

static void csv_report(struct outbuf *o, const struct report *r)
{
	out_str(o, "command,processes,threads,total_s");
	for (int k = 0; k < DK_COUNT; k++)
		out_printf(o, ",%s_total_s,%s_count,%s_max_ms", delay_kinds[k].key, delay_kinds[k].key, delay_kinds[k].key);
	out_str(o, ",status,wall_s,exits_lost\n");
	csv_run(o, r);
	for (size_t i = 0; i < r->ngroups; i++) {
		csv_row(o, r->groups[i].comm, r->groups[i].procs, r->groups[i].threads, r->groups[i].kind);
		out_str(o, ",,,\n");
	}
}

int report_print(struct report *r, enum output_format format, FILE *out)
{
	struct outbuf o = { 0 };
	int rc;

	qsort(r->groups, r->ngroups, sizeof(*r->groups), by_total);
	if (format == FORMAT_JSON) {
		report_json(&o, r);
	} else if (format == FORMAT_CSV) {
		csv_report(&o, r);
	} else {
		text_summary(&o, r);
		text_kinds(&o, r);
		text_groups(&o, r);
	}
	rc = out_flush(&o, out);
	out_free(&o);
	return rc;
}
