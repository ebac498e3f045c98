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

#endif
