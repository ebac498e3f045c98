/* htmlfile.c — --format html with -r: a recording's window read into the HTML report, the page
 * written where --output says. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "htmlfile.h"
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
