/* cghier.c — the cgroup hierarchies as text: mountinfo's cgroup mounts, the one shown, a task's
 * path in it, a cgroup's directory, a thread's state as a cgroup counts it. Pure. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cghier.h"

/* Copies a mountinfo field of len bytes, undoing its octal escapes, into buf. */
static void unescape(const char *s, size_t len, char *buf, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i < len && o + 1 < size; i++) {
		if (s[i] == '\\' && i + 3 < len && s[i + 1] >= '0' && s[i + 1] <= '3' && s[i + 2] >= '0' &&
		    s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
			buf[o++] = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
			i += 3;
		} else {
			buf[o++] = s[i];
		}
	}
	buf[o] = '\0';
}

/* The n-th space-separated field of a line (0-based) and its length; NULL when there is none. */
static const char *field(const char *line, const char *end, int n, size_t *len)
{
	const char *p = line;

	for (int i = 0; i < n; i++) {
		p = memchr(p, ' ', (size_t)(end - p));
		if (!p)
			return NULL;
		p++;
	}
	{
		const char *space = memchr(p, ' ', (size_t)(end - p));

		*len = (size_t)((space ? space : end) - p);
	}
	return p;
}

/* Parses one mountinfo line: "ID PARENT MAJ:MIN ROOT DIR OPTS [OPTIONAL...] - FSTYPE SOURCE SUPER". */
static int parse_mount(const char *line, const char *end, struct cgroup_mount *m)
{
	const char *sep = line, *root, *dir, *type, *super;
	size_t rootlen, dirlen, typelen, superlen;

	while ((sep = memchr(sep, '-', (size_t)(end - sep))) &&
	       !(sep > line && sep[-1] == ' ' && sep + 1 < end && sep[1] == ' '))
		sep++;
	if (!sep || !(root = field(line, end, 3, &rootlen)) || !(dir = field(line, end, 4, &dirlen)) ||
	    !(type = field(sep + 2, end, 0, &typelen)) || !(super = field(sep + 2, end, 2, &superlen)))
		return -1;
	if (typelen == 7 && memcmp(type, "cgroup2", 7) == 0)
		m->v2 = 1;
	else if (typelen == 6 && memcmp(type, "cgroup", 6) == 0)
		m->v2 = 0;
	else
		return -1;
	unescape(root, rootlen, m->root, sizeof(m->root));
	unescape(dir, dirlen, m->dir, sizeof(m->dir));
	unescape(super, superlen, m->opts, sizeof(m->opts));
	return 0;
}

int cghier_parse_mountinfo(const char *text, struct cgroup_mount *out, int max)
{
	int n = 0;

	while (*text && n < max) {
		const char *end = strchr(text, '\n');

		if (!end)
			end = text + strlen(text);
		if (parse_mount(text, end, &out[n]) == 0)
			n++;
		text = *end ? end + 1 : end;
	}
	return n;
}

/* Whether a v1 mount's options name the controller or name= item. */
static int has_option(const struct cgroup_mount *m, const char *item, size_t len)
{
	const char *p = m->opts;

	while (*p) {
		size_t n = strcspn(p, ",");

		if (n == len && memcmp(p, item, len) == 0)
			return 1;
		p += n + (p[n] == ',');
	}
	return 0;
}

void cghier_choose(const struct cgroup_mount *m, int n, struct cgroup_hier *h)
{
	int v1 = -1, systemd = -1, v2 = -1;

	memset(h, 0, sizeof(*h));
	for (int i = 0; i < n; i++) {
		if (m[i].v2 && v2 < 0)
			v2 = i;
		else if (!m[i].v2 && v1 < 0)
			v1 = i;
		if (!m[i].v2 && systemd < 0 && has_option(&m[i], "name=systemd", 12))
			systemd = i;
	}
	if (v2 >= 0) {
		h->layout = v1 >= 0 ? CGROUP_HYBRID : CGROUP_V2;
		h->m = m[v2];
	} else if (v1 >= 0) {
		h->layout = CGROUP_V1;
		h->m = m[systemd >= 0 ? systemd : v1];
	}
}

const char *cghier_describe(const struct cgroup_hier *h, char *buf, size_t size)
{
	const char *what = h->m.opts;

	if (h->layout == CGROUP_NONE)
		snprintf(buf, size, "none");
	else if (h->m.v2)
		snprintf(buf, size, "cgroup v2");
	else {
		if (strncmp(what, "rw,", 3) == 0 || strncmp(what, "ro,", 3) == 0)
			what += 3;
		snprintf(buf, size, "cgroup v1 (%s)", what);
	}
	return buf;
}

/* Whether a /proc/PID/cgroup line's controller field (len bytes) is the chosen hierarchy's. */
static int line_is_chosen(const struct cgroup_hier *h, const char *ctl, size_t len)
{
	if (h->m.v2)
		return len == 0;
	if (len == 0)
		return 0;
	while (len) {
		size_t n = 0;

		while (n < len && ctl[n] != ',')
			n++;
		if (!has_option(&h->m, ctl, n))
			return 0;
		ctl += n + (n < len);
		len -= n + (n < len);
	}
	return 1;
}

int cghier_parse_task(const char *text, const struct cgroup_hier *h, char *buf, size_t size)
{
	if (h->layout == CGROUP_NONE)
		return -1;
	while (*text) {
		const char *end = strchr(text, '\n'), *c1 = strchr(text, ':'), *c2;

		if (!end)
			end = text + strlen(text);
		c2 = c1 && c1 < end ? memchr(c1 + 1, ':', (size_t)(end - c1 - 1)) : NULL;
		if (c2 && line_is_chosen(h, c1 + 1, (size_t)(c2 - c1 - 1))) {
			char path[CGROUP_PATH_MAX];

			snprintf(path, sizeof(path), "%.*s", (int)(end - c2 - 1), c2 + 1);
			cgpath_normalize(path, buf, size);
			return 0;
		}
		text = *end ? end + 1 : end;
	}
	return -1;
}

int cghier_dir(const struct cgroup_hier *h, const char *path, char *buf, size_t size)
{
	const char *rest;
	int n;

	if (h->layout == CGROUP_NONE || !cgpath_within(path, h->m.root))
		return -1;
	rest = path + (strcmp(h->m.root, "/") == 0 ? 0 : strlen(h->m.root));
	n = snprintf(buf, size, "%s%s", h->m.dir, strcmp(rest, "/") == 0 ? "" : rest);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

int cghier_state_of(char letter)
{
	switch (letter) {
	case 'R': return CG_RUNNING;
	case 'S': return CG_SLEEPING;
	case 'D': return CG_UNINTERRUPTIBLE;
	case 'T': return CG_STOPPED;
	default: return -1;
	}
}
