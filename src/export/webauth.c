/* webauth.c — basic auth's check against bcrypt hashes through libcrypt (crypt_rn): the user
 * names and the hashes compared in constant time, an unknown user checked against a known user's
 * hash so that it costs the same bcrypt, and the checks that passed kept in a small cache. A
 * bcrypt of cost 10 takes about 50 ms here and one of cost 12 about 250 to 400 ms, on the
 * exporter's one thread, which serves every other connection meanwhile; Prometheus scrapes every
 * few seconds with the same user and password. The cache keys are a SHA-256-crypt (libcrypt's
 * "$5$", 1000 rounds) of "user:password" under a salt drawn at the start, never the password;
 * the configuration cannot change while delaytop runs, so an entry stays good. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "webauth.h"
#include "xalloc.h"

#ifdef HAVE_CRYPT

#include <crypt.h>
#include <pthread.h>

/* The successes remembered, the oldest replaced first. */
#define WEBAUTH_CACHE 16
/* The time bcrypts may take, so that wrong passwords cannot keep the exporter's thread from
 * serving the scrapes it knows: a bucket of this many ms, refilled by this share of the time. A
 * check the bucket has no time for fails at once (before anything about the user is looked at). */
#define WEBAUTH_BURST_MS 1000.0
#define WEBAUTH_SHARE 0.2

struct web_auth {
	const struct web_config *wc;
	pthread_mutex_t lock;
	struct crypt_data cd;		 /* crypt_rn's work space, under lock */
	char salt[CRYPT_GENSALT_OUTPUT_SIZE]; /* "$5$rounds=1000$...": empty when none could be made */
	char cache[WEBAUTH_CACHE][CRYPT_OUTPUT_SIZE];
	unsigned next;
	unsigned long cached, computed, refused;
	double budget_ms;   /* the bucket */
	double refilled_ms; /* CLOCK_MONOTONIC of its last refill */
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Whether the bucket has time for a bcrypt, refilled first. Under lock. */
static int budget_left(struct web_auth *a, double now)
{
	a->budget_ms += (now - a->refilled_ms) * WEBAUTH_SHARE;
	if (a->budget_ms > WEBAUTH_BURST_MS)
		a->budget_ms = WEBAUTH_BURST_MS;
	a->refilled_ms = now;
	return a->budget_ms > 0;
}

struct web_auth *webauth_new(const struct web_config *wc)
{
	struct web_auth *a;

	if (!wc || !wc->nusers)
		return NULL;
	a = xcalloc(1, sizeof(*a));
	a->wc = wc;
	a->budget_ms = WEBAUTH_BURST_MS;
	a->refilled_ms = now_ms();
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

/* bcrypt of the password under the user's hash, or under the first user's when the name is
 * nobody's; 1 when the user is known and the hash the same. Under lock. */
static int bcrypt_check(struct web_auth *a, const char *user, const char *password)
{
	const struct web_config *wc = a->wc;
	size_t at = 0;
	int known = 0;
	const char *h;

	for (size_t i = 0; i < wc->nusers; i++) {
		int same = same_text(wc->users[i].name, user);

		at = same && !known ? i : at;
		known |= same;
	}
	a->computed++;
	h = crypt_rn(password, wc->users[at].hash, &a->cd, sizeof(a->cd));
	return h && same_text(h, wc->users[at].hash) && known;
}

int webauth_check(struct web_auth *a, const char *user, const char *password)
{
	char key[CRYPT_OUTPUT_SIZE];
	int keyed, ok;

	pthread_mutex_lock(&a->lock);
	keyed = cache_key(a, user, password, key);
	if (keyed && cache_has(a, key)) {
		a->cached++;
		pthread_mutex_unlock(&a->lock);
		return 1;
	}
	if (!budget_left(a, now_ms())) {
		a->refused++;
		pthread_mutex_unlock(&a->lock);
		return 0;
	}
	ok = bcrypt_check(a, user, password);
	a->budget_ms -= now_ms() - a->refilled_ms;
	if (ok && keyed) {
		strcpy(a->cache[a->next], key);
		a->next = (a->next + 1) % WEBAUTH_CACHE;
	}
	pthread_mutex_unlock(&a->lock);
	return ok;
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

int webauth_check(struct web_auth *a, const char *user, const char *password)
{
	(void)a;
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

void webauth_free(struct web_auth *a)
{
	(void)a;
}

#endif
