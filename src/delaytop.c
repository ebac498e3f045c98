/* delaytop.c — main: options, then the front end (batch printers or the screen). */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "command.h"
#include "i18n.h"
#include "options.h"
#include "procfs.h"
#include "sampler.h"
#include "timing.h"
#include "view.h"

#define EXIT_USAGE 2

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
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

static void setup_locale(void)
{
	const char *dir = getenv("DELAYTOP_LOCALEDIR");

	setlocale(LC_ALL, "");
	/* Numbers in every output use a decimal point, whatever the language. */
	setlocale(LC_NUMERIC, "C");
	bindtextdomain(PACKAGE, dir && *dir ? dir : LOCALEDIR);
	textdomain(PACKAGE);
}

/* Sleeps until the CLOCK_MONOTONIC deadline, reading exit records whenever they arrive. Returns
 * -1 when a signal asked delaytop to stop. */
static int wait_until(uint64_t deadline, struct sampler *s)
{
	struct pollfd pfd = { sampler_listen_fd(s), POLLIN, 0 };

	while (!stop_requested) {
		uint64_t now = timing_mono_ns();
		struct timespec ts;

		if (now >= deadline)
			return 0;
		ts.tv_sec = (time_t)((deadline - now) / 1000000000u);
		ts.tv_nsec = (long)((deadline - now) % 1000000000u);
		if (ppoll(&pfd, pfd.fd >= 0 ? 1 : 0, &ts, NULL) > 0)
			sampler_drain(s);
	}
	return -1;
}

static void warn_delayacct(int state, int *warned)
{
	if (state == DELAYACCT_OFF && !*warned)
		fprintf(stderr, "%s: %s\n", PACKAGE,
			_("warning: kernel.task_delayacct is 0, so only CPU delay is measured. Switch it on with "
			  "'sysctl kernel.task_delayacct=1'; only tasks started after that report the other delays."));
	*warned = state == DELAYACCT_OFF;
}

static int run_batch(const struct options *o, struct sampler *s)
{
	struct batch_printer bp;
	struct snapshot snap;
	char err[512];
	uint64_t step = (uint64_t)(o->delay_s * 1e9);
	uint64_t deadline;
	int warned = 0, status = EXIT_SUCCESS;

	batch_init(&bp, o);
	deadline = timing_mono_ns() + step; /* from the start of the first reading, however long it takes */
	if (sampler_tick(s, &snap, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", PACKAGE, err);
		batch_free(&bp);
		return EXIT_FAILURE;
	}
	warn_delayacct(snap.delayacct, &warned);
	for (long i = 0; !o->iterations || i < o->iterations; i++) {
		uint64_t now;

		if (wait_until(deadline, s) < 0)
			break;
		now = timing_mono_ns();
		if (sampler_tick(s, &snap, err, sizeof(err)) < 0) {
			fprintf(stderr, "%s: %s\n", PACKAGE, err);
			status = EXIT_FAILURE;
			break;
		}
		warn_delayacct(snap.delayacct, &warned);
		if (batch_print(&bp, &snap, stdout) < 0) {
			if (errno != EPIPE) {
				fprintf(stderr, "%s: %s: %s\n", PACKAGE, _("cannot write the report"), strerror(errno));
				status = EXIT_FAILURE;
			}
			break;
		}
		deadline += step;
		if (now > deadline) /* a slow tick: skip the missed slots rather than rush */
			deadline = now + step;
	}
	batch_free(&bp);
	return status;
}

static struct sampler *open_sampler(const struct options *o)
{
	struct sampler_opts so = { 0 };
	struct sampler *s;
	char err[512];

	so.threads = o->threads;
	so.pids = o->pids;
	so.npids = o->npids;
	so.listen = 1;
	so.exit_rcvbuf = o->exit_buffer;
	if (sampler_open(&s, &so, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", PACKAGE, err);
		return NULL;
	}
	return s;
}

static void print_notice(struct sampler *s)
{
	if (sampler_notice(s))
		fprintf(stderr, "%s: %s\n", PACKAGE, sampler_notice(s));
}

int main(int argc, char **argv)
{
	struct options o;
	struct sampler *s;
	char err[512];
	int rc;

	setup_locale();
	rc = options_parse(argc, argv, &o, err, sizeof(err));
	if (rc != OPTIONS_OK) {
		if (rc == OPTIONS_ERROR)
			fprintf(stderr, "%s: %s\n", PACKAGE, err);
		options_free(&o);
		return rc == OPTIONS_EXIT ? EXIT_SUCCESS : EXIT_USAGE;
	}
	setup_signals();
	if (o.command) {
		int warned = 0, delayacct = procfs_delayacct();

		warn_delayacct(delayacct, &warned);
		rc = command_run(&o, delayacct == DELAYACCT_OFF);
		options_free(&o);
		return rc;
	}
	s = open_sampler(&o);
	if (!s)
		rc = EXIT_FAILURE;
	else if (o.batch) {
		print_notice(s);
		rc = run_batch(&o, s);
	} else {
		/* after the screen, which would wipe it (the screen says it in its footer) */
		rc = view_run(&o, s, &stop_requested);
		print_notice(s);
	}
	sampler_close(s);
	options_free(&o);
	return rc;
}
