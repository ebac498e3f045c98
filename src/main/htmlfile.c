/* htmlfile.c — --format html with -r: a recording's window read into the HTML report, the page
 * written where --output says; and command mode's page of its run (with --why, the flame graphs
 * of its off-CPU stacks, htmlstacks.c). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "format.h"
#include "htmlfile.h"
#include "html.h"
#include "htmlrep.h"
#include "i18n.h"
#include "reportfile.h"
#include "stopsig.h"
#include "xalloc.h"

/* Every reading to --end into h. Returns 1 when damage was met (said on stderr), else 0. */
static int read_window(const struct options *o, struct replay *r, int stop_fd, struct htmlrep *h)
{
	struct snapshot snap;
	char err[1024];
	int damaged = 0;

	while (!stopsig_requested(stop_fd)) {
		int rc = replay_next(r, &snap, err, sizeof(err));

		if (rc == 0)
			break;
		if (rc < 0) {
			fprintf(stderr, "%s: %s: %s\n", PACKAGE, o->read, err);
			damaged = 1;
			continue;
		}
		if (o->has_end && replay_time(r) > o->end_ns)
			break;
		htmlrep_add(h, &snap);
	}
	return damaged;
}

int htmlfile_replay(const struct options *o, struct replay *r, int stop_fd)
{
	struct htmlrep *h = xmalloc(sizeof(*h));
	struct htmlrep_facts f = { .source = o->read, .host = replay_host(r), .exit_status = -1 };
	struct outbuf page = { 0 };
	struct output out;
	int status, written;

	f.writer = replay_writer(r)[0] ? replay_writer(r) : NULL;
	if (reportfile_open(&out, o->output ? o->output : "/dev/stdout", 0) < 0) {
		free(h);
		return EXIT_FAILURE;
	}
	htmlrep_init(h);
	status = read_window(o, r, stop_fd, h) ? EXIT_FAILURE : EXIT_SUCCESS;
	htmlrep_page(&page, h, &f);
	written = out_flush(&page, out.f) == 0;
	if (reportfile_close(&out, written) < 0 || !written) {
		fprintf(stderr, "%s: %s: %s\n", PACKAGE, _("cannot write the report"), strerror(errno));
		status = EXIT_FAILURE;
	}
	out_free(&page);
	htmlrep_free(h);
	free(h);
	return status;
}

/* ---- command mode ---- */

/* qsort_r's orders: the most waited in kind *k first. */
static int group_by_kind(const void *a, const void *b, void *k)
{
	uint64_t x = (*(const struct report_group *const *)a)->sum.total_ns[*(int *)k];
	uint64_t y = (*(const struct report_group *const *)b)->sum.total_ns[*(int *)k];

	return x < y ? 1 : x > y ? -1 : 0;
}

static int cgroup_by_kind(const void *a, const void *b, void *k)
{
	uint64_t x = (*(const struct report_cgroup *const *)a)->sum.total_ns[*(int *)k];
	uint64_t y = (*(const struct report_cgroup *const *)b)->sum.total_ns[*(int *)k];

	return x < y ? 1 : x > y ? -1 : 0;
}

/* The command line, its words separated by spaces. */
static void command_line(char *buf, size_t size, char **argv)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; argv && argv[i] && len + 1 < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? " " : "", argv[i]);
}

static void command_facts(struct outbuf *o, const struct report *r, const struct utsname *u)
{
	char buf[4096];

	html_wrap(o, "<section id=\"host\"><h2>", _("Host and run"), "</h2>\n<table class=\"facts\">\n");
	htmlrep_fact(o, _("Host"), u->nodename);
	htmlrep_fact(o, _("Kernel"), u->release);
	snprintf(buf, sizeof(buf), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	htmlrep_fact(o, _("CPUs"), buf);
	htmlrep_fact(o, _("Report by"), PACKAGE " " VERSION);
	command_line(buf, sizeof(buf), r->argv);
	htmlrep_fact(o, _("Command"), buf);
	snprintf(buf, sizeof(buf), "%d", report_exit_status(r));
	htmlrep_fact(o, _("Command's exit status"), buf);
	snprintf(buf, sizeof(buf), "%.3f s", r->wall_s);
	htmlrep_fact(o, _("Wall time"), buf);
	snprintf(buf, sizeof(buf), "%u / %u", r->procs, r->threads);
	htmlrep_fact(o, _("Processes / threads"), buf);
	if (r->lost) {
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)r->lost);
		htmlrep_fact(o, _("Exit records lost"), buf);
	}
	if (report_partial(&r->sum, r->unknown))
		htmlrep_fact(o, _("Partial sums"),
			     _("a number marked '+' leaves out tasks that have no delay of its kind: "
			       "kernel.task_delayacct was 0 when they were forked"));
	html_wrap(o, "</table>\n<p class=\"none\">",
		  _("Command mode counts each task once, from its exit record: it keeps no readings over "
		    "time, so this page has no charts over time."),
		  "</p></section>\n");
}

