/* webauth.h — basic auth's check of a user name and password against --web-config's users
 * (webconfig.h), for the exporter. */
#ifndef DELAYTOP_WEBAUTH_H
#define DELAYTOP_WEBAUTH_H

#include <sys/socket.h>

#include "authbudget.h"
#include "webconfig.h"

struct web_auth;

/* The check of wc's users (wc must outlive it), or NULL when wc has none or this delaytop was
 * built without libcrypt. */
struct web_auth *webauth_new(const struct web_config *wc);

/* 1 when user and password, sent from the address from (NULL: unknown), are a user's of the
 * configuration and the password matches its bcrypt hash, else 0. Costs one bcrypt whether the
 * user is known or not (an unknown one's at the highest cost of the users'), unless the same user
 * and password passed before (the cache keeps a salted hash of them, never the password). The
 * bcrypts of wrong passwords may take the time authbudget.h allows the kind of address they come
 * from: a check beyond it fails without one, so that wrong passwords cannot stop the scrapes whose
 * check is cached, nor those from addresses that sent none. Safe to call from several threads. */
int webauth_check(struct web_auth *a, const struct sockaddr *from, const char *user, const char *password);

/* The size and refill of one of the budget's buckets, full from now: for the tests. */
void webauth_set_budget(struct web_auth *a, enum auth_pool pool, double burst_ms, double share);

/* Checks that passed from the cache, and bcrypts computed: for the tests. */
void webauth_counts(const struct web_auth *a, unsigned long *cached, unsigned long *computed);

/* Checks failed for want of time for a bcrypt: for the tests. */
unsigned long webauth_refused(const struct web_auth *a);

void webauth_free(struct web_auth *a);

#endif
