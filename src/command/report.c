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
	free(r->cgroups);
	r->cgroups = NULL;
	r->ncgroups = r->capcgroups = 0;
	while (idmap_next(&r->open, &pos, NULL, &v))
		free(v);
	idmap_free(&r->open);
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

static struct report_cgroup *cgroup_of(struct report *r, const char *path)
{
	struct report_cgroup *c;

	for (size_t i = 0; i < r->ncgroups; i++)
		if (strcmp(r->cgroups[i].path, path) == 0)
			return &r->cgroups[i];
	r->cgroups = xgrow(r->cgroups, &r->capcgroups, r->ncgroups + 1, sizeof(*r->cgroups));
	c = &r->cgroups[r->ncgroups++];
	memset(c, 0, sizeof(*c));
	c->path = path;
	return c;
}

void report_add(struct report *r, const struct exit_task *t, int running)
{
	struct report_group *g = group_of(r, t->comm);
	kind_mask unknown = (kind_mask)~t->delays.kinds;

	if (t->cgroup) {
		struct report_cgroup *c = cgroup_of(r, t->cgroup);

		totals_add(&c->sum, &t->delays);
		c->unknown |= unknown;
		c->threads++;
		c->procs += t->tid == t->tgid;
	}

	totals_add(&r->sum, &t->delays);
	totals_add(&g->sum, &t->delays);
	r->unknown |= unknown;
	g->unknown |= unknown;
	r->threads++;
	g->threads++;
	if (t->tid == t->tgid)
		count_process(r, t, (size_t)(g - r->groups), running);
	if (t->group_dead) /* its pid may now be reused */
		free(idmap_del(&r->open, t->tgid));
}

kind_mask report_partial(const struct kind_totals *sum, kind_mask unknown)
{
	return sum->kinds & unknown;
}

int report_exit_status(const struct report *r)
{
	if (WIFEXITED(r->wait_status))
		return WEXITSTATUS(r->wait_status);
	if (WIFSIGNALED(r->wait_status))
		return 128 + WTERMSIG(r->wait_status);
	return EXIT_FAILURE;
}

static int cgroup_by_total(const void *a, const void *b)
{
	uint64_t x = totals_waited(&((const struct report_cgroup *)a)->sum);
	uint64_t y = totals_waited(&((const struct report_cgroup *)b)->sum);

	if (x != y)
		return x < y ? 1 : -1;
	return strcmp(((const struct report_cgroup *)a)->path, ((const struct report_cgroup *)b)->path);
}

static int by_total(const void *a, const void *b)
{
	uint64_t x = totals_waited(&((const struct report_group *)a)->sum);
	uint64_t y = totals_waited(&((const struct report_group *)b)->sum);

	if (x != y)
		return x < y ? 1 : -1;
	return strcmp(((const struct report_group *)a)->comm, ((const struct report_group *)b)->comm);
}

/* Kind k's total in seconds, its number of waits and its longest wait in ms; NAN when not
 * available. */
static double kind_total_s(const struct kind_totals *t, int k)
{
	return t->kinds & (1u << k) ? t->total_ns[k] / 1e9 : NAN;
}

static double kind_count(const struct kind_totals *t, int k)
{
	return t->kinds_count & (1u << k) ? (double)t->count[k] : NAN;
}

static double kind_max_ms(const struct kind_totals *t, int k)
{
	return t->kinds_max & (1u << k) ? t->max_ns[k] / 1e6 : NAN;
}

/* ---- text ---- */

static void text_cell(struct outbuf *o, double v, int decimals, int width)
{
	char buf[32];

	fmt_cell(buf, v, decimals, width);
	out_char(o, ' ');
	out_padded(o, buf, width, 1);
}

/* A sum's cell: marked with a '+' when partial, a lower bound (see report_partial). */
static void text_sum_cell(struct outbuf *o, double v, int decimals, int width, int partial)
{
	char buf[32];
	size_t len;

	if (!partial || isnan(v)) {
		text_cell(o, v, decimals, width);
		return;
	}
	len = fmt_cell(buf, v, decimals, width - 1);
	buf[len++] = '+';
	buf[len] = '\0';
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
	if (report_partial(&r->sum, r->unknown))
		out_str(o, _("note: a sum marked '+' leaves out tasks that have no delay of its kind: "
			     "kernel.task_delayacct was 0 when they were forked\n"));
}

