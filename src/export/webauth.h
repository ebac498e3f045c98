/* webauth.h — basic auth's check of a user name and password against --web-config's users
 * (webconfig.h), for the exporter. */
#ifndef DELAYTOP_WEBAUTH_H
#define DELAYTOP_WEBAUTH_H

#include "webconfig.h"

struct web_auth;

/* The check of wc's users (wc must outlive it), or NULL when wc has none or this delaytop was
 * built without libcrypt. */
struct web_auth *webauth_new(const struct web_config *wc);

/* 1 when user and password are a user's of the configuration and the password matches its bcrypt
 * hash, else 0. Costs one bcrypt whether the user is known or not, unless the same user and
 * password passed before (the cache keeps a salted hash of them, never the password). The
 * bcrypts may take a second at once and a fifth of the time after that: a check beyond it fails
 * without one, so that wrong passwords cannot stop the scrapes whose check is cached. Safe to call
 * from several threads. */
int webauth_check(struct web_auth *a, const char *user, const char *password);

/* Checks that passed from the cache, and bcrypts computed: for the tests. */
void webauth_counts(const struct web_auth *a, unsigned long *cached, unsigned long *computed);

/* Checks failed for want of time for a bcrypt: for the tests. */
unsigned long webauth_refused(const struct web_auth *a);

void webauth_free(struct web_auth *a);

#endif
