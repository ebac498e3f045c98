/* reportfile.c — the destination of command mode's report. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format.h"
#include "i18n.h"
#include "reportfile.h"
#include "xalloc.h"


/* The descriptor that a name such as /dev/stdout or /dev/fd/3 stands for, or -1. */
static int fd_alias(const char *path)
{
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/" };

	if (strcmp(path, "/dev/stdout") == 0)
		return STDOUT_FILENO;
	if (strcmp(path, "/dev/stderr") == 0)
		return STDERR_FILENO;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t len = strlen(dirs[i]);

		const char *num = path + len;

		if (strncmp(path, dirs[i], len) == 0 && *num && strspn(num, "0123456789") == strlen(num) &&
		    strlen(num) < 6)
			return atoi(num);
	}
	return -1;
}

/* The new file gets the mode (and, where allowed, the owner) of the file it replaces, or
 * 0666 less the umask, as fopen() would create it. */
static void set_mode(int fd, const struct stat *old)
{
	mode_t mask;

	if (old) {
		if (fchown(fd, old->st_uid, old->st_gid) < 0) {
			/* not allowed: the file becomes the caller's, as a new one would */
		}
		fchmod(fd, old->st_mode & 07777);
		return;
	}
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
}

/* Creates the temporary file beside out->target; returns the stream or NULL with errno set. A
 * file one may not write is not replaced either, as fopen() would not truncate it. */
static FILE *open_tmp(struct output *out)
{
	const char *slash = strrchr(out->target, '/');
	size_t dirlen = slash ? (size_t)(slash + 1 - out->target) : 0;
	size_t size = strlen(out->target) + sizeof(".XXXXXX") + 1;
	struct stat st;
	int exists = stat(out->target, &st) == 0, fd, e;
	FILE *f;

	if (exists && faccessat(AT_FDCWD, out->target, W_OK, AT_EACCESS) < 0)
		return NULL;
	out->tmp = xmalloc(size);
	snprintf(out->tmp, size, "%.*s.%s.XXXXXX", (int)dirlen, out->target, out->target + dirlen);
	fd = mkostemp(out->tmp, O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		free(out->tmp);
		out->tmp = NULL;
		errno = e;
		return NULL;
	}
	set_mode(fd, exists ? &st : NULL);
	f = fdopen(fd, "w");
	if (!f) {
		e = errno;
		unlink(out->tmp);
		close(fd);
		free(out->tmp);
		out->tmp = NULL;
		errno = e;
	}
	return f;
}

int reportfile_open(struct output *out, const char *path, unsigned closed_fds)
{
	struct stat st;
	int fd;

	memset(out, 0, sizeof(*out));
	if (!path) {
		if (closed_fds & 1u << STDERR_FILENO) {
			fprintf(stderr, "%s: %s\n", PACKAGE,
				_("standard error is closed: the report has nowhere to go (use -o FILE)"));
			return -1;
		}
		out->f = stderr;
		return 0;
	}
	out->path = path;
	fd = fd_alias(path);
	if (fd >= 0) {
		errno = EBADF;
		if (!(fd <= 2 && (closed_fds & 1u << fd)) && (fd = fcntl(fd, F_DUPFD_CLOEXEC, 3)) >= 0 &&
		    !(out->f = fdopen(fd, "w")))
			close(fd);
	} else if (!path[0]) {
		errno = ENOENT;
	} else if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		out->f = fopen(path, "we");
	} else if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) &&
		   !(out->target = realpath(path, NULL))) {
		out->f = fopen(path, "we"); /* a link to a file yet to be made */
	} else {
		if (!out->target)
			out->target = xstrdup(path);
		out->f = open_tmp(out);
	}
	if (!out->f) {
		char name[256];
		int e = errno;

		text_clean(name, sizeof(name), path);
		fprintf(stderr, F_(N_("%s: cannot write '%s': %s\n")), PACKAGE, name, strerror(e));
		free(out->target);
		out->target = NULL;
		return -1;
	}
	return 0;
}

int reportfile_close(struct output *out, int written)
{
	int rc = written ? 0 : -1, e = 0;

	if (out->f && out->f != stderr) {
		if (written && out->tmp && fsync(fileno(out->f)) < 0 && errno != EINVAL) {
			rc = -1;
			e = errno;
		}
		if (fclose(out->f) != 0 && rc == 0) {
			rc = -1;
			e = errno;
		}
	}
	out->f = NULL;
	if (out->tmp) {
		if (rc == 0 && rename(out->tmp, out->target) < 0) {
			rc = -1;
			e = errno;
		}
		if (rc < 0)
			unlink(out->tmp);
		free(out->tmp);
		out->tmp = NULL;
	}
	free(out->target);
	out->target = NULL;
	if (e)
		errno = e;
	return rc;
}

