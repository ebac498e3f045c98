/* reportfile.h — where command mode's report goes: standard error, a descriptor named by
 * /dev/stdout, /dev/stderr or /dev/fd/N, a device or FIFO written directly, or a regular file
 * written as a temporary file beside it and renamed over it when the report is complete, so that
 * a failed write leaves no truncated report behind. */
#ifndef DELAYTOP_REPORTFILE_H
#define DELAYTOP_REPORTFILE_H

#include <stdio.h>

/* A report's destination. A regular file (or a new one) is written as tmp, a hidden file in the
 * same directory, created before the command runs and renamed over the file when the report is
 * complete; a symbolic link is followed, so that the file it points to is replaced. /dev/stdout,
 * /dev/stderr and /dev/fd/N name a descriptor delaytop was given: the report goes to it, after
 * what the command wrote there. A device or a FIFO is written directly. */
struct output {
	FILE *f;
	const char *path; /* as given; NULL: stderr */
	char *target;     /* the file tmp replaces: path with symbolic links resolved */
	char *tmp;
};

/* Opens the destination path (NULL: standard error) before the command runs. closed_fds: the
 * standard descriptors (bits 1 << fd) delaytop was started without. Returns 0, or -1 after
 * printing why. */
int reportfile_open(struct output *out, const char *path, unsigned closed_fds);

/* Completes the report: closes the file and renames the temporary file into place, or, when
 * written is 0 (the report is incomplete), removes it. Returns 0, or -1 with errno set. */
int reportfile_close(struct output *out, int written);

#endif
