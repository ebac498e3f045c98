/* users.c — the user-name cache. */
#include "config.h"

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>

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
	struct passwd *pw;
	char num[16];

	if (name)
		return name;
	pw = getpwuid(uid);
	snprintf(num, sizeof(num), "%u", uid);
	name = xstrdup(pw ? pw->pw_name : num);
	idmap_put(&u->names, uid + 1, name);
	return name;
}
