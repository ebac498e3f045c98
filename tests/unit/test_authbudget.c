/* test_authbudget.c — the time basic auth's bcrypts may take (export/authbudget.c), on a clock
 * the test moves: clients told apart by IPv4 address and IPv6 /64; a client's first wrong
 * password puts it among the failed, whose bucket alone it then draws on, so that a flood of
 * wrong passwords spends neither the bucket of the clients that sent none nor, when that is
 * empty, more than its own; a success or ten quiet minutes forget a failure; a client refused
 * three times in ten seconds counts as failed for a minute, one refused now and then does not; the table of
 * the clients forgets the one seen longest ago first; a bucket refills by its share up to its
 * burst. */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

#include "authbudget.h"
#include "tap.h"

/* The client of an address in text, IPv4 or IPv6. */
static struct auth_client client(const char *text)
{
	struct sockaddr_in v4;
	struct sockaddr_in6 v6;

	memset(&v4, 0, sizeof(v4));
	memset(&v6, 0, sizeof(v6));
	if (inet_pton(AF_INET, text, &v4.sin_addr) == 1) {
		v4.sin_family = AF_INET;
		return authbudget_client((const struct sockaddr *)&v4);
	}
	inet_pton(AF_INET6, text, &v6.sin6_addr);
	v6.sin6_family = AF_INET6;
	return authbudget_client((const struct sockaddr *)&v6);
}

static int same(struct auth_client a, struct auth_client b)
{
	return memcmp(&a, &b, sizeof(a)) == 0;
}

static void test_clients(void)
{
	ok(same(client("192.0.2.1"), client("::ffff:192.0.2.1")), "IPv4 and IPv4 mapped into IPv6 are one client");
	ok(!same(client("192.0.2.1"), client("192.0.2.2")), "two IPv4 addresses are two clients");
	ok(same(client("2001:db8::1"), client("2001:db8::ffff:2")), "two IPv6 addresses of one /64 are one client");
	ok(!same(client("2001:db8::1"), client("2001:db8:0:1::1")), "two /64s are two clients");
	ok(same(authbudget_client(NULL), authbudget_client(NULL)), "no address is one client of its own");
	ok(!same(authbudget_client(NULL), client("0.0.0.0")) && !same(authbudget_client(NULL), client("::1")),
	   "not the same as 0.0.0.0 or ::1");
}

/* Wrong passwords from flood, each bcrypt taking 100 ms, one every 100 ms from *t on until one
 * is refused; returns how many cost a bcrypt. */
static int flood_until_refused(struct auth_budget *b, const struct auth_client *flood, double *t)
{
	int n = 0, pool;

	while ((pool = authbudget_take(b, flood, *t)) >= 0 && n < 1000) {
		*t += 100;
		authbudget_spent(b, pool, flood, 0, 100, *t);
		n++;
	}
	return n;
}

static void test_flood(void)
{
	static struct auth_budget b;
	struct auth_client flood = client("192.0.2.1"), other = client("192.0.2.2"), scraper = client("198.51.100.7");
	double t = 1000;
	int n;

	authbudget_init(&b, t);
	is_int(authbudget_take(&b, &flood, t), AUTH_POOL_CLEAN, "a client that never failed draws on the clean bucket");
	authbudget_spent(&b, AUTH_POOL_CLEAN, &flood, 0, 100, t += 100);
	ok(authbudget_failed(&b, &flood, t), "its wrong password puts it among the failed");
	is_int(authbudget_take(&b, &flood, t), AUTH_POOL_FAILED, "and it then draws on the failed clients' bucket");
	n = flood_until_refused(&b, &flood, &t);
	/* 500 ms at once, and a tenth of the time it took: 500 + 0.1 * 100 n >= 100 n */
	ok(n >= 5 && n <= 6, "the failed bucket lets 500 ms and a tenth of the time through (%d bcrypts of 100 ms)", n);
	is_int(authbudget_take(&b, &scraper, t), AUTH_POOL_CLEAN, "through the flood, a client that never failed is let in");
	authbudget_spent(&b, AUTH_POOL_CLEAN, &scraper, 1, 100, t += 100);
	ok(!authbudget_failed(&b, &scraper, t), "a success does not count as a failure");
	is_int(authbudget_take(&b, &other, t), AUTH_POOL_CLEAN, "a second flooding address gets one bcrypt of the clean bucket");
	authbudget_spent(&b, AUTH_POOL_CLEAN, &other, 0, 100, t += 100);
	is_int(authbudget_take(&b, &other, t), -1, "and is refused after its first wrong password, the failed bucket empty");
	is_int(authbudget_take(&b, &flood, t), -1, "as the first is");

	/* the clean bucket spent (set to 1.5 s at once and a tenth of the time after it) */
	authbudget_init(&b, t = 0);
	authbudget_set(&b, AUTH_POOL_CLEAN, 1500, 0.1);
	is_int(authbudget_take(&b, &scraper, t), AUTH_POOL_CLEAN, "a full clean bucket");
	authbudget_spent(&b, AUTH_POOL_CLEAN, &scraper, 1, 1000, t += 1000);
	is_num(b.pool[AUTH_POOL_CLEAN].left_ms, 1500, 1e-6, "a right password costs the bucket nothing");
	authbudget_spent(&b, AUTH_POOL_CLEAN, &flood, 0, 2000, t += 2000); /* 1500 - 2000 = -500, refilled at the next take */
	is_num(b.pool[AUTH_POOL_CLEAN].left_ms, -500, 1e-6, "a wrong one costs it its time");
	is_int(authbudget_take(&b, &scraper, t), AUTH_POOL_FAILED,
	       "with the clean bucket spent, a clean client draws on the failed clients' bucket"); /* -200 */
	authbudget_spent(&b, AUTH_POOL_FAILED, &flood, 0, 600, t += 600); /* 500 - 600 = -100 */
	is_int(authbudget_take(&b, &scraper, t), -1, "with both spent, it is refused"); /* -140, -40 */
	t += 1300;
	is_int(authbudget_take(&b, &scraper, t), AUTH_POOL_FAILED,
	       "a tenth of 1.3 s does not refill the clean bucket's 140 ms, the failed one's 40 ms it does"); /* -10, 90 */
	t += 200;
	is_int(authbudget_take(&b, &scraper, t), AUTH_POOL_CLEAN, "a tenth of 1.5 s does"); /* +10 */
	t += 1e6;
	authbudget_take(&b, &scraper, t);
	is_num(b.pool[AUTH_POOL_CLEAN].left_ms, 1500, 1e-6, "up to its burst, not beyond");
}

