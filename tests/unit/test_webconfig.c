/* test_webconfig.c — --web-config's file (tests/unit/webconfig/): the exporter toolkit's keys
 * that delaytop takes are read (file names joined to the file's directory, users in order), an
 * empty file is plain HTTP, and each bad file is refused naming its line and the reason (a cost
 * above 14, a tag that is not YAML's own, 100,000 nested '[' within a second, a FIFO, a directory
 * or a device as the file, certificate or key, at once); then the
 * check of users and passwords: the right password passes, a wrong one or an unknown user does
 * not, an unknown user costs a bcrypt too, as long as the costliest user's (timed beside them),
 * only a success is cached, and a flood of wrong passwords from one address leaves another the
 * time to pass. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_CRYPT
#include <crypt.h>
#endif

#include "tap.h"
#include "webauth.h"
#include "webconfig.h"

static char dir[4096];

/* The fixture's path. */
static const char *fixture(const char *name)
{
	static char path[4200];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

#if defined(HAVE_YAML) && defined(HAVE_CRYPT)
/* Each bad file: the line its message names and a piece of the reason. */
static const struct bad_case {
	const char *file;
	unsigned line;
	const char *reason;
} bad_cases[] = {
	{ .file = "bad_yaml.yml", .line = 3, .reason = "not valid YAML" },
	{ .file = "unknown_key.yml", .line = 4, .reason = "unknown key 'basic_auth_user'" },
	{ .file = "min_version.yml", .line = 4, .reason = "'min_version' is not supported by delaytop" },
	{ .file = "client_auth.yml", .line = 4, .reason = "client_auth_type may only be NoClientCert" },
	{ .file = "headers.yml", .line = 2, .reason = "'headers' is not supported by delaytop" },
	{ .file = "rate_limit.yml", .line = 1, .reason = "'rate_limit' is not supported by delaytop" },
	{ .file = "no_key.yml", .line = 1, .reason = "key_file is missing" },
	{ .file = "no_cert.yml", .line = 1, .reason = "cert_file is missing" },
	{ .file = "missing_cert.yml", .line = 2, .reason = "cert_file '" },
	{ .file = "key_not_pem.yml", .line = 3, .reason = "key_file '" },
	{ .file = "md5_hash.yml", .line = 3, .reason = "the hash of user 'bob' is not bcrypt" },
	{ .file = "plain_password.yml", .line = 2, .reason = "the hash of user 'alice' is not bcrypt" },
	{ .file = "short_hash.yml", .line = 2, .reason = "is not bcrypt" },
	{ .file = "no_users.yml", .line = 1, .reason = "basic_auth_users has no users" },
	{ .file = "twice_user.yml", .line = 3, .reason = "user 'alice' is given twice" },
	{ .file = "colon_user.yml", .line = 2, .reason = "has a ':'" },
	{ .file = "users_list.yml", .line = 2, .reason = "basic_auth_users must be a mapping" },
	{ .file = "twice_key.yml", .line = 4, .reason = "'tls_server_config' is given twice" },
	{ .file = "not_mapping.yml", .line = 1, .reason = "must be a mapping" },
	{ .file = "two_documents.yml", .line = 4, .reason = "a second YAML document" },
	{ .file = "cert_list.yml", .line = 2, .reason = "cert_file must be a single value" },
	{ .file = "nothere.yml", .line = 0, .reason = "No such file or directory" },
	{ .file = "cost15.yml", .line = 4, .reason = "the hash of user 'bob' has cost 15: delaytop takes 4 to 14" },
	{ .file = "cost31.yml", .line = 3, .reason = "the hash of user 'alice' has cost 31" },
	{ .file = "tag_python.yml", .line = 3, .reason = "the YAML tag '!!python/object/apply:os.system' is not one" },
	{ .file = "tag_local.yml", .line = 2, .reason = "the YAML tag '!delaytop' is not one delaytop knows" },
	{ .file = "tag_directive.yml", .line = 5, .reason = "the YAML tag 'tag:example.com,2000:hash' is not one" },
};

static void test_good(void)
{
	struct web_config wc;
	char err[1024], want[4200];

	is_int(webconfig_load(fixture("good.yml"), &wc, err, sizeof(err)), 0, "good.yml is taken");
	snprintf(want, sizeof(want), "%s/cert.pem", dir);
	is_str(wc.cert_file, want, "cert_file is joined to the file's directory");
	snprintf(want, sizeof(want), "%s/key.pem", dir);
	is_str(wc.key_file, want, "key_file is joined to the file's directory");
	ok(wc.cert_pem && strstr(wc.cert_pem, "BEGIN CERTIFICATE") && wc.key_pem && strstr(wc.key_pem, "PRIVATE KEY"),
	   "the certificate and the key are read");
	is_int(wc.nusers, 2, "two users");
	ok(wc.nusers == 2 && strcmp(wc.users[0].name, "alice") == 0 && strcmp(wc.users[1].name, "bob") == 0 &&
		   strncmp(wc.users[1].hash, "$2y$04$", 7) == 0,
	   "alice and bob in order, a quoted name and hash read as plain ones");
	webconfig_free(&wc);

	is_int(webconfig_load(fixture("empty.yml"), &wc, err, sizeof(err)), 0, "an empty file is taken");
	ok(!wc.cert_file && !wc.nusers, "an empty file asks for neither TLS nor users");
	webconfig_free(&wc);
	is_int(webconfig_load(fixture("comments.yml"), &wc, err, sizeof(err)), 0, "a file of comments is taken");
	ok(!wc.cert_file && !wc.nusers, "and asks for neither");
	webconfig_free(&wc);
	is_int(webconfig_load(fixture("users_only.yml"), &wc, err, sizeof(err)), 0, "users without TLS are taken");
	ok(!wc.cert_file && wc.nusers == 1, "users without TLS: one user, no certificate");
	webconfig_free(&wc);
	is_int(webconfig_load(fixture("tags_core.yml"), &wc, err, sizeof(err)), 0,
	       "YAML's core tags (!!map, !!bool, !!str) and the non-specific ! are taken");
	ok(wc.nusers == 1 && strcmp(wc.users[0].name, "alice") == 0 && strncmp(wc.users[0].hash, "$2y$14$", 7) == 0,
	   "a tagged name and hash are read as plain ones, and a cost of 14 is taken");
	webconfig_free(&wc);
}

/* Nesting deeper than 32 levels is refused at the first event past it, the rest never parsed:
 * 100,000 '[' (libyaml alone took 97 s on them) within a second; 32 levels are still YAML. */
static void test_depth(void)
{
	size_t n = 100000;
	char *deep = malloc(n + 64), err[512];
	struct web_config wc;
	unsigned long line;
	struct timespec t0, t1;
	double took;
	int rc;

	memset(deep, '[', n);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = webconfig_parse(deep, n, NULL, &wc, &line, err, sizeof(err));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	took = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	ok(rc == -1 && line == 1 && strstr(err, "nested deeper than 32 levels"),
	   "100,000 nested '[' refused at line 1, nested too deep (%lu: %s)", line, err);
	ok(took < 1, "within a second (%.3f s)", took);
	/* the root mapping and 31 sequences: 32 levels */
	strcpy(deep, "a: ");
	memset(deep + 3, '[', 31);
	memset(deep + 34, ']', 31);
	deep[65] = '\n';
	rc = webconfig_parse(deep, 66, NULL, &wc, &line, err, sizeof(err));
	ok(rc == -1 && strstr(err, "unknown key 'a'"), "32 levels are parsed (and refused for their key: %s)", err);
	free(deep);
}

/* A file to write in the temporary directory tmp. */
static const char *tmp_path(const char *tmp, const char *name)
{
	static char path[2][4200];
	static unsigned next;
	char *p = path[next++ % 2];

	snprintf(p, sizeof(path[0]), "%s/%s", tmp, name);
	return p;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* text into out, its @ replaced by with. */
static void subst_at(char *out, size_t size, const char *text, const char *with)
{
	const char *at = strchr(text, '@');

	if (at)
		snprintf(out, size, "%.*s%s%s", (int)(at - text), text, with, at + 1);
	else
		snprintf(out, size, "%s", text);
}

/* A configuration, certificate or key that is not a regular file (a FIFO, which blocked the start
 * for ever, a directory, a device) is refused at once, naming the file, the line and what it is. */
static void test_not_regular(void)
{
	static const struct kind_case {
		const char *config; /* the file given, in tmp */
		const char *text;   /* what web.yml holds */
		const char *want;   /* the message after "tmp/", with @ for tmp */
	} cases[] = {
		{ "fifo.yml", NULL, "fifo.yml: not a regular file but a FIFO" },
		{ "dir.yml", NULL, "dir.yml: not a regular file but a directory" },
		{ "web.yml", "tls_server_config:\n  cert_file: cert.pem\n  key_file: key.fifo\n",
		  "web.yml:3: key_file '@/key.fifo': not a regular file but a FIFO" },
		{ "web.yml", "tls_server_config:\n  cert_file: dir.yml\n  key_file: key.pem\n",
		  "web.yml:2: cert_file '@/dir.yml': not a regular file but a directory" },
		{ "web.yml", "tls_server_config:\n  cert_file: cert.pem\n  key_file: /dev/null\n",
		  "web.yml:3: key_file '/dev/null': not a regular file but a device" },
	};
	char tmp[] = "/tmp/test_webconfig.XXXXXX", want[4400], piece[4300], cmd[8400];

	if (!mkdtemp(tmp)) {
		ok(0, "a temporary directory: %s", strerror(errno));
		return;
	}
	mkfifo(tmp_path(tmp, "fifo.yml"), 0600);
	mkfifo(tmp_path(tmp, "key.fifo"), 0600);
	mkdir(tmp_path(tmp, "dir.yml"), 0700);
	snprintf(cmd, sizeof(cmd), "cp '%s/cert.pem' '%s/key.pem' '%s'", dir, dir, tmp);
	if (system(cmd) != 0)
		ok(0, "the certificate and key copied: %s", cmd);
	/* a FIFO opened for reading waits for a writer: the test ends (SIGALRM) rather than hangs */
	printf("# a FIFO that holds the load ends this test in 20 s\n");
	alarm(20);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct kind_case *c = &cases[i];
		struct web_config wc;
		char err[1024];
		struct timespec t0, t1;
		double took;
		int rc;

		if (c->text)
			write_text(tmp_path(tmp, c->config), c->text);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		rc = webconfig_load(tmp_path(tmp, c->config), &wc, err, sizeof(err));
		clock_gettime(CLOCK_MONOTONIC, &t1);
		took = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
		subst_at(piece, sizeof(piece), c->want, tmp);
		snprintf(want, sizeof(want), "%s/%s", tmp, piece);
		ok(rc == -1 && strcmp(err, want) == 0 && took < 1, "refused at once (%.3f s): %s", took, piece);
		if (rc != -1 || strcmp(err, want) != 0)
			printf("#   got %d: %s\n", rc, rc == -1 ? err : "(taken)");
		if (rc == 0)
			webconfig_free(&wc);
	}
	alarm(0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmp);
}

/* The parser alone: an absolute name is kept, a relative one joined. */
static void test_paths(void)
{
	static const char text[] = "tls_server_config:\n  cert_file: /etc/delaytop/cert.pem\n  key_file: key.pem\n";
	struct web_config wc;
	unsigned long line;
	char err[512];

	is_int(webconfig_parse(text, strlen(text), "/srv/conf", &wc, &line, err, sizeof(err)), 0, "parsed");
	is_str(wc.cert_file, "/etc/delaytop/cert.pem", "an absolute cert_file is kept as it is");
	is_str(wc.key_file, "/srv/conf/key.pem", "a relative key_file is joined to the directory");
	webconfig_free(&wc);
	is_int(webconfig_parse("a: [", 4, NULL, &wc, &line, err, sizeof(err)), -1, "unclosed flow sequence refused");
	ok(err[0] && line >= 1, "libyaml's complaint comes with a line (%lu: %s)", line, err);
}

static void test_bad(void)
{
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		struct web_config wc;
		char err[1024], where[4300];
		int rc = webconfig_load(fixture(c->file), &wc, err, sizeof(err));

		if (c->line)
			snprintf(where, sizeof(where), "%s:%u: ", fixture(c->file), c->line);
		else
			snprintf(where, sizeof(where), "%s: ", fixture(c->file));
		ok(rc == -1 && strncmp(err, where, strlen(where)) == 0 && strstr(err, c->reason) && !wc.nusers &&
			   !wc.cert_file,
		   "%s refused at line %u: %s", c->file, c->line, c->reason);
		if (rc != -1 || strncmp(err, where, strlen(where)) != 0 || !strstr(err, c->reason))
			printf("#   got %d: %s\n", rc, rc == -1 ? err : "(taken)");
		if (rc == 0)
			webconfig_free(&wc);
	}
}

