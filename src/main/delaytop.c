/* delaytop.c — main: options, then the front end (batch printers or the screen). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "cgroupfs.h"
#include "command.h"
#include "delayacct.h"
#include "exporter.h"
#include "filter.h"
#include "format.h"
#include "i18n.h"
#include "listenaddr.h"
#include "listing.h"
#include "liveloop.h"
#include "metrics.h"
#include "options.h"
#include "htmlfile.h"
#include "playback.h"
#include "rcfile.h"
#include "recorder.h"
#include "sampler.h"
#include "secure.h"
#include "stopsig.h"
#include "timing.h"
#include "trigger.h"
#include "trigwatch.h"
#include "view.h"
#include "webconfig.h"


/* The stop signal that came before they were blocked (stopsig.h), if any; once they are, a
 * front end reads them through stopsig's descriptor and the handler no longer runs. */
static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	stop_requested = sig;
}

static void setup_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* A closed pipe shows up as EPIPE from the write, and delaytop ends quietly. */
	signal(SIGPIPE, SIG_IGN);
}

/* Every front end but command mode (which reads SIGTERM and SIGHUP its own way) takes the stop
 * signals through a descriptor its waits watch (stopsig.h); before any thread starts, so that
 * every thread has them blocked. One that came before is made pending again. Returns the
 * descriptor, or -1 after a message. */
static int block_stop_signals(void)
{
	int fd = stopsig_open();

	if (fd < 0) {
		/* as perror does: a failing system call (out of descriptors or memory), no new message */
		fprintf(stderr, "%s: signalfd: %s\n", PACKAGE, strerror(-fd));
		return -1;
	}
	if (stop_requested)
		raise(stop_requested);
	return fd;
}

/* Opens /dev/null on whichever of fds 0-2 is closed, so that nothing delaytop opens later (a
 * netlink socket, say) becomes its standard output. Returns the closed ones as bits 1 << fd, or
 * -1 when /dev/null cannot be opened. */
static int open_std_fds(void)
{
	int closed = 0;

	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		if (open("/dev/null", fd ? O_WRONLY : O_RDONLY) != fd)
			return -1;
		closed |= 1 << fd;
	}
	return closed;
}

/* After --help or --version: whether all of it reached standard output. */
static int check_stdout(int closed)
{
	if (closed & 1 << STDOUT_FILENO)
		errno = EBADF;
	else if (fflush(stdout) == 0 && !ferror(stdout))
		return EXIT_SUCCESS;
	fprintf(stderr, "%s: %s: %s\n", PACKAGE, _("cannot write to standard output"), strerror(errno));
	return EXIT_FAILURE;
}

/* The batch reports need standard output, the screen a terminal on standard input and output:
 * refused when they were closed, rather than written to /dev/null. Returns 0 or -1 after a
 * message. */
static int check_std_fds(const struct options *o, int closed)
{
	const char *why = NULL;

	if (o->listen && !o->batch)
		return 0; /* the exporter alone prints nothing: a service may run it without a terminal */
	if (o->batch && (closed & 1 << STDOUT_FILENO))
		why = _("standard output is closed: the reports have nowhere to go");
	else if (!o->batch && (closed & 1 << STDOUT_FILENO))
		why = _("standard output is closed: the full screen needs a terminal");
	else if (!o->batch && (closed & 1 << STDIN_FILENO))
		why = _("standard input is closed: the full screen needs a terminal");
	if (!why)
		return 0;
	fprintf(stderr, "%s: %s\n", PACKAGE, why);
	return -1;
}

