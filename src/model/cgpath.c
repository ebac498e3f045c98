/* cgpath.c — cgroup paths: normalized, and compared by their components. */
#include "config.h"

#include <string.h>

#include "cgpath.h"

void cgpath_normalize(const char *in, char *buf, size_t size)
{
	size_t o = 0;

	if (size < 2) {
		if (size)
			buf[0] = '\0';
		return;
	}
	buf[o++] = '/';
	for (; *in && o + 1 < size; in++) {
		if (*in == '/' && buf[o - 1] == '/')
			continue;
		buf[o++] = *in;
	}
	if (o > 1 && buf[o - 1] == '/')
		o--;
	buf[o] = '\0';
}

int cgpath_within(const char *path, const char *top)
{
	size_t n = strlen(top);

	if (n == 1 && top[0] == '/')
		return path[0] == '/';
	return strncmp(path, top, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

int cgpath_climbs(const char *path)
{
	for (const char *p = path; (p = strstr(p, "..")) != NULL; p += 2)
		if ((p == path || p[-1] == '/') && (p[2] == '\0' || p[2] == '/'))
			return 1;
	return 0;
}
