/* command.h — command mode: run a command, follow every process it starts, report the whole run. */
#ifndef DELAYTOP_COMMAND_H
#define DELAYTOP_COMMAND_H

#include "options.h"

/* Runs o->command to its end and prints the report. Returns the command's exit status (128 +
 * the signal when a signal ended it), or 1 when delaytop could not run or follow it. */
int command_run(const struct options *o);

#endif
