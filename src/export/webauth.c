/* webauth.c — basic auth's check against bcrypt hashes through libcrypt (crypt_rn): the user
 * names and the hashes compared in constant time, an unknown user checked against a dummy hash of
 * the highest cost among the users' so that it costs as much as the costliest user, the time the
 * bcrypts may take bounded per kind of client address (authbudget.c), and the checks that passed
 * kept in a small cache. A bcrypt of cost 10 takes about 50 ms here and one of cost 12 about 250
 * to 400 ms, on the exporter's one thread, which serves every other connection meanwhile;
 * Prometheus scrapes every few seconds with the same user and password. The cache keys are a
 * SHA-256-crypt (libcrypt's "$5$", 1000 rounds) of "user:password" under a salt drawn at the
 * start, never the password; the configuration cannot change while delaytop runs, so an entry
 * stays good. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "webauth.h"
#include "xalloc.h"

#ifdef HAVE_CRYPT

#include <crypt.h>
#include <pthread.h>
#include <sys/random.h>

/* The successes remembered, the oldest replaced first. */
#define WEBAUTH_CACHE 16
/* A bcrypt hash: "$2y$", two digits of cost, "$", 22 characters of salt and 31 of hash. */
#define BCRYPT_LEN 60
#define BCRYPT_SETTING_LEN 29

struct web_auth {
	const struct web_config *wc;
	pthread_mutex_t lock;
	struct crypt_data cd;		 /* crypt_rn's work space, under lock */
	char salt[CRYPT_GENSALT_OUTPUT_SIZE]; /* "$5$rounds=1000$...": empty when none could be made */
	char dummy[BCRYPT_LEN + 1];	 /* an unknown user's hash: the highest cost, no password's */
	char cache[WEBAUTH_CACHE][CRYPT_OUTPUT_SIZE];
	unsigned next;
	unsigned long cached, computed, refused;
	struct auth_budget budget; /* the time bcrypts may take, by client address */
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The cost of a bcrypt hash (its two digits), 0 when it has none. */
static int bcrypt_cost(const char *hash)
{
	if (strlen(hash) < BCRYPT_SETTING_LEN || hash[4] < '0' || hash[4] > '9' || hash[5] < '0' || hash[5] > '9')
		return 0;
	return (hash[4] - '0') * 10 + (hash[5] - '0');
}

/* The dummy hash an unknown user is checked against: a salt of its own at the highest cost among
 * the users' hashes (and their prefix), and a hash no password is known to give; the costliest
 * user's own hash when no salt can be made, which costs the same. */
static void dummy_make(struct web_auth *a)
{
	static const char alphabet[] = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	const struct web_config *wc = a->wc;
	char prefix[5], setting[CRYPT_GENSALT_OUTPUT_SIZE];
	unsigned char noise[BCRYPT_LEN - BCRYPT_SETTING_LEN];
	size_t top = 0;

	for (size_t i = 1; i < wc->nusers; i++)
		if (bcrypt_cost(wc->users[i].hash) > bcrypt_cost(wc->users[top].hash))
			top = i;
	snprintf(a->dummy, sizeof(a->dummy), "%s", wc->users[top].hash);
	memcpy(prefix, wc->users[top].hash, 4);
	prefix[4] = '\0';
	if (!crypt_gensalt_rn(prefix, (unsigned long)bcrypt_cost(wc->users[top].hash), NULL, 0, setting,
			      sizeof(setting)) ||
	    strlen(setting) != BCRYPT_SETTING_LEN || getrandom(noise, sizeof(noise), 0) != (ssize_t)sizeof(noise))
		return;
	memcpy(a->dummy, setting, BCRYPT_SETTING_LEN);
	for (size_t i = 0; i < sizeof(noise); i++)
		a->dummy[BCRYPT_SETTING_LEN + i] = alphabet[noise[i] & 63];
	a->dummy[BCRYPT_LEN] = '\0';
}

struct web_auth *webauth_new(const struct web_config *wc)
{
	struct web_auth *a;

	if (!wc || !wc->nusers)
		return NULL;
	a = xcalloc(1, sizeof(*a));
	a->wc = wc;
	authbudget_init(&a->budget, now_ms());
	dummy_make(a);
	pthread_mutex_init(&a->lock, NULL);
	/* random bytes from the kernel; without a salt there is no cache */
	if (!crypt_gensalt_rn("$5$", 1000, NULL, 0, a->salt, sizeof(a->salt)) || a->salt[0] == '*')
		a->salt[0] = '\0';
	return a;
}

void webauth_free(struct web_auth *a)
{
	if (!a)
		return;
	pthread_mutex_destroy(&a->lock);
	explicit_bzero(a, sizeof(*a));
	free(a);
}

/* a and b equal, in a time that depends on their lengths only. */
static int same_text(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), n = la > lb ? la : lb;
	volatile unsigned char d = la != lb;