/* A socket address of IPv4 text, in one of four buffers used in turn. */
static const struct sockaddr *from(const char *ip)
{
	static struct sockaddr_in sa[4];
	static unsigned next;
	struct sockaddr_in *s = &sa[next++ % 4];

	memset(s, 0, sizeof(*s));
	s->sin_family = AF_INET;
	inet_pton(AF_INET, ip, &s->sin_addr);
	return (const struct sockaddr *)s;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) + (t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Wrong passwords as fast as they come from one address: its first costs a bcrypt of the clean
 * addresses' time, the others of the failed addresses' until they have taken their half second
 * (not refilled here, so that what follows does not hang on the time it takes); meanwhile a check
 * that passed before passes from the cache, a right user not seen before from another address
 * gets its bcrypt and passes, and a second flooding address gets one bcrypt, then is refused as
 * the first is. */
static void test_budget(const struct web_config *wc)
{
	struct web_auth *a = webauth_new(wc);
	unsigned long cached, computed, before;
	struct timespec t0;
	double spent;
	int n = 0;

	webauth_set_budget(a, AUTH_POOL_FAILED, 500, 0);
	is_int(webauth_check(a, from("127.0.0.1"), "alice", "secret"), 1, "alice passes");
	webauth_counts(a, &cached, &before);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!webauth_refused(a) && n < 20000) {
		webauth_check(a, from("192.0.2.1"), "mallory", "guess");
		n++;
	}
	spent = seconds_since(&t0);
	webauth_counts(a, &cached, &computed);
	ok(webauth_refused(a) == 1 && spent > 0.4 && spent < 5,
	   "wrong passwords from one address: refused without a bcrypt after about half a second of them "
	   "(%d checks, %.2f s)",
	   n, spent);
	is_int(computed - before, (long long)n - 1, "every wrong password before the refusal cost a bcrypt, the refused none");
	is_int(webauth_check(a, from("127.0.0.1"), "alice", "secret"), 1,
	       "while a check that passed before passes from the cache");
	is_int(webauth_check(a, from("198.51.100.7"), "bob", "hunter2"), 1,
	       "and a right user not seen before, from an address that sent no wrong password, passes");
	webauth_counts(a, &cached, &before);
	is_int(before - computed, 1, "with a bcrypt");
	is_int(webauth_check(a, from("192.0.2.1"), "bob", "hunter2"), 1,
	       "from the flooding address too, a right password that passed passes from the cache");
	is_int(webauth_check(a, from("192.0.2.2"), "mallory", "guess"), 0, "a second flooding address fails");
	webauth_counts(a, &cached, &computed);
	is_int(computed - before, 1, "its first wrong password cost a bcrypt");
	is_int(webauth_check(a, from("192.0.2.2"), "mallory", "guess"), 0, "its second fails");
	is_int(webauth_refused(a), 2, "without one");
	webauth_free(a);
}