/* Titles padded by display width, not bytes, so that translations line up. */
static void text_title(struct outbuf *o, const char *title, int width, int right)
{
	out_char(o, ' ');
	out_padded(o, title, width, right);
}

static void text_kinds(struct outbuf *o, const struct report *r)
{
	kind_mask partial = report_partial(&r->sum, r->unknown);

	out_char(o, '\n');
	out_padded(o, _("DELAY"), 8, 0);
	text_title(o, _("TOTAL s"), 10, 1);
	text_title(o, _("WAITS"), 10, 1);
	text_title(o, _("AVG ms"), 10, 1);
	text_title(o, _("MAX ms"), 10, 1);
	text_title(o, _("% OF RUN"), 9, 1);
	out_char(o, '\n');
	for (int k = 0; k < DK_COUNT; k++) {
		const struct kind_totals *t = &r->sum;
		double total = kind_total_s(t, k);
		int part = (partial >> k) & 1;

		out_padded(o, _(delay_kinds[k].title), 8, 0);
		text_sum_cell(o, total, 3, 10, part);
		text_sum_cell(o, kind_count(t, k), 0, 10, part);
		text_cell(o, totals_avg_ms(t, k), 3, 10);
		text_cell(o, kind_max_ms(t, k), 3, 10);
		text_sum_cell(o, r->wall_s > 0 ? total / r->wall_s * 100.0 : NAN, 1, 9, part);
		out_char(o, '\n');
	}
	out_padded(o, _("TOTAL"), 8, 0);
	text_sum_cell(o, totals_waited(&r->sum) / 1e9, 3, 10, partial != 0);
	out_spaces(o, 33);
	text_sum_cell(o, r->wall_s > 0 ? totals_waited(&r->sum) / 1e9 / r->wall_s * 100.0 : NAN, 1, 9, partial != 0);
	out_char(o, '\n');
}

/* A by-name table's titles, the first column's title given. */
static void text_group_titles(struct outbuf *o, const char *first)
{
	out_char(o, '\n');
	out_padded(o, first, 16, 0);
	text_title(o, _("PROCS"), 6, 1);
	text_title(o, _("THREADS"), 7, 1);
	text_title(o, _("TOTAL s"), 9, 1);
	for (int k = 0; k < DK_COUNT; k++)
		text_title(o, _(delay_kinds[k].title), 8, 1);
	out_char(o, '\n');
}

/* A group's numbers, after its name; unknown: the kinds some of its tasks had no total of. */
static void text_group_numbers(struct outbuf *o, unsigned procs, unsigned threads, const struct kind_totals *sum,
			       kind_mask unknown)
{
	kind_mask partial = report_partial(sum, unknown);

	out_printf(o, " %6u %7u", procs, threads);
	text_sum_cell(o, totals_waited(sum) / 1e9, 3, 9, partial != 0);
	for (int k = 0; k < DK_COUNT; k++)
		text_sum_cell(o, kind_total_s(sum, k), 3, 8, (partial >> k) & 1);
	out_char(o, '\n');
}

static void text_groups(struct outbuf *o, const struct report *r)
{
	text_group_titles(o, _("COMMAND"));
	for (size_t i = 0; i < r->ngroups; i++) {
		out_padded(o, r->groups[i].comm, 16, 0);
		text_group_numbers(o, r->groups[i].procs, r->groups[i].threads, &r->groups[i].sum, r->groups[i].unknown);
	}
}

/* Whether the by-command I/O table has field f: the counters of bytes and switches that the
 * records carry, as totals. */
static int text_acct_field(int f)
{
	enum acct_unit u = acct_fields[f].unit;

	return acct_fields[f].in_records && (u == AU_BYTES || u == AU_EVENTS);
}

/* The bytes and context switches per command name, in the order of the delay table. */
static void text_acct_groups(struct outbuf *o, const struct report *r)
{
	if (!(r->sum.acct_have & (1u << AF_WCHAR | 1u << AF_VCSW)))
		return; /* a kernel whose records carry neither */
	out_char(o, '\n');
	out_padded(o, _("COMMAND"), 16, 0);
	for (int f = 0; f < AF_COUNT; f++)
		if (text_acct_field(f))
			text_title(o, _(acct_fields[f].title), 8, 1);
	out_char(o, '\n');
	for (size_t i = 0; i < r->ngroups; i++) {
		out_padded(o, r->groups[i].comm, 16, 0);
		for (int f = 0; f < AF_COUNT; f++)
			if (text_acct_field(f))
				text_cell(o, totals_acct(&r->groups[i].sum, f), 0, 8);
		out_char(o, '\n');
	}
}