	for (size_t i = 0; i < n; i++)
		d |= (unsigned char)((i < la ? a[i] : 0) ^ (i < lb ? b[i] : 0));
	return d == 0;
}

/* The cache key of user and password into key (CRYPT_OUTPUT_SIZE bytes): 1, or 0 when there is
 * none (no salt, or too long for libcrypt). Under lock. */
static int cache_key(struct web_auth *a, const char *user, const char *password, char *key)
{
	size_t lu = strlen(user), lp = strlen(password);
	char phrase[CRYPT_MAX_PASSPHRASE_SIZE];
	const char *h;

	if (!a->salt[0] || lu + 1 + lp >= sizeof(phrase))
		return 0;
	memcpy(phrase, user, lu);
	phrase[lu] = ':';
	memcpy(phrase + lu + 1, password, lp + 1);
	h = crypt_rn(phrase, a->salt, &a->cd, sizeof(a->cd));
	explicit_bzero(phrase, sizeof(phrase));
	if (!h || h[0] == '*' || strlen(h) >= CRYPT_OUTPUT_SIZE)
		return 0;
	strcpy(key, h);
	return 1;
}

/* Whether key is in the cache, every entry compared. Under lock. */
static int cache_has(const struct web_auth *a, const char *key)
{
	int hit = 0;

	for (unsigned i = 0; i < WEBAUTH_CACHE; i++)
		hit |= a->cache[i][0] && same_text(a->cache[i], key);
	return hit;
}

/* bcrypt of the password under the user's hash, or under the dummy hash when the name is
 * nobody's; 1 when the user is known and the hash the same. Under lock. */
static int bcrypt_check(struct web_auth *a, const char *user, const char *password)
{
	const struct web_config *wc = a->wc;
	const char *hash = a->dummy, *h;
	int known = 0;

	for (size_t i = 0; i < wc->nusers; i++) {
		int same = same_text(wc->users[i].name, user);

		hash = same && !known ? wc->users[i].hash : hash;
		known |= same;
	}
	a->computed++;
	h = crypt_rn(password, hash, &a->cd, sizeof(a->cd));
	return h && same_text(h, hash) && known;
}

int webauth_check(struct web_auth *a, const struct sockaddr *from, const char *user, const char *password)
{
	struct auth_client client = authbudget_client(from);
	char key[CRYPT_OUTPUT_SIZE];
	double start, end;
	int keyed, ok, pool;

	pthread_mutex_lock(&a->lock);
	keyed = cache_key(a, user, password, key);
	if (keyed && cache_has(a, key)) {
		a->cached++;
		pthread_mutex_unlock(&a->lock);
		return 1;
	}
	start = now_ms();
	pool = authbudget_take(&a->budget, &client, start);
	if (pool < 0) {
		a->refused++;
		pthread_mutex_unlock(&a->lock);
		return 0;
	}
	ok = bcrypt_check(a, user, password);
	end = now_ms();
	authbudget_spent(&a->budget, pool, &client, ok, end - start, end);
	if (ok && keyed) {
		strcpy(a->cache[a->next], key);
		a->next = (a->next + 1) % WEBAUTH_CACHE;
	}
	pthread_mutex_unlock(&a->lock);
	return ok;
}

void webauth_set_budget(struct web_auth *a, enum auth_pool pool, double burst_ms, double share)
{
	pthread_mutex_lock(&a->lock);
	authbudget_set(&a->budget, pool, burst_ms, share);
	pthread_mutex_unlock(&a->lock);
}

void webauth_counts(const struct web_auth *a, unsigned long *cached, unsigned long *computed)
{
	*cached = a ? a->cached : 0;
	*computed = a ? a->computed : 0;
}

unsigned long webauth_refused(const struct web_auth *a)
{
	return a ? a->refused : 0;
}

#else /* built without libcrypt: webconfig.c refuses basic_auth_users */

struct web_auth *webauth_new(const struct web_config *wc)
{
	(void)wc;
	return NULL;
}

int webauth_check(struct web_auth *a, const struct sockaddr *from, const char *user, const char *password)
{
	(void)a;
	(void)from;
	(void)user;
	(void)password;
	return 0;
}

void webauth_counts(const struct web_auth *a, unsigned long *cached, unsigned long *computed)
{
	(void)a;
	*cached = *computed = 0;
}

unsigned long webauth_refused(const struct web_auth *a)
{
	(void)a;
	return 0;
}

void webauth_set_budget(struct web_auth *a, enum auth_pool pool, double burst_ms, double share)
{
	(void)a;
	(void)pool;
	(void)burst_ms;
	(void)share;
}

void webauth_free(struct web_auth *a)
{
	(void)a;
}

#endif
