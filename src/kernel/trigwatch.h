/* trigwatch.h — registering PSI triggers (trigger.h's specs) on the kernel's pressure files. */
#ifndef DELAYTOP_TRIGWATCH_H
#define DELAYTOP_TRIGWATCH_H

#include <stddef.h>

#include "cgroupfs.h"
#include "trigger.h"

/* Registers the trigger on its pressure file in h (the system's when no cgroup is given): the
 * returned descriptor polls POLLPRI when it fires, and closing it removes the trigger. Returns
 * the descriptor, or -1 with a message in err. */
int trigwatch_open(const struct trigger_spec *t, const struct cgroup_hier *h, char *err, size_t errlen);

/* Registers specs[0..n) into fds[0..n). Returns 0; or -1 with a message in err, the ones
 * registered before the refusal closed. */
int trigwatch_open_all(const struct trigger_spec *specs, int n, const struct cgroup_hier *h, int *fds, char *err,
		       size_t errlen);
/* Closes the descriptors of fds[0..n) that are open (-1: a trigger already ended). */
void trigwatch_close_all(int *fds, int n);

#endif
