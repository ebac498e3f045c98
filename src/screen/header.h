/* header.h — the screen's header above the table: the system's state (the reading's time and the
 * uptime, or a recording's time, state of play and origin; processes and threads, the
 * delay-accounting switch, privileges, --why, exits lost, how the tasks were found, each --trigger
 * that fired) and what the screen shows (rows, cgroup, interval, cells, sort, filter, the cgroup
 * hierarchy followed), laid out as text; viewdraw.c writes its lines. */
#ifndef DELAYTOP_HEADER_H
#define DELAYTOP_HEADER_H

#include "format.h"
#include "viewstate.h"

/* Lays v's header out into out, its parts two spaces apart in lines of cols columns, on at most
 * max_lines lines: what the screen shows starts the second line, and a part that does not fit
 * starts a new one while lines remain (the last line is cut when written). Each line ends in a
 * '\0'. Returns the lines. */
int header_layout(const struct view *v, int cols, int max_lines, struct outbuf *out);

#endif
