/* webconfig.c — --web-config's file: its YAML's events checked first (nesting depth, tags), then
 * read by libyaml into a document, the document's keys checked against the exporter toolkit's (a
 * table: taken, harmless or refused), the bcrypt hashes and their cost checked, the certificate
 * and key read; every file read only if it is a regular file, so that none can stall the start. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "format.h"
#include "i18n.h"
#include "webconfig.h"
#include "xalloc.h"

/* The largest web configuration, certificate or key read. */
#define WEBCONFIG_MAX (1 << 20)
/* The deepest nesting of sequences and mappings taken: the file's own is 2 (3 with the lists of
 * the keys delaytop refuses); libyaml takes time quadratic in the depth, 97 s for 100,000 '['. */
#define WEBCONFIG_DEPTH 32

void webconfig_free(struct web_config *wc)
{
	for (size_t i = 0; i < wc->nusers; i++) {
		free(wc->users[i].name);
		free(wc->users[i].hash);
	}
	free(wc->users);
	free(wc->cert_file);
	free(wc->key_file);
	free(wc->cert_pem);
	if (wc->key_pem) /* the private key leaves no copy behind */
		explicit_bzero(wc->key_pem, strlen(wc->key_pem));
	free(wc->key_pem);
	memset(wc, 0, sizeof(*wc));
}

#ifdef HAVE_YAML

#include <yaml.h>
#ifdef HAVE_CRYPT
#include <crypt.h>
#endif

/* What a key the exporter toolkit knows does here. */
enum key_use {
	KEY_TAKEN,    /* read and used */
	KEY_HARMLESS, /* read and left: it would change nothing here */
	KEY_REFUSED,  /* delaytop cannot do what it asks: the file is refused */
};

struct key_def {
	const char *name;
	enum key_use use;
};

enum { TOP_TLS, TOP_HTTP, TOP_USERS, TOP_RATE_LIMIT };
static const struct key_def top_keys[] = {
	[TOP_TLS] = { .name = "tls_server_config", .use = KEY_TAKEN },
	[TOP_HTTP] = { .name = "http_server_config", .use = KEY_TAKEN },
	[TOP_USERS] = { .name = "basic_auth_users", .use = KEY_TAKEN },
	[TOP_RATE_LIMIT] = { .name = "rate_limit", .use = KEY_REFUSED },
};

enum { TLS_CERT_FILE, TLS_KEY_FILE, TLS_CLIENT_AUTH, TLS_PREFER };
static const struct key_def tls_keys[] = {
	[TLS_CERT_FILE] = { .name = "cert_file", .use = KEY_TAKEN },
	[TLS_KEY_FILE] = { .name = "key_file", .use = KEY_TAKEN },
	[TLS_CLIENT_AUTH] = { .name = "client_auth_type", .use = KEY_TAKEN }, /* NoClientCert only */
	[TLS_PREFER] = { .name = "prefer_server_cipher_suites", .use = KEY_HARMLESS },
	{ .name = "cert", .use = KEY_REFUSED },
	{ .name = "key", .use = KEY_REFUSED },
	{ .name = "client_ca", .use = KEY_REFUSED },
	{ .name = "client_ca_file", .use = KEY_REFUSED },
	{ .name = "client_allowed_sans", .use = KEY_REFUSED },
	{ .name = "cipher_suites", .use = KEY_REFUSED },
	{ .name = "curve_preferences", .use = KEY_REFUSED },
	{ .name = "min_version", .use = KEY_REFUSED },
	{ .name = "max_version", .use = KEY_REFUSED },
};

static const struct key_def http_keys[] = {
	{ .name = "http2", .use = KEY_HARMLESS }, /* delaytop serves HTTP/1.1, which Prometheus scrapes */
	{ .name = "headers", .use = KEY_REFUSED },
};

#define KEYS(t) t, sizeof(t) / sizeof(t[0])
#define SECTION_KEYS_MAX 16

