/* users.c — the user-name cache, and the one way to the user database by uid. */
#include "config.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "users.h"
#include "xalloc.h"

void users_init(struct users *u)
{
	idmap_init(&u->names);
}

void users_free(struct users *u)
{
	size_t pos = 0;
	void *v;

	while (idmap_next(&u->names, &pos, NULL, &v))
		free(v);
	idmap_free(&u->names);
}

const char *users_name(struct users *u, uint32_t uid)
{
	char *name = idmap_get(&u->names, uid + 1); /* the map takes no 0: root is 1 */
	char buf[256];

	if (name)
		return name;
	if (users_lookup(uid, buf, sizeof(buf), NULL, 0) < 0)
		snprintf(buf, sizeof(buf), "%u", uid);
	name = xstrdup(buf);
	idmap_put(&u->names, uid + 1, name);
	return name;
}

/* Copies a field of the entry; -ERANGE when it does not fit. */
static int copy_field(char *dst, size_t size, const char *src)
{
	size_t len = strlen(src);

	if (!dst)
		return 0;
	if (len >= size)
		return -ERANGE;
	memcpy(dst, src, len + 1);
	return 0;
}

int users_lookup(uint32_t uid, char *name, size_t namelen, char *home, size_t homelen)
{
	long hint = sysconf(_SC_GETPW_R_SIZE_MAX);
	size_t size = hint > 0 ? (size_t)hint : 1024;
	struct passwd pw, *found = NULL;
	char *buf = NULL;
	int rc;

	for (;;) { /* the entry's strings, in a buffer grown until they fit */
		buf = xrealloc(buf, size);
		rc = getpwuid_r((uid_t)uid, &pw, buf, size, &found);
		if (rc != ERANGE || size > (1u << 20))
			break;
		size *= 2;
	}
	if (rc == 0 && !found)
		rc = ENOENT;
	if (rc == 0 && (copy_field(name, namelen, pw.pw_name ? pw.pw_name : "") < 0 ||
			copy_field(home, homelen, pw.pw_dir ? pw.pw_dir : "") < 0))
		rc = ERANGE;
	free(buf);
	return -rc;
}
