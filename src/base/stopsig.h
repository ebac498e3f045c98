/* stopsig.h — the signals that stop a run: SIGINT, SIGTERM and SIGHUP. They are blocked on every
 * thread and read through a signalfd, which the front ends' waits (the live loop, the screen's
 * key loop) watch beside their other descriptors: a stop signal ends a wait at once, whenever it
 * comes, where a flag set by a handler is missed by a wait that starts just after the check.
 * Command mode takes SIGTERM and SIGHUP its own way (command.c), and does not use this. */
#ifndef DELAYTOP_STOPSIG_H
#define DELAYTOP_STOPSIG_H

/* Blocks the stop signals in the calling thread, which must be the main one before it starts any
 * other (the others inherit the mask), and returns a descriptor that is readable from the moment
 * one arrives, for the rest of the run; or a negative errno. */
int stopsig_open(void);

/* Whether a stop signal arrived, without waiting: fd is stopsig_open()'s. The signal is left
 * pending, so that the answer stays 1 and every wait on fd ends at once. */
int stopsig_requested(int fd);

#endif