/* The median of n times. */
static double median(double *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double x = v[j];

			v[j] = v[j - 1];
			v[j - 1] = x;
		}
	return v[n / 2];
}

/* A user with a bcrypt hash of password at cost. */
static struct web_user user_at_cost(const char *name, const char *password, unsigned long cost)
{
	char setting[CRYPT_GENSALT_OUTPUT_SIZE];
	struct crypt_data cd;
	struct web_user u = { .name = strdup(name) };

	memset(&cd, 0, sizeof(cd));
	if (crypt_gensalt_rn("$2y$", cost, NULL, 0, setting, sizeof(setting)))
		u.hash = strdup(crypt_rn(password, setting, &cd, sizeof(cd)));
	return u;
}

#define TIMING_ROUNDS 5

/* An unknown user's check takes as long as the costliest user's, not as the first user's: users
 * at cost 4 (first) and 10, each check timed side by side with the others, TIMING_ROUNDS times,
 * the budget out of the way; the medians compared. */
static void test_unknown_timing(void)
{
	struct web_user users[2] = { user_at_cost("quick", "fast", 4), user_at_cost("slow", "slow one", 10) };
	struct web_config wc = { .users = users, .nusers = 2 };
	static const char *const names[3] = { "quick", "slow", "nobody" };
	double took[3][TIMING_ROUNDS], med[3];
	struct web_auth *a;

	if (!users[0].hash || !users[1].hash) {
		ok(0, "this libcrypt makes bcrypt hashes of cost 4 and 10");
		return;
	}
	a = webauth_new(&wc);
	for (int p = 0; p < AUTH_POOLS; p++)
		webauth_set_budget(a, (enum auth_pool)p, 1e9, 1);
	for (int r = 0; r < TIMING_ROUNDS; r++)
		for (int i = 0; i < 3; i++) {
			struct timespec t0;

			clock_gettime(CLOCK_MONOTONIC, &t0);
			webauth_check(a, from("192.0.2.9"), names[i], "wrong");
			took[i][r] = seconds_since(&t0) * 1e3;
		}
	for (int i = 0; i < 3; i++)
		med[i] = median(took[i], TIMING_ROUNDS);
	printf("# medians of %d checks with a wrong password: cost-4 user %.1f ms, cost-10 user %.1f ms, "
	       "unknown user %.1f ms\n",
	       TIMING_ROUNDS, med[0], med[1], med[2]);
	ok(med[2] > 0.5 * med[1] && med[2] < 2 * med[1],
	   "an unknown user takes about as long as the cost-10 user (%.1f ms against %.1f ms)", med[2], med[1]);
	ok(med[2] > 10 * med[0], "far longer than the cost-4 user, the file's first (%.1f ms against %.1f ms)", med[2],
	   med[0]);
	webauth_free(a);
	for (int i = 0; i < 2; i++) {
		free(users[i].name);
		free(users[i].hash);
	}
}