#ifdef __SANITIZE_ADDRESS__
/* A sanitizer build: libproc2 keeps its read buffers in thread-local variables (readproc.c) and
 * never frees them, so once the screen's reading thread has ended LeakSanitizer finds them
 * unreachable. Leaks of memory libproc2 allocated are not reported. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libproc2.so\n";
}
#endif

static void setup_locale(void)
{
	/* A secure run ignores it: its translations become printf formats in a privileged process. */
	const char *dir = secure_env("DELAYTOP_LOCALEDIR");

	setlocale(LC_ALL, "");
	/* Numbers in every output use a decimal point, whatever the language. */
	setlocale(LC_NUMERIC, "C");
	bindtextdomain(PACKAGE, dir && *dir ? dir : LOCALEDIR);
	textdomain(PACKAGE);
}

/* A trigger whose pressure file went away (its cgroup was removed: poll says POLLERR for good) is
 * no longer watched, and the user is told once. */
static void trigger_gone(const struct options *o, int *fds, int i)
{
	char file[CGROUP_PATH_MAX + 64], shown[256];

	trigger_file(&o->triggers[i], file, sizeof(file));
	text_clean(shown, sizeof(shown), file);
	fprintf(stderr, F_(N_("%s: trigger '%s' on %s ended: its cgroup is gone\n")), PACKAGE, o->triggers[i].text,
		shown);
	close(fds[i]);
	fds[i] = -1;
}

/* -w: a recording that stopped (a full disk) is said once; without other output delaytop then has
 * nothing left to do (-1); with -b or --listen it goes on without it (and ends with status 1). */
static int record_failed(const struct options *o, const char *rec_err)
{
	if (!rec_err)
		return 0;
	fprintf(stderr, "%s: %s\n", PACKAGE, rec_err);
	return o->batch || o->listen ? 0 : -1;
}

/* The switch at 0 is said once; again only after it was seen on (a reading that could not read it
 * says nothing new). */
static void warn_delayacct(int state, int *warned)
{
	if (state == DELAYACCT_OFF && !*warned)
		fprintf(stderr, "%s: %s\n", PACKAGE,
			_("warning: kernel.task_delayacct is 0, so only CPU delay is measured. Switch it on with "
			  "'sysctl kernel.task_delayacct=1'; only tasks started after that report the other delays."));
	if (state != DELAYACCT_UNKNOWN)
		*warned = state == DELAYACCT_OFF;
}

/* --listen: the endpoint and the counters it serves. */
struct serving {
	struct exporter *e;
	struct metrics m;
	struct outbuf text, om;
};

/* Publishes a reading's counters, in both formats. */
static void serve(struct serving *sv, const struct snapshot *snap)
{
	if (!sv)
		return;
	metrics_update(&sv->m, snap, snap->reading_s);
	sv->text.len = sv->om.len = 0;
	metrics_format(&sv->m, &sv->text, 0);
	metrics_format(&sv->m, &sv->om, 1);
	exporter_publish(sv->e, sv->text.data, sv->text.len, sv->om.data, sv->om.len);
}

/* A batch run's front end, as the live loop's hooks (liveloop.h) see it. */
struct batch_run {
	const struct options *o;
	struct batch_printer bp;
	struct serving *sv;
	int *trigger_fds;
	int warned, status;
};

/* "cannot write the report" unless the reader went away (EPIPE, | head: its choice); -1. */
static int write_failed(struct batch_run *b)
{
	if (errno != EPIPE) {
		fprintf(stderr, "%s: %s: %s\n", PACKAGE, _("cannot write the report"), strerror(errno));
		b->status = EXIT_FAILURE;
	}
	return -1;
}

/* A reading made when triggers fired: their events, with -b. */
static int report_events(struct batch_run *b, const struct live_reading *r)
{
	for (int i = 0; i < b->o->ntriggers; i++)
		if ((r->fired & (1u << i)) && b->o->batch && batch_event(&b->bp, r->snap, &b->o->triggers[i], stdout) < 0)
			return write_failed(b);
	return 0;
}

/* A reading: published with --listen and printed as a report with -b (not the first, which has no
 * rates); or, made when triggers fired, their events. */