static void test_forget(void)
{
	static struct auth_budget b;
	struct auth_client flood = client("192.0.2.1"), first = client("10.0.0.0");
	char text[32];
	double t = 1;

	authbudget_init(&b, t);
	authbudget_spent(&b, AUTH_POOL_CLEAN, &flood, 0, 1, t);
	ok(authbudget_failed(&b, &flood, t + AUTHBUDGET_FORGET_MS - 1), "a failure is remembered for ten minutes");
	ok(!authbudget_failed(&b, &flood, t + AUTHBUDGET_FORGET_MS), "and forgotten after them");
	authbudget_spent(&b, AUTH_POOL_FAILED, &flood, 0, 1, t += 10);
	authbudget_spent(&b, AUTH_POOL_FAILED, &flood, 1, 1, t += 10);
	ok(!authbudget_failed(&b, &flood, t), "a success forgets a failure at once");

	authbudget_init(&b, t = 1);
	for (int i = 0; i <= AUTHBUDGET_CLIENTS; i++) {
		struct auth_client c;

		snprintf(text, sizeof(text), "10.0.%d.%d", i / 256, i % 256);
		c = client(text);
		authbudget_spent(&b, AUTH_POOL_FAILED, &c, 0, 0, t += 1);
	}
	ok(!authbudget_failed(&b, &first, t), "a table of %d failed clients forgets the one that failed first",
	   AUTHBUDGET_CLIENTS);
	snprintf(text, sizeof(text), "10.0.%d.%d", AUTHBUDGET_CLIENTS / 256, AUTHBUDGET_CLIENTS % 256);
	first = client(text);
	ok(authbudget_failed(&b, &first, t), "and keeps the last");
	first = client("10.0.0.1");
	ok(authbudget_failed(&b, &first, t), "and the second");
}

/* Both buckets spent: every check is refused. */
static void spend_all(struct auth_budget *b, double t)
{
	for (int p = 0; p < AUTH_POOLS; p++) {
		b->pool[p].left_ms = -1e6;
		b->pool[p].refilled_ms = t;
	}
}

/* Refusals: a client refused again and again counts as failed for a minute, a scraper asking once
 * an interval does not; refusals of a failed client change nothing. */
static void test_strikes(void)
{
	static struct auth_budget b;
	struct auth_client flood = client("192.0.2.1"), scraper = client("198.51.100.7");
	double t = 1, marked;

	authbudget_init(&b, t);
	spend_all(&b, t);
	is_int(authbudget_take(&b, &flood, t), -1, "both buckets spent: refused");
	is_int(authbudget_take(&b, &flood, t += 1), -1, "again");
	ok(!authbudget_failed(&b, &flood, t), "two refusals leave a client among the clean");
	authbudget_take(&b, &flood, t += AUTHBUDGET_STRIKE_MS - 2);
	ok(authbudget_failed(&b, &flood, t), "the third within %.0f s puts it among the failed",
	   AUTHBUDGET_STRIKE_MS / 1000);
	marked = t;
	for (int i = 0; i < 5; i++) {
		spend_all(&b, t);
		authbudget_take(&b, &scraper, t += AUTHBUDGET_STRIKE_MS / 2);
	}
	ok(!authbudget_failed(&b, &scraper, t), "a refusal every %.0f s does not", AUTHBUDGET_STRIKE_MS / 2000);
	ok(authbudget_failed(&b, &flood, marked + AUTHBUDGET_STRIKE_HOLD_MS - 1) &&
		   !authbudget_failed(&b, &flood, marked + AUTHBUDGET_STRIKE_HOLD_MS),
	   "for %.0f s", AUTHBUDGET_STRIKE_HOLD_MS / 1000);
	spend_all(&b, t = marked + AUTHBUDGET_STRIKE_HOLD_MS - 2);
	authbudget_take(&b, &flood, t);
	authbudget_take(&b, &flood, t);
	ok(!authbudget_failed(&b, &flood, marked + AUTHBUDGET_STRIKE_HOLD_MS),
	   "refusals while it counts as failed do not make it longer");
	spend_all(&b, t = 1e7);
	authbudget_spent(&b, AUTH_POOL_CLEAN, &scraper, 0, 1, t);
	for (int i = 0; i < 5; i++)
		authbudget_take(&b, &scraper, t += 1);
	ok(!authbudget_failed(&b, &scraper, t - 5 + AUTHBUDGET_FORGET_MS),
	   "nor do they make a wrong password's ten minutes longer");
}

int main(void)
{
	test_clients();
	test_flood();
	test_forget();
	test_strikes();
	return tap_done();
}
