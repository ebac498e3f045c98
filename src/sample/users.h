/* users.h — user names by uid, looked up once each: the one cache of the user database. */
#ifndef DELAYTOP_USERS_H
#define DELAYTOP_USERS_H

#include <stdint.h>

#include "idmap.h"

struct users {
	struct idmap names; /* uid + 1 -> name */
};

void users_init(struct users *u);
void users_free(struct users *u);

/* The name of uid, or its number when the user database has none; it lives until users_free. */
const char *users_name(struct users *u, uint32_t uid);

/* The user database's entry of uid, through getpwuid_r: unlike getpwuid it shares no buffer with
 * a lookup on another thread (the screen's W and its reading thread both look users up). Its name
 * and home directory are copied into name and home (either may be NULL). Returns 0, -ENOENT when
 * the database has no such user, or another negative errno (-ERANGE: longer than the buffer). */
int users_lookup(uint32_t uid, char *name, size_t namelen, char *home, size_t homelen);

#endif