static int batch_reading(void *arg, const struct live_reading *r)
{
	struct batch_run *b = arg;

	if (!r->snap) {
		fprintf(stderr, "%s: %s\n", PACKAGE, r->err);
		b->status = EXIT_FAILURE;
		return -1;
	}
	if (!r->fired) {
		warn_delayacct(r->snap->delayacct, &b->warned);
		serve(b->sv, r->snap);
	}
	if (r->rec_err) /* with -b or --listen the run goes on, and fails at its end */
		b->status = EXIT_FAILURE;
	if (record_failed(b->o, r->rec_err) < 0)
		return -1;
	if (r->fired)
		return report_events(b, r);
	if (!r->first && b->o->batch && batch_print(&b->bp, r->snap, stdout) < 0)
		return write_failed(b);
	return 0;
}

/* The wake descriptor is the stop signals' (stopsig.h): readable, a stop signal came. */
static enum live_wake batch_woken(void *arg)
{
	(void)arg;
	return LIVE_STOP;
}

static void batch_trigger(void *arg, int i, int gone)
{
	struct batch_run *b = arg;

	if (gone)
		trigger_gone(b->o, b->trigger_fds, i);
}

/* Readings on the deadline until -n or a stop signal (stop_fd, stopsig.h): each printed as a
 * report with -b, published with --listen (sv) and recorded with -w (rec). */
static int run_batch(const struct options *o, struct sampler *s, struct serving *sv, int *trigger_fds,
		     struct recorder *rec, int stop_fd)
{
	static const struct live_hooks hooks = { .reading = batch_reading, .woken = batch_woken,
						 .trigger = batch_trigger };
	struct live_opts lo = { .s = s, .trigger_fds = trigger_fds, .triggers = o->triggers, .ntriggers = o->ntriggers,
				.rec = rec, .wake_fd = stop_fd, .delay_s = o->delay_s, .iterations = o->iterations };
	struct batch_run b = { .o = o, .sv = sv, .trigger_fds = trigger_fds, .status = EXIT_SUCCESS };

	batch_init(&b.bp, o);
	liveloop_run(&lo, &hooks, &b);
	batch_free(&b.bp);
	return b.status;
}

static void print_notice(struct sampler *s)
{
	if (sampler_notice(s))
		fprintf(stderr, "%s: %s\n", PACKAGE, sampler_notice(s));
	if (sampler_pids_notice(s))
		fprintf(stderr, "%s: %s\n", PACKAGE, sampler_pids_notice(s));
	if (sampler_why_notice(s))
		fprintf(stderr, "%s: %s\n", PACKAGE, sampler_why_notice(s));
}

/* --listen on an address others reach, without a user and password asked: said on stderr, which
 * is the service's log under systemd. */
static void warn_exposed(const struct exporter *e, const struct web_config *wc)
{
	if (exporter_exposed(e) && !(wc && wc->nusers))
		fprintf(stderr,
			F_(N_("%s: warning: %s is not a loopback address and no --web-config asks for a user "
			      "and password: anyone who can reach the port can read every process name\n")),
			PACKAGE, exporter_address(e));
}

/* A --web-config file that asks for neither TLS nor users (empty, comments, harmless keys): the
 * exporter serves as without one, which its author may not expect. */
static void warn_web_config_empty(const struct options *o, const struct web_config *wc)
{
	if (o->web_config && !wc->cert_pem && !wc->nusers)
		fprintf(stderr,
			F_(N_("%s: warning: %s asks for neither TLS nor basic auth: the metrics are served "
			      "over plain HTTP to anyone who can reach the port, as without --web-config\n")),
			PACKAGE, o->web_config);
}

/* --listen: serves the metrics of every reading, and with -b prints the reports too. */
static int run_exporter(const struct options *o, const struct web_config *wc, struct sampler *s, int *trigger_fds,
			struct recorder *rec, int stop_fd)
{
	struct serving sv;
	char host[256], err[512];
	unsigned port;
	int rc;

