/* command.h — command mode: run a command, follow every process it starts, report the whole run. */
#ifndef DELAYTOP_COMMAND_H
#define DELAYTOP_COMMAND_H

#include <stdio.h>

#include "options.h"

struct report;

/* A report written some other way than report_print's (main's --format html page): returns 0, or
 * -1 when writing failed. */
typedef int (*command_page_fn)(struct report *r, FILE *f);

/* Runs o->command to its end and prints the report. delayacct_off: kernel.task_delayacct is 0,
 * so only CPU delay is reported. closed_fds: the standard descriptors (bits 1 << fd) delaytop was
 * started without; the command gets them closed too. Returns the command's exit status (128 +
 * the signal when a signal ended it), or EXIT_CANNOT_FOLLOW when delaytop could not run or follow
 * it or could not write the report. page: writes the report instead of report_print (NULL:
 * report_print in o->format). */
int command_run(const struct options *o, int delayacct_off, unsigned closed_fds, command_page_fn page);

#endif