static void test_auth(void)
{
	struct web_config wc;
	struct web_auth *a;
	unsigned long cached, computed;
	char err[1024];

	if (webconfig_load(fixture("good.yml"), &wc, err, sizeof(err)) < 0) {
		ok(0, "good.yml for the checks: %s", err);
		return;
	}
	a = webauth_new(&wc);
	ok(a != NULL, "a configuration with users makes a check");
	if (!a) {
		webconfig_free(&wc);
		return;
	}
	is_int(webauth_check(a, NULL, "alice", "secret"), 1, "alice with her password passes");
	is_int(webauth_check(a, NULL, "bob", "hunter2"), 1, "bob with his password passes");
	is_int(webauth_check(a, NULL, "alice", "hunter2"), 0, "alice with bob's password does not");
	is_int(webauth_check(a, NULL, "alice", "secre"), 0, "a password cut short does not");
	is_int(webauth_check(a, NULL, "alice", ""), 0, "an empty password does not");
	is_int(webauth_check(a, NULL, "carol", "secret"), 0, "an unknown user does not, with a known user's password");
	is_int(webauth_check(a, NULL, "alic", "secret"), 0, "a user name cut short does not");
	is_int(webauth_check(a, NULL, "", ""), 0, "no user does not");
	webauth_counts(a, &cached, &computed);
	is_int(computed, 8, "every check so far cost one bcrypt, the unknown users' too");
	is_int(cached, 0, "none came from the cache");
	is_int(webauth_check(a, NULL, "alice", "secret"), 1, "alice again passes");
	is_int(webauth_check(a, NULL, "alice", "wrong"), 0, "a wrong password after a success does not");
	webauth_counts(a, &cached, &computed);
	is_int(cached, 1, "alice's second check came from the cache");
	is_int(computed, 9, "the wrong password cost a bcrypt: failures are never cached");
	webauth_free(a);
	test_budget(&wc);
	test_unknown_timing();
	webconfig_free(&wc);
	ok(webauth_new(NULL) == NULL, "no configuration: no check");
}

#else

/* Built without what --web-config needs: it says which. */
static void test_without(void)
{
	struct web_config wc;
	char err[1024];

#ifdef HAVE_YAML
	const char *want = "libcrypt";
#else
	const char *want = "libyaml";
#endif
	ok(webconfig_load(fixture("users_only.yml"), &wc, err, sizeof(err)) == -1 && strstr(err, want),
	   "users refused, naming %s: %s", want, err);
}

#endif

int main(void)
{
	const char *top = getenv("top_srcdir");

	setvbuf(stdout, NULL, _IOLBF, 0); /* what passed is seen when a FIFO ends the test */
	snprintf(dir, sizeof(dir), "%s/tests/unit/webconfig", top ? top : "..");
#if defined(HAVE_YAML) && defined(HAVE_CRYPT)
	test_good();
	test_paths();
	test_bad();
	test_depth();
	test_not_regular();
	test_auth();
#else
	test_without();
	/* the file's own tests need both: without them, say so (quickstart.sh fails on a skip) */
	tap_skip(1, "delaytop was built without libyaml or libcrypt: --web-config cannot be tested");
#endif
	return tap_done();
}