	memset(&sv, 0, sizeof(sv));
	if (listenaddr_parse(o->listen, host, sizeof(host), &port, err, sizeof(err)) < 0 ||
	    exporter_start(&sv.e, host, port, wc, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", PACKAGE, err);
		return EXIT_FAILURE;
	}
	print_notice(s);
	if (wc && wc->cert_pem)
		fprintf(stderr, F_(N_("%s: serving metrics on https://%s/metrics\n")), PACKAGE, exporter_address(sv.e));
	else
		fprintf(stderr, F_(N_("%s: serving metrics on http://%s/metrics\n")), PACKAGE, exporter_address(sv.e));
	warn_web_config_empty(o, wc);
	warn_exposed(sv.e, wc);
	metrics_init(&sv.m, (int)o->top_commands);
	sv.m.expiry_s = o->series_expiry_s;
	rc = run_batch(o, s, &sv, trigger_fds, rec, stop_fd);
	exporter_stop(sv.e);
	metrics_free(&sv.m);
	out_free(&sv.text);
	out_free(&sv.om);
	return rc;
}

/* --why's stacks are taken of the rows -p, -u, -c and --unit choose: this says which. */
struct stack_choice {
	struct filter f;
	struct display d;
};

static int stack_chosen(void *arg, const struct row *r)
{
	const struct stack_choice *c = arg;

	return filter_match(&c->f, r, &c->d);
}

/* Whether the options choose tasks whose off-CPU stacks --why takes (without a choice, none:
 * stacks of every task would cost too much): -p, -u, -c, --unit, or with --trigger the tasks that
 * stalled most lately (stallwatch.h), whose stacks a trigger's event then has. */
static int stacks_chosen(const struct options *o)
{
	return o->why && (o->npids || o->by_uid || o->cgroup || o->unit || o->ntriggers);
}

/* -w without -b, --listen or a terminal: recording is all there is to do. */
static int records_alone(const struct options *o)
{
	return o->write && !o->batch && !o->listen && !isatty(STDOUT_FILENO);
}

/* Whether the screen is the front end (run_front_end's choice): its detail view chooses its task
 * for stacks, and y may switch --why on at any time. */
static int runs_screen(const struct options *o)
{
	return !o->listen && !o->batch && !records_alone(o);
}

static struct sampler *open_sampler(const struct options *o)
{
	static struct stack_choice choice; /* main's, for the sampler's life */
	struct listing_spec shown = { .display = { .chosen = o->chosen, .nchosen = o->nchosen,
						   .threads = o->threads, .cgroups = o->cgroups,
						   .accumulate = o->accumulate },
				      .sort_col = o->sort_col };
	struct sampler_opts so = { 0 };
	struct sampler *s;
	char err[512];