/* The by-cgroup table: each cgroup on its own line, its numbers on the next. */
static void text_cgroups(struct outbuf *o, const struct report *r)
{
	text_group_titles(o, _("CGROUP"));
	for (size_t i = 0; i < r->ncgroups; i++) {
		out_text(o, r->cgroups[i].path);
		out_char(o, '\n');
		out_spaces(o, 16);
		text_group_numbers(o, r->cgroups[i].procs, r->cgroups[i].threads, &r->cgroups[i].sum,
				   r->cgroups[i].unknown);
	}
}

/* ---- json ---- */

static void json_num(struct outbuf *o, double v)
{
	char buf[40];

	out_mem(o, buf, fmt_json_number(buf, v));
}

/* The accounting fields the records carry, as totals named with their units. */
static void json_acct(struct outbuf *o, const struct kind_totals *t)
{
	char name[32];

	for (int f = 0; f < AF_COUNT; f++) {
		double v = totals_acct(t, f);

		if (!acct_fields[f].in_records)
			continue;
		out_printf(o, ",\"%s\":", acct_json_name(f, 1, name));
		if (!isnan(v) && acct_fields[f].unit != AU_USEC)
			out_printf(o, "%.0f", v);
		else
			json_num(o, v);
	}
}

/* Each kind's numbers; partial: the kinds whose total and count leave out tasks (see
 * report_partial). */
static void json_kinds(struct outbuf *o, const struct kind_totals *t, kind_mask partial, double wall_s)
{
	out_str(o, "{");
	for (int k = 0; k < DK_COUNT; k++) {
		double total = kind_total_s(t, k);

		out_printf(o, "%s\"%s\":{\"total_s\":", k ? "," : "", delay_kinds[k].key);
		json_num(o, total);
		out_printf(o, ",\"partial\":%s", (partial >> k) & 1 ? "true" : "false");
		out_str(o, ",\"count\":");
		if (t->kinds_count & (1u << k))
			out_printf(o, "%llu", (unsigned long long)t->count[k]);
		else
			out_str(o, "null");
		out_str(o, ",\"avg_ms\":");
		json_num(o, totals_avg_ms(t, k));
		out_str(o, ",\"max_ms\":");
		json_num(o, kind_max_ms(t, k));
		if (wall_s >= 0) {
			out_str(o, ",\"pct\":");
			json_num(o, wall_s > 0 ? total / wall_s * 100.0 : NAN);
		}
		out_char(o, '}');
	}
	out_char(o, '}');
}

/* One entry of by_command or by_cgroup (the i-th of its list), named by key. */
static void json_group(struct outbuf *o, size_t i, const char *key, const char *name, unsigned procs,
		       unsigned threads, const struct kind_totals *sum, kind_mask unknown)
{
	kind_mask partial = report_partial(sum, unknown);

	out_printf(o, "%s{\"%s\":", i ? "," : "", key);
	out_json_string(o, name);
	out_printf(o, ",\"processes\":%u,\"threads\":%u,\"total_s\":", procs, threads);
	json_num(o, totals_waited(sum) / 1e9);
	out_printf(o, ",\"partial\":%s,\"run_s\":", partial ? "true" : "false");
	json_num(o, sum->run_ns / 1e9);
	out_str(o, ",\"delay\":");
	json_kinds(o, sum, partial, -1);
	json_acct(o, sum);
	out_char(o, '}');
}

static void json_stacks(struct outbuf *o, const struct report *r);

