/* webconfig.h — --web-config: the file the Prometheus exporters read for TLS and basic auth (the
 * exporter toolkit's web configuration, YAML through libyaml), checked whole at the start. What
 * delaytop takes of it: tls_server_config's cert_file and key_file (relative to the file's
 * directory), and basic_auth_users (user name: bcrypt hash). Keys the toolkit knows that would
 * change nothing here are taken (client_auth_type: NoClientCert, prefer_server_cipher_suites,
 * http_server_config's http2); the others it knows are refused by name, as is any key it does
 * not know, a bcrypt cost above WEBCONFIG_COST_MAX, a YAML tag other than YAML's own, nesting
 * deeper than 32, and a file (the configuration, certificate or key) that is not a regular file. */
#ifndef DELAYTOP_WEBCONFIG_H
#define DELAYTOP_WEBCONFIG_H

#include <stddef.h>

/* The bcrypt costs taken: 4 (bcrypt's least) to 14 (a second or two a check); a check of cost
 * 31 would hold the exporter for more than a day. */
#define WEBCONFIG_COST_MIN 4
#define WEBCONFIG_COST_MAX 14

struct web_user {
	char *name;
	char *hash; /* bcrypt: $2a$, $2b$ or $2y$, as libcrypt takes it */
};

struct web_config {
	char *cert_file, *key_file; /* resolved against the file's directory; NULL: no TLS */
	char *cert_pem, *key_pem;   /* their text, read by webconfig_load (NUL-terminated) */
	unsigned long cert_line, key_line; /* where the file names them */
	struct web_user *users;     /* basic_auth_users, in the file's order; none: no basic auth */
	size_t nusers;
};

/* Parses a web configuration's text (len bytes) into *wc; relative file names are joined to dir
 * (NULL: left as they are). The files are not read. Returns 0, or -1 with the reason in err and
 * the line it is about (1-based; 0: the file as a whole) in *line; *wc is then empty. */
int webconfig_parse(const char *text, size_t len, const char *dir, struct web_config *wc, unsigned long *line,
		    char *err, size_t errlen);

/* Reads and parses the file at path, then the certificate and the key it names. Returns 0, or -1
 * with "PATH:LINE: reason" (or "PATH: reason") in err; also when this delaytop was built without
 * what the file asks for (libyaml, bcrypt in libcrypt). */
int webconfig_load(const char *path, struct web_config *wc, char *err, size_t errlen);

void webconfig_free(struct web_config *wc);

#endif
