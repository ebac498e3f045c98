/* authbudget.h — the time basic auth's bcrypts of wrong passwords may take, told apart by client
 * address: the addresses that sent one lately (or asked again and again while refused) draw on
 * one bucket, the others on one of their own, so that a flood of wrong passwords from some
 * addresses cannot spend the time a scraper on another needs to pass, also one that has not
 * passed before. Pure: the caller gives the times. */
#ifndef DELAYTOP_AUTHBUDGET_H
#define DELAYTOP_AUTHBUDGET_H

#include <sys/socket.h>

/* The addresses remembered at most (that failed, or were refused lately); the one seen longest
 * ago is forgotten first. */
#define AUTHBUDGET_CLIENTS 1024
/* An address that sent no wrong password for this long counts as one that never did. */
#define AUTHBUDGET_FORGET_MS (10 * 60 * 1000.0)
/* An address refused this many times within AUTHBUDGET_STRIKE_MS, for want of time, counts as one
 * that failed for AUTHBUDGET_STRIKE_HOLD_MS: a scraper asks once an interval, a flood without
 * pause (and, let back, soon fails for real). */
#define AUTHBUDGET_STRIKES 3
#define AUTHBUDGET_STRIKE_MS 10000.0
#define AUTHBUDGET_STRIKE_HOLD_MS 60000.0

enum auth_pool {
	AUTH_POOL_CLEAN,  /* addresses without a recent failure */
	AUTH_POOL_FAILED, /* addresses with one */
	AUTH_POOLS,
};

/* A bucket of bcrypt time: up to burst_ms at once, refilled by share of the time that passes. */
struct auth_bucket {
	double burst_ms, share;
	double left_ms, refilled_ms;
};

/* A client as the budget tells them apart: an IPv4 address (mapped into IPv6), or an IPv6
 * address's first 64 bits (the rest zero), which one host commonly holds whole. */
struct auth_client {
	unsigned char addr[16];
};

/* What the budget remembers of a client. */
struct auth_seen {
	struct auth_client who;
	double seen_ms;	        /* when it was last noted; 0: a free slot */
	double failed_until_ms; /* it counts as failed until then */
	double strike_ms;       /* when the first of its refusals counted in strikes was */
	unsigned strikes;
};

struct auth_budget {
	struct auth_bucket pool[AUTH_POOLS];
	struct auth_seen seen[AUTHBUDGET_CLIENTS];
};

/* The budget at time now, its buckets full: the clean addresses' 2 s at once and a fifth of the
 * time after it, the failed addresses' half a second and a tenth. */
void authbudget_init(struct auth_budget *b, double now_ms);

/* A bucket's size and refill, for the tests. */
void authbudget_set(struct auth_budget *b, enum auth_pool pool, double burst_ms, double share);

/* The client of a socket address: IPv4 and IPv4-mapped IPv6 by address, IPv6 by its /64;
 * anything else (or NULL) is one client of its own. */
struct auth_client authbudget_client(const struct sockaddr *sa);

/* The pool a bcrypt for client may draw on at time now, or -1 when none has time left: a client
 * that failed lately draws on the failed addresses' bucket only, another on its own bucket and,
 * when that is empty, on the failed addresses'. A refusal of another counts against it: its
 * AUTHBUDGET_STRIKES-th within AUTHBUDGET_STRIKE_MS puts it among the failed for a while, so that
 * a flood from many new addresses does not hold the clean bucket for long. */
int authbudget_take(struct auth_budget *b, const struct auth_client *client, double now_ms);

/* A bcrypt taken from pool took ms; its result for client at time now: a failure costs the pool
 * its time and remembers the client as failed; a success costs nothing (a right password is
 * checked once, then found in webauth.c's cache) and forgets that the client failed. */
void authbudget_spent(struct auth_budget *b, int pool, const struct auth_client *client, int ok, double ms,
		      double now_ms);

/* Whether client counts as failed at now: it failed within AUTHBUDGET_FORGET_MS, or was refused
 * too often within AUTHBUDGET_STRIKE_HOLD_MS. */
int authbudget_failed(const struct auth_budget *b, const struct auth_client *client, double now_ms);

#endif
