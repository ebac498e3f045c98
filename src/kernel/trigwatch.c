/* trigwatch.c — PSI triggers registered on their pressure files, so that poll() wakes when one
 * fires; closing the descriptor removes it. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "format.h"
#include "i18n.h"
#include "psi.h"
#include "trigwatch.h"

int trigwatch_open(const struct trigger_spec *t, const struct cgroup_hier *h, char *err, size_t errlen)
{
	char path[CGROUP_PATH_MAX + 128], dir[CGROUP_PATH_MAX + 64], line[64], shown[256];
	int fd, len, e;

	len = snprintf(line, sizeof(line), "%s %llu %llu", t->full ? "full" : "some",
		       (unsigned long long)t->stall_us, (unsigned long long)t->window_us);
	if (!t->cgroup[0]) {
		snprintf(path, sizeof(path), "/proc/pressure/%s", psi_name(t->resource));
	} else if (cghier_dir(h, t->cgroup, dir, sizeof(dir)) == 0) {
		snprintf(path, sizeof(path), "%s/%s.pressure", dir, psi_name(t->resource));
	} else {
		text_clean(shown, sizeof(shown), t->cgroup);
		snprintf(err, errlen, F_(N_("trigger '%s': no cgroup %s in the hierarchy shown")), t->text, shown);
		return -1;
	}
	fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0 && write(fd, line, (size_t)len + 1) == len + 1)
		return fd;
	e = errno;
	if (fd >= 0)
		close(fd);
	text_clean(shown, sizeof(shown), path);
	if (e == EINVAL && t->window_us % 2000000)
		snprintf(err, errlen,
			 F_(N_("cannot register trigger '%s' on %s: without CAP_SYS_RESOURCE the kernel takes only "
			       "windows of whole multiples of 2s")),
			 t->text, shown);
	else
		snprintf(err, errlen, F_(N_("cannot register trigger '%s' on %s: %s")), t->text, shown, strerror(e));
	return -1;
}

int trigwatch_open_all(const struct trigger_spec *specs, int n, const struct cgroup_hier *h, int *fds, char *err,
		       size_t errlen)
{
	for (int i = 0; i < n; i++) {
		fds[i] = trigwatch_open(&specs[i], h, err, errlen);
		if (fds[i] < 0) {
			trigwatch_close_all(fds, i);
			return -1;
		}
	}
	return 0;
}

void trigwatch_close_all(int *fds, int n)
{
	for (int i = 0; i < n; i++)
		if (fds[i] >= 0) {
			close(fds[i]);
			fds[i] = -1;
		}
}