static void report_json(struct outbuf *o, const struct report *r)
{
	kind_mask partial = report_partial(&r->sum, r->unknown);

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
	json_num(o, totals_waited(&r->sum) / 1e9);
	/* the reason once, for the run and every entry: only the switch leaves a kind out */
	out_printf(o, ",\"partial\":%s,\"partial_reason\":%s,\"run_s\":", partial ? "true" : "false",
		   partial ? "\"task_delayacct_off\"" : "null");
	json_num(o, r->sum.run_ns / 1e9);
	out_str(o, ",\"delay\":");
	json_kinds(o, &r->sum, partial, r->wall_s);
	json_acct(o, &r->sum);
	out_str(o, ",\"by_command\":[");
	for (size_t i = 0; i < r->ngroups; i++)
		json_group(o, i, "command", r->groups[i].comm, r->groups[i].procs, r->groups[i].threads, &r->groups[i].sum,
			   r->groups[i].unknown);
	out_str(o, "],\"by_cgroup\":[");
	for (size_t i = 0; i < r->ncgroups; i++)
		json_group(o, i, "cgroup", r->cgroups[i].path, r->cgroups[i].procs, r->cgroups[i].threads,
			   &r->cgroups[i].sum, r->cgroups[i].unknown);
	out_str(o, "]");
	json_stacks(o, r);
	out_str(o, "}\n");
}

/* ---- --why: where the run waited, the top stacks of each state ---- */

/* Stacks shown of each state. */
#define TOP_PER_STATE 8

/* Calls fn for each of the top TOP_PER_STATE stacks of each state, states in order (D, S, R). */
static void each_top_stack(const struct report *r, void (*fn)(struct outbuf *o, const struct stackrun_stack *s,
								 int first),
			   struct outbuf *o)
{
	static const uint32_t order[] = { STK_D, STK_S, STK_RUNNABLE };
	int first = 1;

	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		for (size_t i = 0, shown = 0; i < r->nstacks && shown < TOP_PER_STATE; i++)
			if (r->stacks[i].state == order[k]) {
				fn(o, &r->stacks[i], first);
				first = 0;
				shown++;
			}
}

static void text_stack(struct outbuf *o, const struct stackrun_stack *s, int first)
{
	(void)first;
	out_printf(o, "  %s %10.1f ms %8llu  ", stk_state_name(s->state), s->ns / 1e6, (unsigned long long)s->count);
	for (size_t f = 0; f < s->nframes; f++) {
		if (f)
			out_str(o, " < ");
		out_text(o, s->frames[f]);
	}
	out_char(o, '\n');
}

static void text_stacks(struct outbuf *o, const struct report *r)
{
	if (!r->why || r->why_off)
		return;
	out_printf(o, "\n%s\n", _("Where it waited (--why): the top off-CPU stacks of each state, innermost frame first"));
	out_printf(o, "  %s %13s %8s  %s\n", _("S"), _("time"), _("times"), _("frames"));
	each_top_stack(r, text_stack, o);
	if (!r->nstacks)
		out_printf(o, "  %s\n", _("(none: the command's processes did not leave a CPU while followed)"));
	if (r->stacks_lost)
		out_printf(o, F_(N_("  stacks that did not fit: %llu\n")), (unsigned long long)r->stacks_lost);
}

static void json_stack(struct outbuf *o, const struct stackrun_stack *s, int first)
{
	out_str(o, first ? "{\"ms\":" : ",{\"ms\":");
	json_num(o, s->ns / 1e6);
	out_printf(o, ",\"count\":%llu,\"state\":\"%s\",\"frames\":[", (unsigned long long)s->count,
		   stk_state_name(s->state));
	for (size_t f = 0; f < s->nframes; f++) {
		if (f)
			out_char(o, ',');
		out_json_string(o, s->frames[f]);
	}
	out_str(o, "]}");
}

/* ,"why": null without --why or where it could not run, else {"stacks": [...], "not_fitted"} */
static void json_stacks(struct outbuf *o, const struct report *r)
{
	if (!r->why || r->why_off) {
		out_str(o, ",\"why\":null");
		return;
	}
	out_str(o, ",\"why\":{\"stacks\":[");
	each_top_stack(r, json_stack, o);
	out_printf(o, "],\"not_fitted\":%llu}", (unsigned long long)r->stacks_lost);
}

/* ---- csv: one row per command name, after a row "(all)" for the whole run; only that row has
 * the run's status, wall time and lost records ---- */

