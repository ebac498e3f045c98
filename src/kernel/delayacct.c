/* delayacct.c — reading and switching kernel.task_delayacct. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "delayacct.h"
#include "procfs.h"

#define DELAYACCT_SYSCTL "/proc/sys/kernel/task_delayacct"

int delayacct_parse(const char *text)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (end == text || errno)
		return DELAYACCT_UNKNOWN;
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	if (*end)
		return DELAYACCT_UNKNOWN;
	return v != 0 ? DELAYACCT_ON : DELAYACCT_OFF;
}

int delayacct_read(void)
{
	char buf[16];

	if (procfs_read(DELAYACCT_SYSCTL, buf, sizeof(buf)) < 0)
		return DELAYACCT_UNKNOWN;
	return delayacct_parse(buf);
}

int delayacct_boot_param(const char *cmdline)
{
	const char *p = cmdline;

	for (;;) {
		size_t len;

		p += strspn(p, " \t\n");
		len = strcspn(p, " \t\n");
		if (len == 0 || (len == 2 && strncmp(p, "--", 2) == 0))
			return 0;
		if (len >= 9 && strncmp(p, "delayacct", 9) == 0)
			return 1;
		p += len;
	}
}

int delayacct_off_at_boot(void)
{
	char cmdline[4096];

	if (delayacct_read() == DELAYACCT_UNKNOWN || procfs_read("/proc/cmdline", cmdline, sizeof(cmdline)) < 0)
		return 0;
	return !delayacct_boot_param(cmdline);
}

int delayacct_write(int on)
{
	int fd = open(DELAYACCT_SYSCTL, O_WRONLY | O_CLOEXEC);
	int rc = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, on ? "1\n" : "0\n", 2) != 2)
		rc = -errno;
	close(fd);
	return rc;
}
