/* htmlfile.h — --format html with -r: the page of a recording's readings from --begin to --end
 * (htmlrep.h), written to --output (a temporary file beside it, renamed when whole) or to
 * standard output. */
#ifndef DELAYTOP_HTMLFILE_H
#define DELAYTOP_HTMLFILE_H

#include <stdio.h>

#include "options.h"
#include "replay.h"
#include "report.h"

/* Reads r from where it stands to --end (or a stop signal on stop_fd) and writes the page.
 * Returns the exit status: 1 when the page could not be written or damage was met (the page then
 * shows what could be read, and stderr says where the damage is). */
int htmlfile_replay(const struct options *o, struct replay *r, int stop_fd);

/* Command mode's --format html: the run's report (report.h) as a page of the same look: the
 * host, the command and how it ended, per delay kind the command names and cgroups that waited
 * most, and with --why a flame graph of the run's off-CPU stacks per state (htmlrep_run_stacks).
 * Command mode counts each task once, from its exit record, and keeps no readings over time: the
 * page has no charts over time. Returns 0, or -1 when writing failed. */
int htmlfile_command(struct report *r, FILE *f);

#endif
