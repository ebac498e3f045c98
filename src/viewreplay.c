/* viewreplay.c — the screen on a recording (-r). Placeholder until the screen's replay lands. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "view.h"

int view_replay(const struct options *o, struct replay *r, volatile sig_atomic_t *stop)
{
	(void)o;
	(void)r;
	(void)stop;
	fprintf(stderr, "%s: the screen cannot replay yet: use -b\n", PACKAGE);
	return EXIT_FAILURE;
}
