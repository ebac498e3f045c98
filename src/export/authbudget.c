/* authbudget.c — the time basic auth's bcrypts may take, told apart by client address. A bcrypt
 * holds the exporter's one thread for 50 to 400 ms; without a bound, wrong passwords as fast as
 * they come would keep every scrape waiting. One bucket for every client let a flood of them
 * spend the time of a scraper that had not passed before (with 32 clients sending wrong
 * passwords, 0 of 10 right users got in: tests/kernel/exporter_authflood.sh). So the clients
 * that failed lately (by address) share one bucket, and the others have one of their own, which
 * a flooder spends once per address at most: its first wrong password puts it among the failed,
 * and so do a few refusals in a row. A table of AUTHBUDGET_CLIENTS addresses keeps who failed or
 * was refused; a flood from more addresses than that can still spend the clean clients' bucket,
 * at the same bound of time. */
#include "config.h"

#include <string.h>
#include <netinet/in.h>

#include "authbudget.h"

/* The buckets as authbudget_init makes them: ms at once, share of the time after it. */
#define CLEAN_BURST_MS 2000.0
#define CLEAN_SHARE 0.2
#define FAILED_BURST_MS 500.0
#define FAILED_SHARE 0.1

void authbudget_set(struct auth_budget *b, enum auth_pool pool, double burst_ms, double share)
{
	b->pool[pool].burst_ms = burst_ms;
	b->pool[pool].share = share;
	b->pool[pool].left_ms = burst_ms;
}

void authbudget_init(struct auth_budget *b, double now_ms)
{
	memset(b, 0, sizeof(*b));
	authbudget_set(b, AUTH_POOL_CLEAN, CLEAN_BURST_MS, CLEAN_SHARE);
	authbudget_set(b, AUTH_POOL_FAILED, FAILED_BURST_MS, FAILED_SHARE);
	for (int i = 0; i < AUTH_POOLS; i++)
		b->pool[i].refilled_ms = now_ms;
}

struct auth_client authbudget_client(const struct sockaddr *sa)
{
	struct auth_client c;

	memset(&c, 0, sizeof(c));
	if (!sa || (sa->sa_family != AF_INET && sa->sa_family != AF_INET6)) {
		memset(&c, 0xff, sizeof(c)); /* a multicast address, which never sends */
	} else if (sa->sa_family == AF_INET) {
		c.addr[10] = c.addr[11] = 0xff; /* ::ffff:a.b.c.d */
		memcpy(c.addr + 12, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, 4);
	} else {
		const struct in6_addr *a = &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr;

		memcpy(c.addr, a->s6_addr, IN6_IS_ADDR_V4MAPPED(a) ? 16 : 8);
	}
	return c;
}

/* The bucket refilled up to now, and whether it has time left. */
static int bucket_left(struct auth_bucket *k, double now_ms)
{
	if (now_ms > k->refilled_ms) {
		k->left_ms += (now_ms - k->refilled_ms) * k->share;
		if (k->left_ms > k->burst_ms)
			k->left_ms = k->burst_ms;
		k->refilled_ms = now_ms;
	}
	return k->left_ms > 0;
}

/* The table's slot of client, or -1. */
static int seen_slot(const struct auth_budget *b, const struct auth_client *client)
{
	for (int i = 0; i < AUTHBUDGET_CLIENTS; i++)
		if (b->seen[i].seen_ms && memcmp(&b->seen[i].who, client, sizeof(*client)) == 0)
			return i;
	return -1;
}

/* A time to keep as a mark: 0 means none. */
static double mark(double now_ms)
{
	return now_ms > 0 ? now_ms : 1e-9;
}

/* Client's slot, seen at now: its own, a free one, or the one seen longest ago, emptied. */
static struct auth_seen *seen_note(struct auth_budget *b, const struct auth_client *client, double now_ms)
{
	int i = seen_slot(b, client), oldest = 0;

	for (int j = 0; i < 0 && j < AUTHBUDGET_CLIENTS; j++) {
		if (!b->seen[j].seen_ms) {
			i = j;
			break;
		}
		if (b->seen[j].seen_ms < b->seen[oldest].seen_ms)
			oldest = j;
	}
	if (i < 0) {
		i = oldest;
		memset(&b->seen[i], 0, sizeof(b->seen[i]));
	}
	b->seen[i].who = *client;
	b->seen[i].seen_ms = mark(now_ms);
	return &b->seen[i];
}

int authbudget_failed(const struct auth_budget *b, const struct auth_client *client, double now_ms)
{
	int i = seen_slot(b, client);

	return i >= 0 && now_ms < b->seen[i].failed_until_ms;
}

/* A refusal of a client that has not failed, at now: the AUTHBUDGET_STRIKES-th within
 * AUTHBUDGET_STRIKE_MS puts it among the failed for AUTHBUDGET_STRIKE_HOLD_MS. */
static void refused_note(struct auth_budget *b, const struct auth_client *client, double now_ms)
{
	struct auth_seen *s = seen_note(b, client, now_ms);

	if (!s->strikes || now_ms - s->strike_ms >= AUTHBUDGET_STRIKE_MS) {
		s->strikes = 0;
		s->strike_ms = now_ms;
	}
	if (++s->strikes >= AUTHBUDGET_STRIKES) {
		s->failed_until_ms = now_ms + AUTHBUDGET_STRIKE_HOLD_MS;
		s->strikes = 0;
	}
}

int authbudget_take(struct auth_budget *b, const struct auth_client *client, double now_ms)
{
	int failed = authbudget_failed(b, client, now_ms);

	/* both refilled, so that neither is refilled later for time it was not asked in */
	int clean_left = bucket_left(&b->pool[AUTH_POOL_CLEAN], now_ms);
	int failed_left = bucket_left(&b->pool[AUTH_POOL_FAILED], now_ms);

	if (!failed && clean_left)
		return AUTH_POOL_CLEAN;
	if (failed_left)
		return AUTH_POOL_FAILED;
	if (!failed)
		refused_note(b, client, now_ms);
	return -1;
}

void authbudget_spent(struct auth_budget *b, int pool, const struct auth_client *client, int ok, double ms,
		      double now_ms)
{
	int i;

	if (!ok) {
		if (pool >= 0 && pool < AUTH_POOLS)
			b->pool[pool].left_ms -= ms;
		seen_note(b, client, now_ms)->failed_until_ms = now_ms + AUTHBUDGET_FORGET_MS;
		return;
	}
	i = seen_slot(b, client);
	if (i >= 0) /* forgotten: neither failed nor refused */
		memset(&b->seen[i], 0, sizeof(b->seen[i]));
}