static void csv_row(struct outbuf *o, const char *comm, unsigned procs, unsigned threads, const struct kind_totals *t)
{
	char buf[40];

	out_csv_field(o, comm);
	out_printf(o, ",%u,%u,", procs, threads);
	out_mem(o, buf, fmt_fixed(buf, totals_waited(t) / 1e9, 6));
	for (int k = 0; k < DK_COUNT; k++) {
		kind_mask bit = (kind_mask)(1u << k);

		out_char(o, ',');
		if (t->kinds & bit)
			out_mem(o, buf, fmt_fixed(buf, t->total_ns[k] / 1e9, 6));
		out_char(o, ',');
		if (t->kinds_count & bit)
			out_printf(o, "%llu", (unsigned long long)t->count[k]);
		out_char(o, ',');
		if (t->kinds_max & bit)
			out_mem(o, buf, fmt_fixed(buf, t->max_ns[k] / 1e6, 3));
	}
}

/* A row's accounting fields, after the others, then its last field, the kinds whose sums are
 * partial (their keys separated by spaces, see report_partial), and its end. */
static void csv_acct(struct outbuf *o, const struct kind_totals *t, kind_mask unknown)
{
	kind_mask partial = report_partial(t, unknown);
	const char *sep = "";
	char buf[40];

	for (int f = 0; f < AF_COUNT; f++) {
		double v = totals_acct(t, f);

		if (!acct_fields[f].in_records)
			continue;
		out_char(o, ',');
		if (isnan(v))
			continue;
		if (acct_fields[f].unit == AU_USEC)
			out_mem(o, buf, fmt_fixed(buf, v, 6));
		else
			out_printf(o, "%.0f", v);
	}
	out_char(o, ',');
	for (int k = 0; k < DK_COUNT; k++)
		if ((partial >> k) & 1) {
			out_printf(o, "%s%s", sep, delay_kinds[k].key);
			sep = " ";
		}
	out_char(o, '\n');
}

static void csv_run(struct outbuf *o, const struct report *r)
{
	char buf[40];

	csv_row(o, "(all)", r->procs, r->threads, &r->sum);
	out_printf(o, ",%d,", report_exit_status(r));
	out_mem(o, buf, fmt_fixed(buf, r->wall_s, 3));
	out_printf(o, ",%llu,", (unsigned long long)r->lost);
	csv_acct(o, &r->sum, r->unknown);
}

static void report_csv(struct outbuf *o, const struct report *r)
{
	out_str(o, "command,processes,threads,total_s");
	for (int k = 0; k < DK_COUNT; k++)
		out_printf(o, ",%s_total_s,%s_count,%s_max_ms", delay_kinds[k].key, delay_kinds[k].key, delay_kinds[k].key);
	out_str(o, ",status,wall_s,exits_lost,cgroup");
	for (int f = 0; f < AF_COUNT; f++) {
		char name[32];

		if (acct_fields[f].in_records)
			out_printf(o, ",%s", acct_json_name(f, 1, name));
	}
	out_str(o, ",partial_kinds\n");
	csv_run(o, r);
	for (size_t i = 0; i < r->ngroups; i++) {
		csv_row(o, r->groups[i].comm, r->groups[i].procs, r->groups[i].threads, &r->groups[i].sum);
		out_str(o, ",,,,");
		csv_acct(o, &r->groups[i].sum, r->groups[i].unknown);
	}
	for (size_t i = 0; r->ncgroups > 1 && i < r->ncgroups; i++) { /* rows "(cgroup)" with the path */
		csv_row(o, "(cgroup)", r->cgroups[i].procs, r->cgroups[i].threads, &r->cgroups[i].sum);
		out_str(o, ",,,,");
		out_csv_field(o, r->cgroups[i].path);
		csv_acct(o, &r->cgroups[i].sum, r->cgroups[i].unknown);
	}
}

int report_print(struct report *r, enum output_format format, FILE *out)
{
	struct outbuf o = { 0 };
	int rc;

	if (r->ngroups) /* nothing ran (a command not found): no array to sort, and qsort takes no NULL */
		qsort(r->groups, r->ngroups, sizeof(*r->groups), by_total);
	if (r->ncgroups)
		qsort(r->cgroups, r->ncgroups, sizeof(*r->cgroups), cgroup_by_total);
	if (format == FORMAT_JSON) {
		report_json(&o, r);
	} else if (format == FORMAT_CSV) {
		report_csv(&o, r);
	} else {
		text_summary(&o, r);
		text_kinds(&o, r);
		text_groups(&o, r);
		text_acct_groups(&o, r);
		if (r->ncgroups > 1)
			text_cgroups(&o, r);
		text_stacks(&o, r);
	}
	rc = out_flush(&o, out);
	out_free(&o);
	return rc;
}