/* A parse in progress: the document, where relative names start, the result, the error. */
struct parse {
	yaml_document_t *doc;
	const char *dir;
	struct web_config *wc;
	unsigned long *line;
	char *err;
	size_t errlen;
};

/* Fills the error, about a line (1-based; 0: the file). Returns -1. */
__attribute__((format(printf, 3, 4))) static int fail_at(struct parse *p, unsigned long line, const char *fmt, ...)
{
	va_list ap;

	*p->line = line;
	va_start(ap, fmt);
	vsnprintf(p->err, p->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Fills the error, about node n's line (NULL: the file). Returns -1. */
__attribute__((format(printf, 3, 4))) static int fail(struct parse *p, const yaml_node_t *n, const char *fmt, ...)
{
	va_list ap;

	*p->line = n ? n->start_mark.line + 1 : 0;
	va_start(ap, fmt);
	vsnprintf(p->err, p->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* A scalar's text (NUL-terminated by libyaml), or NULL after filling the error: not a scalar, or
 * a NUL inside. what names the value in the message. */
static const char *scalar(struct parse *p, const yaml_node_t *n, const char *what)
{
	char shown[SHOWN_SIZE];

	if (n->type != YAML_SCALAR_NODE) {
		fail(p, n, F_(N_("%s must be a single value")), text_shown(what, shown));
		return NULL;
	}
	if (strlen((const char *)n->data.scalar.value) != n->data.scalar.length) {
		fail(p, n, F_(N_("%s contains a NUL byte")), text_shown(what, shown));
		return NULL;
	}
	return (const char *)n->data.scalar.value;
}

/* The index in defs of a mapping's key, or -1 after filling the error: not a text, not a key of
 * the section, a key delaytop refuses, or one given twice (seen[] counts them). */
static int key_index(struct parse *p, const yaml_node_t *key, const char *section, const struct key_def *defs,
		     size_t ndefs, int *seen)
{
	char shown[SHOWN_SIZE];
	const char *name = scalar(p, key, section);

	if (!name)
		return -1;
	for (size_t i = 0; i < ndefs; i++) {
		if (strcmp(defs[i].name, name) != 0)
			continue;
		if (defs[i].use == KEY_REFUSED)
			return fail(p, key, F_(N_("%s: '%s' is not supported by delaytop")), section, defs[i].name);
		if (seen[i]++)
			return fail(p, key, F_(N_("%s: '%s' is given twice")), section, defs[i].name);
		return (int)i;
	}
	return fail(p, key, F_(N_("%s: unknown key '%s'")), section, text_shown(name, shown));
}

/* Walks a mapping's pairs: each key is checked against defs, then take() is called with its
 * index and the value. */
static int each_pair(struct parse *p, const yaml_node_t *map, const char *section, const struct key_def *defs,
		     size_t ndefs, int (*take)(struct parse *p, int key, const yaml_node_t *key_node,
					       const yaml_node_t *value))
{
	int seen[SECTION_KEYS_MAX] = { 0 };

	if (map->type != YAML_MAPPING_NODE)
		return fail(p, map, F_(N_("%s must be a mapping of keys to values")), section);
	for (yaml_node_pair_t *pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top; pair++) {
		const yaml_node_t *k = yaml_document_get_node(p->doc, pair->key);
		const yaml_node_t *v = yaml_document_get_node(p->doc, pair->value);
		int i = key_index(p, k, section, defs, ndefs, seen);

		if (i < 0 || take(p, i, k, v) < 0)
			return -1;
	}
	return 0;
}

/* name joined to the parse's directory unless it is absolute. */
static char *path_in_dir(const struct parse *p, const char *name)
{
	char *path;

	if (!p->dir || name[0] == '/')
		return xstrdup(name);
	path = xmalloc(strlen(p->dir) + strlen(name) + 2);
	sprintf(path, "%s/%s", p->dir, name);
	return path;
}

static int take_tls(struct parse *p, int key, const yaml_node_t *k, const yaml_node_t *v)
{
	const char *s = scalar(p, v, tls_keys[key].name);

	if (!s)
		return -1;
	switch (key) {
	case TLS_CERT_FILE:
	case TLS_KEY_FILE:
		if (!s[0])
			return fail(p, v, F_(N_("tls_server_config: %s is empty")), tls_keys[key].name);
		if (key == TLS_CERT_FILE) {
			p->wc->cert_file = path_in_dir(p, s);
			p->wc->cert_line = k->start_mark.line + 1;
		} else {
			p->wc->key_file = path_in_dir(p, s);
			p->wc->key_line = k->start_mark.line + 1;
		}
		return 0;
	case TLS_CLIENT_AUTH:
		if (s[0] && strcmp(s, "NoClientCert") != 0)
			return fail(p, v, "%s",
				    _("tls_server_config: delaytop does not ask for client certificates: "
				      "client_auth_type may only be NoClientCert"));
		return 0;
	default: return 0; /* harmless */
	}
}

static int take_http(struct parse *p, int key, const yaml_node_t *k, const yaml_node_t *v)
{
	(void)k;
	return scalar(p, v, http_keys[key].name) ? 0 : -1;
}

/* A bcrypt hash as the exporter toolkit takes them: $2a$, $2b$ or $2y$, a cost of 04 to 31, 22
 * characters of salt and 31 of hash in bcrypt's alphabet; and one this libcrypt computes (take_user
 * bounds the cost further). */
static int is_bcrypt(const char *h)
{
	static const char alphabet[] = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	int cost;

	if (strlen(h) != 60 || h[0] != '$' || h[1] != '2' || !strchr("aby", h[2]) || h[3] != '$' || h[6] != '$')
		return 0;
	if (h[4] < '0' || h[4] > '9' || h[5] < '0' || h[5] > '9')
		return 0;
	cost = (h[4] - '0') * 10 + (h[5] - '0');
	if (cost < 4 || cost > 31 || strspn(h + 7, alphabet) != 53)
		return 0;
#ifdef HAVE_CRYPT
	return crypt_checksalt(h) == CRYPT_SALT_OK;
#else
	return 1;
#endif
}

static int take_user(struct parse *p, const yaml_node_t *k, const yaml_node_t *v)
{
	char shown[SHOWN_SIZE];
	const char *name = scalar(p, k, "basic_auth_users"), *hash;
	struct web_config *wc = p->wc;
	int cost;

	if (!name)
		return -1;
	if (!name[0] || strchr(name, ':'))
		return fail(p, k, "%s", _("basic_auth_users: a user name is empty or has a ':' (basic auth ends the name there)"));
	for (size_t i = 0; i < wc->nusers; i++)
		if (strcmp(wc->users[i].name, name) == 0)
			return fail(p, k, F_(N_("basic_auth_users: user '%s' is given twice")), text_shown(name, shown));
	hash = scalar(p, v, name);
	if (!hash)
		return -1;
	if (!is_bcrypt(hash))
		return fail(p, v, F_(N_("basic_auth_users: the hash of user '%s' is not bcrypt "
					"($2y$, $2b$ or $2a$, a cost and 53 characters)")),
			    text_shown(name, shown));
	cost = (hash[4] - '0') * 10 + (hash[5] - '0');
	if (cost > WEBCONFIG_COST_MAX)
		return fail(p, v,
			    F_(N_("basic_auth_users: the hash of user '%s' has cost %d: delaytop takes %d to %d, "
				  "as each step doubles the time a check holds the exporter (cost 10 takes about "
				  "50 ms, cost 31 more than a day); make it again with htpasswd -nBC 10 USER")),
			    text_shown(name, shown), cost, WEBCONFIG_COST_MIN, WEBCONFIG_COST_MAX);
	wc->users = xrealloc(wc->users, (wc->nusers + 1) * sizeof(*wc->users));
	wc->users[wc->nusers].name = xstrdup(name);
	wc->users[wc->nusers].hash = xstrdup(hash);
	wc->nusers++;
	return 0;
}

static int take_users(struct parse *p, const yaml_node_t *section)
{
	if (section->type == YAML_SCALAR_NODE && section->data.scalar.length == 0)
		return fail(p, section, "%s", _("basic_auth_users has no users"));
	if (section->type != YAML_MAPPING_NODE)
		return fail(p, section, F_(N_("%s must be a mapping of keys to values")), "basic_auth_users");
#ifndef HAVE_CRYPT
	return fail(p, section, "%s",
		    _("basic_auth_users needs bcrypt from libcrypt, which this delaytop was built without"));
#endif
	for (yaml_node_pair_t *pair = section->data.mapping.pairs.start; pair < section->data.mapping.pairs.top;
	     pair++)
		if (take_user(p, yaml_document_get_node(p->doc, pair->key),
			      yaml_document_get_node(p->doc, pair->value)) < 0)
			return -1;
	if (!p->wc->nusers)
		return fail(p, section, "%s", _("basic_auth_users has no users"));
	return 0;
}

static int take_top(struct parse *p, int key, const yaml_node_t *k, const yaml_node_t *v)
{
	(void)k;
	switch (key) {
	case TOP_TLS:
		if (each_pair(p, v, top_keys[key].name, KEYS(tls_keys), take_tls) < 0)
			return -1;
		if (!p->wc->cert_file || !p->wc->key_file)
			return fail(p, k, F_(N_("tls_server_config: %s is missing")),
				    p->wc->cert_file ? "key_file" : "cert_file");
		return 0;
	case TOP_HTTP: return each_pair(p, v, top_keys[key].name, KEYS(http_keys), take_http);
	default: return take_users(p, v);
	}
}

/* libyaml's complaint, with its line. */
static int yaml_fail(struct parse *p, const yaml_parser_t *y)
{
	*p->line = y->problem ? y->problem_mark.line + 1 : 0;
	if (y->context)
		snprintf(p->err, p->errlen, F_(N_("not valid YAML: %s %s")), y->problem ? y->problem : "",
			 y->context);
	else
		snprintf(p->err, p->errlen, F_(N_("not valid YAML: %s")), y->problem ? y->problem : _("unknown error"));
	return -1;
}

/* What libyaml makes of the !! of YAML's own tags. */
#define CORE_TAG "tag:yaml.org,2002:"

/* Whether a tag is one delaytop reads its values as: none, the non-specific "!", or one of YAML's
 * core schema (as !!str, !!int, !!map ...). Others (!!binary, !!python/object, !foo) would have a
 * value read as something else than its text, or as the exporters do not. */
static int tag_known(const char *tag)
{
	static const char *const core[] = { "str", "int", "bool", "null", "float", "map", "seq" };

	if (!tag || strcmp(tag, "!") == 0)
		return 1;
	if (strncmp(tag, CORE_TAG, strlen(CORE_TAG)) != 0)
		return 0;
	for (size_t i = 0; i < sizeof(core) / sizeof(core[0]); i++)
		if (strcmp(tag + strlen(CORE_TAG), core[i]) == 0)
			return 1;
	return 0;
}

/* The tag of an event, or NULL. */
static const char *event_tag(const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_SCALAR_EVENT: return (const char *)ev->data.scalar.tag;
	case YAML_SEQUENCE_START_EVENT: return (const char *)ev->data.sequence_start.tag;
	case YAML_MAPPING_START_EVENT: return (const char *)ev->data.mapping_start.tag;
	default: return NULL;
	}
}

/* One event checked: the depth it leaves (*depth), its tag. 0, or -1 after filling the error. */
static int event_check(struct parse *p, const yaml_event_t *ev, int *depth)
{
	char shown[SHOWN_SIZE];
	const char *tag = event_tag(ev);
	unsigned long line = ev->start_mark.line + 1;

	if (ev->type == YAML_SEQUENCE_START_EVENT || ev->type == YAML_MAPPING_START_EVENT) {
		if (++*depth > WEBCONFIG_DEPTH)
			return fail_at(p, line, F_(N_("sequences and mappings nested deeper than %d levels")),
				       WEBCONFIG_DEPTH);
	} else if (ev->type == YAML_SEQUENCE_END_EVENT || ev->type == YAML_MAPPING_END_EVENT) {
		--*depth;
	}
	if (!tag_known(tag)) {
		int core = strncmp(tag, CORE_TAG, strlen(CORE_TAG)) == 0; /* shown as written: !!NAME */

		return fail_at(p, line, F_(N_("the YAML tag '%s%s' is not one delaytop knows")), core ? "!!" : "",
			       text_shown(tag + (core ? strlen(CORE_TAG) : 0), shown));
	}
	return 0;
}

/* The text's events, checked one by one before any document is made of them: the first one
 * nested too deep or with a tag delaytop does not know ends the parse, so that the rest of the
 * text is never read. 0, or -1 after filling the error (libyaml's own too). */
static int events_check(struct parse *p, const char *text, size_t len)
{
	yaml_parser_t y;
	yaml_event_t ev;
	int depth = 0, rc = 0, end = 0;

	if (!yaml_parser_initialize(&y))
		return fail(p, NULL, "%s", strerror(ENOMEM));
	yaml_parser_set_input_string(&y, (const unsigned char *)text, len);
	while (!end && rc == 0) {
		if (!yaml_parser_parse(&y, &ev)) {
			rc = yaml_fail(p, &y);
			break;
		}
		rc = event_check(p, &ev, &depth);
		end = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&y);
	return rc;
}

/* The document's root walked; then that no second document follows. */
static int parse_document(struct parse *p, yaml_parser_t *y)
{
	yaml_node_t *root = yaml_document_get_root_node(p->doc);
	yaml_document_t next;
	int rc = 0;

	if (root && !(root->type == YAML_SCALAR_NODE && root->data.scalar.length == 0) &&
	    each_pair(p, root, _("the file"), KEYS(top_keys), take_top) < 0)
		return -1;
	if (!yaml_parser_load(y, &next))
		return yaml_fail(p, y);
	if (yaml_document_get_root_node(&next))
		rc = fail(p, yaml_document_get_root_node(&next), "%s", _("a second YAML document: the file holds one"));
	yaml_document_delete(&next);
	return rc;
}

int webconfig_parse(const char *text, size_t len, const char *dir, struct web_config *wc, unsigned long *line,
		    char *err, size_t errlen)
{
	yaml_parser_t y;
	yaml_document_t doc;
	struct parse p = { .doc = &doc, .dir = dir, .wc = wc, .line = line, .err = err, .errlen = errlen };
	int rc;

	memset(wc, 0, sizeof(*wc));
	*line = 0;
	err[0] = '\0';
	if (events_check(&p, text, len) < 0)
		return -1;
	if (!yaml_parser_initialize(&y))
		return fail(&p, NULL, "%s", strerror(ENOMEM));
	yaml_parser_set_input_string(&y, (const unsigned char *)text, len);
	if (!yaml_parser_load(&y, &doc)) {
		rc = yaml_fail(&p, &y);
	} else {
		rc = parse_document(&p, &y);
		yaml_document_delete(&doc);
	}
	yaml_parser_delete(&y);
	if (rc < 0)
		webconfig_free(wc);
	return rc;
}

/* What a file that is not a regular file is, for the message. */
static const char *file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return _("a directory");
	if (S_ISFIFO(mode))
		return _("a FIFO");
	if (S_ISSOCK(mode))
		return _("a socket");
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return _("a device");
	return _("something else");
}

/* Reads what an open regular file holds, up to WEBCONFIG_MAX bytes, into text (WEBCONFIG_MAX + 1
 * bytes); its length, or -1 with errno set (EFBIG: longer). */
static ssize_t read_fd(int fd, char *text)
{
	size_t n = 0;

	while (n <= WEBCONFIG_MAX) {
		ssize_t got = read(fd, text + n, WEBCONFIG_MAX + 1 - n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (got == 0)
			return (ssize_t)n;
		n += (size_t)got;
	}
	errno = EFBIG;
	return -1;
}

/* A whole regular file of at most WEBCONFIG_MAX bytes, NUL-terminated, its length in *len; NULL
 * with the reason in why. Opened without waiting (a FIFO or a terminal cannot hold the start) and
 * refused unless a regular file. */
static char *read_whole(const char *path, size_t *len, char *why, size_t whylen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	char *text;
	ssize_t n;

	if (fd < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, whylen, F_(N_("not a regular file but %s")), file_kind(st.st_mode));
		close(fd);
		return NULL;
	}
	text = xmalloc(WEBCONFIG_MAX + 1);
	n = read_fd(fd, text);
	if (n < 0) {
		snprintf(why, whylen, "%s", errno == EFBIG ? _("longer than 1 MiB") : strerror(errno));
		explicit_bzero(text, WEBCONFIG_MAX + 1); /* it may be part of a key */
		free(text);
		close(fd);
		return NULL;
	}
	close(fd);
	text[n] = '\0';
	*len = (size_t)n;
	return text;
}

/* The certificate or key named at line of the file at path, as PEM text; NULL after filling err. */
static char *read_pem(const char *path, unsigned long line, const char *what, const char *name, char *err,
		      size_t errlen)
{
	char why[256];
	size_t len;
	char *pem = read_whole(name, &len, why, sizeof(why));

	if (!pem) {
		snprintf(err, errlen, F_(N_("%s:%lu: %s '%s': %s")), path, line, what, name, why);
		return NULL;
	}
	if (!strstr(pem, "-----BEGIN ") || strlen(pem) != len) {
		snprintf(err, errlen, F_(N_("%s:%lu: %s '%s' is not in PEM format")), path, line, what, name);
		explicit_bzero(pem, len); /* it may be a key all the same */
		free(pem);
		return NULL;
	}
	return pem;
}

int webconfig_load(const char *path, struct web_config *wc, char *err, size_t errlen)
{
	char reason[512], *dir = xstrdup(path), *slash = strrchr(dir, '/'), *text;
	unsigned long line;
	size_t len;
	int rc;

	memset(wc, 0, sizeof(*wc));
	if (slash)
		slash[slash == dir] = '\0'; /* "/web.yml" is in "/" */
	text = read_whole(path, &len, reason, sizeof(reason));
	if (!text) {
		snprintf(err, errlen, "%s: %s", path, reason);
		free(dir);
		return -1;
	}
	rc = webconfig_parse(text, len, slash ? dir : ".", wc, &line, reason, sizeof(reason));
	free(text);
	free(dir);
	if (rc < 0) {
		if (line)
			snprintf(err, errlen, "%s:%lu: %s", path, line, reason);
		else
			snprintf(err, errlen, "%s: %s", path, reason);
		return -1;
	}
	if (wc->cert_file &&
	    (!(wc->cert_pem = read_pem(path, wc->cert_line, "cert_file", wc->cert_file, err, errlen)) ||
	     !(wc->key_pem = read_pem(path, wc->key_line, "key_file", wc->key_file, err, errlen)))) {
		webconfig_free(wc);
		return -1;
	}
	return 0;
}

#else /* built without libyaml */

int webconfig_parse(const char *text, size_t len, const char *dir, struct web_config *wc, unsigned long *line,
		    char *err, size_t errlen)
{
	(void)text;
	(void)len;
	(void)dir;
	memset(wc, 0, sizeof(*wc));
	*line = 0;
	snprintf(err, errlen, "%s", _("--web-config needs libyaml, which this delaytop was built without"));
	return -1;
}

int webconfig_load(const char *path, struct web_config *wc, char *err, size_t errlen)
{
	unsigned long line;

	(void)path;
	return webconfig_parse(NULL, 0, NULL, wc, &line, err, errlen);
}

#endif