/* A row's counts and numbers: processes, threads, seconds waited, the share of the run; the last
 * two marked '+' when partial (report_partial). */
static void command_cells(struct outbuf *o, const struct report *r, unsigned procs, unsigned threads, uint64_t ns,
			  int partial)
{
	const char *mark = partial ? "+" : "";

	out_printf(o, "<td class=\"num\">%u</td><td class=\"num\">%u</td><td class=\"num\">%.3f%s</td>"
		      "<td class=\"num\">%.2f%s</td></tr>\n",
		   procs, threads, ns / 1e9, mark, r->wall_s > 0 ? ns / 1e9 / r->wall_s * 100 : 0, mark);
}

/* Kind k's command names and cgroups, those that waited, at most HTMLREP_TABLE of each. */
static void command_kind(struct outbuf *o, struct report *r, int k, const struct report_group **g,
			 const struct report_cgroup **c)
{
	const char *gt[] = { _("Command"), _("Processes"), _("Threads"), _("Waited (s)"), _("Average %") };
	const char *ct[] = { _("Cgroup"), _("Processes"), _("Threads"), _("Waited (s)"), _("Average %") };
	char id[48];

	out_printf(o, "<section id=\"kind-%s\"><h3>", delay_kinds[k].key);
	html_text(o, _(delay_kinds[k].title));
	out_str(o, ": ");
	html_text(o, _(delay_kinds[k].label));
	out_str(o, "</h3>\n");
	qsort_r(g, r->ngroups, sizeof(*g), group_by_kind, &k);
	qsort_r(c, r->ncgroups, sizeof(*c), cgroup_by_kind, &k);
	snprintf(id, sizeof(id), "top-tasks-%s", delay_kinds[k].key);
	htmlrep_table_head(o, id, gt, sizeof(gt) / sizeof(gt[0]));
	for (size_t i = 0; i < r->ngroups && i < HTMLREP_TABLE && g[i]->sum.total_ns[k]; i++) {
		out_str(o, "<tr class=\"task\"><td class=\"comm\">");
		html_text(o, g[i]->comm);
		out_str(o, "</td>");
		command_cells(o, r, g[i]->procs, g[i]->threads, g[i]->sum.total_ns[k],
			      (report_partial(&g[i]->sum, g[i]->unknown) >> k) & 1);
	}
	out_str(o, "</tbody></table>\n");
	snprintf(id, sizeof(id), "top-cgroups-%s", delay_kinds[k].key);
	htmlrep_table_head(o, id, ct, sizeof(ct) / sizeof(ct[0]));
	for (size_t i = 0; i < r->ncgroups && i < HTMLREP_TABLE && c[i]->sum.total_ns[k]; i++) {
		out_str(o, "<tr class=\"cgroup\"><td>");
		html_text(o, c[i]->path);
		out_str(o, "</td>");
		command_cells(o, r, c[i]->procs, c[i]->threads, c[i]->sum.total_ns[k],
			      (report_partial(&c[i]->sum, c[i]->unknown) >> k) & 1);
	}
	out_str(o, "</tbody></table></section>\n");
}

int htmlfile_command(struct report *r, FILE *f)
{
	const struct report_group **g = xcalloc(r->ngroups + 1, sizeof(*g));
	const struct report_cgroup **c = xcalloc(r->ncgroups + 1, sizeof(*c));
	struct outbuf o = { 0 };
	struct utsname u;
	char line[4096];
	int rc, any = 0;

	if (uname(&u) < 0)
		memset(&u, 0, sizeof(u));
	for (size_t i = 0; i < r->ngroups; i++)
		g[i] = &r->groups[i];
	for (size_t i = 0; i < r->ncgroups; i++)
		c[i] = &r->cgroups[i];
	htmlrep_page_start(&o, u.nodename[0] ? u.nodename : NULL);
	command_facts(&o, r, &u);
	html_wrap(&o, "<section id=\"delays\"><h2>", _("Who waited most"), "</h2>\n");
	for (int k = 0; k < DK_COUNT; k++)
		if (r->sum.total_ns[k]) {
			command_kind(&o, r, k, g, c);
			any = 1;
		}
	if (!any)
		html_wrap(&o, "<p class=\"none\">", _("No task waited in this window."), "</p>\n");
	out_str(&o, "</section>\n");
	command_line(line, sizeof(line), r->argv);
	htmlrep_run_stacks(&o, &(struct htmlrep_run){ .command = line, .stacks = r->stacks, .nstacks = r->nstacks,
						      .lost = r->stacks_lost, .why = r->why, .why_off = r->why_off });
	htmlrep_page_end(&o);
	rc = out_flush(&o, f);
	out_free(&o);
	free(g);
	free(c);
	return rc;
}