	so.threads = o->threads;
	so.pids = o->pids;
	so.npids = o->npids;
	so.listen = 1;
	so.exit_rcvbuf = o->exit_buffer;
	/* the screen can switch to totals at any time, and so can a replay */
	so.departed = !o->batch || o->accumulate || o->write;
	/* the metrics have each cgroup's pressure, and so has a recording, unless it has threads */
	so.cgroups = o->cgroups || o->listen || o->format == FORMAT_OPENMETRICS || (o->write && !o->threads);
	so.cgroup_root = o->cgroup;
	/* cgroups read for the metrics alone (--format implies -b) need not count their tasks by
	 * state, which costs notes on every thread and, for each process that ran, a query and a
	 * read of the state of its threads that moved (threadnotes.h) */
	so.no_states = !o->cgroups && !o->write && (o->listen || o->format == FORMAT_OPENMETRICS);
	/* CSV and JSON carry every field */
	so.wants = o->format == FORMAT_CSV || o->format == FORMAT_JSON || o->write ? WANT_ACCT | WANT_PEAKS
										   : listing_wants(&shown);
	/* the totals since the start: the screen can switch to them at any time, a recording and the
	 * metrics keep them, CSV and JSON say when the longest waits were; batch text as it shows */
	so.why = o->why;
	so.why_stacks = stacks_chosen(o) || runs_screen(o);
	so.stall_triggers = o->triggers;
	so.nstall_triggers = o->ntriggers < TRIGGER_MAX ? o->ntriggers : TRIGGER_MAX;
	so.no_totals = o->batch && !o->write && !o->listen && o->format == FORMAT_TEXT && !listing_reads_totals(&shown);
	/* the screen keeps a task's totals only once it has any (most threads of a big machine never
	 * run while it looks); a recording and the metrics keep every task's as it was */
	so.moved_totals = !o->batch && !o->write && !o->listen;
	if (sampler_open(&s, &so, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", PACKAGE, err);
		return NULL;
	}
	if (so.why_stacks && (o->by_uid || o->cgroup || o->unit)) {
		choice.f.by_uid = o->by_uid;
		choice.f.uid = o->uid;
		choice.f.cgroup = o->cgroup;
		choice.f.unit = o->unit;
		choice.d.threads = o->threads;
		sampler_set_stack_match(s, stack_chosen, &choice);
	}
	return s;
}

/* -c and --group=cgroup need a cgroup hierarchy, and -c a cgroup in it: checked before anything
 * runs, with the path normalized into buf (o->cgroup then points there). Returns 0, or -1 after
 * a message. */
static int check_cgroup(struct options *o, char *buf, size_t size)
{
	struct cgroup_hier h;
	char shown[256], where[CGROUP_PATH_MAX + 64];
	int rc;

	if (!o->cgroup && !o->cgroups)
		return 0;
	cgroupfs_detect(&h);
	if (h.layout == CGROUP_NONE) {
		fprintf(stderr, "%s: %s\n", PACKAGE,
			_("no cgroup hierarchy is mounted: -c and --group=cgroup need one"));
		return -1;
	}
	if (!o->cgroup)
		return 0;
	cgpath_normalize(o->cgroup, buf, size);
	rc = cgroupfs_exists(&h, buf);
	if (rc == 0) {
		o->cgroup = buf;
		return 0;
	}
	text_clean(shown, sizeof(shown), o->cgroup);
	if (cghier_dir(&h, buf, where, sizeof(where)) < 0)
		snprintf(where, sizeof(where), "%s", h.m.dir);
	fprintf(stderr, "%s: ", PACKAGE);
	fprintf(stderr, F_(N_("cannot read cgroup '%s' (%s): %s")), shown, where, strerror(-rc));
	fputc('\n', stderr);
	return -1;
}


/* -w: the recording, opened before anything runs so that a refusal is a plain message. */
static int open_recorder(const struct options *o, struct recorder **rec)
{
	struct recorder_opts ro = { o->write, o->rotate, o->keep, o->capture_s, { 0 } };
	char err[1024];

	*rec = NULL;
	if (!o->write)
		return 0;
	ro.rows.by_uid = o->by_uid; /* the rows -u, -c and --unit choose (-p chooses what is read) */
	ro.rows.uid = o->uid;
	ro.rows.cgroup = o->cgroup;
	ro.rows.unit = o->unit;
	if (recorder_open(rec, &ro, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", PACKAGE, err);
		return -1;
	}
	return 0;
}

/* The sampler, the --trigger registrations (before the screen, so that a refusal is a plain
 * message), the recording and the front end the options ask for: the exporter, batch reports,
 * the recording alone or the screen, until a stop signal (stop_fd, stopsig.h) if nothing else. */
static int run_front_end(const struct options *o, const struct web_config *wc, int stop_fd)
{
	struct sampler *s = open_sampler(o);
	struct recorder *rec;
	int rc, fds[TRIGGER_MAX];
	char err[1024];

	if (!s)
		return EXIT_FAILURE;
	if (trigwatch_open_all(o->triggers, o->ntriggers, sampler_cgroup_hier(s), fds, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", PACKAGE, err);
		sampler_close(s);
		return EXIT_FAILURE;
	}
	if (open_recorder(o, &rec) < 0) {
		rc = EXIT_FAILURE;
	} else if (o->listen) {
		rc = run_exporter(o, wc, s, fds, rec, stop_fd);
	} else if (o->batch || records_alone(o)) {
		print_notice(s);
		rc = run_batch(o, s, NULL, fds, rec, stop_fd);
	} else {
		/* after the screen, which would wipe it (the screen says it in its footer) */
		rc = view_run(o, s, fds, rec, stop_fd);
		print_notice(s);
	}
	if (rec && recorder_close(rec, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s: %s\n", PACKAGE, o->write, err);
		rc = EXIT_FAILURE;
	}
	trigwatch_close_all(fds, o->ntriggers);
	sampler_close(s);
	return rc;
}

/* A line of the settings file left out, on stderr (a screen shows it when it ends). */
static void warn_setting(void *arg, int line, const char *why)
{
	char shown[256];

	text_clean(shown, sizeof(shown), arg);
	fprintf(stderr, "%s: %s:%d: %s\n", PACKAGE, shown, line, why);
}

/* The settings file under the command line's options (rcfile.h); *keep gets what *o may point
 * into, for rcfile_free_args. */
static void apply_settings(struct options *o, int argc, char **argv, struct rcfile_args *keep)
{
	char path[4096], err[512], *text;

	memset(keep, 0, sizeof(*keep));
	if (o->command || rcfile_path(path, sizeof(path)) < 0)
		return;
	text = rcfile_read(path, err, sizeof(err));
	if (!text) {
		if (err[0])
			fprintf(stderr, "%s: %s\n", PACKAGE, err);
		return;
	}
	rcfile_apply(text, argc, argv, o, keep, warn_setting, path);
	free(text);
}

int main(int argc, char **argv)
{
	struct web_config wc = { 0 };
	struct options o;
	char err[512], cgroup[CGROUP_PATH_MAX];
	struct rcfile_args settings;
	int rc, stop_fd, closed = open_std_fds();

	if (closed < 0)
		return EXIT_FAILURE; /* without /dev/null there is nowhere to say it */
	setup_locale();
	rc = options_parse(argc, argv, &o, err, sizeof(err));
	if (rc != OPTIONS_OK) {
		if (rc == OPTIONS_ERROR)
			fprintf(stderr, "%s: %s\n", PACKAGE, err);
		options_free(&o);
		return rc == OPTIONS_EXIT ? check_stdout(closed) : EXIT_USAGE;
	}
	apply_settings(&o, argc, argv, &settings);
	if (o.web_config && webconfig_load(o.web_config, &wc, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", PACKAGE, err);
		options_free(&o);
		rcfile_free_args(&settings);
		return EXIT_USAGE;
	}
	setup_signals();
	if (o.command) {
		int warned = 0, delayacct = delayacct_read();

		warn_delayacct(delayacct, &warned);
		rc = command_run(&o, delayacct == DELAYACCT_OFF, (unsigned)closed,
				 o.format == FORMAT_HTML ? htmlfile_command : NULL);
		webconfig_free(&wc);
		options_free(&o);
		return rc;
	}
	stop_fd = block_stop_signals();
	if (stop_fd < 0)
		rc = EXIT_FAILURE;
	else if (check_std_fds(&o, closed) < 0)
		rc = EXIT_FAILURE;
	else if (o.read) {
		if (o.cgroup) { /* as recorded: the cgroup need not be there any more */
			cgpath_normalize(o.cgroup, cgroup, sizeof(cgroup));
			o.cgroup = cgroup;
		}
		rc = playback_run(&o, stop_fd);
	}
	else if (check_cgroup(&o, cgroup, sizeof(cgroup)) < 0)
		rc = EXIT_USAGE;
	else
		rc = run_front_end(&o, &wc, stop_fd);
	if (stop_fd >= 0)
		close(stop_fd);
	webconfig_free(&wc);
	options_free(&o);
	rcfile_free_args(&settings);
	return rc;
}
